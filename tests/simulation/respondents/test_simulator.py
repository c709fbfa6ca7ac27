"""The offline simulated respondent: reveal, ceiling, explore, aliases, fatigue, determinism.

Behaviours are asserted on the simulator's structured answer (``simulate``: which move, which
rungs were said) and, where the contract is with another part, through that part: the
offline assessor must read a ceiling as *terminal*, the offline extractor must recover the
rungs the simulator says.
"""

from __future__ import annotations

from statistics import mean

import pytest
from sim_helpers import ask, persona

from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.protocol import AssessRequest, ExtractRequest
from interview_cli.simulation.respondents.matching import PersonaLadders
from interview_cli.simulation.respondents.simulator import (
    known_rungs,
    question_kind,
    revealed_rungs,
    simulate,
    simulate_answer,
)

OPENED = [("What matters to you about headphones?", "I really like the noise cancelling.")]


def test_an_open_question_opens_the_first_ladder(mec: Methodology) -> None:
    answer = simulate(ask(persona(), mec, strategy=None, focus=None, history=[]))
    assert answer.kind == "opening"
    assert answer.move == "open_ladder"
    assert answer.said[0] == (0, 0)


def test_probed_on_a_rung_it_reveals_the_next_one(mec: Methodology) -> None:
    answer = simulate(
        ask(persona(), mec, strategy="deepen", focus="noise cancelling", history=OPENED)
    )
    assert answer.kind == "probe"
    assert answer.move == "reveal"
    assert answer.said == ((0, 1),)
    assert "can focus on the train" in answer.text


def test_a_closed_persona_answers_vaguely_and_the_assessor_reads_it_as_open(
    mec: Methodology,
) -> None:
    closed = persona(traits={"openness": 0.0})
    answer = simulate(ask(closed, mec, strategy="deepen", focus="noise cancelling", history=OPENED))
    assert answer.move == "vague" and not answer.said
    assessed = assess_offline(AssessRequest(question="Why?", answer=answer.text))
    assert assessed.knowledge_ceiling == "exploratory"


@pytest.mark.parametrize("seed", range(6))
def test_beyond_the_end_of_a_ladder_it_does_not_know_terminally(
    mec: Methodology, seed: int
) -> None:
    said = [("Why?", "I value self-respect.")]
    answer = simulate(
        ask(persona(), mec, strategy="deepen", focus="self-respect", history=said, seed=seed)
    )
    assert answer.move == "ceiling" and not answer.said
    assessed = assess_offline(AssessRequest(question="Why?", answer=answer.text))
    assert assessed.knowledge_ceiling == "terminal", answer.text


def test_knowledge_caps_how_far_up_a_ladder_it_can_go(mec: Methodology) -> None:
    assert known_rungs(5, 0.5) == 3 and known_rungs(5, 0.9) == 5 and known_rungs(3, 0.0) == 1
    shallow = persona(traits={"knowledge": 0.5})
    history = [
        *OPENED,
        ("Why?", "Because I can focus on the train."),
        ("Why?", "Because I feel in control of my time."),
    ]
    answer = simulate(
        ask(shallow, mec, strategy="deepen", focus="feel in control of my time", history=history)
    )
    assert answer.move == "ceiling"


def test_explore_opens_a_ladder_not_yet_mentioned_then_says_nothing_else(
    mec: Methodology,
) -> None:
    answer = simulate(ask(persona(), mec, strategy="explore", history=OPENED))
    assert answer.move == "open_ladder" and answer.said[0] == (1, 0)
    everything = [*OPENED, ("Anything else?", "I also like the long battery.")]
    done = persona(traits={"openness": 0.0})
    answer = simulate(ask(done, mec, strategy="explore", history=everything))
    assert answer.move == "nothing_new"
    assert (
        assess_offline(AssessRequest(question="Else?", answer=answer.text)).knowledge_ceiling
        == "terminal"
    )


def test_a_focus_said_with_an_alias_is_the_same_rung(mec: Methodology) -> None:
    answer = simulate(
        ask(
            persona(),
            mec,
            strategy="deepen",
            focus="the ANC",
            history=[("What matters?", "I really like the ANC.")],
        )
    )
    assert answer.focus == (0, 0) and answer.said == ((0, 1),)


def test_aliases_come_up_now_and_then(mec: Methodology) -> None:
    # "noise cancelling" has the alias "the ANC": over many openings some use it.
    texts = [simulate_answer(ask(persona(), mec, strategy=None, seed=s)) for s in range(40)]
    with_alias = [t for t in texts if "ANC" in t]
    assert 0 < len(with_alias) < len(texts)
    # whichever name was used, the rung counts as said
    ladders = PersonaLadders(persona(), mec)
    for text in texts:
        request = ask(persona(), mec, strategy="explore", history=[("Q", text)])
        assert (0, 0) in revealed_rungs(ladders, request)


def test_an_unknown_focus_gets_a_terminal_dont_know(mec: Methodology) -> None:
    answer = simulate(
        ask(persona(), mec, strategy="deepen", focus="marketing would love", history=OPENED)
    )
    assert answer.move == "unknown_focus"
    assert (
        assess_offline(AssessRequest(question="Why?", answer=answer.text)).knowledge_ceiling
        == "terminal"
    )


