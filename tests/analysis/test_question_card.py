"""The question report card: each count on its own text, then on a real interview whose
questions are changed to fall short in one way each, and where users see it (sessions show,
report in every format)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interview_cli.analysis.report.question_card import (
    CHECKS,
    QuestionCard,
    combine,
    cut_off,
    double_barrelled,
    method_jargon,
    not_their_words,
    question_card,
    topic_splice,
    vague,
)
from interview_cli.analysis.sources import read_session
from interview_cli.cli.app import app
from interview_cli.core.models import RejectedItem
from interview_cli.session.schema import DeltaRecord, QuestionRecord, SessionFile

SAID = ["The noise cancelling, because it lets me focus on the train.", "I value freedom."]


def test_a_quote_must_be_the_respondents_words() -> None:
    assert not not_their_words('Why does "noise cancelling" matter to you?', None, SAID)
    # case, apostrophes and punctuation aside
    assert not not_their_words('You said "It lets me FOCUS on the train".', None, SAID)
    assert not_their_words('What does "focus on train" do for you?', None, SAID)
    # a focus label written in without quotes counts too, when they never said it
    assert not_their_words("Why does focus train matter?", "focus train", SAID)
    assert not not_their_words("You talked about the train. Why?", "focus train", SAID)


def test_their_words_said_back_where_they_stop_mid_phrase_are_cut_off() -> None:
    # round 19: the card counted these clean, the tester marked them mangled
    said = ["But what I notice is whether they remember how I like it, to be fair."]
    label = "notice is whether they remember how"
    assert cut_off("You mentioned that you notice is whether they remember how. Why?", label, said)
    assert cut_off('You said "why the bank handled".', None, ["why the bank handled it so well"])
    # a phrase that ends where its clause does, or before a preposition, is whole
    assert not cut_off('You said "it lets me focus".', None, SAID)
    assert not cut_off("You said you can relax. Why?", "can relax", ["I can relax on the train."])
    assert not cut_off("What does that give you?", label, said)  # not said back
    # a quote that goes on past where the label stops says it whole; a hedge after it ends it
    said = ["nobody wants it. keeps me fit i guess."]
    assert not cut_off('You mentioned "nobody wants it". Why?', "nobody wants", said)
    assert not cut_off('You said "keeps me fit". Why?', "keeps me fit", said)


def test_the_concept_name_is_a_splice_unless_the_respondent_said_it() -> None:
    question = "What else matters to you about your lawnmower?"
    assert topic_splice(question, "Your lawnmower", ["The mower is old."])
    assert not topic_splice(question, "Your lawnmower", ["My lawnmower is old."])
    assert topic_splice("With e-bikes for commuting, why?", "E-bikes for commuting", [])
    assert not topic_splice("What else matters to you?", "Your lawnmower", [])


@pytest.mark.parametrize(
    ("text", "double"),
    [
        ("What comes to mind first? What do you like, and what annoys you?", True),
        ("What do you like, and what annoys you?", True),
        ("Did I get that right, and is there anything we haven't covered?", True),
        ("Where were you, and how did it begin?", True),
        ("Who or what do you think was behind that?", False),
        ("Think of a time that went really well or really badly. What happened?", False),
        ("Some people care about that, some don't. Why might someone care?", False),
        # a repertory grid's triad is one task (rounds 283 to 287 flagged every one)
        ("Of taxi, car and bus, which two are similar, and how is the other one different?", False),
        (
            "Here are train, walking and e-scooter. Which two go together in some way that "
            "matters to you, and what sets the third apart?",
            False,
        ),
    ],
)
def test_two_questions_in_one(text: str, double: bool) -> None:
    assert double_barrelled(text) is double


@pytest.mark.parametrize(
    ("text", "focus", "is_vague"),
    [
        # round 68: a generic "what else" for a focus it could not name
        ("What else comes to mind when you think about the bike?", "other worry whether", True),
        ("What else comes to mind when you think about it?", "heavy im stuck", True),
        ("Is there more you'd like to say about any of that?", "now when I eat am", True),
        ("What other thoughts do you have on all this?", "found out", True),
        ("Is there more you'd like to say about it?", "found out", True),
        ("Sorry, I put that badly. What else comes to mind?", "found out", True),
        # the focus named, or pointed at with "that" or "there"
        ("You talked about the battery. What does that get in the way of?", "battery", False),
        ("Why is that important to you?", "feel safe on the descents", False),
        ("What were you trying to get done there?", "unreliable 75", False),
        ("What happened next?", "ENT one for my son", False),
        ("You said you worry about theft. What made you hesitate?", "theft", False),
    ],
)
def test_a_question_that_names_nothing_of_its_focus_is_vague(
    text: str, focus: str, is_vague: bool
) -> None:
    q = QuestionRecord(text=text, focus_node_id="n1", focus_label=focus, strategy="deepen")
    assert vague(q) is is_vague
    # a question with no focus (a breadth check, a fresh start) is no vague one
    assert not vague(q.model_copy(update={"focus_node_id": None, "focus_label": None}))
    assert not vague(q.model_copy(update={"kind": "closing"}))


def test_method_jargon_outside_the_respondents_words() -> None:
    assert method_jargon("Which attribute matters most?")
    assert method_jargon("What value does that lead to?")
    assert not method_jargon('You said "good value". Why is that important to you?')
    assert not method_jargon("What does value for money mean to you?", ["It's good value."])


def _changed(session: SessionFile, number: int, **update: object) -> SessionFile:
    turns = list(session.turns)
    index = number - 1
    question = turns[index].question.model_copy(update=update)
    turns[index] = turns[index].model_copy(update={"question": question})
    return session.model_copy(update={"turns": turns})


@pytest.fixture
def scripted(produced: dict[str, Path]) -> SessionFile:
    return read_session(produced["mec-scripted"])


def test_a_recorded_interview_gets_a_card_of_all_its_questions(scripted: SessionFile) -> None:
    card = question_card(scripted)
    # every turn's question, and the one asked when the answers ran out (it is paused)
    assert scripted.status == "paused" and scripted.pending_question is not None
    assert card.questions == len(scripted.turns) + 1
    assert card.clean + len(card.flagged) == card.questions
    assert card.per_100("clean") == round(100 * card.clean / card.questions, 1)


def test_each_shortfall_is_counted_on_its_question(scripted: SessionFile) -> None:
    base = question_card(scripted)
    mangled = _changed(scripted, 3, text='What does "focus on train do" give you?')
    spliced = _changed(scripted, 3, text="With wireless headphones, why does that matter?")
    double = _changed(scripted, 3, text="What do you like, and what annoys you?")
    jargon = _changed(scripted, 3, text="Which attribute leads to that consequence?")
    for session, check in (
        (mangled, "not_their_words"),
        (spliced, "topic_splice"),
        (double, "double_barrelled"),
        (jargon, "jargon"),
    ):
        card = question_card(session)
        assert card.counts[check] == base.counts[check] + 1, check
        assert any(f.label == "Q3" and check in f.checks for f in card.flagged), check


def test_the_same_move_on_the_same_focus_with_nothing_new_is_a_repeat(
    scripted: SessionFile,
) -> None:
    q2 = scripted.turns[1].question
    assert q2.focus_node_id and q2.strategy
    same = {"focus_node_id": q2.focus_node_id, "focus_label": q2.focus_label}
    again = _changed(scripted, 3, strategy=q2.strategy, **same)
    # the answer to Q2 added nothing, then Q3 asks the same thing of the same focus
    turns = list(again.turns)
    turns[1] = turns[1].model_copy(update={"graph_delta": DeltaRecord()})
    nothing_new = again.model_copy(update={"turns": turns})
    assert (
        question_card(nothing_new).counts["repeat"] == question_card(scripted).counts["repeat"] + 1
    )
    # ... but not when the answer between brought something new, or with another technique
    assert question_card(again).counts["repeat"] == question_card(scripted).counts["repeat"]
    other = _changed(nothing_new, 3, strategy="negative_ladder")
    assert question_card(other).counts["repeat"] == question_card(scripted).counts["repeat"]


def test_the_same_focus_in_substance_or_after_a_push_back_is_a_repeat(
    scripted: SessionFile,
) -> None:
    q2 = scripted.turns[1].question
    assert q2.focus_node_id and q2.strategy and q2.focus_label
    base = question_card(scripted).counts["repeat"]
    turns = list(scripted.turns)
    turns[1] = turns[1].model_copy(update={"graph_delta": DeltaRecord()})
    nothing_new = scripted.model_copy(update={"turns": turns})
    # another node of the same words, asked the same way with nothing new between: the
    # same focus in substance ("battery" and "battery lasts")
    paraphrase = {"focus_node_id": "n-other", "focus_label": f"{q2.focus_label} really"}
    again = _changed(nothing_new, 3, strategy=q2.strategy, **paraphrase)
    assert question_card(again).counts["repeat"] == base + 1
    unlike = _changed(
        nothing_new,
        3,
        strategy=q2.strategy,
        focus_node_id="n-other",
        focus_label="something else entirely",
    )
    assert question_card(unlike).counts["repeat"] == base
    # the same node in another technique, straight after an answer that pushed back on it
    # ("the pay again?" read as taking it back): round 92's third question on the pay
    pushed = list(scripted.turns)
    extraction = pushed[1].extraction
    assert extraction is not None
    taken = extraction.model_copy(update={"retracted": [q2.focus_label]})
    pushed[1] = pushed[1].model_copy(update={"extraction": taken})
    session = scripted.model_copy(update={"turns": pushed})
    same = {"focus_node_id": q2.focus_node_id, "focus_label": q2.focus_label}
    asked = _changed(session, 3, strategy="negative_ladder", **same)
    assert question_card(asked).counts["repeat"] == base + 1
    assert (
        question_card(_changed(scripted, 3, strategy="negative_ladder", **same)).counts["repeat"]
        == base
    )


def test_a_question_asked_before_word_for_word_is_a_repeat(scripted: SessionFile) -> None:
    # Round 16: "If a friend asked you about the bike, what would you tell them first?" at Q6
    # (after "Sorry, I put that badly.") and again at Q14, both counted clean
    before = question_card(scripted).counts["repeat"]
    asked = scripted.turns[1].question.text
    said = _changed(scripted, 2, text=f"Sorry, I put that badly. {asked}", focus_node_id=None)
    again = _changed(said, 4, text=asked, focus_node_id=None)
    assert question_card(again).counts["repeat"] == before + 1


def test_a_question_about_what_the_reader_set_aside_is_counted(scripted: SessionFile) -> None:
    turns = list(scripted.turns)
    extraction = turns[1].extraction
    assert extraction is not None
    rejected = RejectedItem(kind="node", item={"label": "good grief"}, reason="an interjection")
    turns[1] = turns[1].model_copy(
        update={"extraction": extraction.model_copy(update={"rejected": [rejected]})}
    )
    session = scripted.model_copy(update={"turns": turns})
    asked = _changed(session, 3, focus_label="good grief", text="Why does that matter to you?")
    card = question_card(asked)
    assert card.counts["set_aside"] == question_card(scripted).counts["set_aside"] + 1


def test_a_question_the_respondent_answered_with_puzzlement_is_counted(
    scripted: SessionFile,
) -> None:
    turns = list(scripted.turns)
    assessment = turns[2].assessment
    assert assessment is not None and assessment.answer_kind != "about_interview"
    puzzled = assessment.model_copy(update={"answer_kind": "about_interview"})
    turns[2] = turns[2].model_copy(update={"assessment": puzzled})
    card = question_card(scripted.model_copy(update={"turns": turns}))
    base = question_card(scripted)
    assert card.counts["puzzled"] == base.counts["puzzled"] + 1
    assert any(f.label == "Q3" and "puzzled" in f.checks for f in card.flagged)


@pytest.mark.parametrize(
    "reply",
    [
        "what? what do you mean 'stop moaning'? that was a joke about my wife. The point is",
        "Huh? the hospital is just where I work",
        "makes possible?? mate, its not a feature lol",
        "sorry what? I dont follow",
    ],
)
def test_a_reply_that_opens_puzzled_counts_whatever_follows(
    scripted: SessionFile, reply: str
) -> None:
    # a tester's four puzzled replies were all counted clean: each went on with content
    turns = list(scripted.turns)
    answer = turns[2].answer.model_copy(update={"text": reply})
    turns[2] = turns[2].model_copy(update={"answer": answer})
    card = question_card(scripted.model_copy(update={"turns": turns}))
    assert card.counts["puzzled"] == question_card(scripted).counts["puzzled"] + 1


@pytest.mark.parametrize(
    ("question", "reply", "counted"),
    [
        # round 7 and 8 testers: the card had counted each of these clean
        (
            "You said they must not cost a fortune. How does that help you?",
            "Help me? It dont help, it just means I can call her every sunday",
            True,
        ),
        (
            "You talked about the bill. What does that make possible for you?",
            "The bill made nothing possible, it was a shock haha",
            True,
        ),
        (
            "You mentioned furious. What made you feel that way?",
            "i just told you. he didnt turn up",
            True,
        ),
        (
            "Think of another occasion that was different. What happened?",
            "Different from what? If you mean a good one, Fiona stayed on after closing",
            True,
        ),
        # rounds 100 and 102: asked again, said so without "just" or "already"
        (
            "Is there anything else that is important to you here?",
            "you asked me that a minute ago didnt you. no, dry feet, good grip",
            True,
        ),
        (
            "Why do dry feet matter to you?",
            "I told you that at the start, blisters! wet feet, blisters",
            True,
        ),
        (
            "What has got in the way for you with the bus?",
            "Told you pal, the bus not turning up.",
            True,
        ),
        # round 121: "Er I just said mate, get an evening with the wife lol" (counted clean)
        (
            "What does that let you do?",
            "Er I just said mate, get an evening with the wife lol",
            True,
        ),
        # round 126: "Already told you, scared stiff", "Said that just now, back streets"
        ("How did that feel at the time?", "Already told you, scared stiff.", True),
        ("Do you do anything differently since then?", "Said that just now, back streets.", True),
        # round 128: "Same as before really, ...", "Same answer as the last three questions"
        (
            "What were you trying to get done there?",
            "Same as before really, get to the dispensary for 8 and keep some money.",
            True,
        ),
        ("What did that let you do?", "Same answer as the last three questions tbh.", True),
        # ... but a story they told is no complaint
        (
            "What happened next?",
            "I told you about the bus, then the manager rang me",
            False,
        ),
        # its own word asked back is no puzzlement
        (
            "When you think about your car, what do you notice?",
            "Honestly? Whether the baby seat fits in the back",
            False,
        ),
    ],
)
def test_a_reply_that_pushes_back_counts_as_puzzled(
    scripted: SessionFile, question: str, reply: str, counted: bool
) -> None:
    turns = list(scripted.turns)
    asked = turns[2].question.model_copy(update={"text": question})
    answer = turns[2].answer.model_copy(update={"text": reply})
    turns[2] = turns[2].model_copy(update={"question": asked, "answer": answer})
    card = question_card(scripted.model_copy(update={"turns": turns}))
    base = question_card(scripted).counts["puzzled"]
    assert card.counts["puzzled"] == base + counted


def test_a_question_whose_focus_the_answer_took_back_is_puzzling(scripted: SessionFile) -> None:
    turns = list(scripted.turns)
    extraction = turns[2].extraction
    assert extraction is not None
    took_back = extraction.model_copy(update={"retracted": ["some node"]})
    turns[2] = turns[2].model_copy(update={"extraction": took_back})
    card = question_card(scripted.model_copy(update={"turns": turns}))
    assert card.counts["puzzled"] == question_card(scripted).counts["puzzled"] + 1


def test_cards_add_up_over_interviews() -> None:
    one = QuestionCard(10, {**dict.fromkeys(CHECKS, 0), "jargon": 2}, 8)
    two = QuestionCard(30, {**dict.fromkeys(CHECKS, 0), "repeat": 3}, 27)
    both = combine([one, two])
    assert (both.questions, both.clean, both.counts["jargon"], both.counts["repeat"]) == (
        40,
        35,
        2,
        3,
    )
    assert both.per_100("jargon") == 5.0 and QuestionCard().per_100("clean") is None


def test_sessions_show_and_report_show_the_card(produced: dict[str, Path]) -> None:
    path = str(produced["mec-scripted"])
    shown = CliRunner().invoke(app, ["sessions", "show", path])
    assert shown.exit_code == 0, shown.output
    assert "Question report card" in shown.output and "not their words" in shown.output
    as_json = CliRunner().invoke(app, ["report", path, "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    card = data["sessions"][0]["question_card"]
    assert card["questions"] > 0 and set(card["per_100"]) == {*CHECKS, "clean"}
    assert data["aggregate"]["question_card"]["questions"] == card["questions"]
    markdown = CliRunner().invoke(app, ["report", path, "--format", "md"])
    assert "## Questions" in markdown.stdout and "- repeat: the same focus" in markdown.stdout
    html = CliRunner().invoke(app, ["report", path, "--format", "html"])
    assert "<h2>Questions</h2>" in html.stdout and "<li>double: double-barrelled" in html.stdout
    terminal = CliRunner().invoke(app, ["report", path], env={"COLUMNS": "120"})
    assert "Questions (per 100 asked)" in terminal.stdout and "set aside:" in terminal.stdout


@pytest.mark.parametrize(
    "reply",
    [
        "Like I just said, awake but safe. And cheap",  # round 119
        "Already told you, scared stiff.",  # round 126
        "i kind of said this already tbh, saving money on a junior salary",  # round 125
    ],
)
def test_a_question_answered_like_i_said_is_a_repeat(scripted: SessionFile, reply: str) -> None:
    # the respondent's word that it asked what they had said: testers tagged these repeats,
    # and the card counted them clean (or only puzzled)
    turns = list(scripted.turns)
    answer = turns[2].answer.model_copy(update={"text": reply})
    turns[2] = turns[2].model_copy(update={"answer": answer})
    card = question_card(scripted.model_copy(update={"turns": turns}))
    assert card.counts["repeat"] == question_card(scripted).counts["repeat"] + 1
