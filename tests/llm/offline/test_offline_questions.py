"""Offline question wording: every strategy family has several short, plain, single questions;
a strategy is read by its name first (so "situational" is not explore); a focus is said back
only in the respondent's own words, never with the concept's name spliced in; no template is
used twice in a row; the opening asks one thing; the closing restates only clean ladders."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from interview_cli.analysis.report.question_card import (
    double_barrelled,
    method_jargon,
    not_their_words,
    topic_splice,
)
from interview_cli.config.families import legacy_family
from interview_cli.config.schemas import Concept, Methodology, StrategySpec
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.questions import (
    angle_for,
    offline_opening,
    offline_question,
    template_of,
)
from interview_cli.llm.offline.asking.wording import (
    CLOSING_TEMPLATES,
    GUIDE_TEMPLATES,
    LEADS,
    OPENING_TEMPLATES,
    RECAP_TEMPLATES,
    SUMMARY_TEMPLATES,
    WORDINGS,
)
from interview_cli.llm.protocol import Exchange, OpeningRequest, QuestionRequest

ROOT = Path(__file__).resolve().parents[3]
LEADING = re.compile(r"\b(?:don't you|wouldn't you|isn't it|surely|obviously|agree)\b", re.I)
NEW_FAMILIES = ("negative_ladder", "third_person", "situational", "breadth_check")
FOLLOW_UPS = [t for w in WORDINGS.values() for t in (*w.noun, *w.that, *w.thing, *w.plain)]
ALL_WORDINGS = [
    *FOLLOW_UPS,
    *SUMMARY_TEMPLATES,
    *RECAP_TEMPLATES,
    *CLOSING_TEMPLATES,
    *GUIDE_TEMPLATES,
    *(t for ts in OPENING_TEMPLATES.values() for t in ts),
]
TOPIC = "Road cycling"
SAID = [
    "I love the disc brakes, and the light frame, honestly.",
    "Because I can keep up on climbs with my mates.",
    "It makes me feel safe on the descents.",
]
CASES: list[dict[str, Any]] = load_yaml(
    (Path(__file__).parent / "data" / "focus_phrases.yaml").read_text(encoding="utf-8")
)


def _words(template: str) -> int:
    return len(re.sub(r"\{\w+\}", "", template).split())


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return _methodology("means_end_chain")


def _methodology(name: str) -> Methodology:
    data = load_yaml((ROOT / "methodologies" / f"{name}.yaml").read_text("utf-8"))
    return Methodology.model_validate(data)


def strategy(name: str, description: str = "", *, node: bool = True) -> StrategySpec:
    """A strategy of the family its name says (as the shipped ones are named)."""
    return StrategySpec(
        name=name,
        description=description,
        family=legacy_family(name, description),
        node_binding="required" if node else "none",
        focus_mode="recent_node" if node else "topic",
    )


def ask(
    mec: Methodology,
    spec: StrategySpec,
    focus: str | None = None,
    *,
    topic: str = TOPIC,
    turn: int = 3,
    avoid: list[str] | None = None,
    stance: int = 0,
    answers: list[str] | None = None,
    focus_type: str = "attribute",
    asked_back: str = "",
    went_back_to: str = "",
    quotes: list[str] | None = None,
) -> str:
    concept = Concept(id="topic", name=topic, methodology="means_end_chain", objective="x")
    request = QuestionRequest(
        methodology=mec,
        concept=concept,
        strategy=spec,
        focus_label=focus,
        focus_type=focus_type if focus else None,
        turn_number=turn,
        avoid_questions=avoid or [],
        focus_stance=stance,
        answers=SAID if answers is None else answers,
        asked_back=asked_back,
        went_back_to=went_back_to,
        focus_quotes=quotes or [],
    )
    return offline_question(request)


@pytest.mark.parametrize("wording", ALL_WORDINGS)
def test_wordings_are_one_short_plain_question(wording: str) -> None:
    assert _words(wording) <= 20 or wording in SUMMARY_TEMPLATES, wording
    assert not method_jargon(wording), wording
    assert not LEADING.search(wording), wording
    assert wording.count("?") == 1 and wording.endswith("?"), wording
    assert not double_barrelled(wording), wording


def test_only_the_opening_names_the_topic() -> None:
    later = [*FOLLOW_UPS, *SUMMARY_TEMPLATES, *RECAP_TEMPLATES, *CLOSING_TEMPLATES]
    assert not [t for t in [*later, *GUIDE_TEMPLATES] if "{topic}" in t]
    # after a concept test's stimulus, the opening asks about what was just read instead
    named = {f: ts for f, ts in OPENING_TEMPLATES.items() if f != "stimulus"}
    assert all("{topic}" in t for ts in named.values() for t in ts)
    assert all("{topic}" not in t and "concept" in t for t in OPENING_TEMPLATES["stimulus"])


@pytest.mark.parametrize("family", [*NEW_FAMILIES, "deepen", "clarify"])
def test_each_family_has_several_wordings(family: str) -> None:
    words = WORDINGS[family]
    assert max(len(words.noun) + len(words.that), len(words.thing) + len(words.plain)) >= 4


def test_few_deepen_wordings_are_why_does_it_matter() -> None:
    deepen = [*WORDINGS["deepen"].noun, *WORDINGS["deepen"].that]
    matter = [t for t in deepen if re.search(r"\bmatters?\b", t)]
    assert len(matter) <= 2 < len(deepen) - len(matter)


@pytest.mark.parametrize(
    ("name", "signs"),
    [
        ("negative_ladder", r"\b(?:without|didn't|wasn't|gone|miss)\b"),
        ("third_person", r"\b(?:someone|people|friend)\b"),
        ("situational", r"\b(?:last time|recent|when did|where were you)\b"),
    ],
)
def test_redirection_questions_ask_what_their_name_says(
    mec: Methodology, name: str, signs: str
) -> None:
    for turn in range(12):
        text = ask(mec, strategy(name), "disc brakes", turn=turn)
        assert "the disc brakes" in text and re.search(signs, text, re.I), text


def test_redirections_without_a_node_ask_about_the_topic_in_their_words(
    mec: Methodology,
) -> None:
    for name in ("negative_ladder", "third_person", "situational"):
        plain = ask(mec, strategy(name, node=False), topic="Banking apps")
        assert "banking apps" not in plain.lower() and '"' not in plain, plain
        theirs = ask(
            mec, strategy(name, node=False), topic="Banking apps", answers=["My app is slow."]
        )
        assert "your app" in theirs, theirs


def test_breadth_check_is_about_the_topic_and_names_no_node(mec: Methodology) -> None:
    asked = {
        ask(mec, strategy("breadth_check", node=False), topic="Cooking at home", turn=t)
        for t in range(12)
    }
    assert len(asked) >= 4
    for text in asked:
        assert "cooking at home" not in text.lower() and '"' not in text
        assert re.search(r"\belse\b|\bhaven't\b", text), text


@pytest.mark.parametrize("name", ["deepen", *NEW_FAMILIES, "clarify", "explore"])
def test_never_the_same_wording_twice_in_a_row(mec: Methodology, name: str) -> None:
    node = name != "breadth_check" and name != "explore"
    labels = ["disc brakes", "light frame", "feel safe", "keep up on climbs", "my mates"]
    asked: list[str] = []
    for turn in range(1, 16):
        focus = labels[turn % len(labels)] if node else None
        asked.append(ask(mec, strategy(name, node=node), focus, turn=turn, avoid=asked[-6:]))
    templates = [template_of(q) for q in asked]
    assert None not in templates, asked
    assert all(a != b for a, b in zip(templates, templates[1:], strict=False)), asked
    assert len(set(templates)) >= 4


def test_the_wording_of_the_previous_question_is_recognised(mec: Methodology) -> None:
    # A "why" about another node right after "Why does X matter to you?" is worded otherwise,
    # whatever the seed would have picked, and whatever lead said what "that" is.
    for turn in range(10):
        previous = "Why do the disc brakes matter to you?"
        text = ask(mec, strategy("deepen"), "feel safe", turn=turn, avoid=[previous])
        assert template_of(text) != template_of(previous), text
    said = "You said you can keep up on climbs. What does that give you?"
    assert template_of(said) == "What does that give you?"


def test_a_wording_used_earlier_waits_until_the_others_are_used(mec: Methodology) -> None:
    # "Why does that bother you?" at Q5 and again at Q9, other questions between: a script
    answers = ["the grinder is so loud", "the beans by post", "the cart by the station"]
    earlier = [
        "You said you signed up for the beans by post. Why does that bother you?",
        "What is one small thing you'd change if you could?",
        "What else did you consider before that?",
    ]
    for turn in range(1, 9):
        text = ask(
            mec,
            strategy("deepen"),
            "loud grinder",
            turn=turn,
            stance=-1,
            avoid=earlier,
            answers=answers,
        )
        assert template_of(text) not in {
            "Why does that bother you?",
            "Why {does} {np} bother you?",
        }, text


@pytest.mark.parametrize("name", ["deepen", "negative_ladder"])
def test_a_dislike_is_asked_what_it_costs_not_what_it_gives(mec: Methodology, name: str) -> None:
    # "What do you get out of 'blisters from every pair'?" asked a respondent who hates them
    answers = ["I get blisters from every pair I buy."]
    for turn in range(1, 7):
        text = ask(mec, strategy(name), "blisters", turn=turn, stance=-1, answers=answers)
        assert re.search(r"bother|problem|matter", text), text
        assert not re.search(r"get out of|give|miss|help", text), text
    liked = {ask(mec, strategy("deepen"), "disc brakes", turn=turn) for turn in range(1, 7)}
    assert not any("bother" in text or "problem" in text for text in liked)


def test_a_bad_feeling_said_in_a_word_is_asked_what_makes_it(mec: Methodology) -> None:
    # round 190: 'You mentioned "stressful". What is the problem with that for you?' - "stress
    # is stress innit"; a thing judged is no feeling, and a feeling said with its reason is
    # not asked what makes it (from the review)
    said = ["It's stressful, cos I've got forty minutes between getting in and bedtime."]
    for turn in range(1, 7):
        deepen = {"turn": turn, "stance": -1}
        text = ask(mec, strategy("deepen"), "stressful", answers=["stressful tbh"], **deepen)
        assert re.search(r"makes you feel|not to feel", text) and "problem" not in text, text
        text = ask(mec, strategy("deepen"), "overpriced", answers=["Overpriced."], **deepen)
        assert "feel" not in text, text
        text = ask(mec, strategy("deepen"), "stressful", answers=said, quotes=said, **deepen)
        assert "makes you feel" not in text, text


def test_a_problem_is_asked_what_it_costs_only_when_they_said_they_mind_it() -> None:
    # "Why does the one nice moment bother you?" asked of a liked thing typed a pain point
    jtbd = _methodology("jobs_to_be_done")
    spec = jtbd.strategy("dig_motivation")
    assert spec is not None
    answers = ["the one nice moment before chaos", "I signed up for the beans by post", "noise"]

    def asked(focus: str, stance: int) -> set[str]:
        return {
            ask(jtbd, spec, focus, focus_type="pain_point", turn=t, stance=stance, answers=answers)
            for t in range(6)
        }

    for text in asked("one nice moment", 1):
        assert not re.search(r"bother|problem|get in the way|affect|mean for", text), text
    for text in asked("signed up for beans by post", 0):
        assert not re.search(r"bother|problem|get out of|give", text), text
        assert re.search(r"mean for you|affect you|like for you", text), text
    assert any(re.search(r"bother|problem|matter", t) for t in asked("noise", -1))


def test_a_lack_not_called_good_or_bad_is_asked_what_it_means_not_how_it_helps(
    mec: Methodology,
) -> None:
    # dev2 reading set: "You mentioned that you're not young. How does that help you?",
    # "You mentioned that it's never on time. How does that help you?"
    answers = ["It's never on time, there's no shower at the office, and I'm not young any more."]
    for focus in ("never on time", "not young any more", "no shower at the office"):
        for turn in range(1, 7):
            text = ask(mec, strategy("deepen"), focus, turn=turn, answers=answers)
            assert not re.search(r"help|give|get out of|possible|do for you", text), text
            assert re.search(r"mean for you|affect you|like for you", text), text
    # said to be good or bad, the reader's stance still decides
    liked = {ask(mec, strategy("deepen"), "no contract", turn=t, stance=1) for t in range(1, 7)}
    # ... and a need spared is a relief: how it helps is the question
    answers = ["I never have to think about charging."]
    spared = {
        ask(mec, strategy("deepen"), "never have to think about charging", turn=t, answers=answers)
        for t in range(1, 7)
    }
    for text in liked | spared:
        assert not re.search(r"mean for you|affect you|like for you", text), text


def test_an_amount_paid_is_asked_what_it_means_not_how_it_helps(mec: Methodology) -> None:
    # typed as people talk (review of the change): "How does "2.20 a carton" help you?"
    answers = [
        "price I guess, its like 2.20 a carton which adds up, so 40 quid a month",
        "price I guess but Ill pay a bit more if it works",  # round 61: "What does that let..."
    ]
    for focus in ("2.20 a carton", "40 quid a month", "Ill pay a bit more if it works"):
        for turn in range(1, 7):
            text = ask(mec, strategy("deepen"), focus, turn=turn, answers=answers)
            assert not re.search(r"help|give|get out of|possible|do for you", text), text


def test_a_choice_or_a_hope_is_not_asked_of_what_they_hold_against() -> None:
    # "You said you couldnt sleep. What made you go for that rather than something else?"
    jtbd = _methodology("jobs_to_be_done")
    spec = jtbd.strategy("dig_motivation")
    assert spec is not None
    answers = ["the kiosk coffee meant I couldnt sleep"]
    for node_type in ("solution_approach", "job_statement"):
        for t in range(6):
            text = ask(
                jtbd,
                spec,
                "couldnt sleep",
                focus_type=node_type,
                turn=t,
                stance=-1,
                answers=answers,
            )
            assert not re.search(r"go for|hoping|hope|get done|give", text), text


def test_the_scene_of_a_job_is_not_asked_about_as_a_way_of_doing_it() -> None:
    # round 86: "You mentioned the wedding edit. What do you do when that isn't an option?"
    jtbd = _methodology("jobs_to_be_done")
    said = ["yesterday i was halfway through a wedding edit and hit the button on the machine"]
    for name in ("probe_alternatives", "probe_switch"):
        spec = jtbd.strategy(name)
        assert spec is not None
        for t in range(6):
            text = ask(jtbd, spec, "wedding edit", focus_type="job_context", turn=t, answers=said)
            assert not re.search(r"option|instead|before that|old way|new way|change", text), text


def test_what_gets_in_the_way_is_not_asked_of_what_is_in_the_way() -> None:
    # round 67: "You talked about the queue. What gets in the way there?" - "the queue IS the
    # thing in the way haha"
    jtbd = _methodology("jobs_to_be_done")
    spec = jtbd.strategy("uncover_obstacles")
    assert spec is not None
    answers = ["the cafe queue made me late twice"]
    for t in range(6):
        text = ask(
            jtbd,
            spec,
            "cafe queue",
            focus_type="solution_approach",
            turn=t,
            stance=-1,
            answers=answers,
        )
        assert not re.search(r"get in the way (?:there|when)|harder than|go wrong", text), text
    # round 84: "When did the price last go wrong for you?"; a pain point read as one, not
    # said to be minded, is asked what it means
    said = ["the bus was late half the time and the price went up"]
    for t in range(6):
        pain = ask(jtbd, spec, "bus late half the time", focus_type="pain_point", turn=t)
        assert not re.search(r"get in the way|go wrong|harder than", pain), pain
        price = ask(jtbd, spec, "price", focus_type="job_context", turn=t, answers=said)
        assert "go wrong" not in price, price
        assert re.search(r"bother|problem|matter", text), text


def test_a_why_on_a_job_asks_what_that_kind_of_node_is_for() -> None:
    # Jobs-to-be-Done: move across circumstances, choices and pains, not dig one forever
    jtbd = _methodology("jobs_to_be_done")
    spec = jtbd.strategy("dig_motivation")
    assert spec is not None
    answers = ["I make a coffee in the Nespresso before the school run."]
    asked: dict[str, set[str]] = {}
    for node_type in ("job_context", "solution_approach", "pain_point", "job_statement"):
        angle = angle_for(node_type)
        texts = {
            ask(
                jtbd, spec, "coffee in the nespresso", focus_type=node_type, turn=t, answers=answers
            )
            for t in range(6)
        }
        asked[str(angle)] = {template_of(t) or t for t in texts}
    assert set(asked) == {"circumstance", "choice", "dislike", "progress"}
    families = list(asked.values())
    assert all(not (a & b) for i, a in enumerate(families) for b in families[i + 1 :])
    # the rungs of a ladder keep the plain why ("psychosocial" is no "social")
    assert angle_for("psychosocial_consequence") is None and angle_for("attribute") is None


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['label']}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("name", ["deepen", "negative_ladder", "third_person", "clarify"])
def test_a_question_only_quotes_what_the_respondent_said(
    mec: Methodology, case: dict[str, Any], name: str
) -> None:
    for turn in range(4):
        text = ask(mec, strategy(name), case["label"], turn=turn, answers=case["answers"])
        assert not not_their_words(text, case["label"], case["answers"]), text
        assert not topic_splice(text, TOPIC, case["answers"]), text
        assert not double_barrelled(text), text
        if case.get("none"):  # surely no content: asked about the topic instead
            assert case["label"].lower() not in text.lower() and '"' not in text, text


def test_openings_ask_one_question_about_the_topic() -> None:
    for path in sorted((ROOT / "concepts").glob("*.yaml")):
        concept = Concept.model_validate(load_yaml(path.read_text("utf-8")))
        methodology = _methodology(concept.methodology)
        for seed in range(3):
            text = offline_opening(
                OpeningRequest(methodology=methodology, concept=concept, seed=seed)
            )
            assert text.count("?") == 1 and not double_barrelled(text), text
            if concept.shown_stimulus(methodology.shape) is not None:
                assert text in OPENING_TEMPLATES["stimulus"], text  # the first reaction
            else:
                # an incident's topic without "experiences": "a time when customer support
                # went badly", not "when customer support experiences went badly"
                bare = re.sub(r"\s+experiences?$", "", concept.name.lower())
                topic = concept.name.lower() if " and " in bare else bare
                assert topic in text.lower(), text
                assert "with customer support exp" not in text
    assert not any("like" in t and "annoy" in t for ts in OPENING_TEMPLATES.values() for t in ts)


def _closing(mec: Methodology, **update: Any) -> str:
    spec = mec.strategy("reflect")
    assert spec is not None
    concept = Concept(id="t", name=TOPIC, methodology="means_end_chain", objective="x")
    request = QuestionRequest(
        methodology=mec, concept=concept, strategy=spec, turn_number=9, closing=True
    )
    return offline_question(request.model_copy(update=update))


def test_the_closing_restates_only_clean_ladders_in_their_words(mec: Methodology) -> None:
    answers = [
        "The disc brakes, mainly.",
        "Because I feel safe on the descents.",
        "It lasts the whole week, well that's a figure of speech.",
        "Being safe is about my family, really.",
    ]
    chains = [
        ["disc brakes", "feel safe on the descents", "family"],
        ["one that lasts whole week", "figure of speech"],  # junk: never read back
    ]
    text = _closing(mec, summary_chains=chains, answers=answers, summary_labels=["disc brakes"])
    # (the reason they gave, then the top of the ladder: never the two ends alone, round 163)
    assert (
        '"the disc brakes" matters to you because "I feel safe on the descents", which in the '
        'end matters because of "my family"' in text
    ), text
    assert "figure of speech" not in text and "lasts whole week" not in text, text
    assert not double_barrelled(text) and not not_their_words(text, None, answers)


def test_the_check_back_stops_a_ladder_at_its_first_negative_rung(mec: Methodology) -> None:
    # round 21: '"a pair that lasts" leading to "breaking in is when the blisters start"' read
    # back the opposite of what she said: the "not" in between turned it round
    answers = [
        "What I mean is a pair that lasts and is already moulded to my feet.",
        "If they last it means I'm not forever breaking in new ones, and breaking in is when "
        "the blisters start.",
    ]
    chains = [["pair that lasts", "not forever breaking in new ones", "blisters start"]]
    text = _closing(mec, summary_chains=chains, answers=answers, summary_labels=[])
    assert '"a pair that lasts" matters to you because "I\'m not forever breaking in new ones"' in (
        text
    ), text
    assert "blisters" not in text, text


def test_the_check_back_reads_back_the_longest_ladders_in_the_order_said(
    mec: Methodology,
) -> None:
    # Gwen (round 7): "the battery" leading to "saves me pulling a cord" was read back, said
    # first, and the ladder she had gone furthest up was not
    answers = [
        "The battery, it saves me pulling a cord.",
        "The grass box, it is heavy.",
        "The sliding doors mean less stress, so I get home in a good mood.",
        "Then the kids get a nicer dad for the evening.",
        "The price, it is about ninety quid.",
    ]
    chains = [
        ["battery", "saves me pulling a cord"],
        ["grass box", "heavy"],
        ["price", "about ninety quid"],
        ["sliding doors", "less stress", "get home in a good mood", "kids get a nicer dad"],
    ]
    text = _closing(mec, summary_chains=chains, answers=answers)
    assert (
        '"the sliding doors" because of "less stress", which in the end matters because "the '
        'kids get a nicer dad"' in text
    ), text
    assert text.index("battery") < text.index("sliding doors"), text
    assert "ninety quid" not in text, text  # the third two-step waits


def test_with_no_clean_ladder_the_closing_is_a_plain_recap(mec: Methodology) -> None:
    answers = ["The disc brakes, mainly.", "Oh wait, good grief."]
    junk = [["good grief", "oh wait"]]
    recap = _closing(
        mec, summary_chains=junk, summary_labels=["good grief", "disc brakes"], answers=answers
    )
    assert '"the disc brakes"' in recap and "grief" not in recap, recap
    plain = _closing(mec, summary_chains=junk, summary_labels=["good grief"], answers=answers)
    assert plain in CLOSING_TEMPLATES
    assert all(not topic_splice(t, TOPIC, []) for t in (recap, plain))


def test_leads_say_what_that_is_in_one_sentence() -> None:
    for leads in LEADS.values():
        for lead in leads:
            assert lead.endswith(".") and "?" not in lead and _words(lead) <= 4, lead


def test_a_second_question_on_the_same_focus_does_not_repeat_its_lead(mec: Methodology) -> None:
    # "You said you can keep up on climbs. Why ...?" then "You said you can keep up on
    # climbs. What would someone ...?" reads as a machine: the lead changes
    for turn in range(8):
        first = ask(mec, strategy("deepen"), "keep up on climbs", turn=turn)
        second = ask(mec, strategy("third_person"), "keep up on climbs", turn=turn, avoid=[first])
        if ". " in first:
            assert not second.startswith(first.split(". ", 1)[0] + "."), (first, second)


@pytest.mark.parametrize(
    ("last", "opening"),
    [
        ("Sorry, what do you mean by 'run conferences'? I'm not sure I said that.", "Sorry, I"),
        ("wdym by 'noise cancelling bc your flat'?? thats not a thing lol", "Sorry, I"),
        ("I already told you that.", "Sorry, you did say."),
        ("bro thats the third time u asked about battery", "Sorry, I did ask that."),
        ("The battery lasts all week.", None),
        # a reference back is no complaint (round 16: "Sorry, you did say." fitted nothing)
        ("Can we go back to the bus thing I told you about, the near-miss?", None),
        ("Changed the route, like I said, back streets.", None),
        ("I've told you that.", "Sorry, you did say."),
        # (of others, not of the interviewer: round 194)
        ("They ought to keep a note of what you've already told them, a case number.", None),
        ("You've already asked me that. Dry feet means I can keep going all day.", "Sorry, I"),
    ],
)
def test_a_puzzled_or_asked_already_answer_is_owned_before_asking_on(
    mec: Methodology, last: str, opening: str | None
) -> None:
    # Round 14: after "what do you mean by 'his hydration up'?" the tool "neither answered nor
    # acknowledged it"; INTERVIEWING.md: a brief acknowledgement is fine
    from interview_cli.llm.protocol import Exchange

    concept = Concept(id="topic", name=TOPIC, methodology="means_end_chain", objective="x")
    request = QuestionRequest(
        methodology=mec,
        concept=concept,
        strategy=strategy("explore", node=False),
        turn_number=4,
        answers=SAID,
        recent=[Exchange(question="What does that give you?", answer=last)],
    )
    asked = offline_question(request)
    if opening is None:
        assert not asked.startswith("Sorry"), asked
    else:
        assert asked.startswith(opening) and asked.count("?") == 1, asked
        # round 36: owned the same way twice ("Sorry, I put that badly." at Q3 and Q8) reads
        # as a script: the second time another way
        again = offline_question(request.model_copy(update={"avoid_questions": [asked]}))
        first_said = asked.split(". ", 1)[0]
        assert again.startswith("Sorry") and not again.startswith(first_said), (asked, again)


def test_a_wording_asked_after_an_acknowledgement_is_not_asked_again(mec: Methodology) -> None:
    # Round 16: "Sorry, I put that badly. If a friend asked you about the bike, what would you
    # tell them first?" was asked again word for word eight turns later
    jtbd = _methodology("jobs_to_be_done")
    spec = next(s for s in jtbd.strategies if s.name == "revitalize")
    for turn in range(2, 16):
        first = ask(jtbd, spec, turn=turn)
        asked = [f"Sorry, I put that badly. {first}", "What made you go for that?"]
        again = ask(jtbd, spec, turn=turn + 8, avoid=asked)
        assert again != first, (turn, again)


def test_a_focus_the_respondent_asked_for_is_named_as_they_asked(mec: Methodology) -> None:
    # Round 27: "can we go back to the no added sugar thing?" was followed by "What else comes
    # to mind when you think about it?"; the question now says which, in their words
    said = [
        "no added sugar is a big tick too",
        "they dont matter tbh. can we go back to the no added sugar thing? i kinda skipped it",
    ]
    sugar = "the no added sugar thing"
    for turn in range(6):
        question = ask(
            mec,
            strategy("deepen"),
            "no added sugar big tick",
            turn=turn,
            answers=said,
            asked_back=sugar,
        )
        assert "the no added sugar thing" in question, question
        # round 36: and it asks what they wanted to say, presuming nothing ("Back to the
        # packaging thing. What does that do for you?" - "it annoys me")
        assert question.endswith("say about that?"), question
        # whether the focus is what they asked for is core's word, not a guess from the text:
        # a request core did not take, or took to what they went on to say it leads to, is
        # not answered "Back to ..."
        for core in ({}, {"went_back_to": "no added sugar big tick"}):
            other = ask(
                mec, strategy("deepen"), "no added sugar big tick", turn=turn, answers=said, **core
            )
            assert "no added sugar thing" not in other and "say about that?" not in other, other
    packaging = ["Actually can we go back to the packaging thing from the start?"]
    question = ask(
        mec, strategy("deepen"), "packaging", answers=packaging, asked_back="the packaging thing"
    )
    assert "the packaging thing." in question and "from the start" not in question, question


def test_a_request_to_go_back_that_says_what_it_went_back_for_is_followed_up(
    mec: Methodology,
) -> None:
    # Round 49: "Can we go back to the back thing actually? ... its a medium firm one and thats
    # what made the difference" was asked "Back to the back thing. What did you want to say
    # about it?" - "Um I kind of just said it?"
    said = [
        "Can we go back to the back thing actually? I dont think I said properly, its a medium "
        "firm one and thats what made the difference, this one holds me flat."
    ]
    for turn in range(6):
        question = ask(
            mec, strategy("deepen"), "my back", turn=turn, answers=said, asked_back="the back"
        )
        assert "the back thing" in question, question
        assert not question.endswith("say about that?"), question
    # an idiom of annoyance after the request says nothing more: the open question
    goat = ["Can we go back to the chatbot actually, because that was the bit that got my goat."]
    question = ask(mec, strategy("deepen"), "chatbot", answers=goat, asked_back="the chatbot")
    assert question.endswith("say about that?"), question
    # nor does talk about what they said (round 51 asked "Sure, the wrist thing. How does that
    # help you?" of a broken wrist)
    wrist = ["Can we go back to the wrist thing though, I never really said about that."]
    question = ask(mec, strategy("deepen"), "wrist", answers=wrist, asked_back="the wrist thing")
    assert question.endswith("say about that?"), question


def test_the_check_back_reads_each_rung_back_once(mec: Methodology) -> None:
    # Shona (round 28): '"i look for firm" leading to "my independence", "i look for firm"
    # leading to "my hip" and "i look for firm" leading to "i can sit on the side"'
    answers = [
        "i look for firm but not hard, because of my hip, so i can sit on the side.",
        "its my independence really. and the trial, it meant i wasnt scared of wasting money.",
    ]
    chains = [
        ["look for firm", "my independence"],
        ["look for firm", "my hip"],
        ["look for firm", "can sit on the side"],
        ["trial", "wasnt scared of wasting money"],
    ]
    text = _closing(mec, summary_chains=chains, answers=answers)
    assert text.lower().count("i look for firm") == 1, text
    assert "scared of wasting money" in text, text


def test_the_check_back_restates_a_rung_as_the_reason_the_one_below_matters(
    mec: Methodology,
) -> None:
    # round 35: "'I carry the battery down from the flat' leading to 'I dont leave it on the
    # bike overnight'" was "the other way round" to him: he carries it BECAUSE he does not
    # leave it. Asked why a thing matters, the answer is its reason, and is read back as one.
    answers = [
        "I carry the battery down from the flat because I dont leave it on the bike overnight.",
        "Theft, they steal just the battery.",
    ]
    chains = [["carry the battery down from the flat", "dont leave it on the bike overnight"]]
    text = _closing(mec, summary_chains=chains, answers=answers)
    assert " matters to you because " in text and "leading to" not in text, text
    assert text.index("carry the battery") < text.index("leave it on the bike"), text
    # round 36: a rung held against is what bothers them, not what matters to them
    answers = ["I felt guilty about all the plastic.", "I like to think Im not a hypocrite."]
    chains = [["felt guilty", "not a hypocrite"]]
    text = _closing(mec, summary_chains=chains, answers=answers)
    assert '"I felt guilty" bothers you because "Im not' in text, text


def test_a_story_is_recapped_not_read_back_as_reasons(mec: Methodology) -> None:
    # round 35: a critical incident's and a JTBD's links are no reasons: "'I tried lift share
    # with a colleague' leading to 'bus'" was made up (the bus was ruled out first), "'I went
    # in fair worried about it' leading to 'the money going out twice'" backwards
    from interview_cli.config.library import Library

    lib = Library.discover(cwd=ROOT)
    answers = [
        "Before bike I tried lift share with a colleague but he was unreliable.",
        "The bus was too late.",
    ]
    chains = [["tried lift share with a colleague", "bus was too late"]]
    # what was said most is recapped, not a chain's ends: round 68's closing was "We talked
    # about 'I went on their website', 'deep' and ...", the first step of the story and a
    # sarcastic last word
    said_most = ["unreliable", "tried lift share with a colleague"]
    for method in ("jobs_to_be_done", "critical_incident"):
        story = lib.methodology(method).value
        text = _closing(
            mec,
            methodology=story,
            summary_chains=chains,
            summary_labels=said_most,
            answers=answers,
        )
        assert "because of" not in text and "leading to" not in text, text
        assert '"I tried lift share with a colleague"' in text, text
        assert 'unreliable"' in text and "too late" not in text, text


def test_when_every_wording_was_used_the_oldest_question_comes_back_not_the_last() -> None:
    # Round 33: "What other features or qualities do you notice?" asked at Q4 and again,
    # word for word, at Q12; and a sixth "what else" in a CI had two wordings
    from interview_cli.llm.offline.asking.questions import _unused_first
    from interview_cli.llm.offline.asking.wording import WORDINGS

    plain = list(WORDINGS["explore"].plain)
    pairs = [(t, t) for t in plain]
    asked = [*plain[1:], "Why is that important to you?", plain[0]]
    assert _unused_first(pairs, asked) == [pairs[1]]  # the one asked longest ago
    assert _unused_first(pairs, plain[:2]) == pairs[2:]  # wordings not used yet first


def test_the_open_question_after_a_steer_is_read_as_asking_no_reason() -> None:
    # Round 37: "Back to the price thing. What did you want to say about it?" - "Old network
    # was charging me roaming ... Its 20 minutes from my house": read as the rung above the
    # price, and read back as '"price" matters to you because of "its 20 minutes from my house"'
    from interview_cli.llm.offline.reading.extraction import OPEN_QUESTION

    for template in WORDINGS["steer"].that:
        assert OPEN_QUESTION.search(f"Back to the price thing. {template}"), template


def test_a_question_is_known_by_its_most_particular_template() -> None:
    # Round 39: "Could you tell me more about your experience with the car?" was taken for
    # "Could you tell me more about {np}?", so its own wording never counted as used, and it
    # was asked three times
    from interview_cli.llm.offline.asking.wording import _THING_GENERIC

    for template in _THING_GENERIC:
        assert template_of(template.format(thing="the car")) == template
    assert (
        template_of("Could you tell me more about the boot?")
        == "Could you tell me more about {np}?"
    )


def test_the_recap_at_the_close_names_what_was_said_most_and_first_in_their_words(
    mec: Methodology,
) -> None:
    # Round 39: "We covered 'the multi storey thing I mentioned', 'the reversing camera' and
    # 'the parking sensors'" (the last answer's afterthoughts); the first answer had named the
    # Isofix points and the sliding doors, in labels that were no clean phrase of hers
    from interview_cli.core.graph.knowledge import KnowledgeGraph

    answers = [
        "Honestly mostly whether it fits all three kids properly. I notice the three Isofix "
        "points and the sliding doors.",
        "Not much else. The parking sensors and the reversing camera I guess.",
    ]
    graph = KnowledgeGraph()
    for label, turn in [
        ("whether fits all three kids properly", 1),
        ("three isofix points", 1),
        ("sliding doors", 1),
        ("parking sensors", 2),
        ("reversing camera", 2),
    ]:
        graph.add_node(label, "attribute", methodology=mec, turn=turn)
    labels = graph.recap_labels({n.name: n.level for n in mec.ontology.nodes})
    text = _closing(mec, summary_labels=labels, answers=answers)
    assert "whether it fits all three kids properly" in text and "Isofix" in text, text
    assert "parking sensors" not in text, text


def test_a_jobs_recap_says_back_its_pains_and_job_before_its_context() -> None:
    # Round 84: "We talked about "early shift at 7", "check the battery on charger in hallway"
    # and "I carry bike down the steps"" (rated 2: "carrying bike down steps is not why I cycle")
    from interview_cli.core.graph.knowledge import KnowledgeGraph

    jtbd = _methodology("jobs_to_be_done")
    graph = KnowledgeGraph()
    for label, kind, turn in [
        ("early shift at 7", "job_context", 1),
        ("carry bike down the steps", "solution_approach", 1),
        ("bus late half the time", "pain_point", 2),
        ("be on time for my shift", "job_statement", 3),
    ]:
        graph.add_node(label, kind, methodology=jtbd, turn=turn)
    levels = {n.name: n.level for n in jtbd.ontology.nodes}
    first = graph.recap_labels(levels, first=jtbd.recap_first)
    # in the method's order: the job, then its pains
    assert first[:2] == ["be on time for my shift", "bus late half the time"], first
    # without the method's choice, the most concrete first, as a ladder's attributes are
    assert graph.recap_labels(levels)[0] == "early shift at 7"
    # what they asked to go back to leads, even read with doubt (round 119 recapped the car
    # park where the respondent had asked to go back to the heart scare, "the real reason")
    heart = graph.add_node("heart", "solution_approach", methodology=jtbd, turn=4, confidence=0.5)
    pointed = graph.recap_labels(
        levels, least_confidence=0.55, first=jtbd.recap_first, pointed=[heart.id]
    )
    assert pointed[:2] == ["heart", "be on time for my shift"], pointed
    assert "heart" not in graph.recap_labels(levels, least_confidence=0.55)


def test_what_they_took_away_is_asked_once_of_a_story() -> None:
    # round 90: "Do you do anything differently since then?" asked again after another lead
    ci = _methodology("critical_incident")
    spec = ci.strategy("extract_insights")
    assert spec is not None
    said = ["the guy Imran tracked it down and had it couriered to the hotel"]
    asked = [
        "You talked about the chatbot. What did that teach you?",
        "You talked about your cousin. Looking back, what did you take away from that?",
        "You talked about the relatives. Do you do anything differently since then?",
    ]
    for t in range(6):
        text = ask(ci, spec, "guy imran", turn=t, avoid=asked, answers=said, focus_type="action")
        assert not re.search(r"differently|take away|teach", text), text


def test_why_of_a_feeling_asks_what_made_them_feel_it() -> None:
    # Round 49: "You said "relieved mostly". Why do you think that happened the way it did?" -
    # "Sorry, why I was relieved?"
    ci = _methodology("critical_incident")
    spec = next(s for s in ci.strategies if s.name == "probe_attributions")
    said = [
        "Relieved mostly, and a bit weepy if I'm honest, it was the first time anyone listened."
    ]
    for turn in range(6):
        felt = ask(ci, spec, "relieved mostly", turn=turn, answers=said, focus_type="emotion")
        assert "feel" in felt and "happened" not in felt, felt
    done = ask(ci, spec, "refunded it the same day", answers=said, focus_type="outcome")
    assert "feel" not in done, done
    # nor how a feeling felt (round 50: "You mentioned "gutted and proper angry". How did
    # you feel about it afterwards?")
    emotions = next(s for s in ci.strategies if s.name == "explore_emotions")
    angry = ["Gutted and proper angry tbh, watching two kids ride off on a bike I still pay off."]
    felt = ask(ci, emotions, "gutted and proper angry", answers=angry, focus_type="emotion")
    assert felt.endswith(("feel that way?", "feel like that?", "feeling came from?")), felt
    # nor of an event the reader typed as a feeling (round 52: "You said the ombudsman made
    # them apologise. Where do you think that feeling came from?")
    event = ["the ombudsman made them apologise and pay 75 quid"]
    done = ask(ci, spec, "ombudsman made them apologise", answers=event, focus_type="emotion")
    assert "feel" not in done, done


def test_a_manner_clause_is_not_said_back_without_its_verb(mec: Methodology) -> None:
    # Round 55: "What difference does being able to keep the garden the way your late wife
    # make for you?" ("liked it" was cut off, on the most personal point of the interview)
    said = ["It lets me keep the garden the way my late wife liked it, stripes on the lawn."]
    for turn in range(6):
        question = ask(
            mec, strategy("deepen"), "keep garden way my late wife", turn=turn, answers=said
        )
        assert not re.search(r"late wife(?! liked)", question), question


def test_an_offer_to_tell_more_is_taken() -> None:
    # Round 56: "But you know there is a second part that is actually about a bike shop, the
    # good part. Should I tell it?" was answered "What else comes to mind when you think
    # about it?"
    ci = _methodology("critical_incident")
    offer = "Then 9 and then zero. But there is a second part, about a bike shop. Should I tell it?"
    concept = Concept(id="t", name="bike shops", methodology="critical_incident", objective="x")
    for name, focus in (("probe_attributions", "second part"), ("elicit_incident", None)):
        request = QuestionRequest(
            methodology=ci,
            concept=concept,
            strategy=next(s for s in ci.strategies if s.name == name),
            focus_label=focus,
            focus_type="incident" if focus else None,
            turn_number=9,
            answers=[offer],
            recent=[Exchange(question="What happened next?", answer=offer)],
        )
        question = offline_question(request)
        assert question.startswith("Yes, please"), question
    # an offer inside an answer, not at its end, is no offer
    said = "Should I tell it to my boss? I did in the end, and he sorted it."
    request = request.model_copy(
        update={"answers": [said], "recent": [Exchange(question="And then?", answer=said)]}
    )
    assert not offline_question(request).startswith("Yes, please")


def test_the_story_goes_on_when_nothing_of_it_can_be_named() -> None:
    # Round 49: right after the incident was told, "What other thoughts do you have on all
    # this?" (the focus could not be said back)
    ci = _methodology("critical_incident")
    spec = next(s for s in ci.strategies if s.name == "deepen_narrative")
    for turn in range(6):
        question = ask(ci, spec, None, turn=turn, answers=["They charged me twice in October."])
        assert "happen" in question or "end" in question, question


def test_a_verb_is_not_said_back_without_its_particle(mec: Methodology) -> None:
    # Round 53: "Never have to worry about running out which is literally the dream" was asked
    # "Why does never having to worry about running matter to you?" ("I meant running out")
    said = [
        "honestly Im obsessed with TikTok. Never have to worry about running out which is"
        " literally the dream babe"
    ]
    for turn in range(6):
        question = ask(
            mec, strategy("deepen"), "never have to worry about running", turn=turn, answers=said
        )
        assert "running out" in question or "running" not in question, question


def test_when_every_wording_was_asked_the_one_asked_longest_ago_comes_back() -> None:
    # Round 58 asked "What else comes to mind when you think about it?" twice running: the
    # three plain wordings had all been asked, and the first in seeded order was the last one.
    from interview_cli.llm.offline.asking.choosing import pick

    plain = [
        "Is there more you'd like to say about any of that?",
        "What else comes to mind when you think about it?",
        "What other thoughts do you have on all this?",
    ]
    for key in ("a", "b", "c", "d"):
        for oldest in range(3):
            asked = plain[oldest:] + plain[:oldest]  # oldest first
            assert pick(plain, asked, key) == asked[0]


def test_the_closing_reads_no_ladder_back_round_in_a_circle() -> None:
    # Round 75: '"grip" matters to you because of "the boots actually grip on wet rock"' -
    # "Grip because of grip is a bit circular"
    from interview_cli.llm.offline.asking.closing import clean_ladders

    answers = [
        "waterproof is number one now, and grip, because I've gone on my backside",
        "what matters is the boots actually grip on wet rock so it doesnt happen again",
        "the hills are my time with the walking group",
    ]
    short = ["grip", "boots actually grip on wet rock"]
    longer = [*short, "hills are my time with the walking group"]
    assert clean_ladders([short], answers) == []
    assert [tuple(p.verbatim for p in ladder) for ladder in clean_ladders([longer], answers)] == [
        ("grip", "the hills are my time with the walking group")
    ]


def test_what_happened_after_is_asked_of_an_event_not_of_a_thing() -> None:
    # Round 117: "What happened next, after a bank chat bot?"
    ci = _methodology("critical_incident")
    spec = next(s for s in ci.strategies if s.name == "deepen_narrative")
    bot = ["Oddly, a bank chat bot, about a year ago."]
    for turn in range(8):
        text = ask(ci, spec, "bank chat bot", turn=turn, answers=bot, focus_type="situation")
        assert "after a bank chat bot" not in text, text
    # ... and still of a doing, in one turn or another
    rang = ["I ended up calling them back twice."]
    asked = {
        ask(ci, spec, "calling them back", turn=t, answers=rang, focus_type="action")
        for t in range(8)
    }
    assert any("after calling them back" in text for text in asked), asked


def test_a_reason_said_as_a_clause_is_read_back_after_because() -> None:
    # Round 166 read '"everything comes portioned" because of "there's no half a bag of spinach
    # turning"' as the spinach causing the portions: a clause takes "because", a thing
    # "because of"
    from interview_cli.llm.offline.asking.closing import clean_ladders, restated

    answers = [
        "everything comes portioned so there's no spinach turning to slime",
        "the disc brakes, I feel safe on the descents, it's about my family",
    ]
    ladders = clean_ladders(
        [["everything comes portioned", "no spinach turning to slime"]], answers
    )
    assert restated(ladders) == (
        '"everything comes portioned" matters to you because "there\'s no spinach turning to slime"'
    )
    family = clean_ladders([["disc brakes", "family"]], answers)
    assert restated(family) == '"the disc brakes" matters to you because of "my family"'
