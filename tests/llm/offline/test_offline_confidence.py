"""How sure the offline reader is of each node: a sign that a clause names an element raises
its confidence; a passing remark with no sign stays a node, but one too doubtful to ask about
(``tuning.vetoes.min_focus_confidence`` of the shipped methodologies)."""

from __future__ import annotations

import pytest
from offline_fixtures import P, extract, shipped_mec

from interview_cli.config.schemas import Methodology
from interview_cli.config.tuning import Habit


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


def confidences(mec: Methodology, answer: str) -> dict[str, float]:
    return {n.label: n.confidence for n in extract(mec, "headphones", answer, None).nodes}


def test_a_remark_with_no_sign_of_an_element_is_too_doubtful_to_ask_about(
    mec: Methodology,
) -> None:
    least = mec.tuning.vetoes.min_focus_confidence
    assert mec.tuning.follows(Habit.DOUBTFUL_FOCUS)
    read = confidences(mec, "Noise cancelling, so I can focus on the train. Arthritis.")
    # the answer to the question, and what "so" ties to it, are sure enough to ask about
    assert read["noise cancelling"] >= least
    assert read["can focus on the train"] > read["noise cancelling"]
    # a later word said in passing, with no cue, no telling word and nothing of the study
    assert read["arthritis"] < least
    # said first, it answers the question
    assert confidences(mec, "Arthritis. The lock.")["arthritis"] >= least


@pytest.mark.parametrize(
    ("answer", "doubtful", "sure"),
    [
        # a joke: the sentence laughs (with a space too: "ha ha", round 232)
        (
            "They stay in when I run. I'd wear them in the shower if I could ha ha.",
            "wear them in the shower",
            "stay in when I run",
        ),
        (
            "They stay in when I run. I'd wear them in the shower if I could haha.",
            "wear them in the shower",
            "stay in when I run",
        ),
        # laughs typed in other languages: Portuguese "kkkk", Spanish "jajaja" (dev 3)
        (
            "They stay in when I run. I'd wear them in the shower if I could kkkk.",
            "wear them in the shower",
            "stay in when I run",
        ),
        (
            "They stay in when I run. I'd wear them in the shower if I could jajaja.",
            "wear them in the shower",
            "stay in when I run",
        ),
        # backstory: the sentence sets the story back in time
        (
            "Noise cancelling, so I can focus. When I was young I had to share a walkman with "
            "my brother, so I felt left out.",
            "felt left out",
            "can focus",
        ),
        # how they know a detail they put right (rounds 227 and 228 asked about both)
        (
            "They stay in when I run. Actually it wasnt March, it was April, my flatmate "
            "reminded me cos it was his birthday week.",
            "flatmate reminded",
            "stay in when I run",
        ),
        (
            "They stay in when I run. Actually hang on, it wasnt the 14th, it was the 21st. "
            "The 14th was our anniversary, Priya'd kill me.",
            "14th our anniversary",
            "stay in when I run",
        ),
        # a name of its own alone, mid-sentence: who or what, not what it does for them (round
        # 264 asked 'Why does "Grace" matter to you?' of his wife)
        (
            "Mostly BritBox, for the old detective shows.",
            "BritBox",
            "for the old detective shows",
        ),
        # what someone of theirs used to do (round 261 asked of his late wife's part)
        (
            "They stay in when I run. i'm not one for describing things, the wife used to do "
            "all that, tell me what to ask for.",
            "tell me what to ask",
            "stay in when I run",
        ),
        # someone else's life, in a sentence with nothing of theirs (round 227's colleague)
        (
            "They stay in when I run. Oh she changed to lates in the end.",
            "changed to lates",
            "stay in when I run",
        ),
    ],
)
def test_a_clause_said_as_a_joke_or_backstory_is_not_asked_about(
    mec: Methodology, answer: str, doubtful: str, sure: str
) -> None:
    least = mec.tuning.vetoes.min_focus_confidence
    read = confidences(mec, answer)
    assert read[sure] >= least
    # still heard (an element it may be), or not at all, but not asked about until said more
    # clearly
    assert read.get(doubtful, 0.0) < least


def test_someone_else_doing_something_for_the_respondent_is_no_backstory(
    mec: Methodology,
) -> None:
    # (a sentence with "my" or "me" in it says something of theirs; "they" is the product as
    # often as anyone: "They last all day", the review)
    least = mec.tuning.vetoes.min_focus_confidence
    for said in (
        "My husband can cook it, so I get a night off.",
        "They keep your feet dry.",
        # (a comparison is no detail put right, nor what follows a correction with "and": the
        # review)
        "Theyre £30 not £50 like the other brands, so I can afford to replace them every year.",
    ):
        read = confidences(mec, said)
        assert all(c >= least for c in read.values()), read


def test_a_comparison_with_the_past_is_no_backstory(mec: Methodology) -> None:
    read = confidences(mec, "I'm lighter than I've been in twenty years, so I can run again.")
    least = mec.tuning.vetoes.min_focus_confidence
    assert all(c >= least for c in read.values()), read


