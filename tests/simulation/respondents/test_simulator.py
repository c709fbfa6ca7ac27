"""The offline simulated respondent: what it decides (reveal, ceiling, explore, fatigue...) and
how it says it (the person's sayings, in its voice, messy as people are), deterministically.

Behaviours are asserted on the simulator's structured answer (``simulate``: which move, which
rungs were said, misspoken or corrected) and on what the text holds - the person's words, read
back as the simulator itself reads its own answers (``memory``) - rather than on whole strings.
Where the contract is with another part, through that part: the offline assessor must read the
plain voice's ceiling as *terminal* and a vague answer as *exploratory*.
"""

from __future__ import annotations

import re
from statistics import mean

import pytest
from sim_helpers import TOPIC, ask, persona, talker

from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology, Persona
from interview_cli.core.text import normalise
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.protocol import AssessRequest, PersonaRequest
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents.matching import PersonaBeliefs
from interview_cli.simulation.respondents.memory import recall
from interview_cli.simulation.respondents.simulator import (
    MAX_GO_BACKS,
    SimulatedAnswer,
    known_rungs,
    question_kind,
    revealed_rungs,
    simulate,
    simulate_answer,
)
from interview_cli.simulation.respondents.voice import typos, voice_of

OPENED = [("What matters to you about headphones?", "I really like the noise cancelling.")]


def said_in(who: Persona, mec: Methodology, text: str) -> set[tuple[int, int]]:
    """The rungs ``text`` names, as the respondent reads its own words back."""
    return recall(PersonaBeliefs(who, TOPIC.id, mec), [text]).mentioned[0]


def test_an_open_question_opens_the_first_ladder(mec: Methodology) -> None:
    answer = simulate(ask(persona(), mec, strategy=None, focus=None, history=[]))
    assert answer.kind == "opening"
    assert answer.move == "open_ladder"
    assert answer.said[0] == (0, 0)


def test_probed_on_a_rung_it_reveals_the_next_one_in_words_it_knows(mec: Methodology) -> None:
    for seed in range(10):
        answer = simulate(
            ask(
                persona(),
                mec,
                strategy="deepen",
                focus="noise cancelling",
                history=OPENED,
                seed=seed,
            )
        )
        assert answer.kind == "probe" and answer.move == "reveal"
        assert answer.said[0] == (0, 1)
        assert set(answer.said) <= said_in(persona(), mec, answer.text), answer.text


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
    said = [("Why?", "It comes down to self-respect.")]
    answer = simulate(
        ask(persona(), mec, strategy="deepen", focus="self-respect", history=said, seed=seed)
    )
    assert answer.move == "ceiling" and not answer.said
    assessed = assess_offline(AssessRequest(question="Why?", answer=answer.text))
    assert assessed.knowledge_ceiling == "terminal", answer.text


def test_a_voice_says_its_ceiling_in_its_own_words(mec: Methodology) -> None:
    said = [("Why?", "I respect myself.")]
    texts = {
        simulate(
            ask(talker(), mec, strategy="deepen", focus="I respect myself", history=said, seed=s)
        ).text
        for s in range(20)
    }
    assert "That's as deep as I go, love." in texts


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


def test_a_focus_in_the_persons_words_is_the_same_rung(mec: Methodology) -> None:
    history = [("What matters?", "They shut the world out.")]
    answer = simulate(
        ask(talker(), mec, strategy="deepen", focus="shut the world out", history=history)
    )
    assert answer.focus == (0, 0) and answer.said[0] == (0, 1)


def test_a_rung_with_sayings_is_never_said_in_its_codes_words(mec: Methodology) -> None:
    codes = [normalise(r.code) for ladder in talker().beliefs["headphones_mec"] for r in ladder]
    for seed in range(40):
        for focus, history in (
            (None, []),
            ("the ANC", [("Q", "The ANC.")]),
            ("I can think on the way in", [("Q", "The ANC."), ("Q", "I can think on the way in.")]),
        ):
            text = simulate_answer(
                ask(
                    talker(),
                    mec,
                    strategy="deepen" if focus else None,
                    focus=focus,
                    history=history,
                    seed=seed,
                )
            )
            assert not any(f" {code} " in f" {normalise(text)} " for code in codes), text