def test_answers_shorten_and_reveal_less_after_patience(mec: Methodology) -> None:
    who = persona(traits={"patience": 3, "verbosity": 0.9, "openness": 0.8})

    def sample(turn: int) -> tuple[float, float]:
        answers = [
            simulate(
                ask(
                    who,
                    mec,
                    strategy="deepen",
                    focus="noise cancelling",
                    history=OPENED,
                    turn=turn,
                    seed=s,
                )
            )
            for s in range(60)
        ]
        return mean(len(a.text.split()) for a in answers), mean(bool(a.said) for a in answers)

    fresh_words, fresh_reveals = sample(2)
    tired_words, tired_reveals = sample(12)
    assert tired_words < fresh_words / 2
    assert tired_reveals < fresh_reveals
    late = [
        simulate(
            ask(
                who,
                mec,
                strategy="deepen",
                focus="noise cancelling",
                history=OPENED,
                turn=12,
                seed=s,
            )
        )
        for s in range(30)
    ]
    assert any(a.move == "tired" for a in late) and all(a.tired_turns == 9 for a in late)


def test_verbosity_lengthens_answers(mec: Methodology) -> None:
    def words(verbosity: float) -> float:
        who = persona(traits={"verbosity": verbosity})
        return mean(
            len(
                simulate_answer(
                    ask(
                        who,
                        mec,
                        strategy="deepen",
                        focus="noise cancelling",
                        history=OPENED,
                        seed=s,
                    )
                ).split()
            )
            for s in range(30)
        )

    assert words(0.1) < words(0.5) < words(0.95)


def test_closing_question_is_answered_as_such(mec: Methodology) -> None:
    answer = simulate(ask(persona(), mec, strategy="reflect", history=OPENED))
    assert answer.kind == "closing" and answer.move == "closing"


def test_without_a_decision_the_question_text_decides(mec: Methodology) -> None:
    who = persona()
    assert question_kind(ask(who, mec, strategy=None)) == "opening"
    request = ask(
        who,
        mec,
        strategy=None,
        history=OPENED,
        question="Before we finish, is there anything else you'd like to add?",
    )
    assert question_kind(request) == "closing"
    assert (
        question_kind(ask(who, mec, strategy=None, focus="noise cancelling", history=OPENED))
        == "probe"
    )
    assert question_kind(ask(who, mec, strategy="clarify", focus="x", history=OPENED)) == "clarify"


def test_same_request_same_answer_and_seeds_vary_it(mec: Methodology) -> None:
    who = persona(traits={"openness": 0.5, "verbosity": 0.6})
    request = ask(who, mec, strategy="deepen", focus="noise cancelling", history=OPENED, seed=7)
    assert simulate(request) == simulate(request)
    texts = {simulate_answer(request.model_copy(update={"seed": s})) for s in range(20)}
    assert len(texts) > 3


def test_a_resumed_conversation_answers_as_an_uninterrupted_one(mec: Methodology) -> None:
    # Everything the simulator knows comes from the request: rebuilding it from a saved
    # transcript gives the same answer.
    history = [*OPENED, ("Why?", "Because I can focus on the train.")]
    first = ask(
        persona(), mec, strategy="deepen", focus="can focus on the train", history=history, seed=3
    )
    again = first.model_copy(deep=True)
    assert simulate_answer(first) == simulate_answer(again)
    assert simulate(first).said == ((0, 2),)


def test_a_persona_without_ladders_has_nothing_to_say(mec: Methodology) -> None:
    empty = persona(ladders={})
    answer = simulate(ask(empty, mec, strategy="explore", history=OPENED))
    assert answer.move == "nothing_new"


@pytest.mark.parametrize("persona_id", ["cooperative", "sceptical", "fixated"])
def test_the_offline_extractor_recovers_what_the_simulator_says(
    lib: Library, mec: Methodology, persona_id: str
) -> None:
    """Phrasing contract: a revealed rung comes back from extraction as a node naming it,
    linked from the rung asked about (the answer to a "why" climbs from the focus)."""
    who = lib.persona(persona_id).value
    ladders = PersonaLadders(who, mec)
    concept = lib.concept("headphones_mec").value
    misses = []
    for li, ladder in enumerate(ladders.ladders):
        for ri in range(len(ladder) - 1):
            focus, target = ladder[ri], ladder[ri + 1]
            history = [("Q", f"I value {r.label}.") for r in ladder[: ri + 1]]
            always = who.model_copy(
                update={
                    "traits": who.traits.model_copy(update={"openness": 1.0, "skepticism": 0.0})
                }
            )
            request = ask(always, mec, strategy="deepen", focus=focus.label, history=history)
            answer = simulate(request)
            assert answer.said and answer.said[0] == (li, ri + 1)
            extraction = extract_offline(
                ExtractRequest(
                    methodology=mec,
                    concept=concept,
                    answer=answer.text,
                    utterance_id="u9",
                    strategy="deepen",
                    focus_label=focus.label,
                    focus_type=focus.type,
                    existing_labels=[focus.label],
                )
            )
            found = [
                n.label
                for n in extraction.nodes
                if (hit := ladders.locate(n.label))
                and hit[0].index == ri + 1
                and hit[0].ladder == li
            ]
            linked = any(e.source == focus.label and e.target in found for e in extraction.edges)
            if not (found and linked):
                misses.append((target.label, answer.text))
    # One known miss: a rung the extractor splits at its own cue word ("not feel like a
    # dinosaur" has "feel like a"); none of these personas has such a rung.
    assert not misses, misses
