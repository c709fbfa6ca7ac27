"""A study's guide, consent and safety rules through `interview run` with piped stdin: what the
respondent sees, what the session file records, and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.cli.app import app
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]
FIRST = "I like the sound quality because it helps me focus"
GUIDED = """\
id: guided_headphones
name: Wireless headphones
methodology: means_end_chain
objective: Explore why people choose their wireless headphones.
guide:
  must_cover: [battery life, price]
  avoid: [politics]
  tone: warm and informal
consent: This interview is recorded for research. You can stop at any time.
"""


def run_cli(args: list[str], lines: list[str], sessions: Path) -> Any:
    return CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), "-p", "offline", *args],
        input="".join(line + "\n" for line in lines),
        catch_exceptions=False,
    )


def only_session(sessions: Path) -> dict[str, Any]:
    (path,) = sessions.glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


@pytest.fixture
def guided(tmp_path: Path) -> Path:
    path = tmp_path / "guided_headphones.yaml"
    path.write_text(GUIDED, encoding="utf-8")
    return path


# ---- consent ---------------------------------------------------------------------------------


def test_consent_no_ends_politely_with_the_refusal_recorded(guided: Path, sessions: Path) -> None:
    result = run_cli(["-c", str(guided)], ["no"], sessions)
    assert result.exit_code == 0, result.output
    assert "recorded for research" in result.stdout and "Thank you" in result.stdout
    assert "Question 1" not in result.stdout
    doc = only_session(sessions)
    assert doc["status"] == "completed" and doc["termination_reason"] == "consent_refused"
    assert doc["consent"]["agreed"] is False and doc["consent"]["answer"] == "no"
    assert doc["turns"] == [] and doc["pending_question"] is None
    assert doc["usage"]["calls"] == 0  # not even the opening question was written


def test_consent_yes_is_recorded_then_the_interview_begins(guided: Path, sessions: Path) -> None:
    result = run_cli(["-c", str(guided)], ["perhaps", "yes", FIRST, "/quit"], sessions)
    assert result.exit_code == 0, result.output
    assert "Please answer yes or no." in result.stdout and "Question 2" in result.stdout
    doc = only_session(sessions)
    assert doc["consent"]["agreed"] is True and doc["consent"]["answer"] == "yes"
    assert doc["turns"][0]["answer"]["text"] == FIRST


# ---- guide -----------------------------------------------------------------------------------


def test_guide_coverage_signal_and_question(guided: Path, sessions: Path) -> None:
    answers = ["yes", FIRST, "The price was fair for what I got", "not sure", "/quit"]
    result = run_cli(["-c", str(guided)], answers, sessions)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    ratios = [t["signals"]["coverage.guide_ratio"] for t in doc["turns"]]
    remaining = [t["signals"]["coverage.guide_remaining"] for t in doc["turns"]]
    assert ratios == [0.0, 0.5, 0.5] and remaining == [2, 1, 1]
    # a topic-level question brings in the topic still to cover (offline: "battery life")
    asked = [t["question"]["text"] for t in doc["turns"][1:]] + [doc["pending_question"]["text"]]
    assert any("battery life" in q for q in asked), asked
    outcome = verify_session(SessionStore(sessions).load(doc["id"]))
    assert outcome.ok, outcome.to_dict()["mismatches"]


def test_a_bad_guide_is_one_line_naming_the_field(tmp_path: Path, sessions: Path) -> None:
    bad = tmp_path / "bad_guide.yaml"
    text = GUIDED.replace("id: guided_headphones", "id: bad_guide")
    bad.write_text(text.replace("tone:", "tones:"), encoding="utf-8")
    result = run_cli(["-c", str(bad)], [], sessions)
    assert result.exit_code == 2
    assert "guide" in result.output and "tones" in result.output
    assert "Traceback" not in result.output


# ---- safety ----------------------------------------------------------------------------------


def test_off_topic_is_redirected_and_the_interview_goes_on(sessions: Path) -> None:
    lines = [FIRST, "Can we talk about something else, like football?", "/quit"]
    result = run_cli(["-c", "headphones_mec"], lines, sessions)
    assert result.exit_code == 0, result.output
    assert "come back to the topic" in result.stdout
    doc = only_session(sessions)
    turn = doc["turns"][1]
    assert turn["safety"]["kind"] == "off_topic" and turn["safety"]["action"] == "redirect"
    assert turn["signals"]["llm.safety"] == "off_topic"
    assert not turn["graph_delta"]["nodes_added"]  # "football" is not the next topic
    assert doc["pending_question"]["text"].startswith("Thank you. Let's come back")
    assert doc["status"] == "paused"


def test_distress_pauses_with_a_support_message(sessions: Path) -> None:
    lines = [FIRST, "Honestly I can't cope with anything right now", "never read"]
    result = run_cli(["-c", "headphones_mec"], lines, sessions)
    assert result.exit_code == 0, result.output
    assert "support line" in result.stdout and "Resume with" in result.stdout
    doc = only_session(sessions)
    assert doc["status"] == "paused" and len(doc["turns"]) == 2
    assert doc["turns"][1]["safety"]["action"] == "pause"
    assert doc["turns"][1]["safety"]["kind"] == "distress"


def test_abuse_ends_with_the_recorded_end_code(sessions: Path) -> None:
    result = run_cli(["-c", "headphones_mec"], [FIRST, "shut up you idiot"], sessions)
    assert result.exit_code == 0, result.output
    assert "end the interview here" in result.stdout
    doc = only_session(sessions)
    assert doc["status"] == "completed" and doc["termination_reason"] == "ended_abuse"
    assert doc["pending_question"] is None and doc["closing"] is None
    assert doc["turns"][1]["safety"] == {
        "kind": "abuse",
        "action": "end",
        "message": "We will end the interview here. Thank you for your time.",
        "code": "ended_abuse",
    }


def test_a_respondent_who_asks_to_stop_is_thanked_and_the_interview_ends(sessions: Path) -> None:
    # "what does 'stop the interview now' make possible for you?" had been the next question
    result = run_cli(
        ["-c", "headphones_mec"], [FIRST, "No. I want to stop the interview now."], sessions
    )
    assert result.exit_code == 0, result.output
    assert "we'll stop here" in result.stdout
    doc = only_session(sessions)
    assert doc["status"] == "completed" and doc["termination_reason"] == "stopped_by_respondent"
    assert doc["pending_question"] is None
    assert doc["turns"][1]["safety"]["kind"] == "stop"
    assert not doc["turns"][1]["graph_delta"]["nodes_added"]
    # ... and shown what was understood, as a statement: nothing more is asked (no rating)
    said = result.stdout
    assert said.index("we'll stop here") < said.index("What I understood")
    assert "sound" in said[said.index("What I understood") :]
    assert "How accurate" not in said
    assert doc["closing"]["summary"] and doc["closing"]["rating"] is None
    assert not doc["closing"]["question"]


def test_no_summary_at_a_stop_with_no_rating_nor_after_an_abuse_end(sessions: Path) -> None:
    lines = [FIRST, "sorry can we wrap up, I have to pick up my son"]
    result = run_cli(["-c", "headphones_mec", "--no-rating"], lines, sessions)
    assert "we'll stop here" in result.stdout and "What I understood" not in result.stdout
    assert only_session(sessions)["closing"] is None


def test_the_methodology_sets_the_responses(tmp_path: Path, sessions: Path) -> None:
    source = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    custom = tmp_path / "means_end_chain.yaml"
    custom.write_text(
        source + "\nsafety:\n  off_topic:\n    action: end\n    message: Off topic, goodbye.\n"
        "    code: ended_off_topic\n",
        encoding="utf-8",
    )
    lines = [FIRST, "Let's change the subject entirely"]
    result = run_cli(["-c", "headphones_mec", "-m", str(custom)], lines, sessions)
    assert result.exit_code == 0, result.output
    assert "Off topic, goodbye." in result.stdout
    doc = only_session(sessions)
    assert doc["termination_reason"] == "ended_off_topic"


def test_a_shipped_concept_shows_consent_and_a_guide(sessions: Path) -> None:
    # The library's example of a study set up for fieldwork: found by id from anywhere.
    result = run_cli(["-c", "headphones_study_mec"], ["yes", FIRST, "/quit"], sessions)
    assert result.exit_code == 0, result.output
    assert result.stdout.index("Consent") < result.stdout.index("Question 1")
    (path,) = sessions.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["consent"]["agreed"] is True
    concept = doc["concept"]["source"]
    assert "must_cover: [battery life, price]" in concept and "consent:" in concept


# ---- safety is the turn's decision, so verify checks it -----------------------------------------


def _verify_cli(path: Path) -> Any:
    return CliRunner().invoke(app, ["replay", str(path), "--verify"], catch_exceptions=False)


def _abuse_session(sessions: Path) -> Path:
    result = run_cli(["-c", "headphones_mec"], [FIRST, "shut up you idiot"], sessions)
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return path


def test_a_safety_end_verifies_as_recorded(sessions: Path) -> None:
    path = _abuse_session(sessions)
    result = _verify_cli(path)
    assert result.exit_code == 0, result.stdout


def test_a_tampered_safety_response_fails_verify_naming_the_turn(
    sessions: Path, tmp_path: Path
) -> None:
    doc = json.loads(_abuse_session(sessions).read_text(encoding="utf-8"))
    doc["turns"][1]["safety"]["action"] = "redirect"  # "we went on", says the edited file
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = _verify_cli(edited)
    assert result.exit_code == 1
    assert "turn 2 · safety · safety.action" in result.stdout
    doc["turns"][1]["safety"] = None  # the response removed altogether
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = _verify_cli(edited)
    assert result.exit_code == 1 and "turn 2 · safety · safety" in result.stdout


def test_a_tampered_end_reason_fails_verify_naming_the_turn(sessions: Path, tmp_path: Path) -> None:
    doc = json.loads(_abuse_session(sessions).read_text(encoding="utf-8"))
    doc["termination_reason"] = "little_to_say"  # as if the respondent had run dry
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = _verify_cli(edited)
    assert result.exit_code == 1
    assert "turn 2 · termination · termination_reason" in result.stdout


def test_a_stop_reason_recorded_after_a_turn_that_went_on_fails_verify(
    sessions: Path, tmp_path: Path
) -> None:
    lines = [FIRST, "Can we talk about something else, like football?", "/quit"]
    assert run_cli(["-c", "headphones_mec"], lines, sessions).exit_code == 0
    (path,) = sessions.glob("*.json")
    assert _verify_cli(path).exit_code == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["termination_reason"] = "graph_saturated"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = _verify_cli(edited)
    assert result.exit_code == 1 and "termination_reason" in result.stdout


def test_a_respondent_who_says_three_times_they_are_done_is_closed_and_it_verifies(
    sessions: Path,
) -> None:
    # typed as people finish: "Nope, that's me done I think", "No honestly that's
    # everything", "nope" - the interview went on to "What other thoughts do you have on all
    # this?" and "Think of the last time it mattered to you"
    answers = [
        "I mostly notice the battery, it goes the whole week",
        "So I dont have to think about charging them, one less thing",
        "I guess it means I can just relax on the commute",
        "Nope, that's me done I think",
        "No honestly that's everything",
        "nope",
        "no",
        "no",
    ]
    result = run_cli(["-c", "headphones_mec", "--max-turns", "20"], answers, sessions)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    # (closed by the closing strategy winning after the second "done", before the rule for
    # little to say had its turn: "goes the whole week", which no question can say back in
    # their words, is read with doubt and nothing else is left to ask)
    assert doc["termination_reason"] == "Closing strategy selected", doc["termination_reason"]
    assert len(doc["turns"]) <= 5
    (path,) = sessions.glob("*.json")
    assert _verify_cli(path).exit_code == 0


@pytest.mark.parametrize("concept", ["coffee_jtbd", "customer_support_ci"])
def test_a_jobs_or_incident_respondent_done_three_times_running_is_closed(
    sessions: Path, concept: str
) -> None:
    # round 186: a Jobs-to-be-Done and a Critical Incident respondent said they were done
    # three and four times and were asked "what else?" each time, to the turn limit
    answers = [
        "I used to buy coffee at the station every morning but it was 3 pounds a go",
        "the price mostly, it added up over a month",
        "nothing more to say really",
        "thats me done",
        "honestly thats everything",
        "no",
        "no",
        "no",
        "no",
        "no",
    ]
    result = run_cli(["-c", concept, "--max-turns", "14"], answers, sessions)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    assert doc["termination_reason"] == "little_to_say", doc["termination_reason"]
    assert len(doc["turns"]) == 5
    (path,) = sessions.glob("*.json")
    assert _verify_cli(path).exit_code == 0


def test_a_journey_respondent_asking_back_to_a_step_is_asked_about_its_stage(
    sessions: Path,
) -> None:
    # round 56: "Can we go back to the slot booking actually?" named a step of the first
    # stage ("tbh the slot isnt really first"); no question can be asked on a step, and the
    # next question asked how checkout felt, again
    answers = [
        "Well tbh the slot isnt really first, I make the list on my phone on my break at work, "
        "I do shifts at a warehouse so thats the only time I get. Then once the list is sorted "
        "I go on and book a slot, you have to be quick because the cheap ones go fast.",
        "Its mostly just copying the list in to be honest, I search each thing and add it. My "
        "ex used to do all the shopping before we split up so I had no clue what we even "
        "bought at first, now I just reorder from my favourites mostly, you know what I mean.",
        "Bit stressed honestly. The cheap slot was 5 quid and if you miss it the next ones are "
        "like 7 or 8, and I have to fit it round my shifts and picking the kids up so its a "
        "bit of a juggle.",
        "Fine really, its the easy bit. Oh actually I meant the cheap slot was 3 pound not 5, "
        "the 5 ones are the middle ones. Basket wise its just a bit boring tbh.",
        "Just pay with my card thats saved on there, takes two seconds. I always tick the box "
        "for substitutions though which I kind of regret.",
        "Nothing really, its just paying. Can we go back to the slot booking actually? I didnt "
        "really say how annoying it is that they all go by like Tuesday.",
        "by the time I get on there on my break the cheap ones are gone half the time",
    ]
    result = run_cli(["-c", "grocery_delivery_journey", "--max-turns", "12"], answers, sessions)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    said = " ".join(doc["turns"][5]["decision"]["rationale"])
    assert "asked to go back" in said and "no question on it" not in said, said
    asked = doc["turns"][6]["question"]
    assert asked["focus_label"] == "choosing a delivery slot", asked
    (path,) = sessions.glob("*.json")
    assert _verify_cli(path).exit_code == 0
