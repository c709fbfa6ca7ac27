"""Offline questions about a feeling: what made it is asked once, and not of a feeling said with
its reason, nor of an event told with how it felt (rounds 54 and 114, and a CI interview typed
as people talk); the story goes on instead."""

from __future__ import annotations

from offline_fixtures import shipped_strategy

from tests.llm.offline.test_offline_questions import _methodology, ask


def test_what_made_a_feeling_is_asked_once_and_not_of_one_said_with_its_reason() -> None:
    # Round 54: "What was it about that moment that made you feel the way you did?", "What was
    # it that made you feel like that?" ("um I kind of just said?"), "You said relief that you
    # could actually do your job. Where do you think that feeling came from?"
    ci = _methodology("critical_incident")
    spec = shipped_strategy(ci, "probe_attributions")
    said = ["honestly just relief, like pure relief, I nearly hugged the guy."]
    asked = [
        "You talked about the engineer. "
        "What was it about that moment that made you feel the way you did?"
    ]
    for turn in range(6):
        then = ask(
            ci, spec, "pure relief", turn=turn, answers=said, avoid=asked, focus_type="emotion"
        )
        assert "feel" not in then and then.endswith("?"), then
    said = ["9 days of tethering off my phone, relief that I could actually do my job again"]
    label = "relief that I could actually do my job"
    for turn in range(6):
        then = ask(ci, spec, label, turn=turn, answers=said, focus_type="emotion")
        assert "feel" not in then, then
    # round 114: the reason going on after the feeling in its sentence, or in its quote, asked
    # by the probe of feelings or of attributions
    emotions = shipped_strategy(ci, "explore_emotions")
    told = [
        (
            emotions,
            "fed up",
            "Proper fed up I was, cold and wet and cars splashing past me, and a bit frightend",
            "Proper fed up I was",
        ),
        (
            spec,
            "chuffed",
            "It was the puncture I meant, and I felt dead chuffed about that, like they actually "
            "cared about an old boy like me.",
            "I felt dead chuffed about that, like they actually cared about an old boy like me",
        ),
    ]
    for probe, label, answer, quote in told:
        for turn in range(6):
            then = ask(
                ci, probe, label, turn=turn, answers=[answer], quotes=[quote], focus_type="emotion"
            )
            assert "feel" not in then, then
    # an event told with how it felt is not asked how it felt (a CI interview I typed)
    rang = "i rang them, waited like 50 mins on hold, then he couldnt change it. i was fuming"
    for turn in range(6):
        then = ask(
            ci,
            emotions,
            "rang them",
            turn=turn,
            answers=[rang],
            quotes=["i rang them"],
            focus_type="action",
        )
        assert "feel" not in then, then
    untold = ask(
        ci,
        emotions,
        "rang them",
        answers=["i rang them"],
        quotes=["i rang them"],
        focus_type="action",
    )
    assert "feel" in untold or "felt" in untold, untold
    # ... not a feeling said alone, nor one whose sentence ends after a word or two
    # (nor one said again, or followed by the story going on: from the review)
    for answer in (
        "I was furious.",
        "I was furious, honestly.",
        "I was furious, to be honest, really furious.",
        "I was furious, then I rang my wife and she came and got me.",
    ):
        alone = ask(
            ci, spec, "furious", answers=[answer], quotes=["I was furious"], focus_type="emotion"
        )
        assert "feel" in alone, alone
    # two questions later, another feeling is asked what made it
    later = [
        *asked,
        "Back to the bot thing. What did you want to say about that?",
        "What happened next?",
    ]
    felt = ask(ci, spec, "furious", answers=["I was furious"], avoid=later, focus_type="emotion")
    assert "feel" in felt, felt