def test_the_words_vary_across_the_interview(mec: Methodology) -> None:
    # Asked again after saying a rung one way, it says it another way when it has one left.
    who = talker()
    for seed in range(10):
        request = ask(
            who, mec, strategy="clarify", focus="the ANC", history=[("Q", "The ANC.")], seed=seed
        )
        answer = simulate(request)
        assert answer.move == "clarify"
        others = who.beliefs["headphones_mec"][0][0].says[1:]
        assert any(normalise(s) in normalise(answer.text) for s in others), answer.text


def test_an_unknown_focus_gets_asked_back(mec: Methodology) -> None:
    answer = simulate(
        ask(persona(), mec, strategy="deepen", focus="marketing would love", history=OPENED)
    )
    assert answer.move == "unknown_focus" and not answer.said
    assert "what do you mean by 'marketing would love'?" in answer.text.lower()


def test_a_scrap_of_backstory_is_no_meaning_of_its_own(mec: Methodology) -> None:
    # its own words, said in passing: it says so (not "I'm not sure I said that", as dev 8's
    # respondent said of "Rasmus drives the number 3 bus")
    history = [("Q", "I had the old pair for nine years. The ANC.")]
    answer = simulate(
        ask(talker(), mec, strategy="deepen", focus="old pair for nine years", history=history)
    )
    assert answer.move == "by_the_way" and not answer.said
    assert "'" not in answer.text and "not sure i said" not in answer.text.lower()
    # ... words it never said together still puzzle it
    answer = simulate(ask(talker(), mec, strategy="deepen", focus="old nine pair", history=history))
    assert answer.move == "unknown_focus"


def test_a_piece_of_its_own_words_is_no_puzzle(mec: Methodology) -> None:
    # dev 8 (oat milk): "I'm kinda proud of every one that goes out", then asked about "proud
    # of every one", asked back "what do you mean by 'proud of every one'?"; a person knows
    # their own words, cut short or not
    beliefs = {
        "headphones_mec": [
            [
                {"code": "noise cancelling", "says": ["the ANC"]},
                {
                    "code": "proud of my work",
                    "says": ["I'm kinda proud of every one that goes out"],
                },
                "self-respect",
            ]
        ]
    }
    who = persona(beliefs=beliefs)
    history = [("Q", "The ANC. And I'm kinda proud of every one that goes out.")]
    for focus in ("proud of every one", "every one proud"):
        answer = simulate(ask(who, mec, strategy="deepen", focus=focus, history=history))
        assert answer.move != "unknown_focus", (focus, answer.text)
    # ... but a scrap of one word, or words it never said together, still puzzle it
    for focus in ("every one", "proud of the train"):
        answer = simulate(ask(who, mec, strategy="deepen", focus=focus, history=history))
        assert answer.move == "unknown_focus", (focus, answer.text)


def test_one_word_of_its_own_saying_is_no_puzzle(mec: Methodology) -> None:
    # dev 8 (oat milk): "And family, that's what it comes down to", then asked 'Why does
    # "family" matter to you?', asked back "what do you mean by 'family'? I'm not sure I said
    # that"; but "the bank" of "doesn't break the bank" leaves its negation out: a scrap
    beliefs = {
        "headphones_mec": [
            [
                {"code": "cheap", "says": ["doesn't break the bank"]},
                {"code": "togetherness", "says": ["family, that's what it comes down to"]},
            ]
        ]
    }
    who = persona(beliefs=beliefs)
    history = [("Q", "Doesn't break the bank. And family, that's what it comes down to.")]
    answer = simulate(ask(who, mec, strategy="deepen", focus="family", history=history))
    assert answer.move not in ("unknown_focus", "by_the_way"), answer.text
    # ... a scrap of a point, or a word that names nothing, still puzzles it: not "by the way"
    for focus in ("the bank", "break the bank", "what"):
        answer = simulate(ask(who, mec, strategy="deepen", focus=focus, history=history))
        assert answer.move == "unknown_focus", (focus, answer.text)


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
    assert tired_words < fresh_words * 0.75
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
        who = talker(traits={"verbosity": verbosity, "openness": 1.0, "patience": 30})
        return mean(
            len(
                simulate_answer(
                    ask(
                        who,
                        mec,
                        strategy="deepen",
                        focus="the ANC",
                        history=[("Q", "The ANC.")],
                        seed=s,
                    )
                ).split()
            )
            for s in range(60)
        )

    assert words(0.1) < words(0.5) < words(0.95)