def test_a_story_set_back_in_time_is_the_matter_of_an_incident(
    methods: dict[str, Methodology],
) -> None:
    ci = methods["critical_incident"]
    answer = "Two years ago I ordered headphones online and they never arrived, so I felt ignored."
    result = extract(ci, "headphones", answer, None)
    assert {n.label for n in result.nodes} >= {"never arrived", "felt ignored"}
    # (no less sure of each than were the story not set back: the time is no sign of doubt here)
    now = extract(
        ci,
        "headphones",
        "I ordered headphones online and they never arrived, so I felt ignored.",
        None,
    )
    assert all(a.confidence >= b.confidence for a, b in zip(result.nodes, now.nodes, strict=True))
    # round 117: the incident's time makes no backstory of it, however it opens
    told = extract(ci, "banking", "Oddly, a bank chat bot, about a year ago.", None)
    assert [n.label for n in told.nodes] == ["bank chat bot"]


def test_what_a_correction_puts_right_is_not_asked_about_next(mec: Methodology) -> None:
    # Round 137 asked 'You mentioned "two pods a day". What made you go for that?': a count put
    # right, asked about as a new point; a word put right is what they meant, and stays sure
    least = mec.tuning.vetoes.min_focus_confidence
    read = extract(
        mec,
        "cooking",
        "oh i said three a day earlier, i meant two pods a day",
        None,
        existing=[("three pods a day", "attribute", "i was drinking three pods a day")],
    )
    revised = [n for n in read.nodes if n.corrects]
    assert [n.corrects for n in revised] == ["three pods a day"], read.nodes
    assert all(n.confidence < least for n in revised)
    word = extract(
        mec,
        "cooking",
        "oh i said lamb earlier, i meant salmon",
        None,
        existing=[("lamb", "attribute", "lamb, sweet potato")],
    )
    assert [(n.label, n.corrects) for n in word.nodes] == [("salmon", "lamb")]
    assert word.nodes[0].confidence >= least


def test_what_follows_a_detail_put_right_with_and_is_said_for_itself(mec: Methodology) -> None:
    # (the review: "It wasnt 2 days, it was 5 days without internet, and I lost a client")
    read = confidences(mec, "It wasnt 2 days, it was 5 days, and I couldnt work from home.")
    assert read["couldnt work from home"] >= mec.tuning.vetoes.min_focus_confidence, read


def test_what_comes_of_a_condition_is_said_surely() -> None:
    # round 235: "if i trust them i dont have to check every bill" was held doubtful, and the
    # interview asked about something said in passing instead
    why = "Why does that matter to you?"

    def sure(said: str) -> dict[str, float]:
        found = extract(shipped_mec(), "cooking", said, ("trust", P), question=why)
        return {n.label: n.confidence for n in found.nodes}

    said = "if i trust them i dont have to check every bill and set calendar reminders to haggle."
    plain = "i trust them. i dont have to check every bill and set calendar reminders to haggle."
    assert (
        sure(said)["dont have to check every bill"] > sure(plain)["dont have to check every bill"]
    )
    # ... not the condition itself, nor what someone else does on it (the review)
    said = "Less admin. if my connection drops during a demo"
    assert sure(said)["connection drops during a demo"] < 0.6
    said = "Less admin. If my husband cooks, he uses loads of salt."
    assert sure(said)["uses loads of salt"] < 0.6


def test_a_laugh_on_the_answer_itself_leaves_it_to_ask_about(mec: Methodology) -> None:
    # Dev (round 244) typed "lol" in every sentence: the elements of his first two answers were
    # all held doubtful, and the tool asked "what else?" twice before asking about any
    bar = mec.tuning.vetoes.min_focus_confidence
    said = "price obviously lol im not made of money. i wait till they're on offer"
    by_label = confidences(mec, said)
    assert by_label["price im not made of money"] >= bar, by_label
    # (a laugh after a later part is still that part's: "..., and scream the house down haha")
    said = "The battery, and my teenagers scream the house down haha"
    by_label = confidences(mec, said)
    assert all(c < bar for label, c in by_label.items() if "scream" in label), by_label
    # (nor a laugh marked a joke after it, by a "jk" or a "but really": the review)
    said = "impressing the girls at work lol jk, it's the fitness"
    assert all(c < bar for label, c in confidences(mec, said).items() if "girls" in label)
    said = "so I can beat my brother at squash haha. but really it's being around for my kids"
    assert all(c < bar for label, c in confidences(mec, said).items() if "brother" in label)
    # (a habit to a why too: "peace of mind really haha"; a "but really" far after the laugh
    # marks no joke: the review)
    focus = ("instant notifications", "attribute")
    read = {
        n.label: n.confidence
        for n in extract(mec, "banking", "peace of mind really haha", focus).nodes
    }
    assert read["peace of mind"] >= bar, read
    said = "Battery lol, I always forget to charge them. Comfort too, but really the battery"
    assert confidences(mec, said)["battery"] >= bar
    # (only the first thing of its sentence: the last of a list laughed at is a joke, round 248
    # asked about the grandson)
    said = "it's just I've the house and the car and my grandson's always on the scrounge haha"
    assert all(c < bar for label, c in confidences(mec, said).items() if "grandson" in label)
    # (but a denial of what was asked, laughed, is a quip: round 246 asked about "it wasn't your
    # sole")
    said = "Well it wasnt my sole haha. But it's why I look at how a boot is put together now"
    focus = ("sole peeled right off", "attribute")
    read = {n.label: n.confidence for n in extract(mec, "headphones", said, focus).nodes}
    assert all(c < bar for label, c in read.items() if "sole" in label), read
