"""The ladders climbed by asking (``pipeline.asked_ladders``): each rung a focus asked why it
matters, the next what the answer gave first as its reason; and the closing reads them back
before the graph's other chains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.llm.offline.asking.questions import offline_question
from interview_cli.llm.protocol import QuestionRequest
from interview_cli.pipeline.asked_ladders import asked_chains
from interview_cli.session.schema import AnswerRecord, QuestionRecord, TurnRecord

ROOT = Path(__file__).resolve().parents[2]


def _meth() -> Methodology:
    return Library.discover(cwd=ROOT).methodology("means_end_chain").value


def _turn(number: int, question: str, answer: str, focus: str | None, strategy: str) -> TurnRecord:
    return TurnRecord(
        turn_number=number,
        question=QuestionRecord(text=question, strategy=strategy, focus_node_id=focus),
        answer=AnswerRecord(utterance_id=f"u{number}", text=answer),
    )


def _asked_as(turn: TurnRecord, question: str) -> TurnRecord:
    """``turn`` with its question worded ``question`` (same focus and strategy)."""
    return turn.model_copy(update={"question": turn.question.model_copy(update={"text": question})})


def _session() -> tuple[KnowledgeGraph, list[TurnRecord]]:
    """Round 261's barber, as asked: the focus of each question, and the answer's links."""
    meth = _meth()
    graph = KnowledgeGraph()

    def add(label: str, kind: str, turn: int) -> str:
        return graph.add_node(label, kind, methodology=meth, turn=turn).id

    def link(source: str, target: str, turn: int) -> None:
        said = {"utterance_id": f"u{turn}", "quote": "", "turn": turn}
        graph.add_relation(source, target, "leads_to", methodology=meth, turn=turn, provenance=said)  # type: ignore[arg-type]

    knows = add("knows how I like it", "attribute", 1)
    sit = add("sit down", "functional_consequence", 1)
    link(knows, sit, 1)  # the reader's, in one breath: no question asked it
    explain = add("dont have to explain nothing", "functional_consequence", 2)
    link(sit, explain, 2)  # answered "eh? i meant ...": puzzled, no climb
    faff = add("saves the faff", "instrumental_value", 3)
    link(explain, faff, 3)
    waiting = add("cant stand waiting", "functional_consequence", 4)
    sat = add("sit too long", "attribute", 5)
    link(sat, waiting, 5)  # linked the other way round: the reason still
    turns = [
        _turn(
            1,
            "When you think about a barber, what do you notice?",
            "he knows how i like it so i just sit down",
            None,
            "opening",
        ),
        _turn(
            2,
            "Why does sitting down matter to you?",
            "eh? i meant i dont have to explain nothing",
            sit,
            "deepen",
        ),
        _turn(3, "And why does that matter to you?", "saves the faff i guess", explain, "deepen"),
        _turn(
            4,
            "Is there anything else that is important to you here?",
            "not waiting. i cant stand waiting",
            None,
            "explore",
        ),
        _turn(
            5,
            "Why does that bother you?",
            "the knees! sit too long and they seize up",
            waiting,
            "deepen",
        ),
    ]
    return graph, turns


def test_a_ladder_is_what_each_answer_gave_as_the_reason_asked_for() -> None:
    graph, turns = _session()
    assert asked_chains(graph, _meth(), turns) == [
        ["dont have to explain nothing", "saves the faff"],
        ["cant stand waiting", "sit too long"],
    ]


def test_a_puzzled_or_denying_answer_climbs_nothing() -> None:
    graph, turns = _session()
    meth = _meth()
    # said not to matter: "its not important its just what I get"
    denied = [
        *turns[:4],
        turns[4].model_copy(
            update={
                "answer": AnswerRecord(
                    utterance_id="u5", text="its not important, sit too long and they seize up"
                )
            }
        ),
    ]
    assert ["cant stand waiting", "sit too long"] not in asked_chains(graph, meth, denied)
    # ... nor one taken back, or said to give nothing (round 263: "No no, I do want to come
    # home", "Nothing is good about after a full day")
    for said in ("No no, sit too long is what I meant", "Nothing is good about it, sit too long"):
        took_back = turns[4].model_copy(
            update={"answer": AnswerRecord(utterance_id="u5", text=said)}
        )
        assert ["cant stand waiting", "sit too long"] not in asked_chains(
            graph, meth, [*turns[:4], took_back]
        )
    # ... nor a question asking for a moment, however it ends (the review: "When did that last
    # make a real difference for you?")
    moment = _asked_as(turns[4], "When did that last make a real difference for you?")
    assert ["cant stand waiting", "sit too long"] not in asked_chains(
        graph, meth, [*turns[:4], moment]
    )
    # nor does a question that asked no why ("What did you want to say about that?")
    steer = _asked_as(turns[4], "Back to waiting. What did you want to say about that?")
    assert ["cant stand waiting", "sit too long"] not in asked_chains(
        graph, meth, [*turns[:4], steer]
    )


def _closing(last: list[str], **fields: Any) -> QuestionRequest:
    """The closing request of the barber's interview, its answers ending with ``last``."""
    meth = _meth()
    return QuestionRequest(
        methodology=meth,
        concept=Concept(id="c", name="Barbers", methodology=meth.name, objective="x"),
        strategy=next(s for s in meth.strategies if s.generates_closing_question),
        closing=True,
        answers=[
            "he knows how i like it so i just sit down",
            "eh? i meant i dont have to explain nothing",
            "saves the faff i guess",
            *last,
        ],
        asked_chains=[["dont have to explain nothing", "saves the faff"]],
        **fields,
    )


