"""Offline follow-ups across a whole interview: what the closing recap counts as said, how
often a story's why and end are asked, and a request to go back said back however it was
typed.

Over 1,000 lines: the tiredness said of now is one test of two long lists, both ways (each
leaving a tester typed, and each routine a review found heard as one); they read best as one
table beside the others here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from offline_fixtures import extract, shipped_strategy
from test_offline_questions import _methodology, ask, strategy

from interview_cli.config.schemas import Concept
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


def test_the_offline_assessor_hears_tiredness_said_of_now() -> None:
    # round 198 asked four more questions after "Sorry I'm flagging a bit now, long day!"
    from interview_cli.llm.offline.reading.assessor import assess_offline
    from interview_cli.llm.protocol import AssessRequest

    def tiring(said: str) -> bool:
        return assess_offline(AssessRequest(question="Why?", answer=said)).tiring

    assert tiring("Looks a mess dunt it. Anyway I'm flagging a bit now.")
    assert tiring("I really need to sleep soon.")
    assert tiring("Anyway I've got rooms to turn round, is there much more?")
    # round 201
    assert tiring("gears, cable, fiver. sorry I'm flagging a bit, just off a night shift")
    assert tiring("he fixed them? can we wrap up soon, I need my bed")
    assert tiring("That's about it really, I'm running out of steam here.")
    # round 202, and a typed interview
    assert tiring("That's about it really. I'm getting a bit tired of this tbh")
    assert tiring("I'm flagging a bit now to be fair, the baby was up all night.")
    assert tiring("Honestly mate I've got a boiler in Canton at half ten, can we speed this up")
    # round 203: having to leave, said of now
    assert tiring("lol. Look I'm going to have to go soon, I've got to pick Bramble up at four.")
    assert tiring("Dry feet, no blisters. Sorry I really do have to dash.")
    assert tiring("wet feet are cold feet. Right, I'm off.")
    assert tiring("not ending up off work. Really have to go now, sorry!")
    assert tiring("Thank you anyway, I'm off to put the kettle on.")
    assert tiring("Sorry, I really have to go, my lift's here.")
    assert tiring("I have to go now, the baby's crying.")
    for plain in ("I have to go", "gotta go", "I need to go, sorry", "I'm off, bye"):
        assert tiring(plain), plain
    # round 206
    assert tiring("Right, I must dash, choir. Goodbye.")
    assert tiring("I meant I've run out of things to say. I need to get tea on")
    assert not tiring("I need to get the kettle on first thing, it's my routine")
    # (the third review: after an apology whatever calls them, and the classic leave-taking)
    for going in ("Sorry, I have to go, the kids need picking up.", "Right, I'd better go."):
        assert tiring(going), going
    assert not tiring("I thought, right, I'd better go, it was getting dark.")
    # round 207
    assert tiring("Listen I'm on shift at four so we'll need to be quick.")
    assert not tiring("Well it was quick, the engineer came next day.")
    # round 208
    assert tiring(
        "That's about it really. Fly's sat by her bowl, I'll need to feed her in a minute."
    )
    assert not tiring("I'll need to think about that in a minute.")
    # round 209: going soon said after a comma, really having to go, being quick, a ewe waiting
    for going in (
        "mum would lose it otherwise. ah hold on an order just came in, gotta go in a sec",
        "already said that bro, ears hurt. i really gotta go, food's ready",
        "you just remember it ha. Sorry I've got to be quick, the bell's about to go for lunch",
        "the broadband and the printer. That's about it, I really do have to go in a sec",
        "It's the flask. That's about it really, I've a ewe to check on.",
        # round 210
        "Honestly I've got a client call in about ten minutes so I'll have to wrap up soon, sorry.",
        "Then I'd drink it black. Sorry my shift starts soon, I have to go in like 10 min",
        # round 211
        "lets me have coffee? lol. sorry I'm knackered, been up since 4 yesterday afternoon.",
        "I'll answer a couple more now in a minute but I really need to sleep",
        "the flask tbh. I dunno. I really need to go to bed now",
        # (the second review of these rules: minutes to go, politeness, what calls them)
        "I have to go in 10 minutes.",
        "ok gotta go in 10 mins",
        "If you don't mind, I have to go now.",
        "If that's everything, I really have to go now, sorry.",
        "I really have to go, I've got to pick the kids up.",
        "I really must dash, choir.",
        "Look I've got to be quick, the bell's about to go.",
        "Yeah that's about it, I've got a ewe to check on.",
        # round 212: who needs them, a sign-off first, being quick, goodbye as the answer ends
        "Look I have to go in a few mins, the young lad needs collecting from training",
        "grand, the kids are great. Thats about it really, I need to head",
        "Nowt, that's the point man. Hang on, oven timer's going, I'll have to be quick.",
        "Pick up the bloody phone. Right, me stotties are burning, ta-ra pet.",
        "Look, sorry, I'll have to wrap up soon, it's nearly maghrib and I need to break my fast",
        # (the third review: a polite condition, what calls them, plain minutes to go)
        "If there's nothing else, I really have to go now",
        "I really must dash, choir",
        "Sorry my train leaves in 10 minutes",
        "Sorry, I've got a meeting in ten minutes",
        # round 213
        "Btw my standup starts in like 10 min so maybe couple more questions",
        "The morning one. Sorry really need to go in few minutes",
        "Being nice to devs lol. Seriously I have to go now",
        # round 214
        "thats it. oh and sorry I've got to go soon, my placement shift starts at 2 at the QMC",
        "It doesn't affect me love. Anyway that's me, break's over, 576 leaves in two minutes",
        "Sorry, I'll have to be quickish, I've got to pick my daughter up from netball in a bit.",
        # (the fourth review: politeness before the leaving, leaving said as leaving)
        "After this one, I really need to go.",
        "Once we've done this one, I have to go now.",
        "Sorry, I need to leave now.",
        "I have to leave in five minutes, sorry.",
        "Sorry, I really need to sleep.",
        # (the fifth review: a chat tail, "like I said", "I think I'd better go")
        "I really have to go now lol",
        "Like I said, I have to go now.",
        "Right, I think I'd better go now, sorry.",
        # (the plainest leavings the fifth review found missed)
        "I'm gonna have to go, sorry.",
        "sorry mate gotta go",
        "Gotta go, tea's ready",
        "the noise mainly, gotta go",
        "Better be off now, ta",
        "I'm off now.",
        "Mostly the price tbh. The baby's crying, I have to go",
        "how many more questions",
        # round 215: a break nearly over, minutes left, back to work, quick ones
        "switches my head off from work i guess. anyway my break's nearly done, got like 5 mins",
        "haha nah that aint about my phone bruv, i mean i gotta go back on the floor soon. "
        "quick ones pls",
        "Sorry, I need to get back to work",
        "ok, sorry my break's nearly over",
        "anyway I've only got 5 mins",
        # round 216: leaving with what calls them and a last word after, heading, a call and how
        # many more, the tea going cold
        "Listen I'm going to have to go in a minute, I've to collect the youngest from training "
        "at half 5. But the smell, ye just don't want the whole house smelling.",
        "Nothing, honestly, I've told you the lot. I really do need to head here.",
        "I told him to buy a new one. Anyway I've got a call in like 10 mins, is there much more?",
        "I felt stupid, that is all. Excuse me, my tea is getting cold here.",
        # round 217: what calls them said without its "I've", a reason after "go now", a
        # lunch break with how much more, a nap, flagging with an address, a Brummie goodbye
        "Anyway I'll have to go in a minute, got to pick my daughter up from netball",
        "The earplugs are for her snoring. Look I really do have to go now, netball finishes at 6",
        "Sorry my lunch break's nearly over, have we got much more?",
        "Is there much more bab? Only I'm ready for my afternoon nap.",
        "Honestly young lady I'm flagging now, that's about it really.",
        "No, I think we've done that to death bab. Tara a bit.",
        # round 218
        "Because money is tight. Sorry I have to go sleep soon, shift starts at 8 tonight",
        # round 220: after a routine's "before I go in", "now in a minute" with an address, a
        # lunch nearly over and the going back, finishing quickly asked
        "Puts me at ease before I go in I spose. Look I'll have to wrap up in a bit, Carol needs "
        "the car soon.",
        "Nothing really. I got to go now in a minute butt.",
        "the parking, 9 euro a day. sorry my lunch is nearly over, have to head back to the "
        "dispensary in a few mins",
        "Oh sorry a delivery van has just pulled up outside, I have to go and check it in, can we "
        "finish quickly please.",
        # round 221: wrapping up soon with what calls them, an address after the apology, how
        # much more asked after the bell
        "It doesn't wake the wee one. look can we wrap this up soon, the weans are just in fae "
        "school and they're starving",
        "I telt you, it doesnae wake the wean. sorry hen I really need to go, Jamie's shouting "
        "for his tea",
        "It's an ornament. Look, the bell's about to go in a couple of minutes, have you got much "
        "more?",
        "Have you got much more?",
        # round 223: quick now with what calls them, wrapping up said as "gonna have to"
        "Saves my back bending down. Look, I'll have to be quick now, the cricket's starting in "
        "ten minutes and Yorkshire are batting.",
        "nobody wants their sleep wrecked. Look I'm gonna have to wrap up soon, I need to get my "
        "head down before tonight's shift",
        "Half right. I never said a mown lawn was what mattered. Right, I'm off, cricket.",
        # round 224: "I'll need to go in a minute" after a dash and with what calls them, said
        # again, "Really, I must go"
        "Och, and that's the bell going for the end of break - I'll need to go in a minute, I'm "
        "on the gate.",
        "Nae licence nae wage. Look I'll need to go in a minute, I've to get the boys fae football",
        "No, that's about it really. I said I have to go - the bell's gone.",
        "We got reconnected, I told you. Really, I must go, the P5s are lining up. Sorry.",
        # round 225
        "Happier, fitter. Sorry love, I'll have to be quick now, I've got a patient at half two.",
        "First time up Bwlch hill, nearly cried. Now in a minute I really do have to go.",
        "Listen my train's pulling in to Great Victoria Street so I'll have to go in a minute.",
        # round 226: whatever calls them, as the answer ends; the break is over
        "Ah I've told you that one a few times now. Look I'm going to have to go in a minute, "
        "I'm on a late tonight and I need to get the bike charged lol",
        "Nothing really, it was just a tyre. Sorry I genuinely have to head, I'm on a late",
        "I just said, the battery. Look my break is over, tacho says I have to go, I have to "
        "drive now sorry",
        # ... goodbye with the errand (the closing summary read them back)
        "Sort of? The first bit's right. Anyway ta-ra, got to do the tea",
        "Just that the shop should have had a loaner. Right, off to work, bye",
        # round 227: after what calls them, after a comma; done, as a Scot says it
        "I told you that at the start didn't I? Oh ay up, that's the delivery driver at the "
        "door, I've got to go me duck, sorry",
        "Naw I think that's me done to be honest. Those are the two big ones",
        "I said, that's me done pal. Paying them money and getting treated like a nuisance.",
        # (a habit before it, the going said of now: the review)
        "I always enjoy a natter, I've got to go now, sorry.",
        # round 229: what calls them, then "so" the going; thanks and goodbye
        "Not really, that's about it. Sorry I've got a patient in five so I'm gonna have to go "
        "in a sec",
        "Just that the insurer needs to sort itself out. Ta, bye!",
        # (the review of round 228's mends: what calls them now, a bare goodbye with its
        # errand, "that's me done" after a lead word)
        "Oh that's the door, I've got to go.",
        "Right, my lift's here, I have to go.",
        "Bye, got to pick the kids up from school.",
        "Anyway, that's me done.",
        # round 230: the last sentence plainly, said again, what is starting
        "Just that a voice is better than an email, that's aw. I'll need to go.",
        "He fixed it. I said I need to go hen, she's sitting in the chair.",
        "I already said most of it. Also my stand-up is starting in 2 minutes, sorry.",
        # round 231: a leaving said last, to the interviewer, whatever its lead
        "Nothing bab, I've said it all. I've got to go",
        "I already said, feel settled I suppose. That's about it really, I have to go back in",
        "I felt a bit daft. Anyway our Sharon's picking me up for bingo in a minute",
        "Thats about it really. Shes outside beeping now",
        "If you mean the car, they fixed it. Listen I've got a job coming in soon, airport run, so "
        "I've got a few minutes left max.",
        "Nothing happened next, I just pay the bills. My job is pinging now, are we nearly done?",
        "To a friend I'd say do it. Sorry my lunch break is nearly over, I've about 5 mins",
        # round 232: going said as "be going", after what is due now
        "I think thats about it really. And my bus into town is due in ten minutes so Ill have "
        "to be going now in a minute",
        "Honestly I'd rather not. Sorry, Im gonna have to be going now",
        "Right, I've got to crack on now.",
        "It was good. Anyway I've got to get going.",
        # round 233: where they must be soon, and wrapping up with a closing after it
        "No, I think thats it. I'll need to get to the sorting office soon, the van leaves at 6",
        "It's a screen. Look I'll have to wrap up, Pat needs the phone to ring her sister. "
        "That's about it really.",
        "Thats about it really. Anyway I've got a meeting in five minutes so I'll have to leave "
        "it there.",
        # round 234: the ride come for them; someone calling for them, with a lead word
        "Oh, I'm afraid my taxi's just pulled up, I've a hospital appointment at half past.",
        "proper coffee at home for pennies basically. sorry the gaffer's shouting for me, we're "
        "away to the wholesalers, gonnae have to be quick",
        # (the third review: someone come for them now, with no lead word; "well" before a
        # going that is only a leaving; a break's contraction)
        "Stops me slipping. Shes outside beeping now",
        "My taxi's outside now.",
        "My husband's picking me up now.",
        "Well, I've got to get going.",
        "Right well I've got to get going.",
        "My break's nearly over, I've got 5 minutes.",
        # round 235: what starts in a few minutes, after a going
        "Got to go, my shift starts in ten.",
        "Right, got to go, my shift starts in ten",
        "I have to go, the bus leaves in 20 minutes",
        "eh, i just said that, price is fine if its honest, upload is what i care about. sorry, i "
        "need to wrap up, stream starts in 20 min and i havent eaten. dzięki, good luck with the "
        "research",
        "Honestly I think I've said it all. Sorry I'm going to have to go in a sec, Biscuit's "
        "doing his whining at the door thing and I've got to pick my daughter up from drama",
        "Sorry, I need to wrap up. Thanks, bye!",
        # round 236: the interview left where it stands, after a thanks; out of anything more
        "I think that's really all I have in me, I'm afraid; Mungo is shouting for his tea and "
        "the hip has started its evening complaint. Thank you, it's been rather more "
        "thoughtful than I expected a conversation about hoovering to be; I'll leave it there.",
        "Thank you, it's been lovely; I'll leave it there.",
        "Honestly that's all I have in me.",
        # (the review of round 235's rules: close variants, a sign-off after what starts)
        "I've got to go, my shift starts in ten",
        "I must go, my train leaves in 5 minutes",
        "Got to go, work starts in ten",
        "Have to go, my class starts in 15 minutes, sorry",
        "sorry, i need to wrap up, stream starts in 20 min. Thank you so much, bye",
        "Sorry, I need to wrap up. Thanks for your time, good luck",
        # round 237: a goodbye sentence after the going; the interview left where it stands
        # after "so"; asked to be quick with when they are on
        "thats about it really, bill i can trust, signal that works, and not bein stuck. right "
        "ive gotta shoot bab, bus wont drive itself. tara-a-bit, up the villa!",
        "Right, I have to go. Tara-a-bit, up the villa!",
        "nah thats about it to be honest. im on a 6am tomorrow so im gonna have to leave it "
        "there bro",
        "sorry ive got to be quick now, on in 10 mins",
        # (the second review: thanks after a comma, "I've got")
        "Sorry, that's all I've got in me today",
        "I'll leave it there, thanks.",
        "Sorry, I need to wrap up, thank you so much",
        "I think I'll leave it there.",
        # round 238: the errand said as what they are doing
        "Mate you asked me that at the start lol. Look I gotta shoot, picking my daughter up "
        "from nursery. Think thats all you're getting from me, cheers",
        # round 239: the interview left where it stands with what calls them after it, and
        # sorry for the length; minutes left after "so"
        "Ah listen I'm going to have to leave it there, the kettle's boiled and my neighbour "
        "Peggy is due over at four and I haven't the place tidied haha. Sorry now, I've talked "
        "your ear off. Good luck with it.",
        "Not much else honestly, I think I've said the main stuff. Sorry I'm a bit distracted, "
        "one of them's just woken up from the nap so I've probably only got a couple of minutes",
        # round 240: a going after "howay", with what calls them after a comma
        "Nah thats about it pet. Howay I'll have to go, me shift starts at 2 and I've not had "
        "me dinner yet",
        "Right, I have to dash, the kids are fighting over the remote",
        # (the review of round 240's rules: close variants)
        "Right I'll have to get off, me tea's on the table",
        "Right I have to go, the little one's woken up",
        "Ah listen I'm gonna have to leave it there cos the kettle's boiled",
        "Listen I'm going to have to leave it at that, the kettle's boiled",
        "Ah listen I'm going to have to leave it there, the kettle's boiled. Hope that's helped. "
        "Good luck with it.",
        "Ah listen I'm going to have to leave it there, the kettle's boiled. Sorry for rambling.",
        "Ok I'll have to wrap it up now, my lift's here",
        "Sorry, the baby's awake so I only have a couple of minutes",
    ):
        assert tiring(going), going
    for told in (
        # (round 226's reviewer-to-be: a going that is a route or a habit; a break over in
        # the story)
        "Sorry I have to go through the app to book, which is a pain",
        "She said bye, got to go to the other desk and never came back",
        "After that, that's me done with Vodafone for good",
        # (the review of round 226's leavings: a break over at a time or with more to ask, a
        # reason or a routine after the going, the going reported)
        "My break is over at half two so I drink it fast.",
        "Then I drink it at my desk. My break's over before I've even sat down with it.",
        "I'm on hold for ages. My lunch break is nearly over and I still haven't spoken to anyone.",
        "Ok my break is over at 3 but go on",
        # (the leavings said last, from the other side: a routine's minutes, a going with a
        # reason or a habit before it, someone here now with more said after it)
        "How long? I've got about 10 minutes.",
        "Lunch? So I've got 45 mins.",
        "I drink it standing at the counter because I've only got two minutes.",
        "The coffee goes straight through me, I have to go",
        "When the alarm goes, I have to go.",
        "Every morning I have to run.",
        "My mum's here now most days.",
        "I was gulping it because my break is nearly over by then",
        "If the battery dies I have to go home.",
        "The bus is due at ten past so I have to run.",
        # (the review of round 231's leavings: a reason or a routine ending on a going, a
        # complaint or a household said of now, how long something takes, a break in a routine,
        # a quoted child)
        "Because in the morning I've no time. I've got to crack on.",
        "Cos mornings are mad. I've got to get going.",
        "Speed matters to me. I've got to get back to work.",
        "It's quick, I press the button and that's it. I've got to be off.",
        "The app is pinging me all the time now.",
        "My daughter's here most days now.",
        "Why now? Well, winter's here now.",
        "Since the new update, my phone is buzzing nonstop now.",
        "Not long, I've got 10 minutes.",
        "Between calls, I've got 5 minutes tops.",
        "Honestly, I've got about five minutes.",
        "Because by the time I get served, my break is nearly over.",
        "Every car trip it's the same. Are we nearly there?",
        "Every day I have to get to the depot soon after six.",
        "So I need to get to the shop soon, the milk's run out.",
        # (the second review: a routine or a story before a going, a contract ending, a break
        # in a routine, a goings' weaker verbs after "well", life these days, a plain going of
        # "we", someone picking them up these days)
        "Usually the bus is due in ten minutes so I have to run.",
        "The app won't load my ticket. And the train is leaving in two minutes so I have to run.",
        "My contract is due to end soon so I need to leave.",
        "By the time I've queued, I've got ten minutes left.",
        "The queue takes twenty minutes. My lunch break is nearly over, so I grab a meal deal.",
        "Well, I've got to get back to work.",
        "The alarm goes off. We have to leave.",
        "Since I lost my licence, my son's picking me up from the shops now.",
        "It's got so popular. The queue is outside the door now.",
        "They finally found it. The parcel's waiting for me at the depot now.",
        "My watch is beeping at me non-stop now.",
        "My watch is beeping at me for everything now.",
        "The taxi was late and the driver was shouting at me the whole way.",
        # (the third review: an allowance left, a need soon, a life plan)
        "On a good day I've got fifteen minutes left.",
        "By the end of the month I've got like 20 minutes left.",
        "Look at my plan, I've got 200 minutes left.",
        "I need to get to the dentist soon.",
        "My roots are showing. I need to get to the hairdresser soon.",
        "The baby's due in March so we have to get going now.",
        "Winter's coming soon so I have to get going now.",
        # (the fourth review: a ride in a routine or a story, a lift that is an elevator, a
        # grievance said with a lead word, an allowance of minutes)
        "I waited forty minutes in the rain. The cabs arrived.",
        "I press the button on the app. The taxi's here.",
        "I pressed the button. The lift's come.",
        "Anyway the taxi's arrived, I've got an appointment at ten so I was fuming.",
        "Look the boss is calling me into the office every day about it.",
        # (round 239's rules from the other side: a car left where it stands, minutes a
        # routine has, an apology that is no goodbye)
        "The car park was full so I'll have to leave it there, which is annoying",
        "Sorry, the bus was late so I've only got five minutes for lunch most days",
        "I hate the noise. Sorry.",
        # (round 240's from the other side: a going told as a routine, after "well" or "so", or
        # with where to)
        "Well I have to go, there's no other dentist near me",
        "So I have to go, the bus is the only way",
        "Anyway I have to go to the dentist every six months, it's a pain",
        # (the review: wrapping up or stopping as content, a going as a duty, a story's minutes)
        "Well I have to wrap up, it gets bitter on the bike by December",
        "Right I have to stop there, the lights at the junction take forever",
        "Ok I have to call it a day, my knees can't take more than 20 miles now",
        "Look I have to go, my shift starts at 6 and the first bus isn't till 7",
        "Listen, I have to go, the branch is the only place that does it now",
        "Sorry, I'm rambling, but the point is the kids eat at five so I've only got 20 minutes",
        "Listen, the connection at Crewe is tight, so I've only got 5 minutes",
        "Look, the meeting before mine always overruns so I've got maybe 5 minutes",
        "So I'm on hold, right, the supervisor's calling me a liar.",
        "Look, I've got 200 minutes left.",
        "If I miss it I have to go, the bus leaves in 20",
        "I need to run, my shift starts in ten and the battery's flat",
        "When I had the car I had to go, my shift started in ten",
        "Well, I need to stop, it hurts when I ride",
        "Sorry, I need to wrap up the sandwiches, lunch starts in 20 minutes",
        "When it's charged, I'll leave it there.",
        "I leave it there overnight.",
        "I'll leave it there for the summer, in the shed.",
        # (the review of round 235's rules: what starts in hours or weeks; a stop on the ride)
        "Not yet. I have to go, my appointment is in 2 weeks.",
        "Honestly? I have to go, my shift starts in 10 hours",
        "Well I have to stop, cramp starts in 10 minutes and I can't pedal.",
        "Ok I have to stop, the headache starts in 20 minutes and i take them off",
        "I need to run. Keeps me fit.",
        "Right, I have to go, every day at six.",
        "If it rains I have to leave it there, in the shed",
        # (the second review: what is all they have in them after work; a thing left)
        "Beans on toast mostly. That's all I have in me after a twelve hour shift.",
        "The old bike's in my mum's garage. I'll leave it there.",
        "Picking my daughter up is a faff, I have to go every day at three.",
        # (the third review: where the bike is left, a routine set before the going, what is
        # all they have in them after work, a thing left)
        "I cycle to the station and have to leave it there.",
        "No bike storage at work so I've got to leave it there",
        "Work is flexible. Most days, I really have to go, collecting my son from school.",
        "After a twelve hour shift its beans on toast. Thats all I've got in me.",
        "My old road bike is at my mum's. I think I'll leave it there.",
        "My break's up in five, ask your next one",
        "Look, I have to go, I've got no choice, the job is the job.",
        "Honestly I have to get going, I'm useless till I've had one.",
        "Ok I have to run, I'm late most days, so it's a takeaway cup.",
        "Honestly, I need to run, I've got a race in March",
        "I told the agent, look, I have to go, I'm driving",
        "So I'm like, look, I have to go, I'm on my lunch",
        # (the review of round 227's: a need told, a routine's end, a goodbye in a routine)
        "The coffee goes straight through me, I have to go.",
        "One flat white at seven, that's me done.",
        "Look, the hills are steep so I have to go slow",
        "The match is starting in 10 minutes so we leave early",
        # (the review of round 229's: a routine's end after a comma, a reason before "so", a
        # time after what calls them, a story's brush-off)
        "One coffee a day, honestly, that's me done.",
        "Anyway the nearest decent coffee is in town so I have to go.",
        "The bus is here at ten past seven, I have to run.",
        "I asked for a refund and the agent just said it's not our policy. Cheers, bye.",
        "Look, I have to head up the hill every morning so the motor matters",
        "Right, I have to go, every day it's the same, the bus never comes",
        "When my break is over I have to drive another four hours",
        "My break is over by the time I get served at Costa",
        "I really have to run, it keeps me sane",
        "We always finish quickly.",
        "When the baby wakes I'll need to go in a minute to settle her, so I keep it short.",
        "I said I have to go and he laughed.",
        "The bus is at 8 so I'll have to go in a minute to catch it.",
        # (the review of rounds 223-225's rules: what they said or thought in the story, a
        # provider left, why they go somewhere, off work)
        "The engineer wanted me to wait in. I said I had to go. Then they called back.",
        "The engineer looked at it, I'll need to go now, he says, the part's not in.",
        "She just goes - I'll have to go now, bye - and hung up.",
        "Honestly, I'll need to leave soon, the prices keep going up.",
        "Really, I have to go, the doctor told me to.",
        "Weekends? Okay, I'm off, mostly.",
        "Really, I must go to the gym more.",
        "Weekends, I'm off, fishing.",
        "I'm going to have to wrap it up warm in winter.",
        # (the review of rounds 222-223's rules: tiredness told of their life, "have you many
        # more?" asked in a story)
        "Work's been mental lately. I'm getting really tired.",
        "The shop only had two boxes left so I asked the lad, have you many more?",
        "We walked for miles, is there much more? the kids kept asking",
        "I want to finish quickly so I can get home.",
        "I used to love the job. I'm knackered now",
        # (round 215's: a break that runs out in a story, going back to work in a routine)
        "By the time it's free, my break's nearly over",
        "I queue twenty minutes, so my break's nearly done",
        "I have to get back to work after lunch so I grab a coffee",
        "they ask quick questions",
        "I really need to head to the shops",
        "By the time I sit down my tea is getting cold",
        "After the round I'm ready for my bed, so comfort matters",
        "I really have to go now and then, the bladder",
        # (the review of rounds 215-217: routines, pains, answers, stories told in the present)
        "Most mornings, I have to leave in ten minutes, so maybe a coffee in the car.",
        "On shift days, I have to leave for work in 10 minutes, so just grab and go.",
        "I make one and sort breakfast. Anyway, my coffee's gone cold.",
        "Mostly billing stuff, quick questions.",
        "Lunch? Ok, I've got 45 mins.",
        "The train gets in at 8:50 and I start at 9. Right, I've only got ten minutes. So I ran.",
        "I queue for twenty minutes at the microwave. My break's almost over.",
        "So the lad said to me, look, my break's nearly done.",
        "My maternity leave ends in March, I mean I have to go back to work.",
        "It gets dark at four, so I really need to head.",
        # (the second review: "now" as these days, a bed in a routine, a reason after "that's",
        # a routine's next step, going back to work after leave)
        "They shut the station last year. Honestly I have to go now, by bus, and it takes an hour.",
        "Night shifts are brutal. I'm ready for my bed.",
        "Mate I'm knackered now, that's what the night shifts do to you.",
        "On a Monday, I have to go soon, my shift starts at 2.",
        "Every morning it's the same. Right, I have to go, need to get the kids to school.",
        "My maternity leave is nearly over, I mean I have to go back to work soon.",
        "At the till I've got to be quick, people queue",
        "If the baby wakes, I have to go.",
        "My shift starts soon after six so I have coffee.",
        "I'll have to wrap up warm in winter.",
        "I wrap it up in foil",
        # (the review of round 209's rules: routines, amounts, conditions, someone's words)
        "Beans on toast, that's all I have the energy to make.",
        "When the kids leave at 8, that's it, I've got my marking to do.",
        "Look, I have to be quick, that's the job.",
        "After the second cup, I really have to go, every time.",
        "If the nursery rings, I need to go soon.",
        "She's always like, I really need to go, mum.",
        "The baby means I really need to sleep",
        "And I'm looking at the board, my train leaves in five minutes, and nobody picks up.",
        "Most mornings, I've got a meeting in ten minutes so I just grab whatever's quickest.",
        "It's bitter on the fells in January so I have to wrap up.",
        "Bake it, cool it, then I'll wrap it up.",
        "She came to the door and I just said, bye.",
        "I need to head to the shops first",
        # (the third review: the coffee going through them, sleep as a routine, a routine's
        # minutes, a reason after being tired)
        "It goes straight through me. Halfway through the meeting, I really have to go, no joke.",
        "No coffee after 3pm, I really need to sleep.",
        "Once the kids are down, I really need to sleep",
        "After breakfast, I have to go in ten minutes.",
        "Honestly I've got a call in five minutes so I grab an espresso",
        "Honestly, my shift starts in 10 minutes, so I grab a flat white on the way",
        "Sorry I'm shattered, been up since 5 so I need boots that don't rub.",
        "Break's over before you know it, so I drink it fast",
        # (the fourth review: what more they can do, a story's goodbye or last question, a
        # routine's quickness, a present-tense story, a sign-off inside a routine, warm clothes)
        "With the new battery I can do two more days before charging.",
        "The agent just said thanks for calling, goodbye.",
        "I cancelled the contract, bye bye.",
        "Weekdays I'll have to be quick, so it's toast.",
        "The shop was closing and I thought, I'll have to be quick.",
        "She had just one more question for me, about the refund.",
        "So I'm on the platform panicking. I've got an interview in ten minutes!",
        "Right, my train leaves in five minutes, I have to buy a ticket, and the machine is broken",
        "Every morning it's coffee and toast, that's it, I have to run.",
        "It's November, I need to wrap up now, the wind up top is brutal.",
        "Weekdays are mad, I really have to dash, every morning.",
        # (the fifth review: a provider left, a routine's break, a complaint, a condition)
        "Honestly, I need to leave, my contract's up next month.",
        "By the time it's done, my break is over.",
        "Nobody ever rings back when they say they will. I'm getting really tired of this.",
        "First cup is fine. After that, I really need to go.",
        "I'm gonna have to go back to the shop tomorrow",
        "You'd better be off before the rush, that's the trick",
    ):
        assert not tiring(told), told
    # (tiredness in the story is no tiredness now: from the review)
    for story in (
        "I'm always tired after a night shift, the coffee fixes it.",
        "Without it I'm knackered all day.",
        "The kids kept moaning, are we nearly done?",
        "He rang at midnight and I told him, sorry, I'm exhausted.",
        "I need to go soon, the appointment's on Friday.",
        "I used to love the job. I'm knackered now.",
        # (the second review: a habit, and a reason given)
        "Decaf after lunch, honestly I need my sleep.",
        "By about 3pm, I'm running out of steam.",
        "I have to dash to get the bus most mornings",
        "I'm off work on Mondays.",
        "When the bus is late I have to run.",
        # (the review: a routine or a reason told, a going thought in the story)
        "Coffee made, I'm off.",
        "Fill the flask, I'm off to walk the dog.",
        "Mornings are manic, I have to dash.",
        "If the baby wakes up, I have to go.",
        "I thought I'd better go, it was getting late.",
        "The kids kept moaning. Are we nearly done, my legs hurt.",
        # (the second review: an obligation with its reason, a going thought in the story)
        "Honestly I need to run, otherwise I go stir crazy",
        "Look, I have to go, there's no one else to take her",
        "So I thought to myself I'd better go, it was getting dark.",
    ):
        assert not tiring(story), story
    for now in (
        "Like I said it's the grip, sorry I'm knackered.",
        "When I was younger I'd do the whole thing. Sorry, I'm running out of steam here.",
        "Ok, how many more questions?",
    ):
        assert tiring(now), now


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
    ):
        assert owned(said).startswith(heard), (said, owned(said))
    for told in (
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
