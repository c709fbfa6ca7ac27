"""The pure pieces behind the moderator, the guide, consent and safety: guide coverage, the
moderator's choice in the turn, the offline safety rules, the consent reply, the model's
safety field, and old records loading with the new fields' defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.config.schemas import Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.decide.continuation import Continuation
from interview_cli.core.decide.decision import Decision, SelectedFocus
from interview_cli.core.decide.moderator import ModeratorChoice, next_alternative, take_alternative
from interview_cli.core.decide.scored import ScoredCandidate
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.guide import guide_coverage
from interview_cli.core.models import ANSWER_KINDS, Assessment
from interview_cli.llm.offline.reading.safety import safety_reading
from interview_cli.llm.prompts.output_schemas import assessment_schema
from interview_cli.llm.validation import validate_assessment
from interview_cli.pipeline.consent import consent_reply
from interview_cli.session.schema import DecisionRecord, QuestionRecord

ROOT = Path(__file__).resolve().parents[2]


def _graph(*labels: str) -> KnowledgeGraph:
    text = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    mec = Methodology.model_validate(load_yaml(text))
    graph = KnowledgeGraph()
    for label in labels:
        graph.add_node(label, "attribute", methodology=mec, turn=1)
    return graph


def test_guide_coverage_needs_every_content_word_of_a_topic() -> None:
    topics = ["battery life", "price", "noise cancelling"]
    covered = guide_coverage(topics, _graph("long battery life", "cheap plastic"))
    assert covered.covered == ("battery life",)
    assert covered.remaining == ("price", "noise cancelling")
    assert covered.ratio == pytest.approx(1 / 3, abs=1e-4)
    assert guide_coverage(topics, None).ratio == 0.0
    assert guide_coverage([], None).ratio == 1.0


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("I can't cope with any of this", "distress"),
        ("Ich kann nicht mehr", "distress"),
        # round 217: what they would hate to feel is no distress felt; a fear of it is
        (
            "It's about not being stranded, I hate feeling like I can't cope with her on my own",
            "none",
        ),
        ("I'm scared I can't cope", "distress"),
        ("I hate feeling like I want to die", "distress"),
        ("I hate that I can't cope anymore", "distress"),
        # round 279: what someone else expects of them, told calmly, is no distress of theirs;
        # agreed with, it is
        (
            "My son worries, he half expects me to ring him to say I can't cope. I don't want "
            "to be a burden to him",
            "none",
        ),
        ("my son thinks I can't cope and he's right, I can't", "distress"),
        # (review rv64: someone else's view first hides nothing said after it)
        ("He thinks I'm being dramatic but some days I want to die", "distress"),
        ("my partner thinks I'm fine, I'm not, I can't cope", "distress"),
        ("my mum worries I'll hurt myself again", "distress"),
        ("They expect me to just carry on like normal, I can't go on like this", "distress"),
        ("shut up, you idiot", "abuse"),
        ("oh just shut up with the questions", "abuse"),
        # round 100: abuse told of someone else, or said to them, is no abuse of the interviewer
        ("I was trying to get him to shut up about it. Worked out though", "none"),
        ("I told him to fuck off and went to the other shop", "none"),
        ("she never shuts up about her bike", "none"),
        # round 220: an idiom of closing a place
        ("My old NHS place in Port Talbot shut up shop and I cracked a back tooth", "none"),
        ("We shut up the caravan for the winter.", "none"),
        ("Oh shut up, the shop is fine.", "abuse"),
        # (review) ... but said to the interviewer, whatever comes before it
        ("I want you to fuck off with these questions.", "abuse"),
        ("I'm telling you to shut up with these questions.", "abuse"),
        ("Can you not shut up for one second", "abuse"),
        ("Can we change the subject?", "off_topic"),
        ("I hate cheap plastic, it feels awful", "none"),
        ("The price killed it for me", "none"),
        # the respondent ends the interview: obeyed, whatever the question was
        ("No. I want to stop the interview now.", "stop"),
        ("Stop. I'm not doing this any more. Goodbye.", "stop"),
        ("Can we stop please, I think we're done.", "stop"),
        ("I want to stop.", "stop"),
        # ... not a wish inside an answer, nor leaving one question
        ("I want to stop worrying about charging.", "none"),
        ("Can we stop talking about the price?", "none"),
        ("I don't want to continue paying for a gym I never use, so the app tracks it.", "none"),
        ("I've had enough of this rain, so the waterproof matters.", "none"),
        ("J'arrête de fumer grâce à ça.", "none"),
        ("No quiero seguir pagando tanto por el móvil.", "none"),
        ("I want to stop", "stop"),  # typed without a full stop
        # (the review: a bare "stop", "end this", "no more questions" are stops; a bus stop not)
        ("stop", "stop"),
        ("Please stop.", "stop"),
        ("Let's end this.", "stop"),
        ("No more questions please.", "stop"),
        ("The bus didn't stop.", "none"),
        ("I dont want to continue", "stop"),
        ("I hate feeling like I can't cope on a hill with a toddler", "none"),
        ("Je veux arrêter.", "stop"),
        ("I've had enough of this, sorry.", "stop"),
        # round 54: asked to finish three times, the interview went on
        ("I said I think that is all, can we finish please", "stop"),
        ("Peace. Family ok, money ok, I can sleep. Now really finish ok", "stop"),
        ("Nothing. I said three times now, that is all. Bye", "none"),
        ("lets wrap up", "stop"),
        ("Can we wrap it up now?", "stop"),
        # ... not finishing something else
        ("I want to finish the story first", "none"),
        ("can we finish the bit about the bot", "none"),
        ("I really finish work late, so it runs overnight", "none"),
        ("I want to finish my degree", "none"),
        # round 55: "Honestly I think thats me done now" (asked another why)
        ("Ive kind of said that already? Honestly I think thats me done now.", "stop"),
        ("im done now with the old one, this is better", "none"),
        # ... not a statement that holds the words (review of rounds 54-55)
        ("The book is so long I never really finish.", "none"),
        ("It does not really finish, ok, it kind of stops half way", "none"),
        ("I never really finish now that I work nights.", "none"),
        ("When I start a jigsaw I want to finish.", "none"),
        ("I cancelled the gym. I'm done now.", "none"),
        ("The cleaners come at eight and we're done here by nine.", "none"),
        ("Once the kids are in bed thats me done now till morning", "none"),
        # round 219: left unheard
        ("leave me alone", "stop"),
        ("Just leave me alone please.", "stop"),
        ("I'm done, no more questions.", "stop"),
        ("sorry can we wrap up, I have to pick up my son", "stop"),
        ("could we stop, im knackered", "stop"),
        # ... not a story's
        ("They never leave me alone at work.", "none"),
        ("I'm done with the old bike", "none"),
        ("I'm done now, thanks.", "none"),  # leaves the question (move_on)
        ("ok im done thanks bye", "stop"),
        ("so I paid and I'm done.", "none"),
        ("Once I'm done I go home.", "none"),
        # round 221: asked twice more after the first
        (
            "To the police: thank you. Ok I think I'm done now, no more questions please, I've "
            "got to get back to a drawing.",
            "stop",
        ),
        ("No. Sorry, I did say I'm done. That's it from me.", "stop"),
        ("I said I'm done with that bank.", "none"),
        # (the review of this stop: a stop asked in the story, a break asked for, what they
        # want of a company are none; the plain ways of saying it are stops)
        (
            "My boots gave me blisters so I kept asking my husband can we stop, my heels bled.",
            "none",
        ),
        ("The kids always ask can we stop, they're bored, on long drives.", "none"),
        ("Could we stop, I need the loo, back in 2 mins.", "none"),
        ("Leave me alone! That's all I want from my bank, no marketing emails.", "none"),
        ("Please leave me alone now.", "stop"),
        ("Leave me alone, I'm done.", "stop"),
        ("I'm done, no more questions please.", "stop"),
        ("I am done, no more questions.", "stop"),
        ("I'm done - no more questions from me.", "stop"),
        # round 225: a sign-off between
        (
            "We live there now. Look I think I'm done, thats about it really, no more questions",
            "stop",
        ),
        ("can we finish up, I need to get the kids", "stop"),
        ("I told him I'm done.", "none"),
    ],
)
def test_offline_safety_rules(answer: str, kind: str) -> None:
    assert safety_reading(answer) == kind


def test_offline_safety_rules_by_language() -> None:
    assert safety_reading("ich kann nicht mehr", "de") == "distress"
    assert safety_reading("shut up", "de") == "abuse"  # English rules stand beside German
    assert safety_reading("ich kann nicht mehr", "fr") == "none"


@pytest.mark.parametrize(
    ("reply", "agreed"),
    [
        ("yes", True),
        ("Yes.", True),
        ("I agree", True),
        ("no", False),
        ("Nein", False),
        # as people type them (round 256 was told "Please answer yes or no." to both)
        ("yeah go on", True),
        ("yeah", True),
        ("Yep, sure!", True),
        ("ok go ahead", True),
        ("nah", False),
        ("no thank you", False),
        # (the review's: clear ones, each asked again before)
        ("go on then", True),
        ("Yes, I'm happy to", True),
        ("alright", True),
        ("sure, why not", True),
        ("fine by me", True),
        ("no sorry", False),
        ("i dont agree", False),
        ("I don't consent", False),
        ("no i don't want to", False),
        # round 282 (and a yes for all its "no")
        ("yeah sure go for it", True),
        ("no worries", True),
        ("fire away", True),
        ("ready when you are", True),
        ("nah not really", False),
    ],
)
def test_consent_replies(reply: str, agreed: bool) -> None:
    assert consent_reply(reply) is agreed


@pytest.mark.parametrize(
    "reply",
    [
        "maybe later",
        "yeah no",
        "yes but not the recording",
        "what is it for?",
        "not sure",
        "ok?",
        "no go for it",
        "are you sure",
        "are you ready",
    ],
)
def test_an_unclear_consent_reply_is_neither(reply: str) -> None:
    assert consent_reply(reply) is None


def test_models_are_asked_for_a_safety_reading_but_never_for_declined() -> None:
    props = assessment_schema()["properties"]
    assert props["safety"]["enum"] == ["none", "distress", "abuse", "off_topic", "stop"]
    assert "declined" not in props["answer_kind"]["enum"] and "declined" not in ANSWER_KINDS
    full = {n: {"score": 3, "rationale": ""} for n in ("response_depth", "specificity")}
    assert validate_assessment({**full, "safety": "off-topic"}).safety == "off_topic"
    assert validate_assessment({**full, "safety": "withdraw"}).safety == "stop"
    # a model that sends no reading leaves the answer unchecked: safety fails closed
    assert validate_assessment(full).safety == "unchecked"


def test_old_records_load_with_the_new_defaults() -> None:
    assessment = Assessment.neutral().model_dump()
    del assessment["safety"]
    assert Assessment.model_validate(assessment).safety == "none"
    assert QuestionRecord(text="q").asked_by == "tool"
    assert DecisionRecord(strategy="deepen").decided_by == "tool"


def test_a_moderator_choice_round_trips_and_rejects_unknown_actions() -> None:
    choice = ModeratorChoice("alt", strategy="deepen", node_id="n1")
    assert ModeratorChoice.from_dict(choice.to_dict()) == choice
    with pytest.raises(ValueError):
        ModeratorChoice.from_dict({"action": "veto"})


def _candidate(strategy: str, node: str, rank: int, vetoed: str | None = None) -> ScoredCandidate:
    return ScoredCandidate(
        strategy=strategy,
        node_id=node,
        node_label=node,
        signal_contributions=(),
        base_score=1.0,
        phase_multiplier=1.0,
        phase_bonus=0.0,
        final_score=1.0 - rank / 10,
        rank=rank,
        selected=rank == 1,
        vetoed_by=vetoed,
    )


def test_next_alternative_walks_down_the_admissible_ranking() -> None:
    candidates = (
        _candidate("a", "x", 1),
        _candidate("b", "y", 2),
        _candidate("c", "z", 0, "node_exhausted"),
        _candidate("d", "w", 3),
    )
    decision = Decision(
        phase="early",
        selection_mode="joint",
        selected=SelectedFocus("a", "x", "x"),
        candidates=candidates,
        global_signals={},
        node_signals={},
        continuation=Continuation(should_continue=True, reason=None, turns_remaining=5),
        rationale=(),
    )
    first = next_alternative(decision)
    assert first is not None and (first.strategy, first.node_id) == ("b", "y")
    second = next_alternative(decision, ("b", "y"))
    assert second is not None and (second.strategy, second.node_id) == ("d", "w")
    assert next_alternative(decision, ("d", "w")) is None
    taken = take_alternative(decision, ModeratorChoice("alt", strategy="d", node_id="w"))
    assert taken.selected == SelectedFocus("d", "w", "w")
    assert taken.candidates == decision.candidates  # the tool's ranking is kept as it was


def test_the_guide_is_in_the_question_and_opening_briefs() -> None:
    from interview_cli.config.schemas import Concept
    from interview_cli.llm.prompts.generation import render_opening, render_question
    from interview_cli.llm.protocol import OpeningRequest, QuestionRequest

    text = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    mec = Methodology.model_validate(load_yaml(text))
    concept = Concept(
        id="g",
        name="Wireless headphones",
        methodology="means_end_chain",
        objective="why",
        guide={"must_cover": ["price"], "avoid": ["politics"], "tone": "warm"},
    )
    request = QuestionRequest(
        methodology=mec,
        concept=concept,
        strategy=mec.strategies[0],
        guide_remaining=["price"],
        guide_avoid=["politics"],
        guide_tone="warm",
    )
    brief = render_question(request).user
    assert "Tone: warm" in brief and "- price" in brief and "- politics" in brief
    closing = render_question(request.model_copy(update={"closing": True})).user
    assert "- price" not in closing and "- politics" in closing
    opening = render_opening(OpeningRequest(methodology=mec, concept=concept)).user
    assert "Tone: warm" in opening and "- politics" in opening and "- price" not in opening