def _run(who: Persona, mec: Methodology, seeds: range) -> list[SimulatedAnswer]:
    """Answers to the opening and to a "why" on each rung it has said, over many seeds."""
    answers = []
    for seed in seeds:
        answers.append(simulate(ask(who, mec, strategy=None, seed=seed)))
        history = [("Q", "The ANC.")]
        answers.append(
            simulate(ask(who, mec, strategy="deepen", focus="the ANC", history=history, seed=seed))
        )
        history.append(("Q", "My mornings are mine."))
        answers.append(
            simulate(
                ask(
                    who,
                    mec,
                    strategy="deepen",
                    focus="my mornings are mine",
                    history=history,
                    seed=seed,
                )
            )
        )
    return answers


def test_it_talks_like_people_in_the_proportions_its_verbosity_gives(mec: Methodology) -> None:
    who = talker()
    answers = [a for a in _run(who, mec, range(80)) if a.said]
    voice = voice_of(who)
    touches = [*voice.hedges, *voice.fillers, *voice.address, *voice.backstory, *voice.asides]
    touches += voice.jokes

    def coloured(text: str) -> bool:
        return any(re.search(rf"\b{re.escape(t)}\b", text, re.IGNORECASE) for t in touches)

    plain = sum(not coloured(a.text) for a in answers) / len(answers)
    assert 0.15 < plain < 0.5, plain  # about a third stay plain
    two = sum(len(a.said) == 2 for a in answers) / len(answers)
    assert 0.05 < two < 0.5, two  # some answers carry two reasons
    for item in touches:  # every kind of touch turns up
        assert any(item.lower() in a.text.lower() for a in answers), item
    quiet = talker(traits={"verbosity": 0.1, "openness": 1.0, "patience": 30})
    quiet_answers = [a for a in _run(quiet, mec, range(80)) if a.said]
    assert sum(not coloured(a.text) for a in quiet_answers) / len(quiet_answers) > plain


def test_typing_slips_follow_the_typo_rate_and_it_still_knows_what_it_said(
    mec: Methodology,
) -> None:
    import random

    rng = random.Random(1)
    text = "I get my reading done on the commute."
    slipped = [typos(rng, text, 0.3) for _ in range(30)]
    assert 12 < sum(s != text for s in slipped) < 28  # 1 - 0.7 ** 3 of them
    assert all(typos(rng, text, 0.0) == text for _ in range(5))
    for s in slipped:  # one slip in a phrase: still the respondent's own words
        if sum(a != b for a, b in zip(s.split(), text.split(), strict=False)) == 1:
            assert (0, 1) in said_in(talker(), mec, s), s


def test_a_person_without_a_voice_gets_a_plain_one_from_its_traits(mec: Methodology) -> None:
    plain = voice_of(persona())
    assert plain.hedges and plain.typo_rate > 0
    chatty = voice_of(persona(traits={"verbosity": 0.8}))
    assert chatty.fillers and chatty.asides
    texts = [
        simulate_answer(
            ask(
                persona(traits={"verbosity": 0.8}),
                mec,
                strategy="deepen",
                focus="the ANC",
                history=OPENED,
                seed=s,
            )
        )
        for s in range(40)
    ]
    assert any(h.lower() in t.lower() for t in texts for h in plain.hedges)


def misspeaking(mec: Methodology) -> tuple[PersonaRequest, SimulatedAnswer]:
    """A seed where the second ladder's first rung comes out misspoken."""
    history = [("Q", "The ANC."), ("Q", "I can think on the way in.")]
    for seed in range(40):
        request = ask(talker(), mec, strategy="explore", history=history, seed=seed)
        answer = simulate(request)
        if answer.misspoke:
            return request, answer
    raise AssertionError("never misspoke")


def test_it_misspeaks_now_and_then_and_corrects_itself_later(mec: Methodology) -> None:
    request, answer = misspeaking(mec)
    assert answer.move == "open_ladder" and answer.misspoke == ((1, 0),)
    assert "charges in ten minutes" in answer.text.lower()
    history = [
        *[(e.question, e.answer) for e in request.history],
        ("Q", answer.text),
    ]
    focus = "I can think on the way in"
    later = [
        simulate(ask(talker(), mec, strategy="deepen", focus=focus, history=history, seed=s))
        for s in range(20)
    ]
    corrections = [a for a in later if a.corrected]
    assert 0 < len(corrections) < len(later)  # now and then, not every time
    for fixed in corrections:
        assert fixed.corrected == ((1, 0),)
        assert "meant" in fixed.text and "charges in ten minutes" in fixed.text.lower()
        right = [s for s in talker().beliefs["headphones_mec"][1][0].says]
        assert any(s.lower() in fixed.text.lower() for s in right), fixed.text
        # once corrected, it stays corrected
        after = simulate(
            ask(talker(), mec, strategy="explore", history=[*history, ("Q", fixed.text)])
        )
        assert not after.corrected
    # asked to clarify the very thing it misspoke, it puts it right at once
    clarify = simulate(
        ask(talker(), mec, strategy="clarify", focus="charges in ten minutes", history=history)
    )
    assert clarify.corrected == ((1, 0),)


