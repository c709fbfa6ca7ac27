"""A leaving said last, read by its parts (``reading/leaving.py``): a going of theirs, said of
now, with nothing after it that makes it a routine or a story. The phrase files' cases are
``data/readings/leavings.yaml`` (``test_offline_followups``); these are the parts' own."""

from __future__ import annotations

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.offline.reading.leaving import leaving_said_last
from interview_cli.llm.protocol import AssessRequest


def _hears(answer: str) -> bool:
    return assess_offline(
        AssessRequest(question="Why does that matter to you?", answer=answer)
    ).tiring


@pytest.mark.parametrize(
    "answer",
    [
        # slang only ever said of now, and a goodbye after a going
        "k gotta dash now bye",
        "ok that's me, gotta head off now, the dog needs out",
        # words that end the talk itself
        "sorry folks, need to log off, meeting in five",
        "right I'm calling it a night",
        "can we finish up there? my tea's ready",
        "no more for me tonight, I can't keep my eyes open",
        # a going with a word of now, or a goodbye after it
        "I'm off to bed now, cheers",
        "the heating's fine mostly. anyway I'll have to go, thanks for this",
    ],
)
def test_a_going_of_theirs_said_of_now_is_heard(answer: str) -> None:
    assert _hears(answer)


@pytest.mark.parametrize(
    "answer",
    [
        # a going somewhere named, with no word of now
        "I have to go into town for it, the local one never has it",
        "gotta go to Aldi for the oat one",
        # a routine, a story, a reason of the answer
        "On a Friday I have to dash, the nursery shuts at six",
        "I had to leave the car at the garage, so the bike it was",
        "It's the only one near me, so I have to go there",
        "My knees are bad so I can't keep going on the long rides",
        # someone else's going
        "My husband has to go at six so he takes the car",
    ],
)
def test_a_going_in_the_story_is_not_heard(answer: str) -> None:
    assert not _hears(answer)


def test_the_leaving_read_by_its_parts_is_no_node() -> None:
    # the last sentence is the leaving: the content before it is read, the leaving is not
    said = "The range mostly. k gotta dash now bye"
    labels = [n.label for n in extract(shipped_mec(), "commuting", said, None).nodes]
    assert labels == ["range"]


def test_only_the_last_sentence_is_read() -> None:
    # a going said earlier and an answer after it: the answer goes on, no leaving
    assert (
        leaving_said_last("I'm off now. Actually no, the price matters most.", signed_off=False)
        is None
    )
    start = len("The price. ")
    assert leaving_said_last("The price. I'm off now, sorry", signed_off=False) == (start, start)


def _going(answer: str) -> bool:
    return assess_offline(
        AssessRequest(question="Why does that matter to you?", answer=answer)
    ).going


@pytest.mark.parametrize(
    "answer",
    [
        "sorry got to go now, my bus is here. bye",
        "Got to go, sorry. Hwyl",
        "Thank you, it's been interesting, but I'll stop there if you don't mind",
        "Look I need to go, I've got a rewire in Shawlands at 2 and I'm already late. Cheers",
        "sorry ive just been bleeped, got to go, ward's kicking off. hope thats useful!",
        "i'm gonna have to leave it there mate. good luck with it",
        "thats me done, bye!",
        "I'm done for tonight",
        # round 274: a cue to go, said as the answer closes
        "Oh and Biscuit has just knocked a glass off the side so I think that's my cue",
        # round 276: what calls them said at length, a goodbye in another tongue
        "Its home I guess. Look I'm going to have to love you and leave you, my tea's going cold "
        "and the dog next door is howling",
        "Not really, its more that the car never lets me down. Anyway must go, salaam",
        # round 277
        "Sorry, I really do have to go, 30 books on the Romans aren't going to mark themselves. "
        "Diolch, hope it helps, hwyl!",
        # round 282: an address before the going, and slang for it
        "Well so I don't upset the neighbours, they've been good to me. But I'm sorry love I "
        "really must go now, Jean will be outside tooting. It's been nice chatting, thank you",
        "nah i think thats most of it. sorry ive gotta dip, my bus is in 5 and im already "
        "cutting it fine. cheers tho",
        # round 284: "if you don't mind" before what calls them
        "I think I've said most of it. I'll have to leave it there now if you don't mind, my "
        "sister's due round at four and I've the tea to put on. Thank you for listening.",
        # review rv65: leads of every kind, and "dip" as slang
        "aw sorry gotta go x",
        "lol sorry gotta go",
        "ooh sorry I must dash",
        "I'm really sorry I'll have to leave it there",
        "gotta dip lol",
        # round 286: a last word or two between the going and the goodbye
        "ah I'm going to have to leave it there, I've a pile of discovery docs to get through "
        "before tomorrow and I'm wrecked. bike 1 walking 1 taxi 5, the rest you can guess. best "
        "of luck with it!",
        # round 285: an appointment of theirs is what calls them
        "clients changing their minds mostly haha. sorry, I'm going to have to wrap up, I've got a "
        "call with a client at half past and my coffee's gone cold anyway",
    ],
)
def test_a_going_said_of_now_is_a_leaving(answer: str) -> None:
    assert _hears(answer) and _going(answer)


@pytest.mark.parametrize(
    "answer",
    [
        # tired, or asking what is left, but staying: heard as tiring, not as going
        "Sorry I'm flagging a bit now",
        "is there much more?",
        # a going later: the interview may close when it would, not at once
        "I'm afraid I'll have to go soon though, it's book club at half six.",
        "I've got to go in a bit so a couple more",
        # done, with nothing more to say: the respondent with little to say, closed as such
        "thats me done",
        # a topic put down, a thing given up, time off, a break, a routine (review rv62: each
        # closed an interview at its first answers)
        "can we stop talking about the price, it's the comfort that matters",
        "Let's leave it there on the mortgage, I'd rather not say",
        "I can't carry on with this phone, the battery's dead by lunch",
        "I'm off now till January",
        "sorry got to go, back in 5",
        "I've got to run now three times a week for the half marathon",
        # the cue of a habit (review rv63)
        "battery light goes red and thats my cue",
        "Bus shows 'due' on the app, that's my cue to go.",
        "payday, thats my cue lol",
        # (a dip is no going but said plainly of them; nor a "but I must" of a choice)
        "you have to dip the fries in it, its the best bit",
        "I need to dip into savings for that",
        "I'm sorry but I must go with the cheaper one, the budget is tight.",
        # (review rv65: a dip of the kitchen)
        "Plain crisps are boring on their own. I have to dip.",
        "Chips without mayo? Sorry, I have to dip.",
        "I have to wrap up warm on the fells, it gets cold",
        "Best of luck to anyone trying to park there",
        # (review rv66: wrapped up against the cold, a going put off, a routine told)
        "Winter's the worst. I have to wrap up now, it's freezing at 6am.",
        "sorry I'm going to have to wrap up, I've got a call at 4 so maybe 10 more minutes?",
        "Sorry I have to wrap up, I've got a meeting in an hour, so can we do the last bit "
        "quickly?",
        "That's why I drive. I have to go now, I've got a school run every morning",
    ],
)
def test_a_tiredness_or_a_going_later_is_no_leaving_now(answer: str) -> None:
    assert not _going(answer)
