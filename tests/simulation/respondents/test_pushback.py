"""The simulated respondent pushes back: re-asks, complaints, irritation, redirections."""

from __future__ import annotations

import re

import pytest
from sim_helpers import TOPIC, persona

from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology, Persona
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.protocol import Exchange, ExtractRequest, PersonaRequest
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents import pushback
from interview_cli.simulation.respondents.simulator import question_kind, simulate

OPEN = ("What matters to you about headphones?", "I really like the noise cancelling.", None, None)
WHY_NC = ("Why does the noise cancelling matter?", None, "deepen", "noise cancelling")
COMPLAINTS = set(say.COMPLAIN_MILD + say.COMPLAIN_SHARP)
# The only words a complaint may carry: none an extractor could take for a rung.
COMPLAINT_WORDS = set(
    "i i'd i've like said as before that's all have on that it really think already told "
    "you we covered can move".split()
)


def request(
    who: Persona,
    mec: Methodology,
    history: list[tuple[str, str | None, str | None, str | None]],
    *,
    strategy: str | None,
    focus: str | None,
    seed: int = 0,
) -> PersonaRequest:
    exchanges = [
        Exchange(
            question=q,
            answer=a or "I'm not sure, I'd have to think about it.",
            strategy=s,
            focus_label=f,
        )
        for q, a, s, f in history
    ]
    return PersonaRequest(
        persona=who,
        question="Why is that important to you?",
        history=exchanges,
        concept=TOPIC,
        methodology=mec,
        strategy=strategy,
        focus_label=focus,
        turn_number=len(exchanges) + 1,
        seed=seed,
    )


def test_the_same_focus_and_strategy_with_nothing_new_between_gets_a_complaint(
    mec: Methodology,
) -> None:
    who = persona(traits={"openness": 0.0})
    history = [OPEN, WHY_NC]  # the why got "I'm not sure": nothing new since
    answer = simulate(request(who, mec, history, strategy="deepen", focus="noise cancelling"))
    assert answer.move == "complain" and answer.said == ()
    assert answer.text in COMPLAINTS
    assert set(re.findall(r"[a-z']+", answer.text.lower())) <= COMPLAINT_WORDS


def test_something_new_between_or_another_strategy_is_no_reask(mec: Methodology) -> None:
    who = persona(traits={"openness": 0.0})
    opened_more = ("Anything else?", "I also like the long battery.", "explore", None)
    history = [OPEN, WHY_NC, opened_more]
    again = simulate(request(who, mec, history, strategy="deepen", focus="noise cancelling"))
    assert again.move == "vague"
    other = simulate(request(who, mec, [OPEN, WHY_NC], strategy="clarify", focus="the ANC"))
    assert other.move != "complain"


def test_asked_for_a_rung_it_already_said_it_says_so_and_adds_nothing(
    mec: Methodology,
) -> None:
    who = persona()
    said = ("Why?", "Because I can focus on the train.", "deepen", "noise cancelling")
    # another strategy on the same rung: not a re-ask by (focus, strategy), but the rung it
    # asks for was said - today's "Because X, again." is gone
    answer = simulate(request(who, mec, [OPEN, said], strategy="laddering", focus="the ANC"))
    assert answer.move == "complain" and answer.said == ()
    assert "train" not in answer.text and "again" not in answer.text.lower()


def test_a_redirection_on_a_rung_already_answered_is_a_complaint_too(mec: Methodology) -> None:
    said = ("Why?", "Because I can focus on the train.", "deepen", "noise cancelling")
    answer = simulate(
        request(persona(), mec, [OPEN, said], strategy="third_person", focus="noise cancelling")
    )
    assert answer.move == "complain"


def complaint_texts(tolerance: float, mec: Methodology) -> list[str]:
    who = persona(traits={"openness": 0.0, "repetition_tolerance": tolerance})
    history = [OPEN, WHY_NC]
    return [
        simulate(
            request(who, mec, history, strategy="deepen", focus="noise cancelling", seed=s)
        ).text
        for s in range(40)
    ]


def test_tolerance_sets_how_sharp_the_complaint_is(mec: Methodology) -> None:
    patient = complaint_texts(1.0, mec)
    irritated = complaint_texts(0.0, mec)
    assert set(patient) <= set(say.COMPLAIN_MILD)
    assert set(irritated) <= set(say.COMPLAIN_SHARP)


def test_each_complaint_tires_an_intolerant_persona_sooner(mec: Methodology) -> None:
    complained = ("Why?", "I already told you that.", "deepen", "noise cancelling")
    history = [OPEN, WHY_NC, complained, complained]
    for tolerance, tired in ((0.0, 6), (0.7, 1), (1.0, 0)):
        who = persona(traits={"repetition_tolerance": tolerance})
        answer = simulate(request(who, mec, history, strategy="explore", focus=None))
        assert answer.tired_turns == tired == pushback.irritation_turns(2, tolerance)
    # a third re-ask from a persona that complained twice is sharp, whatever its tolerance
    who = persona(traits={"repetition_tolerance": 1.0, "openness": 0.0})
    answer = simulate(request(who, mec, history, strategy="deepen", focus="noise cancelling"))
    assert answer.text in say.COMPLAIN_SHARP


def test_the_default_tolerance_keeps_existing_personas_patient(lib: Library) -> None:
    assert lib.persona("cooperative").value.traits.repetition_tolerance == 0.7
    assert pushback.irritation_turns(1, 0.7) == 0


