"""Offline extraction hygiene: links climb the ladder, a forbidden one is dropped with its
reason, and the remark detector keeps offsets. The phrase cases (labels, answers that
extract nothing) are data: ``tests/llm/data/readings/`` (``test_reading_cases.py``)."""

from __future__ import annotations

import pytest
from offline_fixtures import A, P, T, extract, shipped_mec

from interview_cli.config.schemas import Methodology
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.offline.reading.meta import blank_meta, meta_kind, puzzled
from interview_cli.llm.protocol import AssessRequest


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


# ---- links climb the ladder; forbidden ones are dropped with a reason ------------------------

EDGES = [
    (
        "headphones",
        "Because more time with my kids, again.",
        ("long battery life", A),
        [("long battery life", "more time with my kids")],
    ),
    (
        "headphones",
        "If I can concentrate I get my reading done.",
        ("noise cancelling", A),
        [("noise cancelling", "can concentrate"), ("can concentrate", "get my reading done")],
    ),
    (
        "cooking",
        "A good pan heats evenly so nothing burns, which means I don't waste food.",
        None,
        [("good pan heats evenly", "nothing burns"), ("nothing burns", "don't waste food")],
    ),
    (
        "cycling",
        "Because I'm not dropped on the hills, and that makes me feel part of the group.",
        ("light frame", A),
        [
            ("light frame", "not dropped on the hills"),
            ("not dropped on the hills", "feel part of the group"),
        ],
    ),
    (
        "banking",
        "It means security for my family, at the end of the day.",
        ("feel in control of my money", P),
        [("feel in control of my money", "security for my family")],
    ),
    (
        "headphones",
        "I value freedom, that's why I like the battery.",
        None,
        [("battery", "freedom")],
    ),
]


@pytest.mark.parametrize(("domain", "answer", "focus", "edges"), EDGES)
def test_links_point_up_the_ladder(
    mec: Methodology,
    domain: str,
    answer: str,
    focus: tuple[str, str] | None,
    edges: list[tuple[str, str]],
) -> None:
    result = extract(mec, domain, answer, focus)
    assert [(e.source, e.target) for e in result.edges] == edges


def test_a_forbidden_link_is_dropped_with_its_reason(mec: Methodology) -> None:
    # Asked why one end state matters, the respondent names another: the ontology has no
    # link between two terminal values, so the link is not made, and the record says why.
    result = extract(mec, "headphones", "Because I value my freedom.", ("self-respect", T))
    assert [n.label for n in result.nodes] == ["freedom"] and result.edges == []
    (refused,) = result.rejected
    assert refused.kind == "edge"
    assert refused.item["source"] == "self-respect" and refused.item["target"] == "freedom"
    assert "terminal_value" in refused.reason and "permits no link" in refused.reason


def test_permitted_links_leave_no_rejection(mec: Methodology) -> None:
    result = extract(
        mec,
        "cooking",
        "Because cooking from scratch means I know what my kids are eating.",
        ("fresh ingredients", A),
    )
    assert result.rejected == [] and len(result.edges) == 2


# ---- the remark detector itself -------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("I already told you that.", "repeat"),
        ("Because more time with my kids, again.", "repeat"),
        ("Can we move on?", "move_on"),
        ("Lets leave that one shall we", "move_on"),  # round 184
        ("let's leave it to charge overnight", None),
        ("That's not really about headphones.", "off_topic"),
        ("That reminds me of my late father's tape recorder.", "off_topic"),
        ("Sorry, could you repeat the question?", "clarify"),
        ("I'd rather not say.", "decline"),
        ("Ha, hard to say.", "hedge"),
        ("Because I can focus at work.", None),
        ("It's not about the price, it's more that they don't hurt my ears.", None),
        ("Music moves me again.", None),
        ("The question of price never came up for me.", None),
    ],
)
def test_meta_kind(answer: str, kind: str | None) -> None:
    assert meta_kind(answer) == kind


@pytest.mark.parametrize(
    ("answer", "is_puzzled"),
    [
        # not knowing what the question asks, and not answering it (round 278's grid, round 282)
        ("sorry what?", True),
        ("I don't know what you're asking", True),
        ("i dont know what ur asking me tbh", True),
        ("you what?", True),
        ("come again?", True),
        ("Sorry, what you mean?", True),
        ("think about what, valencia or the app?", True),
        (
            "what do you mean 1 to 5, like how much it costs or just does it cost or not? cos "
            "everything bar walking costs something",
            True,
        ),
        # review rv65: the ways people most often say it
        ("I don't know what you mean", True),
        ("no idea what you mean", True),
        ("How do you mean?", True),
        ("Rate what?", True),
        ("Sorry, what was that?", True),
        ("I'm not with you", True),
        ("idk what ur asking", True),
        # ... and disbelief, an answer after all, a story closing on a question, a trouble of theirs
        ("What?? No chance.", False),
        ("you what? 40 quid for a pan?", False),
        ("Sorry what? Oh the price, definitely the price.", False),
        ("what do you mean by that, I just like getting there on time", False),
        ("The mechanic quoted me 300 quid for a new chain set. You what?", False),
        ("They charge you a fiver a month for the premium account. For what exactly?", False),
        ("i don't get it, they moved everything", False),
        ("The overdraft fees keep changing every few months. Not sure I understand.", False),
        ("sorry, rate what exactly?", True),
        (
            "Helped me past what? It's the patients who are scared not me lol. I'm not sure what "
            "you're asking to be honest.",
            True,
        ),
        # ... answered after all, or a don't-know about the topic
        (
            "haha wdym counts? like if i can actually hear myself think i get way more done. "
            "otherwise i just read the same page 4 times",
            False,
        ),
        ("I don't know what you're asking for but the bus is cheap", False),
        ("I don't know, it just does.", False),
        ("Not sure I follow recipes much, I just wing it", False),
    ],
)
def test_a_question_not_understood_is_puzzled(answer: str, is_puzzled: bool) -> None:
    assert puzzled(answer) is is_puzzled
    assert assess_offline(AssessRequest(question="Why?", answer=answer)).puzzled is is_puzzled


def test_blanking_keeps_offsets_and_the_rest_of_the_answer() -> None:
    answer = "Because, like I said before, I can focus at work. Can we move on?"
    blanked = blank_meta(answer)
    assert len(blanked) == len(answer)
    assert "like I said" not in blanked and "move on" not in blanked
    assert blanked.index("I can focus at work") == answer.index("I can focus at work")


@pytest.mark.parametrize(
    ("answer", "reading"),
    [
        ("Unrelated but did you see the match last night?", "off_topic"),
        ("Off topic, but can we talk about football instead?", "off_topic"),
        # an aside after an answer is no turn away from the topic (round 79 was told "Let's
        # come back to the topic of this interview" after naming the sliding doors)
        (
            "Maybe the sliding doors thing, the kids fling the doors open in car parks. "
            "Unrelated but the 6 year old has just learned to whistle.",
            "none",
        ),
    ],
)
def test_off_topic_is_an_answer_that_turns_away_not_an_aside_after_one(
    answer: str, reading: str
) -> None:
    from interview_cli.llm.offline.reading.safety import safety_reading

    assert safety_reading(answer) == reading
