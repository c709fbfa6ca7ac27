"""Offline questions of a story: what happened next is asked of what happened, never of how
someone is or what they hold to (round 192 asked "What happened next?" of "I pride myself on
everything running smooth": "Nothing happened, it's just how I am")."""

from __future__ import annotations

import re

from offline_fixtures import ROOT

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.questions import offline_question
from interview_cli.llm.protocol import QuestionRequest

CI = Methodology.model_validate(
    load_yaml((ROOT / "methodologies" / "critical_incident.yaml").read_text("utf-8"))
)


def _asked(
    strategy: str,
    focus: str,
    said: str,
    focus_type: str,
    turn: int,
    quote: str = "",
    avoid: list[str] | None = None,
) -> str:
    spec = CI.strategy(strategy)
    assert spec is not None
    concept = Concept(id="t", name="Customer support", methodology=CI.name, objective="x")
    request = QuestionRequest(
        methodology=CI,
        concept=concept,
        strategy=spec,
        focus_label=focus,
        focus_type=focus_type,
        turn_number=turn,
        answers=[said, "ok"],
        focus_quotes=[quote or said],
        avoid_questions=avoid or [],
    )
    return offline_question(request)


def test_how_they_are_is_asked_why_it_matters_not_what_happened_next() -> None:
    rules = [
        ("explore_emotions", "feel somebody's in my corner", "I feel like somebody's in my corner"),
        ("probe_attributions", "pride myself", "I pride myself on everything running smooth"),
        # (round 193: "You said you can't be waiting on an email. What happened next?")
        ("deepen_narrative", "can't be waiting on email", "you can't be waiting on an email"),
    ]
    for strategy, focus, said in rules:
        for turn in range(1, 7):
            text = _asked(strategy, focus, said, "emotion", turn)
            assert "happened" not in text and "did you do" not in text, text
    # what happened is still a story
    events = {
        _asked(
            "deepen_narrative",
            "card machine died",
            "the card machine just died on me",
            "incident",
            t,
        )
        for t in range(1, 7)
    }
    assert any("happen" in text or "step by step" in text for text in events), events


def test_a_feeling_is_not_walked_through_step_by_step() -> None:
    # (an interview I typed: "You mentioned "I was furious". Could you walk me through that
    # step by step?")
    said = "i was furious, i work from home so no internet means no work"
    asked = {_asked("deepen_narrative", "furious", said, "emotion", t) for t in range(1, 7)}
    assert not any("step by step" in q or "exactly happened" in q for q in asked), asked
    bare = {_asked("deepen_narrative", "gutted", "i was gutted", "emotion", t) for t in range(1, 7)}
    assert all("feel" in q for q in bare), bare


def test_what_they_do_in_life_is_no_event_nor_a_cause_to_explain() -> None:
    # round 195: "You said you run a little candle shop online. What happened next?" and "You
    # said you're one person running the whole business. Why do you think that happened the
    # way it did?"
    cases = [
        (
            "deepen_narrative",
            "run a little candle shop online",
            "I run a little candle shop online",
        ),
        (
            "probe_attributions",
            "one person running the whole business",
            "I'm one person running the whole business",
        ),
    ]
    for strategy, focus, said in cases:
        for turn in range(1, 7):
            text = _asked(strategy, focus, said, "situation", turn)
            assert "happen" not in text and "behind that" not in text, text


def test_a_wish_is_no_event_to_explain() -> None:
    # round 194: "You mentioned writing. Who or what do you think was behind that?" of "I'd
    # much rather they sent things in writing"
    said = "I'd much rather they sent things in writing, a proper letter"
    for turn in range(1, 7):
        text = _asked("probe_attributions", "rather sent things in writing", said, "emotion", turn)
        assert "behind that" not in text and "happened" not in text, text


def test_what_is_asked_for_further_on_in_the_asking_is_no_event_to_explain() -> None:
    # round 220: 'You mentioned "one name". Why do you think that happened the way it did?'
    said = (
        "Kindly give me one person who will take my problem start to finish. That is all I am "
        "asking, one name, one number, do the needful and call me back when it's fixed."
    )
    for turn in range(1, 7):
        text = _asked("probe_attributions", "one name", said, "attribution", turn, "one name")
        assert "behind that" not in text and "happened" not in text, text
    # ... an event told after what they needed or wanted is still explained (the review)
    for said, focus in (
        ("I needed cash for the taxi and the card got declined.", "card got declined"),
        ("I wanted a refund but they hung up on me.", "hung up on me"),
    ):
        asked = {_asked("probe_attributions", focus, said, "incident", t) for t in range(7)}
        assert any("behind" in q or "happened" in q for q in asked), asked
    # ... a name got in the story is still explained
    got = "I rang again and this time I got one name, a lady called Sue."
    asked = {_asked("probe_attributions", "got one name", got, "incident", t) for t in range(7)}
    assert any("behind" in q or "happened" in q for q in asked), asked


def test_what_would_happen_is_no_event_to_go_on_with() -> None:
    # round 224: "You said it's how the ambulance would call back. What happened next?" ("that
    # was me saying what *could* happen")
    said = "A school line is how parents reach us, it's how the ambulance would call back."
    quote = "it's how the ambulance would call back"
    for turn in range(1, 7):
        text = _asked(
            "deepen_narrative", "how ambulance would call back", said, "situation", turn, quote
        )
        assert "happened" not in text and "step by step" not in text and "end" not in text, text
    # ... a refusal or a habit told with "would" is still the story (the review)
    for focus, said in (
        ("would not refund me", "I asked twice and he would not refund me."),
        ("would just hang up", "Every time I rang they would just hang up."),
    ):
        asked = {_asked("deepen_narrative", focus, said, "incident", t) for t in range(1, 7)}
        assert any("happen" in q or "step by step" in q or "end" in q for q in asked), asked