def test_how_things_are_is_asked_about_not_walked_through_as_a_story() -> None:
    # A typed CI interview: "You mentioned that big chains are just a sales floor. Could you
    # walk me through that step by step?"
    ci = _methodology("critical_incident")
    spec = ci.strategy("deepen_narrative")
    assert spec is not None
    said = ["I think because he actually cycles himself. Big chains are just a sales floor"]
    for turn in range(3, 9):  # every variant the seed may pick
        question = ask(
            ci, spec, "big chains a sales floor", answers=said, focus_type="situation", turn=turn
        )
        assert "step by step" not in question and "exactly happened" not in question, question
        assert "How did it end" not in question and "happened next" not in question, question
    # what happened is still a story
    event = ["I rang the police but they gave me a crime number"]
    asked = {
        ask(ci, spec, "rang the police", answers=event, focus_type="action", turn=t)
        for t in range(3, 9)
    }
    assert any("happened" in q or "step by step" in q or "end" in q for q in asked), asked


def test_a_clause_led_by_how_is_said_about_not_said_that() -> None:
    # Round 124: "You mentioned that how long they last. And why does that matter to you?"
    mec = _methodology("means_end_chain")
    spec = mec.strategy("deepen")
    assert spec is not None
    said = ["How long they last really. Im not paying 200 quid just for a fancy logo"]
    for turn in range(3, 9):
        question = ask(mec, spec, "how long they last", answers=said, turn=turn)
        assert "that how" not in question and "said how" not in question, question


def test_the_closing_recap_reads_back_no_phrase_cut_on_and() -> None:
    # Round 123: 'We talked about ... and "Id already explained it all twice and"'
    from interview_cli.llm.offline.asking.closing import clean_phrases

    answers = [
        "It made me FURIOUS because Id already explained it all twice and because every new "
        "person asked me to turn the router off",
        "the bins went out same as always",
    ]
    found = clean_phrases(["already explained it all twice", "bins went out"], answers)
    assert all(not p.verbatim.endswith(" and") for p in found), found
    # (the joining word is left off the quote, where every question quotes from)
    assert [p.verbatim for p in found] == ["Id already explained it all twice", "the bins went out"]


def test_a_clause_led_by_after_is_said_back_as_what_happened() -> None:
    # Round 129: "You mentioned that after the third call went nowhere. Could you walk me
    # through that step by step?"; not where the main clause runs on after it, nor of what
    # may not have happened ("You said they could charge you again you cancelled", from the
    # review)
    ci = _methodology("critical_incident")
    spec = shipped_strategy(ci, "deepen_narrative")
    told = [
        (
            "after the third call went nowhere",
            "Anyway after the third call went nowhere I wrote a proper complaint letter",
            ("that after", "said after"),
        ),
        (
            "before they could charge me again I cancelled",
            "Before they could charge me again I cancelled the contract.",
            ("said they could", "that they could"),
        ),
    ]
    for label, answer, wrong in told:
        for turn in range(3, 9):
            question = ask(ci, spec, label, answers=[answer], turn=turn, focus_type="action")
            assert not any(w in question for w in wrong), question


def test_a_sixth_what_else_is_not_the_first_again() -> None:
    # Round 127 heard "Apart from what we've talked about, what else matters to you?" again
    # word for word as the sixth "what else" ("ye asked me that already hen")
    from interview_cli.llm.offline.asking.wording import WORDINGS

    mec = _methodology("means_end_chain")
    spec = mec.strategy("explore")
    assert spec is not None
    asked = list(WORDINGS["explore"].plain[:5])
    for turn in range(10, 16):
        question = ask(mec, spec, None, answers=["the price"], turn=turn, avoid=asked)
        assert question not in asked, question


def test_a_story_whose_end_was_told_is_not_asked_how_it_ended() -> None:
    # round 135 and a typed interview were asked "How did it end?" after "it ended fine"
    ci = _methodology("critical_incident")
    spec = shipped_strategy(ci, "deepen_narrative")
    told = ["well I got the job, so it ended fine haha", "the interviewer was nice about it"]
    untold = ["I had to lock it to a lamppost", "the interviewer was nice about it"]
    asked_then = {
        ask(ci, spec, None, answers=untold, turn=turn, focus_type="action") for turn in range(30)
    }
    assert "How did it end?" in asked_then  # (asked where the end was not told)
    for turn in range(30):
        question = ask(ci, spec, None, answers=told, turn=turn, focus_type="action")
        assert question != "How did it end?", turn
