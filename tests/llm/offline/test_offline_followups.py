"""Offline follow-ups across a whole interview: what the closing recap counts as said, how
often a story's why and end are asked, and a request to go back said back however it was
typed.

The leavings heard, and the stories not heard as one, are data (data/readings/leavings.yaml)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from offline_fixtures import extract, shipped_strategy
from test_offline_questions import _methodology, ask, strategy

from interview_cli.config.schemas import Concept
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.questions import offline_question
from interview_cli.llm.protocol import Exchange, QuestionRequest


def _asked_on_four_turns(
    spec: Any,
    focus: str,
    said: list[str],
    *,
    focus_type: str = "solution_approach",
    quotes: list[str] | None = None,
) -> list[str]:
    """What a Jobs-to-be-Done strategy asks of one focus on four turns."""
    jtbd = _methodology("jobs_to_be_done")
    return [
        ask(jtbd, spec, focus, turn=t, answers=said, focus_type=focus_type, quotes=quotes)
        for t in range(4)
    ]


def test_a_recap_counts_what_was_said_unasked() -> None:
    # Round 141 recapped "the same wee tune going round": the hold music was said in three
    # answers, two of them answering questions about it ("The hold music? It was just ...")
    from interview_cli.core.graph.knowledge import KnowledgeGraph
    from interview_cli.core.graph.records import ProvenanceEntry

    ci = _methodology("critical_incident")
    graph = KnowledgeGraph()

    def said(turns: tuple[int, ...]) -> list[ProvenanceEntry]:
        return [ProvenanceEntry(utterance_id=f"u{t}", quote="", turn=t) for t in turns]

    music = graph.add_node(
        "same wee tune", "situation", methodology=ci, turn=1, provenance=said((1, 2, 3))
    )
    graph.add_node(
        "nobody took ownership", "situation", methodology=ci, turn=1, provenance=said((1, 4))
    )
    levels = {n.name: n.level for n in ci.ontology.nodes}
    assert graph.recap_labels(levels)[0] == "same wee tune"
    asked = graph.recap_labels(levels, asked={music.id: 2})
    assert asked[0] == "nobody took ownership", asked


def test_why_it_happened_is_asked_twice_of_a_story_and_how_it_ended_once() -> None:
    # Round 138 asked "Who or what do you think was behind that?" twice, round 144 three whys
    # of three details; rounds 138, 141 and 144 asked "How did it end?" again
    ci = _methodology("critical_incident")
    why = ci.strategy("probe_attributions")
    story = ci.strategy("deepen_narrative")
    assert why is not None and story is not None
    said = ["the chap at the shop was sympathetic enough and had one in stock"]
    asked = [
        "You mentioned the lock. Why do you think that happened the way it did?",
        "You talked about the insurer. Who or what do you think was behind that?",
        "You mentioned the shop. How did it end?",
    ]
    for t in range(6):
        text = ask(ci, why, "chap at the shop", turn=t, avoid=asked, answers=said)
        assert not re.search(r"behind|happened the way|would have taken", text), text
        told = ask(ci, story, "chap at the shop", turn=t, avoid=asked, answers=said)
        assert "How did it end" not in told, told


def test_a_request_typed_without_its_question_mark_is_said_back() -> None:
    # A typed interview: "can we go back to the frothing thing, because thats the main reason
    # i switched from soya, soya went all grainy in the coffee" was asked "You said soya went
    # all grainy in the coffee. ...", the request unheard (round 145 called it ignored)
    said = [
        "can we go back to the frothing thing, because thats the main reason i switched from "
        "soya, soya went all grainy in the coffee"
    ]
    mec = _methodology("means_end_chain")
    concept = Concept(id="topic", name="oat milk", methodology="means_end_chain", objective="x")
    for turn in range(4):
        request = QuestionRequest(
            methodology=mec,
            concept=concept,
            strategy=strategy("deepen"),
            focus_label="soya went all grainy in coffee",
            focus_type="attribute",
            turn_number=turn,
            answers=said,
            recent=[Exchange(question="You said it keeps you sane. Why?", answer=said[0])],
            went_back_to="froth for my coffee",
        )
        question = offline_question(request)
        assert question.startswith("Back to the frothing thing. "), question


def test_what_is_found_out_is_no_dislike_but_what_gets_to_them_is() -> None:
    # Round 142 asked "What is the problem with that for you?" of "I can work out what upset
    # him"; the review's "I know what annoys me about them" is still a dislike
    from interview_cli.llm.offline.reading.stance import stance_of

    assert stance_of("I can work out what upset him") == 1
    assert stance_of("I know what annoys me about them") == -1
    assert stance_of("I can see why it annoys people") == -1


def test_losing_what_they_value_is_a_dislike_and_losing_weight_is_not() -> None:
    # round 195: "Somebody gets hurt or I lose the job" was asked "What does that help you
    # get done?"; from the review, "I want to lose weight" is no dislike
    from interview_cli.llm.offline.reading.stance import stance_of

    assert stance_of("I lose the job") == -1
    assert stance_of("if i cant see them i lose bookings") == -1
    assert stance_of("The classes help me lose weight") == 0
    assert stance_of("I lose track of time when I cook, it's lovely") >= 0
    # (from the second review: not losing is no dislike; losing one's temper is)
    assert stance_of("so I never lose any bookings") >= 0
    assert stance_of("I lose my temper with them") == -1


def test_who_is_off_sick_is_no_dislike() -> None:
    # round 186 asked "Why does that bother you?" of "the coffee's half the reason the lads
    # turn up a bit early and tell me who's off sick"; being ill, or the kids sick, still is
    from interview_cli.llm.offline.reading.stance import stance_of

    assert stance_of("the lads turn up early and tell me who's off sick") == 0
    assert stance_of("he rang in sick") == 0
    assert stance_of("I was off sick for a week and it was awful") == -1
    assert stance_of("the kids were sick all week") == -1


def test_a_reason_given_for_going_back_says_what_for() -> None:
    # A typed interview: "can we go back to Dev, because he was the only one who listened and
    # he rang me back when he said he would" was asked "Sure, back to Dev. What would you like
    # to say about that?"
    from interview_cli.llm.offline.asking.reference import asked_back_to

    said = (
        "can we go back to Dev, because he was the only one who listened and he rang me back "
        "when he said he would"
    )
    back = asked_back_to("dev", said)
    assert back is not None and back.said_more, back
    goat = "Can we go back to the chatbot actually, because that was the bit that got my goat."
    told = asked_back_to("chatbot", goat)
    assert told is not None and not told.said_more, told


def test_a_switch_thought_about_and_not_made_is_asked_as_one() -> None:
    # Round 149: "I nearly went for a bean-to-cup last year but £400+ for a coffee machine
    # with two kids in nursery, no chance" - he never changed, so no "when you decided to
    # change", nor "what do you miss about the old way"
    jtbd = _methodology("jobs_to_be_done")
    switch = jtbd.strategy("probe_switch")
    assert switch is not None
    said = [
        "Honestly just better coffee than instant, it was free so the bar was low. I nearly "
        "went for a bean-to-cup last year but £400+ for a coffee machine, no chance."
    ]
    for text in _asked_on_four_turns(switch, "nearly went for a bean-to-cup", said):
        assert re.search(r"look at that|stopped you|go for it now", text), text
    used = ask(jtbd, switch, "used to buy instant", answers=["I used to buy instant"])
    assert "stopped you" not in used and "go for it now" not in used, used
    # round 194: "You said you considered the bus. What made you go for that rather than
    # something else?" - "I didn't go for the bus!"
    dig = jtbd.strategy("dig_motivation")
    assert dig is not None
    considered = ["Before the bike I considered the bus, which takes even longer"]
    for text in _asked_on_four_turns(dig, "considered the bus", considered):
        assert "go for that rather" not in text and "hoping that would" not in text, text
    # ... but a switch made after weighing it up is a choice made (from the review: "I weighed
    # up a few and went for the Sage machine" was asked "What would it take ... now?")
    weighed = ["I weighed up a few machines last year and went for a Sage bean to cup"]
    for text in _asked_on_four_turns(dig, "weighed up a few machines", weighed):
        assert "go for it now" not in text and "look at that" not in text, text
    # ... and a switch said with its own "went for", quoted as said, was not made (the second
    # review: the quote repeats the label)
    near = "I nearly went for a bean-to-cup last year but 400 quid for a machine, no chance"
    for text in _asked_on_four_turns(
        switch, "nearly went for a bean-to-cup", [near], quotes=[near]
    ):
        assert re.search(r"look at that|go for it now", text), text


def test_an_incident_study_is_revived_with_a_story_not_a_product() -> None:
    # Round 153 (an airline lost his case) was asked "What would you miss first if you had to
    # do without it for a week?"
    ci = _methodology("critical_incident")
    revive = ci.strategy("revitalize")
    assert revive is not None
    asked: list[str] = []
    for t in range(6):
        text = ask(ci, revive, None, turn=t, avoid=asked, answers=["the pharmacy sorted her"])
        asked.append(text)
        assert not re.search(r"\bwith it\b|without it|\bit for a week\b", text), text
    # a story revived three times is asked three things (round 180 asked "which moment of it
    # stays with you most?" twice: "you asked me that already haha")
    assert len(set(asked[:3])) == 3, asked
    mec = _methodology("means_end_chain")
    plain = {ask(mec, mec.strategy("revitalize"), None, turn=t) for t in range(6)}  # type: ignore[arg-type]
    assert any("it" in q.split() for q in plain), plain


def test_a_name_after_a_clauses_that_is_no_thing_mentioned() -> None:
    # Round 163 asked "You talked about the Mostyn." of "Its more that Mostyn isnt supposed to
    # have too much phosphorus"
    mec = _methodology("means_end_chain")
    deepen = strategy("deepen")
    answer = "Its more that Mostyn isnt supposed to have too much phosphorus with his kidneys."
    text = ask(mec, deepen, "mostyn isnt supposed to have", answers=[answer])
    assert "the Mostyn" not in text, text


def test_what_someone_said_is_never_said_back_after_you_said() -> None:
    # Round 165 heard "You said it said it fit your model."
    ci = _methodology("critical_incident")
    answer = "I looked it up on their site and it said it fit my model. it didnt."
    for t in range(4):
        text = ask(
            ci, strategy("probe_emotions"), "it said it fit my model", turn=t, answers=[answer]
        )
        assert "You said it said" not in text, text


def test_a_time_is_never_quoted_cut_from_its_before() -> None:
    # Round 176 was asked 'You said thermos is already ready from night.'
    jtbd = _methodology("jobs_to_be_done")
    answer = "I make nothing in morning because thermos is already ready from night before."
    text = ask(
        jtbd, strategy("dig_motivation"), "thermos already ready from night", answers=[answer]
    )
    assert "from night." not in text and 'from night"' not in text, text


def test_a_noun_after_a_verb_in_the_negative_is_mentioned_unless_it_is_what_they_are_not() -> None:
    # round 185: "dinnae want to be a bother" was asked as "You talked about the bother."; the
    # review: "I dont wake the baby" still names the baby
    from interview_cli.llm.offline.asking.mentions import mention

    assert mention("don't want to be bother", ["i dinnae want to be a bother to folk"]) == ""
    assert mention("dont wake dog when get in", ["so I dont wake the dog when I get in"]) == (
        "the dog"
    )
    # (nor is someone of theirs: what they said of them is the point, round 240)
    assert mention("dont wake baby when get in", ["so I dont wake the baby when I get in"]) == ""


def test_not_letting_anyone_down_is_held_to_and_a_let_down_is_held_against() -> None:
    from interview_cli.llm.offline.reading.stance import stance_of

    # round 189 asked "What is the problem with that for you?" of the first
    assert stance_of("i'd never want to let anyone down like that again") == 0
    assert stance_of("that it doesnt let me down") == 0
    # the negation is on a thought about it, or answers the question (from the review)
    assert stance_of("No it let me down badly") == -1
    assert stance_of("I never thought it would let me down but it did") == -1
    assert stance_of("the machine was broken-ish") == -1


def test_never_let_down_is_praise_however_it_is_said() -> None:
    from interview_cli.llm.offline.reading.stance import stance_of

    # (second review)
    assert stance_of("It's never really let me down") == 0
    assert stance_of("it's not let me down yet") == 0
    assert stance_of("I try not to let the kids down") == 0
    assert stance_of("Not really it let me down twice") == -1


def test_a_distance_is_no_way_chosen() -> None:
    # round 196: 'What made you go for "5 miles to the Northern General" rather than something
    # else?' - "I didn't pick it, that's just where I work"
    jtbd = _methodology("jobs_to_be_done")
    dig = jtbd.strategy("dig_motivation")
    assert dig is not None
    said = ["It's about 5 miles to the Northern General from ours and most of it's uphill"]
    for text in _asked_on_four_turns(dig, "5 miles to northern general", said):
        assert "go for" not in text and "help you get done" not in text, text


def test_the_get_done_framing_turned_down_is_not_asked_again() -> None:
    # round 197: "Get done? Its not really about getting stuff done" was followed by four
    # more "What were you trying to get done there?"; only an answer to it turns it down
    from interview_cli.config.schemas import Concept
    from interview_cli.llm.offline.asking.questions import offline_question
    from interview_cli.llm.protocol import Exchange, QuestionRequest

    jtbd = _methodology("jobs_to_be_done")
    dig = jtbd.strategy("dig_motivation")
    assert dig is not None
    turned_down = Exchange(
        question="You said the flask. What does that help you get done?",
        answer="Get done? Its not really about getting stuff done, its more like a reset",
    )
    said_in_passing = Exchange(
        question="What else matters to you?",
        answer="Without my coffee I dont get anything done before ten",
    )
    concept = Concept(id="c", name="Morning coffee", methodology=jtbd.name, objective="x")
    for recent, turned in (([turned_down], True), ([said_in_passing], False)):
        asked = set()
        for t in range(6):
            request = QuestionRequest(
                methodology=jtbd,
                concept=concept,
                strategy=dig,
                focus_label="sit with your crewmate",
                focus_type="gain_point",
                turn_number=t + 3,
                answers=[e.answer for e in recent] + ["You sit with your crewmate, have a brew"],
                recent=recent,
            )
            asked.add(offline_question(request))
        framed = any("get done" in q or "let you do" in q for q in asked)
        assert framed is not turned, asked


def test_a_story_of_asking_again_is_no_complaint() -> None:
    # the second review: "I'd already asked them twice for an engineer" was owned as said
    # to the interviewer ("Sorry, you did say.")
    from interview_cli.llm.offline.asking.acknowledgements import _ASKED_ALREADY

    assert not _ASKED_ALREADY.search("I rang them. I'd already asked them twice by email.")
    assert not _ASKED_ALREADY.search("The engineer already said the part was on order")
    assert _ASKED_ALREADY.search("You've already asked me that.")


def test_a_request_to_hear_the_question_again_is_owned() -> None:
    # round 198: "Sorry, can you say that again? The local what?" and "Which dog? ..." were
    # answered with a question on "the local" again, owning nothing
    from interview_cli.llm.offline.reading.meta import PUZZLED

    for said in (
        "Sorry, can you say that again? The local what?",
        "Which dog? Tyson or the ones at the salon?",
        "could you say it again please",
        # round 236: asked on as if understood
        "I'm sorry, I'm not sure what you mean by 'the sounds grander'; I only meant pride.",
        "Sorry you've lost me there. What do you mean?",
        "sorry makes what harder? the mistakes or the money?",
    ):
        assert PUZZLED.match(said), said
    assert not PUZZLED.match("Which is why I stopped going.")
    assert not PUZZLED.match("It makes what I do easier.")
    assert not PUZZLED.match("I lost my keys that day.")
    assert not PUZZLED.match("I can say that again, it was awful.")


LEAVINGS: dict[str, list[str]] = load_yaml(
    (Path(__file__).resolve().parents[1] / "data" / "readings" / "leavings.yaml").read_text(
        encoding="utf-8"
    )
)


def _tiring(said: str) -> bool:
    from interview_cli.llm.offline.reading.assessor import assess_offline
    from interview_cli.llm.protocol import AssessRequest

    return assess_offline(AssessRequest(question="Why?", answer=said)).tiring


@pytest.mark.parametrize("said", LEAVINGS["heard"], ids=lambda s: s[:50])
def test_the_offline_assessor_hears_tiredness_said_of_now(said: str) -> None:
    # round 198 asked four more questions after "Sorry I'm flagging a bit now, long day!"; each
    # leaving a tester typed since is a case (data/readings/leavings.yaml)
    assert _tiring(said), said


@pytest.mark.parametrize("said", LEAVINGS["told"], ids=lambda s: s[:50])
def test_a_going_told_in_a_story_a_routine_or_a_duty_is_no_leaving(said: str) -> None:
    # each routine, story and duty a review found heard as a leaving (the interview then
    # closed on it)
    assert not _tiring(said), said


def test_a_wording_said_of_it_and_of_the_thing_is_one_wording() -> None:
    # round 199 heard "If a friend asked you about it, what would you tell them first?" and
    # later "If a friend asked you about the coffee, ...": "didn't you ask that already?"
    jtbd = _methodology("jobs_to_be_done")
    spec = shipped_strategy(jtbd, "revitalize")
    said = [
        "If a friend asked you about it, what would you tell them first?",
        "Let's try another angle: what was your best or worst moment with the coffee?",
        "What is one small thing about the coffee you'd change if you could?",
    ]
    for turn in range(4, 16):
        again = ask(jtbd, spec, topic="Morning coffee", turn=turn, avoid=said)
        assert not again.startswith(("If a friend asked", "Let's try another")), (turn, again)


def test_a_bridge_has_wordings_enough_for_a_long_story() -> None:
    # round 199's Critical Incident asked "Is there something related to that we haven't
    # talked about yet?" four times ("You keep asking me that")
    from interview_cli.llm.offline.asking.wording import WORDINGS

    assert len(set(WORDINGS["bridge"].that)) >= 4


def test_a_respondent_called_away_is_told_there_is_no_rush() -> None:
    # round 200: "Hang on, got a patient waiting, give me 2 mins" was asked a question at once
    from interview_cli.llm.offline.asking.acknowledgements import acknowledged

    mec = _methodology("means_end_chain")
    concept = Concept(id="c", name="Support", methodology="means_end_chain", objective="x")

    def owned(
        last: str, question: str = "What else matters to you?", asked: Sequence[str] = ()
    ) -> str:
        request = QuestionRequest(
            methodology=mec,
            concept=concept,
            strategy=strategy("explore", node=False),
            turn_number=6,
            recent=[Exchange(question="What else?", answer=last)],
            avoid_questions=list(asked),
        )
        return acknowledged(request, question)

    assert owned("Not much more tbh. Hang on, got a patient waiting, give me 2 mins.").startswith(
        "Okay, "
    )
    assert owned("brb, door").startswith("Okay, ")
    assert owned("Sorry, the baby's just woken up, one sec.").startswith("Okay, ")
    # (going in a sec is no wait: round 209 heard "Okay, no rush." after it)
    assert not owned("ah hold on an order just came in, gotta go in a sec").startswith("Okay")
    assert owned("Sorry, doorbell, with you in a sec.").startswith("Okay, ")
    # (not a wait in the story: "I held on for an hour"; nor called away and back already)
    assert owned("I held on for an hour and gave up.") == "What else matters to you?"
    back = (
        "Hang on, kettle. Right. Erm, what was the question? Oh yeah, less panic in the mornings."
    )
    assert owned(back) == "What else matters to you?"
    # (the review: "for a minute" said of their own pause is one)
    assert owned("Sorry, doorbell, I'll be away for a minute.").startswith("Okay, ")
    assert owned("hang on someone's at the door, two secs").startswith("Okay, ")
    assert not owned("I was on hold for two mins").startswith("Okay")
    # (how long something takes is no break: the review)
    # (a going in a minute is no break: "Okay, no rush." was said to one, round 232)
    assert not owned("So Ill have to be going now in a minute").startswith("Okay")
    # (round 250: a pause said on, and its "now in a minute")
    assert owned("hang on, wifes shouting me from the kitchen. now in a minute").startswith("Okay")
    for told in (
        "The pod machine is quick, it is ready in two minutes.",
        "I just want a coffee that takes 2 mins",
        "I drink it standing at the counter because I've only got two minutes.",
        "I was on hold for like two minutes",
    ):
        assert owned(told) == "What else matters to you?", told
    # round 235: a correction was met with the next question as if nothing had been put right
    said = "Sorry, I said the bus but it was the train actually, the 7.10, always cancelled."
    assert owned(said) == "Okay, got it. What else matters to you?"
    assert owned("Wait no it was Tuesday not Monday").startswith("Okay, ")
    assert owned("More like 4 kilos actually, not 3.").startswith("Okay, ")
    # (a count said rough is no correction without what it was not)
    assert owned("more like 3 or 4 a week") == "What else matters to you?"
    # ... what the question said back, put right, is the interviewer's mistake
    assert owned("That's not what I said, I meant the comfort.").startswith("Sorry, ")
    # (nor after a request to go back that the question takes: "Okay, got it. Back to the
    # price." read as two, round 235)
    said = "can we go back to the price a sec, i should say they put it up to £21.99 in march"
    for question in ("Sure, back to the price. Why?", "Back to the price. Why?"):
        assert owned(said, question) == question
    # (nor a request to go back to what they said: "Back to ..." says it was heard)
    going = "Actually, can we go back to the bit where I said not taking it for granted?"
    assert not owned(going).startswith("Okay")
    # (nor a correction told in a story, the review; while what they meant is one)
    for told in (
        "I said I wanted the blue, they sent red",
        "When I rang them I said I'd been charged twice, not once, and they said tough",
    ):
        assert owned(told) == "What else matters to you?", told
    assert owned("I meant the comfort, not the sound").startswith("Okay, ")
    # round 238: said already, as a question or as going round in circles
    assert owned("Haven't I just said? haha. It means I can keep walking").startswith("Sorry, ")
    assert owned("Oh cariad we keep going round in circles on that one!").startswith("Sorry, ")
    # round 239: said already with a form of address; puzzled after trying an answer, or after
    # saying the question back
    said = "i think i just said that hen haha. it matters cos i feel like somebody cares"
    assert owned(said).startswith("Sorry, "), owned(said)
    tried = (
        "what does it give me? a sore head haha. what do you mean like? the shoutin's the bad bit"
    )
    assert owned(tried).startswith("Sorry, "), owned(tried)
    assert owned("The account? I'm not sure what you're after there. It's in my name").startswith(
        "Sorry, "
    )
    # round 239: a death told is heard first, once ("tone-deaf" to ask about the letter next)
    said = "It's in my name since Tom passed, that's my husband, six years ago now"
    assert owned(said) == "Sorry to hear about Tom. What else matters to you?"
    assert owned("After my dad died I had to sort the bills").startswith(
        "Sorry to hear about your dad."
    )
    heard = ["Sorry to hear about Tom. What else matters to you?"]
    assert owned("Since Tom died I do it all myself", asked=heard) == "What else matters to you?"
    # round 240: not sure they follow, after saying the question back; a question about what;
    # asking whether they talk to a machine
    for puzzled in (
        "How does the Skoda affect me? Not sure I follow. Oh and sorry, I said 2012 earlier",
        "matters about what, the coffee? i mean mostly that it's actually drinkable",
        "a sore head haha. what do you mean by that exactly?",
        "a sore head. not sure what you mean tbh",
    ):
        assert owned(puzzled).startswith("Sorry, I put that badly."), puzzled
    # asked whether it is a machine: said plainly (round 240, the review)
    for asked in ("it leaked and i was annoyed. are you a bot lol", "are you a real person?"):
        assert owned(asked).startswith("Sorry, I'm an automated interviewer"), asked
    # (the review of round 240's rules: deaths told otherwise, and things that are none)
    for said, heard in (
        ("its in my name since tom passed, thats my husband", "Sorry to hear about Tom."),
        ("since mum passed I do all the banking myself", "Sorry to hear about your mum."),
        ("since my husband's passing I do it all", "Sorry to hear about your husband."),
        ("he passed away last year", "Sorry to hear that."),
        # (round 287: "a few years ago")
        ("We lost our dad a few years ago and the walking became our thing", "Sorry to hear about"),
    ):
        assert owned(said).startswith(heard), (said, owned(said))
    # (the review of round 241's: a death told otherwise; things passing, lost for a while)
    for said, heard in (
        ("My late husband always did the banking", "Sorry to hear about your husband."),
        ("Mum passed away last year so I sorted her accounts", "Sorry to hear about your mum."),
        ("It's in my name since our Tom passed", "Sorry to hear about Tom."),
        ("It's in my name since he died.", "Sorry to hear that."),
        ("we lost mum in 2022 and I had to close her accounts", "Sorry to hear about your mum."),
        ("since I lost Tom I do it all", "Sorry to hear about Tom."),
    ):
        assert owned(said).startswith(heard), (said, owned(said))
    # (not without its question mark: "The app says 'pending verification' for three days.
    # What do you mean exactly" is their own exasperation, the review)
    said = "The app says 'pending verification' for three days. What do you mean exactly"
    assert owned(said) == "What else matters to you?", owned(said)
    for asked in ("r u a bot", "are you an AI lol", "is this chatgpt haha", "are you human?"):
        assert owned(asked).startswith("Sorry, I'm an automated interviewer"), asked
    for told in (
        "It's the close passes that scare me. When vans passed they'd be inches off my elbow.",
        "I lost Apple Pay for two days after the update.",
        "We lost Dave halfway up Holme Moss, he'd bonked.",
        "Since my daughter passed she drives herself to college, so I need the car less.",
        "The chatbot on the app is useless. Is this a bot? Obviously yes, it does nothing.",
        "since my daughter passed her test she drives me in most days",
        "my dad passed the business on to me so I need a business account",
        "When Dave passed me on the climb I just gave up",
        "since Covid died down I'm back in the office three days",
        "I lost my dog for two hours in the woods, never again",
        "my mum died laughing when I came off at the lights",
        "He asked if I wanted the warranty and I just said that I'd think about it",
        "The chat thing is useless, I always end up asking are you a bot or a person",
        "I told the driver I had a ticket. What do you mean exactly? he goes.",
        "Not sure I follow recipes much, I just chuck stuff in and taste as I go",
        "Not sure I follow the logic of the council though, the bins are a mess",
        "My phone died so I couldn't ring them",
        "Her husband died last year so she sold the car",
        "I lost my mum in the shop once haha",
        "I just said that to my wife, she laughed",
        "It was great. What do you mean by nice? I mean it was fine.",
        "Ended? Sure it didn't end for about seven weeks!",
    ):
        assert owned(told) == "What else matters to you?", told
    # (the third review: a story, a phone line, a mistake of the app's, a bad knee)
    for told in (
        "Haven't I told you about my sister? She's the one who got me cycling.",
        "With their phone line you keep going round in circles, press 1, press 2",
        "The app got that wrong, it was the 7.40 not the 7.10, so I missed it",
        "My bad knee means I cycle 10 miles, not 20.",
    ):
        assert owned(told) == "What else matters to you?", told
    # (the second review: a correcting word anywhere in its sentence; not a wish, a story or
    # a complaint)
    for put_right in (
        "It was 25 quid, not 20, sorry.",
        "My mistake, it was the train, not the bus.",
    ):
        assert owned(put_right).startswith("Okay, "), put_right
    for told in (
        "I'd rather it was 20 quid, not 25.",
        "I actually told them it was 25 quid not 20, and they refunded it.",
        "Sorry to moan, but it was 25 quid, not 20 like the website said.",
    ):
        assert owned(told) == "What else matters to you?", told
    # (no correction, no acknowledgement: a contrast told is none)
    assert owned("It's not the price, it's the weight.") == "What else matters to you?"


def test_me_before_on_is_said_back_as_you() -> None:
    # round 200: "hear stuff around me on site" was asked as "hearing stuff around your on site"
    from interview_cli.llm.offline.asking.phrases import _shift
    from interview_cli.llm.offline.asking.vocabulary import vocabulary

    said = _shift("hearing stuff around me on site".split(), vocabulary())
    assert said == "hearing stuff around you on site"


def test_phrasal_verbs_are_said_back_whole() -> None:
    # the second review: quoting "on" and "off" into the prepositions lost "get on with my
    # day", "put the kettle on" and "time off work" from the questions
    from interview_cli.llm.offline.asking.reference import refer

    for label, said in (
        ("can get on with my day", "They're comfy so I can just get on with my day."),
        ("put the kettle on", "I put the kettle on first."),
        ("time off work", "I get time off work."),
    ):
        assert refer(label, [said]).how == "phrase", label


def test_what_it_would_have_taken_is_asked_of_what_went_wrong() -> None:
    # rounds 198 and 202 asked it of the lad and the broker who fixed it
    ci = _methodology("critical_incident")
    spec = shipped_strategy(ci, "probe_attributions")
    for turn in range(2, 14):
        asked = ask(
            ci, spec, "woman called Sian", turn=turn, answers=["A broker called Sian sorted it."]
        )
        assert "go differently" not in asked, (turn, asked)


def test_a_state_they_are_in_is_asked_why_it_matters_not_what_it_gets_done() -> None:
    # round 202 asked "What were you trying to get done there?" of "no lying there worrying",
    # of sleep and of being dry ("I dont know what you're after there")
    jtbd = _methodology("jobs_to_be_done")
    spec = shipped_strategy(jtbd, "dig_motivation")
    for focus in ("no lying there worrying", "being dry", "sleep"):
        for turn in range(3, 9):
            asked = ask(jtbd, spec, focus, turn=turn, focus_type="gain_point", answers=[focus])
            assert "get done" not in asked and "let you do" not in asked, (focus, asked)


def test_what_made_a_feeling_is_asked_once_of_it() -> None:
    # round 203 asked 'You said "I was upset". What made you feel that way?' three questions
    # after 'You mentioned "I was upset". What was it that made you feel like that?'
    ci = _methodology("critical_incident")
    spec = shipped_strategy(ci, "probe_attributions")
    said = ["About Lily you mean? Well I was upset to be honest.", "Boots on the corner."]
    asked = [
        'You mentioned "I was upset". What was it that made you feel like that?',
        "You mentioned feeling a bit cut off. What happened next?",
        "Back to the Chemist. What did you want to say about that?",
    ]
    for turn in range(6):
        again = ask(
            ci,
            spec,
            "upset",
            turn=turn,
            avoid=asked,
            answers=said,
            focus_type="emotion",
            quotes=["I was upset"],
        )
        assert "feel" not in again, again
    # of another feeling it is asked, and "angry" is no feeling asked about inside "angry at
    # myself" (from the review)
    earlier = ['You mentioned "angry at myself". What made you feel that way?', *asked[1:]]
    for felt, before in (("gutted", asked), ("angry", earlier)):
        other = ask(
            ci,
            spec,
            felt,
            avoid=before,
            answers=[f"Then the bank. I was {felt}."],
            focus_type="emotion",
            quotes=[f"I was {felt}"],
        )
        assert "feel" in other, other


def test_an_adjective_before_for_is_no_doing_to_say_back() -> None:
    # round 203 asked "You talked about fitting for work" of "I just need to be fit for work"
    from interview_cli.llm.offline.asking.reference import refer

    said = ["Ha, well I don't. I just need to be fit for work, I suppose."]
    phrase = refer("fit for work", said).phrase
    assert phrase is None or "fitting" not in (phrase.noun + phrase.clause), phrase


def test_what_they_point_back_at_is_said_as_pointed() -> None:
    # round 203 asked 'You said "the ankle thing I mentioned". What difference does that make?'
    from interview_cli.llm.offline.asking.reference import refer

    phrase = refer("ankle", ["The grip matters. Plus the ankle thing I mentioned."]).phrase
    assert phrase is not None and phrase.verbatim == "the ankle thing", phrase
    comfy = refer("comfy", ["And the comfy bit I mentioned before."]).phrase
    assert comfy is None or "comfy bit" in comfy.verbatim, comfy


def test_what_would_happen_without_it_is_held_against() -> None:
    # round 204 asked 'You mentioned "stand there staring". Why is that important to you?' of
    # "If there was no card I'd just stand there staring at a bag of shallots"
    from offline_fixtures import shipped_mec

    def stances(said: str) -> dict[str, int]:
        read = extract(
            shipped_mec(),
            "cooking",
            said,
            ("recipe cards", "attribute"),
            question="What would happen if it wasn't like that?",
        )
        return {n.label: n.stance for n in read.nodes}

    assert (
        stances("If there was no card I'd just stand there staring at the shallots.")[
            "stand there staring at the shallots"
        ]
        == -1
    )
    assert stances("Without it I'd be lost.")["lost"] == -1
    # (not a clause said after another: "Without a car you need a good bike, and this one is
    # light")
    assert -1 not in stances("Without a car you need a good bike, and this one is light.").values()
    # (nor a wish: "If it wasn't so expensive I'd buy it every week", from the review)
    assert -1 not in stances("If it wasn't so expensive I'd buy it every week.").values()
    assert -1 not in stances("Without a doubt, it saves me an hour every night.").values()


def test_what_they_do_in_life_is_asked_how_it_shapes_the_job() -> None:
    # round 203 asked "What were you trying to get done there?" of "I work nights in
    # warehouse" ("Get done? Its my job mate")
    jtbd = _methodology("jobs_to_be_done")
    spec = shipped_strategy(jtbd, "dig_motivation")
    said = ["Morning for me is kind of night. I work nights in warehouse, so my coffee is at 5am"]
    for turn in range(6):
        text = ask(
            jtbd,
            spec,
            "work nights in warehouse",
            turn=turn,
            answers=said,
            focus_type="job_context",
            quotes=["I work nights in warehouse"],
        )
        assert "get done" not in text and "at the time" not in text, text


def test_a_second_doing_joined_on_is_a_doing_too() -> None:
    # my typed interview asked "What is it about watching anything or even answer emails that
    # counts for you?"
    from interview_cli.llm.offline.asking.reference import refer

    said = ["if I want to watch anything or even answer emails I need the data."]
    phrase = refer("watch anything or even answer emails", said).phrase
    assert phrase is not None and phrase.noun == "watching anything or even answering emails"


def test_a_why_whose_premise_is_denied_links_nothing_up_from_the_focus() -> None:
    # round 205's check-back read 'in and out the van 120 times' back as why going through
    # earbuds mattered, after "it's not important, it's just what happens lol"
    from offline_fixtures import shipped_mec

    focus = ("go through them like nobody's business", "attribute")
    said = "it's not important, it's just what happens lol. i'm in and out the van 120 times a day"
    read = extract(
        shipped_mec(),
        "headphones",
        said,
        focus,
        question="You said you go through them like nobody's business. Why is that important?",
        existing=[(focus[0], focus[1], "i go through them like nobody's business")],
    )
    assert not [e for e in read.edges if e.source == focus[0]], read.edges


def test_an_exclamation_is_said_back_as_said() -> None:
    # round 207 asked "You mentioned that funny how fast they move." and "You mentioned that
    # who'd have thought."
    from interview_cli.llm.offline.asking.reference import refer

    said = ["Just said they were a shower of cowboys. Funny how fast they move when its public"]
    assert refer("funny how fast they move", said).phrase.noun == '"funny how fast they move"'
    assert refer("who'd have thought", ["The council! Who'd have thought."]).phrase.noun == (
        '"who\'d have thought"'
    )


def test_a_list_said_again_after_thats_about_it_closes_the_list() -> None:
    # round 207 was asked "what else" twice more after it ("no grains" was read as "no,")
    from interview_cli.llm.offline.reading.assessor import assess_offline
    from interview_cli.llm.protocol import AssessRequest

    said = "Honestly that's about it really. no grains, vet says its ok, she eats it. Job done"
    assert assess_offline(AssessRequest(question="What else?", answer=said)).knowledge_ceiling == (
        "terminal"
    )


def test_the_recap_names_no_label_of_the_topics_own_words() -> None:
    # round 207 was told 'We covered "coffee", ...' in a study of morning coffee
    from interview_cli.llm.offline.asking.closing import clean_phrases

    said = ["Anyway I thought this was about coffee?", "The flask keeps it hot till break."]
    found = clean_phrases(["coffee", "flask keeps it hot"], said, "Morning coffee")
    assert [p.verbatim for p in found] == ["the flask keeps it hot"], found


def test_a_day_told_by_what_came_after_it_leaves_the_verb_its_particle() -> None:
    # round 209 made "printer packed parents evening" of "Our printer packed in the day before
    # parents evening"
    meth = _methodology("critical_incident")
    told = extract(meth, "banking", "Our printer packed in the day before parents evening.", None)
    assert [n.label for n in told.nodes] == ["printer packed in"]


def test_a_second_statement_after_and_is_a_clause_of_its_own_but_two_subjects_are_one() -> None:
    # round 209 read "I'm the office manager at a primary school in Swansea and our broadband
    # provider cut the whole school off" as one node, the job's label, and asked what happened
    # next of the job
    from interview_cli.llm.offline.reading.clauses import split_clauses

    def said(answer: str) -> list[str]:
        return [c.text for c in split_clauses(answer)]

    assert said("I work at a school and our broadband provider cut us off.")[1:] == [
        "our broadband provider cut us off"
    ]
    assert len(said("I had the flu and my husband cooked for a week")) == 2
    for one in ("the kettle and the toaster stopped working", "My mum and my sister cooked"):
        assert said(one) == [one], one
    assert said("Its quiet and the battery lasts") == ["Its quiet and", "the battery lasts"]


def test_who_they_are_sets_a_storys_scene_and_what_follows_it_answers() -> None:
    meth = _methodology("critical_incident")
    told = extract(
        meth,
        "banking",
        "I'm the office manager at a primary school in Swansea and our broadband provider cut "
        "the whole school off for a week",
        None,
    )
    least = meth.tuning.vetoes.min_focus_confidence
    sure = {n.label: n.confidence >= least for n in told.nodes}
    assert sure == {
        "office manager at primary school": False,
        "broadband provider cut whole school off": True,
    }
    # (the post they hold is a circumstance where the method has one: round 210 asked "What
    # were you trying to get done there?" of "I'm the site manager")
    jtbd = _methodology("jobs_to_be_done")
    said = extract(
        jtbd, "cooking", "I'm the site manager, if I'm not there the lads stand about.", None
    )
    assert said.nodes[0].label == "site manager"
    assert said.nodes[0].node_type == "job_context"


def test_someone_elses_view_is_no_node_to_ask_about() -> None:
    # round 210 asked why "she says oat tastes like porridge" mattered to the respondent
    from offline_fixtures import shipped_mec

    least = shipped_mec().tuning.vetoes.min_focus_confidence

    def sure(answer: str) -> dict[str, bool]:
        told = extract(shipped_mec(), "cooking", answer, None, strategy="explore")
        return {n.label: n.confidence >= least for n in told.nodes}

    said = sure("My girlfriend likes soy, she says oat tastes like porridge, but I love it")
    assert said.get("says oat tastes like porridge") is False, said
    # (in a story what was said is the incident: "I complained and they said the refund would
    # take ten days" was left for another incident, the second review)
    ci = _methodology("critical_incident")
    told = extract(
        ci, "banking", "I complained and they said the refund would take ten days.", None
    )
    assert told.nodes and told.nodes[0].confidence >= least, told.nodes


def test_every_time_it_happens_is_no_part_of_what_happened_each_time() -> None:
    # round 210 asked 'You mentioned that you rang it was a different person.'
    from interview_cli.llm.offline.reading.clauses import split_clauses

    said = split_clauses("Every time I rang it was a different person")
    assert [c.text for c in said] == ["Every time I rang", "it was a different person"]
    assert len(split_clauses("every time it rains the lane floods")) == 1
    # (the verb's object, or a belief, is no next subject: the third review)
    for one in ("Every time I put it on it rubs my heel", "Every time I thought it was fixed"):
        assert len(split_clauses(one)) == 1, one


def test_what_being_able_to_do_reaches_decides_its_level() -> None:
    # round 209 typed "being able to switch it" a value, which ended the ladder; the reviews:
    # "being able to go walking with my family" is what it lets them do, "being able to provide
    # for my family" and "... stay independent" are ends
    from interview_cli.llm.offline.reading.clauses import lexical_category

    assert lexical_category("being able to switch it") == "functional"
    assert lexical_category("being able to go walking with my family") == "functional"
    assert lexical_category("being able to provide for my family") == "conduct"
    assert lexical_category("being able to stay independent as I get older") == "conduct"
    # (the third review: keeping dry and staying out longer are what it lets them do)
    assert lexical_category("being able to keep my feet dry") == "functional"
    assert lexical_category("being able to stay out longer on the hills") == "functional"


def test_every_verb_before_a_noun_slot_agrees_with_it() -> None:
    # round 213 asked "What does your legs mean for you?": one wording wrote "does" where the
    # others let it agree ({does}, ``questions._agreeing``)
    from interview_cli.llm.offline.asking.wording import WORDINGS

    for family, words in WORDINGS.items():
        for text in (*words.noun, *words.thing):
            assert not re.search(r"\b(?:does|is|was)\s+\{np\}", text), (family, text)


def test_a_value_said_back_is_one_they_came_to_in_their_words() -> None:
    # the value an answer came to is said back before the question moves on (a typed lawnmower
    # interview), never a fear, a thing or a word made a verb (the review of round 231's rule:
    # "So for you it comes down to losing your marbles.", "... the app.", "... especiallying
    # the grandkids.")
    mec = _methodology("means_end_chain")
    concept = Concept(id="topic", name="mattress", methodology="means_end_chain", objective="x")

    def said_back(reached: str, answer: str, asked: str = "Why does that matter?") -> str:
        request = QuestionRequest(
            methodology=mec,
            concept=concept,
            strategy=strategy("explore"),
            turn_number=5,
            answers=[answer],
            recent=[Exchange(question=asked, answer=answer)],
            avoid_questions=[asked],
            reached=reached,
        )
        question = offline_question(request)
        return question.split(". ")[0] + "." if question.startswith("So for you") else ""

    assert said_back("being independent", "I suppose being independent.") == (
        "So for you it comes down to being independent."
    )
    assert said_back("sort my own house out", "I like being able to sort my own house out.") == (
        "So for you it comes down to sorting your own house out."
    )
    assert said_back("self-respect", "My self-respect, really.") == (
        "So for you it comes down to your self-respect."
    )
    for reached, answer in (
        ("losing my marbles", "Losing my marbles, honestly."),
        ("being lonely", "Being lonely. That's my worst fear."),
        ("ending up in a home", "Ending up in a home like my nan."),
        ("not ending up like my dad", "Not ending up like my dad, he was in a home at sixty."),
        ("app", "The app's good too, I can see my usage."),
        ("especially the grandkids", "Especially the grandkids."),
        ("my own house sorted", "My own house sorted, that's what counts."),
        # (the second review: a thing led by a doing, a place, a fear said plainly)
        ("walking club", "It's about the walking club, that's my happiness."),
        ("apartment", "The apartment, really."),
        ("falling over and breaking a hip", "Falling over and breaking a hip."),
        ("running out of money", "Running out of money."),
    ):
        assert said_back(reached, answer) == "", (reached, said_back(reached, answer))
    # ... and not twice running
    twice = "So for you it comes down to your self-respect. What else matters to you?"
    assert said_back("being independent", "Being independent.", asked=twice) == ""


def test_going_round_in_circles_said_of_now_is_owned() -> None:
    # round 242: "I feel like we're going round in circles a bit here" was asked on as if unsaid
    from interview_cli.llm.offline.asking.acknowledgements import _ASKED_ALREADY

    assert _ASKED_ALREADY.search("I feel like we're going round in circles a bit here. Sleep")
    assert not _ASKED_ALREADY.search("we're going round in circles with the council about it")


def test_a_question_of_theirs_about_the_thing_is_owned_and_its_subject_asked_about() -> None:
    mec = _methodology("means_end_chain")
    # round 250's concept test: "is there palm oil or a load of gums" was asked about the oat
    # "covers", then "Back to palm oil. What did you want to say about that?" three times
    said = [
        "what's in it apart from oats and peas though, is there palm oil or a load of gums",
        "still waiting on the palm oil answer btw",
    ]
    for answers in ([said[0]], said):
        for turn in range(4):
            question = ask(
                mec,
                strategy("deepen"),
                "palm oil",
                turn=turn,
                answers=answers,
                asked_back="palm oil",
            )
            assert question.startswith(("I'm afraid I can't", "Sorry, I can't")), question
            assert "palm oil" in question and "say about that" not in question, question
            assert question.count("?") == 1, question