def test_a_story_told_in_the_present_is_still_a_story() -> None:
    # from the review: "the guy runs me through the reset", "I'm running for the bus and the
    # strap snaps" were asked why they matter
    stories = [
        ("guy runs me through the reset", "The guy on the phone runs me through the router reset"),
        ("strap snaps", "So I'm running for the bus and the strap snaps"),
    ]
    for focus, said in stories:
        asked = {_asked("deepen_narrative", focus, said, "incident", t) for t in range(1, 7)}
        assert any("happen" in q or "step by step" in q for q in asked), asked


def test_a_feeling_told_after_what_made_it_is_not_asked_what_made_it() -> None:
    # from the review: "the engineer fixed it in ten minutes, I was so relieved" was asked
    # "What made you feel that way?"
    said = "the engineer fixed it in ten minutes, I was so relieved"
    quote = "I was so relieved"
    asked = {_asked("deepen_narrative", "relieved", said, "emotion", t, quote) for t in range(7)}
    assert not any("made you feel" in q or "feeling came from" in q for q in asked), asked


def test_a_request_is_no_event_nor_a_feeling_at_the_time() -> None:
    # round 196: "You mentioned being able to talk to a real human straight away. How did that
    # feel at the time?" of "let me talk to a real human straight away if im abroad"
    said = "let me talk to a real human straight away if im abroad, put a button in the app for it"
    for strategy in ("explore_emotions", "deepen_narrative"):
        for turn in range(1, 7):
            text = _asked(strategy, "talk to real human straight away", said, "emotion", turn)
            assert "at the time" not in text and "happened" not in text, text


def test_a_walk_through_is_asked_once() -> None:
    # round 197: "Could you walk me through that step by step?" four times, of a photo and a name
    asked: list[str] = []
    for turn in range(1, 12):
        focus, said = f"engineer came round {turn}", f"the engineer came round {turn} days later"
        asked.append(_asked("deepen_narrative", focus, said, "incident", turn, avoid=asked))
    assert sum("step by step" in q for q in asked) <= 1, asked


def test_a_feeling_asked_about_after_its_cause_goes_on_with_the_story() -> None:
    # a typed interview on the last build: "a lady called Sue sorted it in ten minutes, I was
    # so relieved" was asked 'You mentioned "relieved". What was it that made you feel like that?'
    said = "eventually I rang and a lady called Sue sorted it in ten minutes, I was so relieved"
    quote = "I was so relieved"
    for turn in range(1, 7):
        text = _asked("explore_emotions", "felt relieved", said, "emotion", turn, quote)
        assert "made you feel" not in text and "feeling came from" not in text, text


def test_a_habit_a_feeling_or_someone_is_no_event_to_go_on_with() -> None:
    # round 231: "You said "I work". What happened next?", "You said you trust them. Tell me
    # more about that: what exactly happened?", "Tell me more about your guy: what exactly
    # happened?", "You talked about "late". Who or what do you think was behind that?"
    cases = [
        ("deepen_narrative", "work", "I just meant it was late at night, that's when I work."),
        ("deepen_narrative", "trust them", "When someone rings back on time you trust them."),
        ("deepen_narrative", "guy", "She knew the case. That's proper service, that guy."),
        ("probe_attributions", "late", "So it was a Tuesday night, late, I picked up a fare."),
    ]
    for strategy, focus, said in cases:
        for turn in range(1, 7):
            text = _asked(strategy, focus, said, "situation", turn)
            assert not re.search(r"happen|step by step|behind|end\?", text), text
    # ... what happened is still asked on, said as a situation or not ("they hung up on me",
    # "the card machine just died")
    for focus, said in (
        ("hung up on me", "I rang twice and they hung up on me."),
        ("card machine died", "Then the card machine just died."),
        # (what did not happen happened too: the review)
        ("didn't ring back", "I waited all day and they didn't ring back."),
        ("won't send anyone", "They won't send anyone out."),
    ):
        asked = {_asked("deepen_narrative", focus, said, "situation", t) for t in range(1, 7)}
        assert any("happen" in q or "step by step" in q or "end" in q for q in asked), asked


def test_what_they_did_after_a_thing_is_not_asked() -> None:
    # round 232: "You mentioned the work. What did you do then?" of "I felt like I was the one
    # doing all the work" (the chasing, not a job)
    said = "With the phone lot I felt like I was the one doing all the work"
    quote = "I felt like I was the one doing all the work"
    for turn in range(1, 7):
        text = _asked(
            "probe_attributions", "felt one doing all the work", said, "emotion", turn, quote
        )
        assert "did you do then" not in text and "How did it end" not in text, text


def test_what_came_until_they_thought_about_it_is_the_story() -> None:
    # the second review: in a ladder "I never thought about mattresses till my back went" is how
    # it was before (round 231); in a story, what came "until" is the incident itself
    from offline_fixtures import extract, shipped_mec

    said = "I never thought about their support until my account got hacked last March."
    assert [n.label for n in extract(CI, "banking", said, None).nodes]
    ladder = "I never thought about mattresses at all till my back went."
    assert not [n.label for n in extract(shipped_mec(), "banking", ladder, None).nodes]
