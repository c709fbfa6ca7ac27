"""Things people typing as people talk do in an interview, through the real turn (offline
provider): a moment's break, asking to go back "just then", an opening story closed with
"that's it". Each was met in a typed interview (round 226)."""

from __future__ import annotations

from pathlib import Path

from pipeline_talk import asked_through

from interview_cli.config.library import Library
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.offline.reading.steering import find_steer
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[2]


def _talk(concept: str, answers: list[str]) -> tuple[list[str], Interview]:
    """The questions asked before each answer and the one after the last."""
    lib = Library.discover(cwd=ROOT)
    found = lib.concept(concept)
    session = new_session(
        session_id="talk",
        concept=found,
        methodology=lib.methodology(found.value.methodology),
        settings=offline_settings(),
        max_turns=len(answers) + 5,
    )
    interview = Interview(session, store=None, llm=OfflineLLM(seed=0))
    return asked_through(interview, answers), interview


def _labels(interview: Interview) -> set[str]:
    nodes = interview.session.graph.get("nodes", [])
    return {str(n.get("label", "")).lower() for n in nodes}


def test_a_moment_away_is_no_answer_and_the_interview_waits_for_the_respondent() -> None:
    opening = "The big drum one, 10kg. Our old one flooded the kitchen last winter"
    asked, interview = _talk(
        "washing_machine_mec",
        [opening, "hang on someone's at the door, two secs", "ok I'm back, sorry about that"],
    )
    assert asked[2].startswith("Okay, no rush. "), asked
    kinds = [t.assessment.answer_kind for t in interview.session.turns if t.assessment]
    assert kinds[1:] == ["about_interview", "about_interview"], kinds
    # nothing of the door nor of coming back is a node, nor asked about
    assert not {label for label in _labels(interview) if "door" in label or "back" in label}
    assert not any("door" in q for q in asked[3:]), asked


def test_a_break_asked_for_with_can_we_stop_is_no_move_on() -> None:
    asked, interview = _talk(
        "washing_machine_mec",
        [
            "The big drum one, 10kg, for the kids' football kits.",
            "Could we stop, I need the loo, back in 2 mins",
        ],
    )
    assert interview.session.status != "completed"
    assessment = interview.session.turns[1].assessment
    assert assessment is not None and assessment.answer_kind == "about_interview"
    assert asked[2].startswith("Okay, "), asked
    assert "loo" not in " ".join(_labels(interview))


def test_what_they_ask_to_go_back_to_just_then_is_said_back_without_just() -> None:
    said = (
        "Eh? My mums hands? I already told you, arthritis. "
        "I was on about the aquastop thing just then"
    )
    steer = find_steer(said)
    assert steer is not None and steer.target == "the aquastop"
    # (nor what they call the interviewer: "ask me about the headphones man", round 228)
    man = find_steer("bruv allow it means leave it. ask me about the headphones man")
    assert man is not None and man.target == "the headphones"
    # (a time that is all the request names is kept: the review)
    asked_for = find_steer("can we go back to what I said a minute ago")
    assert asked_for is not None and asked_for.target == "what I said a minute ago"
    assert find_steer("Can we go back to the price bit from a minute ago?") is not None
    assert find_steer("Can we go back to the price bit from a minute ago?").target == "the price"  # type: ignore[union-attr]


def test_an_opening_story_closed_with_thats_it_is_asked_about_not_passed_over() -> None:
    opening = (
        "Morning for me is like 3am lol, I drive nights on the A1. Last night I pull in a layby "
        "near Scotch Corner for my break, plug the little kettle in the cab and make a sachet "
        "coffee. Thats it, is no problem."
    )
    asked, interview = _talk("coffee_jtbd", [opening])
    assessment = interview.session.turns[0].assessment
    assert assessment is not None and assessment.knowledge_ceiling == "none"
    assert "haven't mentioned" not in asked[1], asked
    # ... but a bare "that's it" to a question about something said is still the end of it
    asked, interview = _talk("coffee_jtbd", [opening, "Dunno. That's it really."])
    assessment = interview.session.turns[1].assessment
    assert assessment is not None and assessment.knowledge_ceiling == "terminal"
    # ... and an opening brushed off is one ("Nothing more to it really": the review)
    brushed = (
        "I bought them in the sale at Go Outdoors last spring. They were forty quid and they fit "
        "me fine so I took them. Nothing more to it really, they're just boots to me."
    )
    asked, interview = _talk("walking_boots_mec", [brushed])
    assessment = interview.session.turns[0].assessment
    assert assessment is not None and assessment.knowledge_ceiling == "terminal"


def test_a_respondent_who_has_to_go_is_thanked_and_let_go() -> None:
    # round 261: "Sorry I have to go now, Zosia is awake" was asked "... Did I miss anything
    # that matters to you?"
    asked, interview = _talk(
        "washing_machine_mec",
        [
            "The big drum one, 10kg, for the kids' football kits.",
            "Because it means I do one wash a day instead of three.",
            "It gives me my evenings back, I'm not stood folding till ten.",
            "Time with the kids, honestly, that's what it's about.",
            "The quick wash too, thirty minutes, so the kit's dry for Saturday.",
            "So they're not in damp kit, and I'm not the mum who forgot.",
            "It's quiet as well, we've an open plan kitchen so you'd hear it.",
            "sorry I have to go now, the baby's awake. bye!",
        ],
    )
    assert "let you go" in asked[-1] or "won't keep you" in asked[-1], asked


def test_a_respondent_leaving_in_the_first_answers_is_let_go_at_once() -> None:
    # "sorry got to go now, my bus is here. bye" at the third answer was asked two more
    # questions: the turn gate held it as a tiredness, "is there much more?"
    asked, interview = _talk(
        "headphones_mec",
        [
            "the battery mostly, it lasts a week so I dont have to think about charging",
            "means I can just grab them and go in the morning, no faff",
            "sorry got to go now, my bus is here. bye",
        ],
    )
    assert len(asked) == 4 and ("let you go" in asked[-1] or "won't keep you" in asked[-1]), asked
    assert interview.session.turns[-1].continuation is not None


def test_cause_typed_for_because_ends_what_they_ask_to_go_back_to() -> None:
    # round 267 asked "Back to the flatmate thing tho cause that's. Why is that important to you?"
    said = "can we go back to the flatmate thing tho cause thats actually a big deal lol"
    steer = find_steer(said)
    assert steer is not None and steer.target == "the flatmate"
    cause = find_steer("can we go back to the cause of the leak")
    assert cause is not None and cause.target == "the cause of the leak"
    verb = find_steer("can we go back to the potholes that cause it")
    assert verb is not None and verb.target == "the potholes that cause it"
