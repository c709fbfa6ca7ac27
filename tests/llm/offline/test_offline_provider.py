"""The offline provider's tasks beyond extraction: the assessor tells terminal from exploratory
"don't know"; questions name the focus and avoid repeats; slots group paraphrases; the
persona placeholder climbs its ladder; everything is deterministic for a seed. Extraction is
in test_offline.py."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from offline_methods_fixtures import MEC_ANSWER, METHODS, load

from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.errors import LLMError
from interview_cli.llm.offline import MODEL, PROVIDER, OfflineLLM, chunks
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.protocol import (
    AssessRequest,
    Exchange,
    ExtractRequest,
    InterviewLLM,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotRequest,
)

# ---- assessment ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "ceiling"),
    [
        ("I don't know and I don't really care about milk.", "terminal"),
        ("Nothing more, that's it.", "terminal"),
        ("I don't know.", "terminal"),
        ("I don't know about oat milk, but I'm curious about how it's made.", "exploratory"),
        ("Not sure, but maybe it's because it feels lighter?", "exploratory"),
        ("I like the taste because it's creamy.", "none"),
        # a brush-off, then a reason after all: the reason is the answer
        ("Honestly, that's all there is to it. Because not hauling weight uphill.", "none"),
        # ... but what they named, listed again after it, is a summing up (round 99 was asked
        # "what else" twice more)
        (
            "honestly i think thats everything! froth, not splitting in tea, price, my tummy",
            "terminal",
        ),
        (
            "you asked me that a minute ago didnt you. no, dry feet, good grip, thats me lot",
            "terminal",
        ),
        (
            "not really, ive said most of it! oh actually the taste, some brands taste of porridge",
            "none",
        ),
        # ... and an aside after it is no answer (a typed boots interview heard "what else" again)
        ("nah thats about it, grip, dry feet. oh and my dog just stole my sock", "terminal"),
        # ... but a reason closed by one is where the ladder stops
        ("She's comfortable, really. I don't know. Nothing more to it really.", "terminal"),
        # the idiom is no end of anything: "they'd never let me hear the end of it"
        (
            "No cow was milked for it. Don't tell the women at bingo, they'd never let me hear "
            "the end of it.",
            "none",
        ),
        ("Safety, I suppose. That's the end of it.", "terminal"),
        ("Its cheaper. End of.", "terminal"),
        ("I'd never have heard the end of it from my mum.", "none"),
        # the question, not the ladder, stopped them: no ceiling on the node
        ("Not sure what you mean.", "none"),
        ("That's it exactly, it saves me time.", "none"),
        # a pause asked for is a hesitation, not where the ladder stops
        ("Ooh, deep question. Give me a sec.", "exploratory"),
    ],
)
def test_knowledge_ceiling(answer: str, ceiling: str) -> None:
    assert (
        assess_offline(AssessRequest(question="Why?", answer=answer)).knowledge_ceiling == ceiling
    )


def test_rubric_scores_follow_the_answer() -> None:
    short = assess_offline(AssessRequest(question="Why?", answer="Dunno."))
    rich = assess_offline(
        AssessRequest(
            question="Why?",
            answer=(
                "Last Tuesday on the train I had 40 minutes of reports to read, and the noise "
                "cancelling means I can actually focus, which makes me feel in control of my day, "
                "because being productive is how I keep my self-respect."
            ),
        )
    )
    hedged = assess_offline(
        AssessRequest(
            question="Why?", answer="Maybe, I guess it's sort of nice, probably, kind of."
        )
    )
    assert short.response_depth.score <= 2 and short.engagement.score == 1
    assert rich.response_depth.score >= 4 and rich.specificity.score >= 4
    assert rich.intellectual_engagement.score >= 4 and rich.valence.score >= 3
    assert hedged.hedging_language == "high" and hedged.certainty.score <= 2
    assert rich.hedging_language == "none" and rich.certainty.score == 5
    assert "causal" in rich.response_depth.rationale


def test_a_puzzled_question_answered_after_all_is_no_deflection() -> None:
    # round 270: "wdym why does it matter? cos it's rubbish food ..." answered, and was read
    # as disengaged ("Sorry, I put that badly. If a friend asked you ...")
    answered = assess_offline(
        AssessRequest(
            question="Why does that matter to you?",
            answer=(
                "wdym why does it matter? cos it's rubbish food lol. felt sluggish on shift "
                "and the wife was getting fed up"
            ),
        )
    )
    puzzled = assess_offline(AssessRequest(question="Why?", answer="What do you mean? Pass."))
    refused = assess_offline(  # (a refusal is one, however it goes on: review rv62)
        AssessRequest(
            question="Why?",
            answer="I'd rather not. It's personal and I don't think it's relevant to be honest",
        )
    )
    assert answered.engagement.score > 1 and puzzled.engagement.score == 1
    assert refused.engagement.score == 1


# ---- questions -----------------------------------------------------------------------------


# What the respondent said: a question says a focus back only in these words.
SAID = [
    "The noise cancelling, and the fit. It lets me focus on the train.",
    "Because I feel in control of my time, that's freedom for me.",
    "And the battery, I never charge it. The price was fine.",
]


def question(
    methods: dict[str, Methodology],
    concepts: dict[str, Concept],
    method: str,
    strategy: str,
    **kw: Any,
) -> QuestionRequest:
    spec = methods[method].strategy(strategy)
    assert spec is not None
    kw.setdefault("answers", SAID)
    return QuestionRequest(
        methodology=methods[method], concept=concepts[method], strategy=spec, **kw
    )


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_questions_name_the_focus_and_stream(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    tokens: list[str] = []
    request = question(
        methods,
        concepts,
        "means_end_chain",
        "deepen",
        focus_label="noise cancelling",
        focus_type="attribute",
        turn_number=3,
    )
    result = run(OfflineLLM(seed=1).generate_question(request, tokens.append))
    assert "the noise cancelling" in result.value and result.value.endswith("?")
    assert len(tokens) > 1 and "".join(tokens) == result.value
    (call,) = result.calls
    assert (call.provider, call.model, call.cost_usd, call.task) == (
        PROVIDER,
        MODEL,
        0.0,
        "generate_question",
    )
    assert call.output_tokens == len(result.value) // 4 and call.input_tokens > 100


def test_questions_avoid_recent_ones(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    llm = OfflineLLM(seed=3)
    base = question(
        methods,
        concepts,
        "means_end_chain",
        "deepen",
        focus_label="noise cancelling",
        focus_type="attribute",
        turn_number=5,
    )
    first = run(llm.generate_question(base)).value
    again = run(llm.generate_question(base.model_copy(update={"avoid_questions": [first]}))).value
    assert again != first and "the noise cancelling" in again


def test_questions_vary_by_turn_but_not_by_run(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    asked = {
        run(
            OfflineLLM(seed=0).generate_question(
                question(
                    methods,
                    concepts,
                    "means_end_chain",
                    "deepen",
                    focus_label="noise cancelling",
                    focus_type="attribute",
                    turn_number=t,
                )
            )
        ).value
        for t in range(8)
    }
    assert len(asked) >= 3


def test_deep_questions_never_splice_the_topic_name(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    # "When it comes to wireless headphones, what does ... mean for you?": the concept's name
    # is the study's, not the respondent's; a question says "it", their word, or nothing
    for answers, word in ((SAID, None), ([*SAID, "My headphones are old."], "your headphones")):
        texts = {
            run(
                OfflineLLM(seed=s).generate_question(
                    question(
                        methods,
                        concepts,
                        "means_end_chain",
                        strategy,
                        focus_label=label,
                        focus_type="psychosocial_consequence",
                        depth=3,
                        turn_number=6,
                        answers=answers,
                    )
                )
            ).value
            for s in range(6)
            for strategy, label in (("deepen", "feel in control"), ("explore", None))
        }
        assert not any("wireless headphones" in t.lower() for t in texts), texts
        assert word is None or any(word in t for t in texts), texts


@pytest.mark.parametrize(
    ("method", "strategy", "expected"),
    [
        ("means_end_chain", "explore", r"\belse\b|\bother\b"),
        ("means_end_chain", "clarify", r"the fit\b.*\b(?:mean|example|practice|describe)\b"),
        ("jobs_to_be_done", "uncover_obstacles", r"(?:gets? in the way|go wrong|harder).*fit"),
        ("critical_incident", "explore_emotions", r"\bfeel"),
        ("critical_incident", "probe_attributions", r"the fit\b.*\b(?:happened|behind|taken)\b"),
    ],
)
def test_each_strategy_gets_its_own_kind_of_question(
    methods: dict[str, Methodology],
    concepts: dict[str, Concept],
    method: str,
    strategy: str,
    expected: str,
) -> None:
    request = question(
        methods,
        concepts,
        method,
        strategy,
        focus_label="fit",
        focus_type=methods[method].ontology.nodes[0].name,
        turn_number=2,
    )
    text = run(OfflineLLM().generate_question(request)).value
    assert re.search(expected, text), text


def test_closing_questions(methods: dict[str, Methodology], concepts: dict[str, Concept]) -> None:
    reflect = question(
        methods,
        concepts,
        "means_end_chain",
        "reflect",
        summary_labels=["noise cancelling", "feel in control of my time"],
        turn_number=9,
    )
    text = run(OfflineLLM().generate_question(reflect)).value
    assert '"the noise cancelling" and "I feel in control of my time"' in text, text
    # with ladders learned, the closing restates them, from where each starts to where it
    # leads, in the respondent's words; a chain with one clean rung is no ladder to restate
    chains = [
        ["noise cancelling", "focus on the train", "feel in control", "freedom"],
        ["battery", "never charge"],
        ["price"],
    ]
    told = run(
        OfflineLLM().generate_question(reflect.model_copy(update={"summary_chains": chains}))
    )
    assert (
        '"the noise cancelling" matters to you because of "focus on the train", which in the end '
        'matters because "that\'s freedom"; and "the battery" because "I never charge it"'
        in told.value
    )
    plain = question(
        methods,
        concepts,
        "means_end_chain",
        "deepen",
        focus_label="x",
        focus_type="attribute",
        closing=True,
        answers=[],
    )
    closing = run(OfflineLLM().generate_question(plain)).value
    assert "wireless headphones" not in closing and "anything" in closing, closing


def test_openings_follow_the_methodology(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    texts = {
        m: run(
            OfflineLLM().generate_opening(
                OpeningRequest(methodology=methods[m], concept=concepts[m])
            )
        ).value
        for m in METHODS
    }
    assert "wireless headphones" in texts["means_end_chain"]
    assert "morning coffee" in texts["jobs_to_be_done"]
    assert "time" in texts["critical_incident"] or "occasion" in texts["critical_incident"]


def test_chunks_join_back() -> None:
    text = "Why does that matter to you, in your own words?"
    assert "".join(chunks(text)) == text and len(chunks(text)) == 4
    assert chunks("Why?") == ["Why?"]


# ---- slots, persona, protocol, determinism -----------------------------------------------------


def test_slots_group_labels_that_say_the_same_thing() -> None:
    request = SlotRequest(
        node_type="functional_consequence",
        labels=[
            "save time",
            "saving time in the morning",
            "feel calm",
            "no cables",
            "good taste",
            "good microphone",
        ],
    )
    result = run(OfflineLLM().propose_slots(request)).value
    # Names keep the words that name the idea, and a negation (core.canonical.meaning).
    assert [(p.slot_name, p.surface_labels) for p in result.proposals] == [
        ("save_time", ["save time", "saving time in the morning"]),
        ("calm", ["feel calm"]),
        ("not_cables", ["no cables"]),
        # One shared word is not one idea, least of all a light one ("good").
        ("taste", ["good taste"]),
        ("microphone", ["good microphone"]),
    ]
    # An existing slot that means the same is reused; one that shares a word is not.
    existing = request.model_copy(update={"existing_slots": ["time_saving", "good_price"]})
    reused = run(OfflineLLM().propose_slots(existing)).value
    pairs = [(p.slot_name, p.surface_labels) for p in reused.proposals]
    assert ("time_saving", ["save time", "saving time in the morning"]) in pairs
    assert "good_price" not in [name for name, _ in pairs]


def test_the_offline_provider_plays_no_persona(methods: dict[str, Methodology]) -> None:
    # The offline respondent is the simulation package's SimulatedRespondent, reached one way.
    persona = Persona.model_validate(load("personas", "cooperative"))
    request = PersonaRequest(
        persona=persona, question="Why?", methodology=methods["means_end_chain"]
    )
    with pytest.raises(LLMError, match="does not play personas") as info:
        run(OfflineLLM().respond_as_persona(request))
    assert info.value.task == "respond_as_persona"


def test_offline_llm_is_an_interview_llm() -> None:
    llm = OfflineLLM()
    assert isinstance(llm, InterviewLLM) and llm.provider_label == "offline"


def test_same_seed_same_outputs(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    m, c = methods["means_end_chain"], concepts["means_end_chain"]

    async def session(seed: int) -> list[Any]:
        llm = OfflineLLM(seed=seed)
        out: list[Any] = [
            (
                await llm.generate_opening(OpeningRequest(methodology=m, concept=c, seed=7))
            ).model_dump()
        ]
        for turn in range(1, 6):
            q = question(
                methods,
                concepts,
                "means_end_chain",
                "deepen",
                focus_label="noise cancelling",
                focus_type="attribute",
                turn_number=turn,
                seed=7,
                recent=[Exchange(question="q", answer=MEC_ANSWER)],
            )
            out.append((await llm.generate_question(q)).model_dump())
            out.append(
                (
                    await llm.extract(
                        ExtractRequest(
                            methodology=m, concept=c, answer=MEC_ANSWER, utterance_id=f"u{turn}"
                        )
                    )
                ).model_dump()
            )
            out.append(
                (await llm.assess(AssessRequest(question="q", answer=MEC_ANSWER))).model_dump()
            )
        return out

    assert run(session(11)) == run(session(11))
    assert run(session(11)) != run(session(12))


def test_settings_and_calls_name_the_offline_model_alike(
    methods: dict[str, Methodology], concepts: dict[str, Concept]
) -> None:
    from interview_cli.llm.settings import offline_settings

    request = ExtractRequest(
        methodology=methods["means_end_chain"],
        concept=concepts["means_end_chain"],
        answer="I like the sound.",
        utterance_id="u1",
    )
    (call,) = asyncio.run(OfflineLLM().extract(request)).calls
    assert (call.provider, call.model) == ("offline", offline_settings().extraction.model)