def test_the_closing_reads_the_asked_ladders_first() -> None:
    request = _closing(
        ["not waiting. i cant stand waiting", "the knees! sit too long and they seize up"],
        summary_chains=[["he knows how I like it", "sit down", "dont have to explain nothing"]],
    )
    text = offline_question(request)
    assert '"I dont have to explain nothing" matters to you because it "saves the faff"' in text, (
        text
    )


def test_an_aside_or_a_story_is_no_reason_given() -> None:
    # the review: "My brother-in-law talked me into getting one, he's a cycling nut. But mainly
    # because I don't turn up to work drenched" read back the brother-in-law as the reason
    meth = _meth()
    graph, turns = _session()
    faff = graph.find_by_label("saves the faff")[0]
    aside = graph.add_node(
        "brother-in-law talked me into it",
        "terminal_value",
        methodology=meth,
        turn=6,
        confidence=0.5,
    ).id
    said = {"utterance_id": "u6", "quote": "", "turn": 6}
    graph.add_relation(faff, aside, "leads_to", methodology=meth, turn=6, provenance=said)  # type: ignore[arg-type]
    asked = _turn(
        6, "Why does that matter to you?", "my brother-in-law talked me into it", faff, "deepen"
    )
    chains = asked_chains(graph, meth, [*turns, asked])
    assert ["dont have to explain nothing", "saves the faff"] in chains, chains
    sure = graph.add_node("less hassle all round", "terminal_value", methodology=meth, turn=6).id
    graph.add_relation(faff, sure, "leads_to", methodology=meth, turn=6, provenance=said)  # type: ignore[arg-type]
    chains = asked_chains(graph, meth, [*turns, asked])
    assert ["dont have to explain nothing", "saves the faff", "less hassle all round"] in chains


def test_a_reason_said_after_not_really_still_climbs() -> None:
    # the review of round 265's rules: "Not really, it's more that X" gives the real reason,
    # after a question that suggested one
    graph, turns = _session()
    meth = _meth()
    for said in (
        "Not really, it's more that sit too long and my knees seize",
        "It doesn't really, sit too long and they seize",
    ):
        told = turns[4].model_copy(update={"answer": AnswerRecord(utterance_id="u5", text=said)})
        assert ["cant stand waiting", "sit too long"] in asked_chains(
            graph, meth, [*turns[:4], told]
        )