@pytest.mark.parametrize("strategy", sorted(pushback.REDIRECTIONS))
def test_redirections_are_probes_of_their_own_and_breadth_check_is_open(
    mec: Methodology, strategy: str
) -> None:
    who = persona()
    assert question_kind(request(who, mec, [OPEN], strategy=strategy, focus="x")) == "redirect"
    breadth = request(who, mec, [OPEN], strategy="breadth_check", focus=None)
    assert question_kind(breadth) == "open"
    assert simulate(breadth).move == "open_ladder"


def reveal_rate(mec: Methodology, who: Persona, history: list, strategy: str, focus: str) -> float:
    moves = [
        simulate(request(who, mec, history, strategy=strategy, focus=focus, seed=s)).move
        for s in range(200)
    ]
    return sum(m in ("reveal", "redirect") for m in moves) / len(moves)


def test_a_redirection_gets_past_a_stuck_why_more_often_than_the_why(mec: Methodology) -> None:
    who = persona(traits={"openness": 0.3})
    plain = reveal_rate(mec, who, [OPEN], "deepen", "noise cancelling")
    stuck = [OPEN, WHY_NC]
    redirected = reveal_rate(mec, who, stuck, "negative_ladder", "noise cancelling")
    unstuck = reveal_rate(mec, who, [OPEN], "negative_ladder", "noise cancelling")
    assert 0.2 < plain < 0.4 and 0.2 < unstuck < 0.4  # unprompted, a redirection is a why
    assert 0.55 < redirected < 0.75  # 1 - 0.7 * 0.5


def test_a_redirection_reaches_one_rung_past_knowledge_never_past_the_end(
    mec: Methodology,
) -> None:
    who = persona(traits={"knowledge": 0.6, "openness": 1.0})  # says 3 of 5 rungs unprompted
    rungs = ["noise cancelling", "can focus on the train", "feel in control of my time"]
    said = [
        ("Why?", f"Because I {r}." if i else f"I really like the {r}.", None, None)
        for i, r in enumerate(rungs)
    ]
    top = "feel in control of my time"
    why_top = ("Why?", "I don't know, that's all there is to it.", "deepen", top)
    assert simulate(request(who, mec, said, strategy="deepen", focus=top)).move == "ceiling"
    unstuck = simulate(request(who, mec, said, strategy="third_person", focus=top))
    assert unstuck.move == "ceiling"  # no plain why failed there yet
    moves = {
        simulate(request(who, mec, [*said, why_top], strategy="third_person", focus=top, seed=s))
        for s in range(30)
    }
    assert {m.move for m in moves} == {"redirect", "vague"}
    assert {m.said for m in moves if m.move == "redirect"} == {((0, 3),)}
    # one rung past knowledge at most: the next rung up stays a don't-know
    beyond = [*said, ("Why?", "It's about being productive.", None, None)]
    why_beyond = ("Why?", "I don't know.", "deepen", "being productive")
    answer = simulate(
        request(who, mec, [*beyond, why_beyond], strategy="situational", focus="being productive")
    )
    assert answer.move == "ceiling"
    # the ladder's end is a firm don't-know for any question
    end = persona(traits={"openness": 1.0})
    at_end = [OPEN, ("Why?", "I value self-respect.", None, None)]
    last = ("Why?", "I don't know.", "deepen", "self-respect")
    answer = simulate(
        request(end, mec, [*at_end, last], strategy="negative_ladder", focus="self-respect")
    )
    assert answer.move == "ceiling"


@pytest.mark.parametrize("strategy", sorted(say.REDIRECT_LEAD))
def test_the_extractor_reads_a_redirected_rung_and_nothing_of_the_lead_in(
    lib: Library, mec: Methodology, strategy: str
) -> None:
    concept = lib.concept("headphones_mec").value
    for lead in say.REDIRECT_LEAD[strategy]:
        text = f"{lead} Because I can focus on the train."
        extraction = extract_offline(
            ExtractRequest(
                methodology=mec,
                concept=concept,
                answer=text,
                utterance_id="u3",
                strategy=strategy,
                focus_label="noise cancelling",
                focus_type="attribute",
                existing_labels=["noise cancelling"],
            )
        )
        assert [n.label for n in extraction.nodes] == ["can focus on the train"], text


def test_pushback_is_a_pure_function_of_the_request(mec: Methodology) -> None:
    who = persona(traits={"openness": 0.5})
    first = request(who, mec, [OPEN, WHY_NC], strategy="situational", focus="noise cancelling")
    assert simulate(first) == simulate(first.model_copy(deep=True))


def test_the_llm_respondent_is_told_when_repetition_irritates_it(mec: Methodology) -> None:
    from interview_cli.llm.prompts.generation import render_persona

    line = "Asked something you already answered, you say so"
    irritable = persona(traits={"repetition_tolerance": 0.1})
    assert line in render_persona(request(irritable, mec, [], strategy=None, focus=None)).system
    assert line not in render_persona(request(persona(), mec, [], strategy=None, focus=None)).system


def test_frames_keep_a_capital_i_and_names_and_lower_ordinary_words() -> None:
    import random

    rng = random.Random(0)
    assert say.lower_lead("Because X.") == "because X."
    assert say.lower_lead("I mean the rack.") == "I mean the rack."
    assert say.lower_lead("Chloe picks the meals") == "Chloe picks the meals"
    for _ in range(20):
        text = say.frame(rng, say.TWO_REASONS, x="it's all in the bag", y="Chloe picks")
        assert "Chloe picks" in text and "all in the bag" in text
        assert say.sentences(text)[0].isupper()
    assert say.sentences("it's fine. ha, no.") == "It's fine. Ha, no."
    assert say.clause("choose how hard I work") == "I choose how hard I work"
    assert say.mention("noise cancelling", concrete=True) == "the noise cancelling"