def test_it_asks_to_go_back_to_an_earlier_point_and_says_more_on_it(mec: Methodology) -> None:
    who = talker(traits={"verbosity": 0.6, "openness": 1.0, "knowledge": 0.4, "patience": 30})
    # ladder 0 said to its first rung, ladder 1 at the edge of what it knows
    history = [("Q", "The ANC."), ("Q", "It lasts all week."), ("Q", "No cable hunting.")]
    answers = [
        simulate(
            ask(who, mec, strategy="deepen", focus="no cable hunting", history=history, seed=s)
        )
        for s in range(60)
    ]
    backs = [a for a in answers if a.move == "go_back"]
    assert 0 < len(backs) < len(answers) / 2  # now and then
    for back in backs:
        assert say.GO_BACK_MARKERS.search(back.text) and back.said == ((0, 1),)
        assert (0, 1) in said_in(who, mec, back.text)
    assert {a.move for a in answers} == {"go_back", "ceiling"}
    # at most MAX_GO_BACKS times an interview
    asked = [("Q", "Can we go back to what I said about the ANC?")] * MAX_GO_BACKS
    capped = [
        simulate(
            ask(
                who,
                mec,
                strategy="deepen",
                focus="no cable hunting",
                history=[*history, *asked],
                seed=s,
            )
        )
        for s in range(30)
    ]
    assert not any(a.move == "go_back" for a in capped)


def test_closing_question_is_answered_as_such(mec: Methodology) -> None:
    answer = simulate(ask(persona(), mec, strategy="reflect", history=OPENED))
    assert answer.kind == "closing" and answer.move == "closing"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ('Let me check I\'ve understood: "x" matters to you. Is that right?', say.CONFIRMED),
        ("Before we finish, is there anything important I missed?", say.NOTHING_MISSED),
    ],
)
def test_a_closing_check_is_confirmed_and_a_closing_what_else_declined(
    mec: Methodology, question: str, reply: str
) -> None:
    # (a check "Is that right?" answered "No, I think that covers it" says the reading was wrong)
    for seed in range(6):
        request = ask(persona(), mec, strategy="reflect", history=OPENED, question=question)
        answer = simulate(request.model_copy(update={"seed": seed}))
        assert answer.text == reply


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
    who = talker(traits={"openness": 0.5, "verbosity": 0.6})
    request = ask(who, mec, strategy="deepen", focus="the ANC", history=[("Q", "The ANC.")], seed=7)
    assert simulate(request) == simulate(request)
    texts = {simulate_answer(request.model_copy(update={"seed": s})) for s in range(20)}
    assert len(texts) > 5


def test_a_resumed_conversation_answers_as_an_uninterrupted_one(mec: Methodology) -> None:
    # Everything the simulator knows comes from the request: a conversation replayed from
    # its saved transcript gives the same answers, turn by turn.
    who = talker(voice={"typo_rate": 0.05, "hedges": ["I mean"], "backstory": ["since 2019"]})
    focuses = [None, "the ANC", None, "it lasts all week", "no cable hunting", None]
    history: list[tuple[str, str]] = []
    for turn, focus in enumerate(focuses, start=1):
        strategy = "deepen" if focus else "explore"
        request = ask(who, mec, strategy=strategy, focus=focus, history=history, seed=3, turn=turn)
        answer = simulate(request)
        assert simulate(request.model_copy(deep=True)) == answer
        history.append(("Q", answer.text))
    assert revealed_rungs(
        PersonaBeliefs(who, TOPIC.id, mec), ask(who, mec, strategy=None, history=history)
    )


def test_a_persona_without_beliefs_about_the_topic_has_nothing_to_say(
    lib: Library, mec: Methodology
) -> None:
    empty = persona(beliefs={})
    assert simulate(ask(empty, mec, strategy="explore", history=OPENED)).move == "nothing_new"
    # beliefs about another topic never leak into this one
    other = persona(beliefs={"oat_milk_mec": persona().beliefs["headphones_mec"]})
    answer = simulate(ask(other, mec, strategy=None))
    assert answer.move == "nothing_new" and "cancel" not in answer.text.lower()