_SAID_6 = {"utterance_id": "u6", "quote": "", "turn": 6}


def _faff_asked(label: str, kind: str, answer: str) -> tuple[KnowledgeGraph, list[TurnRecord]]:
    """The barber's session, then "saves the faff" asked why it matters at turn 6 and the
    answer linking ``label`` (a node of ``kind``) to it as the reader linked it."""
    meth = _meth()
    graph, turns = _session()
    faff = graph.find_by_label("saves the faff")[0]
    node = graph.add_node(label, kind, methodology=meth, turn=6).id
    graph.add_relation(node, faff, "leads_to", methodology=meth, turn=6, provenance=_SAID_6)  # type: ignore[arg-type]
    return graph, [*turns, _turn(6, "Why does that matter to you?", answer, faff, "deepen")]


def test_a_figure_is_no_reason_given() -> None:
    # round 265: "I feed people for a living dont I, 300 bairns a day at the school" was read
    # back as why feeling she was doing right mattered
    meth = _meth()
    graph, turns = _faff_asked("300 bairns day at school", "attribute", "300 bairns a day")
    chains = asked_chains(graph, meth, turns)
    assert ["dont have to explain nothing", "saves the faff"] in chains, chains
    faff = graph.find_by_label("saves the faff")[0]
    fed = graph.add_node("making sure everyones fed", "terminal_value", methodology=meth, turn=6)
    graph.add_relation(faff, fed.id, "leads_to", methodology=meth, turn=6, provenance=_SAID_6)  # type: ignore[arg-type]
    chains = asked_chains(graph, meth, turns)
    assert ["dont have to explain nothing", "saves the faff", "making sure everyones fed"] in chains


def test_the_closing_says_first_what_they_pointed_at_when_no_ladder_names_it() -> None:
    # round 265: Shannon went back to "the breaking down thing", "thats the big one for me",
    # and heard it last, after two lesser reasons, as "You also talked about"
    request = _closing(
        ["can we go back to the queue tho, thats the big one for me"],
        summary_labels=["queue"],
        pointed_labels=["queue"],
    )
    text = offline_question(request)
    assert 'you singled out "the queue"; "I dont have to explain' in text, text
    # ... and a ladder naming it is read back (kept before the others of its kind), no lead
    named = request.model_copy(
        update={
            "asked_chains": [
                ["dont have to explain nothing", "saves the faff"],
                ["queue", "sit down"],
            ]
        }
    )
    text = offline_question(named)
    assert "singled out" not in text and '"the queue" because of "sit down"' in text, text
    # ... and never a go-back to the interview's own question (the review: "can we go back to
    # the question about the bag, I didn't get what you meant")
    asked = request.model_copy(update={"pointed_labels": ["question about the bag"]})
    asked.answers[-1] = "can we go back to the question about the bag, I didnt get it"
    assert "singled out" not in offline_question(asked)


def test_what_matters_asked_of_the_topic_climbs_nothing() -> None:
    # round 267: "What matters most to you about the milk?", asked with a focus, read back the
    # focus "because of" the answer's first point
    graph, turns = _session()
    topic = _asked_as(turns[4], "What matters most to you about the barber?")
    assert ["cant stand waiting", "sit too long"] not in asked_chains(
        graph, _meth(), [*turns[:4], topic]
    )


def test_a_reason_two_levels_below_what_it_is_for_climbs_nothing() -> None:
    # the closing benchmark's night nurse: "switch off for twenty minutes" read back as
    # mattering "in the end because of the price", her answer having turned to what it costs
    graph, turns = _faff_asked("the price", "attribute", "the price went up twice")
    chains = asked_chains(graph, _meth(), turns)
    assert ["dont have to explain nothing", "saves the faff"] in chains, chains
    assert not any("the price" in chain for chain in chains), chains
