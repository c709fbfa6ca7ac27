"""The ladders the respondent climbed when asked: each rung a focus asked why it matters, and
the next what the answer to that question gave as its reason.

A summary read off the graph alone reads back every link the reader made, and on speech as
people type it many of them join two things said in one breath ("'sit too long' because 'I
cant stand waiting'", round 261; "'you've slept like 5 hrs' matters to you because
'knackered'", its respondent having said "its not important its just what I get"). A trained
moderator restates the ladder as the respondent gave it: the question "why does X matter?"
and what the answer gave as its reason, linked to X in that turn (the first such node read
surely, not an aside or a story). Nothing climbs from an answer puzzled at the question ("eh?",
"wdym"), saying the focus does not matter or gives nothing, or not knowing; nor from a question
asking for a moment ("When did that last ...?") or what they wanted to say. The closing reads
these back before the graph's other chains (``offline.asking.closing``); the live rounds are
their evidence, for the closing benchmark's corpora do not answer the questions asked.

Pure: reads the session's turns and the graph, changes neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.lexicon import DONT_KNOW
from interview_cli.llm.offline.reading.meta import PUZZLED
from interview_cli.session.schema import TurnRecord

MAX_ASKED = 8

# The focus said not to matter, opening the answer: "its not important its just what I get",
# "It doesn't bother me, I said its fair!", "it dont matter really"
# ... or taken back, or said to give nothing: "No no, I do want to come home", "Nothing is good
# about after a full day, I am tired", "For me? Nothing" (round 263 read back "I don't want to
# come home" because of "after a full day", because "it's scheduled for 11")
_NOT_SO = re.compile(
    r"^\W*(?:(?:well|no|nah|erm|um|hmm|haha|lol|oh)\W+)*(?:(?:it'?s|its|it\s+is|that'?s|thats|it)\s+"
    r"(?:not|isn'?t|isnt|doesn'?t|doesnt|dont|don'?t)\s+(?:really\s+|that\s+|actually\s+)?"
    r"(?:important|matter|bother|affect|a\s+big\s+deal|a\s+problem|an\s+issue)|"
    r"no\W+no\b|(?:(?:[\w'-]+\W+){0,3}[\w'-]+\?\s*)?(?:nothing\s+(?:is\s+)?good\s+about|"
    r"nothing(?:\s+really|\s+much|\s+at\s+all)?\s*[,.!;]))",
    re.IGNORECASE,
)

# ... or not known, as the answer opens (the lexicon's don't-knows): "i dont know really, what
# difference does it make to anyone" (round 261 would have read back "difference does it make
# to anyone")
_OPENERS = re.compile(r"\W*(?:(?:well|hmm|um|erm|honestly|tbh|oh)\W+)*", re.IGNORECASE)


def _not_known(said: str) -> bool:
    lead = _OPENERS.match(said)
    return DONT_KNOW.match(said, lead.end() if lead else 0) is not None


# A question asking why the focus matters, in any of the ways the wordings put it.
_ASKS_WHY = re.compile(
    r"\b(?:why|matters?|important|difference|give\s+you|help\s+you|let\s+you|get\s+out\s+of|"
    r"good\s+about|counts?\s+for\s+you|do\s+for\s+you|bothers?|problem|mean\s+for\s+you|"
    r"affect\s+you|miss)\b",
    re.IGNORECASE,
)
# ... and not a moment asked for: "When did that last make a real difference for you?", "Think
# of the last time that mattered to you. What was going on?" (the review)
# ... nor what matters, asked of the topic: "What matters most to you about the milk?" (round
# 267 read back "bubbly soup" because of "vegans a given", its answer)
_ASKS_A_STORY = re.compile(
    r"\b(?:when\s+did|last\s+time|what\s+was\s+going\s+on|what\s+happened|walk\s+me\s+through|"
    r"tell\s+me\s+about\s+a\s+time|what\s+matters\s+most)\b",
    re.IGNORECASE,
)


def asked_chains(
    graph: KnowledgeGraph, methodology: Methodology, turns: Sequence[TurnRecord]
) -> list[list[str]]:
    """Labels of the ladders climbed by asking, most concrete first, in the order they were
    begun: a chain per rung asked about that no answer gave as a reason."""
    relations = set(methodology.ontology.chain_relations)
    reason: dict[str, str] = {}  # focus id -> the reason its question's answer gave first
    for turn in turns:
        focus = turn.question.focus_node_id
        spec = methodology.strategy(turn.question.strategy or "")
        if focus is None or focus not in graph or spec is None or not spec.climbs:
            continue
        if turn.assessment is not None and turn.assessment.answer_kind != "answer":
            continue
        said = turn.answer.text
        if not _ASKS_WHY.search(turn.question.text) or _ASKS_A_STORY.search(turn.question.text):
            continue  # ("Back to your phone plan. What did you want to say about that?")
        if PUZZLED.match(said) or _NOT_SO.match(said) or _not_known(said):
            continue
        found = _first_reason(graph, methodology, relations, focus, turn.turn_number)
        if found is not None:
            reason.setdefault(graph.latest_version(focus), graph.latest_version(found))
    given = set(reason.values())
    chains: list[list[str]] = []
    for start in reason:
        if start in given:
            continue
        chain = [start]
        while chain[-1] in reason and reason[chain[-1]] not in chain:
            chain.append(reason[chain[-1]])
        chains.append([graph.node(n).label for n in chain])
    return chains[:MAX_ASKED]


def _first_reason(
    graph: KnowledgeGraph, methodology: Methodology, relations: set[str], focus: str, turn: int
) -> str | None:
    """The node the answer of ``turn`` linked to ``focus`` first, either way round, of those
    read surely (not an aside or a story: "My brother-in-law talked me into getting one, he's a
    cycling nut. But mainly because ...", "Funny story, I once got stuck ...", the review): the
    first that names two things or more, else the first ("I wake up and my back isnt seized"
    gives the back, not "wake up")."""
    linked: list[str] = []
    levels = methodology.ontology.levels
    below = levels.get(graph.node(focus).node_type, 0)
    for edge in graph.edges():
        if edge.relation not in relations or not any(p["turn"] == turn for p in edge.provenance):
            continue
        other = (
            edge.target if edge.source == focus else edge.source if edge.target == focus else None
        )
        doubted = methodology.tuning.vetoes.doubts(graph.node(other).confidence) if other else True
        # (a reason is not two levels more concrete than what it is the reason for: a closing
        # read back "switch off for twenty minutes" as mattering in the end because of "the
        # price", the answer having turned to what it costs; one level down is kept, for the
        # reader types a reason said as a thing low: "sit too long" of "the knees! sit too long
        # and they seize up", round 261)
        lower = other is not None and levels.get(graph.node(other).node_type, below) < below - 1
        if other is not None and other != focus and not doubted and not lower:
            linked.append(other)
    # (a figure is a fact of their life, no reason: "I feed people for a living dont I, 300
    # bairns a day at the school", round 265 read back "300 bairns a day at the school" as
    # why doing right mattered, and "9 quid a day" as why a car the zone does not charge did)
    reasons = [n for n in linked if not _FIGURE.match(graph.node(n).label)]
    full = [n for n in reasons if len(label_profile(graph.node(n).label).content) >= 2]
    chosen = full or reasons
    return chosen[0] if chosen else None


_FIGURE = re.compile(r"^\W*[£$€]?\d")


__all__ = ["MAX_ASKED", "asked_chains"]
