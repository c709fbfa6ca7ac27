"""What the interview learned, for the closing summary: the respondent sees what was
understood and may rate it.

Read straight off the graph, no model call, so it says exactly what was recorded, in the
respondent's own words: one chain up to every end a ladder reached (each stated value gets
its own, from the most concrete concept below it), a chain for a concept that joins one from
the side (up to where it joins), and then what is linked to nothing at all (a dislike said in
passing, the story they opened with), in the order it was said. A concept the respondent corrected
(``revises``, or superseded) is shown as they corrected it. Chains follow the methodology's
chain relations only: a contrast is no step of a ladder. A method that says so (``summary:
points``: a story, whose links are steps, not reasons) is told as its points, a line each, no
arrows (``story_summary``); a journey a stage a line (``journey_summary``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import DISOWNED, KnowledgeGraph
from interview_cli.core.graph.records import Node
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.asking.phrases import (
    Phrase,
    cut_short,
    gapped,
    phrase_for,
    run_on,
)
from interview_cli.llm.offline.asking.reference import told_plainly
from interview_cli.llm.offline.reading.clauses import blank

MAX_CHAIN = 8  # rungs shown of one chain, most concrete first
MAX_CHAINS = 8  # chains in the summary: every value of a good session (INTERVIEWING.md)
MAX_LOOSE = 6  # concepts on no chain, listed after the chains
MAX_PER_STAGE = 4  # what a journey's summary says of a stage
MAX_TOLD = 8  # the points of a story's summary
REVISES = "revises"
# The check-back answered with a no: "not really", "no love, that's all wrong", "that's
# backwards", "sort of? ...", "kind of but mangled".
_NOT_RIGHT = re.compile(
    # (the openers people type: "eh no not really, the uniforms are about the big drum", round
    # 179's summary kept the chain it denied)
    r"^\W*(?:(?:well|hmm|um|erm|oh|what|eh|ah|och|ach|err|uh|haha|lol)\W+)*"
    r"(?:no\b|nope|nah|naw\b|not\s+really|not\s+quite|partly|"
    r"half\s+and\s+half|yes\s+and\s+no|"
    r"not\s+exactly|sort\s+of|kind\s+of|kinda|sorta|half\s+right|that'?s\s+(?:all\s+)?(?:wrong|backwards)|"
    r"(?:you|it)\s+(?:got|have)\s+(?:it|that)\s+(?:wrong|backwards))",
    re.IGNORECASE,
)
# A "no" that agrees: it answers "did I miss anything?" ("No, I think that covers it",
# "nope, that's about it", "no, nothing else").
_NOTHING_MISSED = re.compile(
    r"^\W*(?:no|nope|nah)\b[\s,.!-]*(?:(?:i\s+think|i\s+guess|love|mate|dear|really)\W+)*"
    r"(?:that\s+covers|that'?s\s+(?:it|all|about\s+(?:it|right)|right|everything|fine|spot\s+on)|"
    r"thats\s+(?:it|all|right)|nothing|not\s+a\s+thing|you'?ve\s+got\s+it|all\s+good)\b",
    re.IGNORECASE,
)
# A link said back the wrong way round: "the other way round", "that's backwards"
_OTHER_WAY_WORDS = (
    r"(?:the\s+)?other\s+way\s+(?:round|around)|(?:that'?s|it'?s|you'?ve\s+got\s+it)\s+"
    r"backwards|(?:the\s+)?wrong\s+way\s+round"
)
_OTHER_WAY = re.compile(rf"\b(?:{_OTHER_WAY_WORDS})\b", re.IGNORECASE)
# A "no" said further on: "what do you mean by 'thats a lie'? ... it's the other way round",
# "that's all wrong"
_TURNED_ROUND = re.compile(
    rf"\b(?:{_OTHER_WAY_WORDS}|(?:that'?s|it'?s)\s+all\s+wrong|what\s+do\s+you\s+mean)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r'"([^"]+)"')
_DENIED_BEFORE = re.compile(
    r"\b(?:not|no|never|don'?t|doesn'?t|didn'?t|isn'?t|wasn'?t|nothing)\b[^,.;!?]*$", re.IGNORECASE
)
_MISS_ASKED = re.compile(r"\bmiss(?:ed)?\b[^?]*\?\s*$", re.IGNORECASE)
_YES = re.compile(r"^\W*(?:yes|yeah|yep|yup|aye|definitely|rather|quite\s+a\s+(?:bit|lot))\b", re.I)
# What the read-back left out, said so: "you missed the main bit", "you've left out Jamie"
_MISSED = re.compile(
    r"\b(?:you|ya|u|ye)(?:'?ve|\s+have)?\s+(?:also\s+|completely\s+)?(?:missed|left\s+out|"
    r"forgot(?:ten)?|skipped)\b(?!\s+(?:nothing|anything)\b)",
    re.IGNORECASE,
)
# A link read back: '"X" matters to you because (of) "Y"', '"X" because (of) "Y"' (and, in
# sessions before round 35, '"X" leading to "Y"'); a ladder's top after it (", which in the end
# matters because ...") is no link of its own
_READ_BACK_LINK = re.compile(
    r'"([^"]+)"\s+(?:(?:matters\s+to|bothers)\s+you\s+)?(?:because(?:\s+of)?|leading\s+to)\s+"([^"]+)"'
)
# One link of the read-back agreed to: "the therapy bit is right tho", "The headspace bit yes"
_RIGHT = r"right|correct|true|spot\s+on"
_AGREED = rf"\s+(?:bit|part|one|thing|link)(?:\s+(?:is|was)|'s)?\s+(?:{_RIGHT}|yes|yeah)\b"
# ... with what it names: "the grown up bit is right" (its verb said, and not asked: "Is the
# grown up bit right? Not at all", from the review)
_PART_RIGHT = re.compile(
    r"\b(?:the|that|your)\s+(?:bit\s+about\s+)?"
    r"(?P<named>[\w' -]{2,30}?)(?:\s+(?:bit|part|one|thing|link))?(?:\s+(?:is|was)|'s)\s+"
    rf"(?:{_RIGHT})\b(?!\s*\?)",
    re.IGNORECASE,
)
# ... not doubted or denied before it in its sentence ("I'm not sure the grown up bit is
# right", "I doubt", "Neither the grown up bit nor ..."), nor right only once ("... was right
# when I was 18 but not now"), from the review
_DOUBTED = re.compile(
    r"\b(?:not|don'?t|dont|doubt|neither|nor|never|isn'?t|wasn'?t|hardly)\b", re.IGNORECASE
)
_ONLY_THEN = re.compile(r"\s+(?:when|once|back\s+then|before)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9']+")


def _content(labels: Sequence[str]) -> set[str]:
    return {w for label in labels for w in label_profile(label).content}


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _names_same(mine: set[str], said: set[str]) -> bool:
    """A label and words read back name the same thing: one's words all among the other's."""
    return bool(mine) and bool(said) and (mine <= said or said <= mine)


@dataclass(frozen=True)
class CheckBack:
    """The closing check-back and its answer, for the summary kept after it: when the answer
    says it was not right, a chain it read back goes unless the answer restated it, and what
    the answer said itself (nodes of its ``turn``) comes first."""

    question: str
    answer: str
    turn: int

    def keep(self, graph: KnowledgeGraph) -> Callable[[list[str]], int] | None:
        """A chain's rank: 1 said at the close, 0 kept, -1 read back and denied (None:
        the answer agreed and said nothing of its own). What the closing answer says leads
        after a "yes, but" too: "yeah thats right i guess, but its a pretty small bit of it.
        the main thing is protein per pot ..." (round 27: the main points it restated were
        cut off the end of the "also" list)."""
        turned_round = bool(_OTHER_WAY.search(self.answer))
        denies = self._denies()
        if not denies and not any(self._said_at_close(graph, n.id) for n in graph.nodes()):
            return None
        quoted = [_words(q) for q in _QUOTED.findall(self.question)]
        answered = _words(self.answer)

        def words(node_id: str) -> set[str]:
            return _words(graph.node(node_id).label)

        def read_back(node_id: str) -> bool:
            return any(_names_same(words(node_id), q) for q in quoted)

        # a concept the closing answer linked is said there too ("the actual point is
        # recovering properly so i dont get injured": read as an aside before)
        linked_at_close = {
            end
            for r in graph.edges()
            if r.created_turn == self.turn
            for end in (r.source, r.target)
        }

        links = self._links()

        def rank(ids: list[str]) -> int:
            if any(self._said_at_close(graph, i) or i in linked_at_close for i in ids):
                return 1
            if any(self._said_again(graph, i) for i in (ids if len(ids) <= 2 else ids[-1:])):
                return 1  # said again as itself, or as where a long chain ends
            if not denies:
                return 0
            denied = [i for i in ids if read_back(i) and not words(i) <= answered]
            # a link said back the wrong way round, its two ends named again in the answer
            # ("The headspace makes me a nicer mam, not the other way round": round 34's
            # summary kept "makes me a nicer mam → the headspace")
            restated = [i for i in ids if read_back(i) and words(i) <= answered]
            turned = turned_round and len(restated) >= 2
            # what was denied is the link read back, both its ends: another chain through
            # one of them stands ("go to my check ups → see what happens" denied took "... →
            # go to my check ups → they'll grow up not being terrified" with it, round 35)
            if links:
                gone = self._link_denied(graph, links, ids, answered)
            else:
                gone = len(denied) >= min(2, len(ids))
            return -1 if gone or turned else 0

        return rank

    def agreed(self, graph: KnowledgeGraph) -> frozenset[str]:
        """The concepts the check-back read back, when the answer did not say no to it:
        "Mostly yes, but you've missed the phoning" keeps the neighbour's meter it was read
        (round 150's summary was six bits of the closing answer and nothing read back)."""
        quoted = [_content([q]) for q in _QUOTED.findall(self.question)]
        if self._denies():
            # a "no" that names a part as right keeps that part: "kind of? the grown up bit is
            # right but you've missed like half of it" (round 195's summary dropped the chain
            # through "feels like being a proper grown up")
            quoted = [q for q in quoted if any(n and n <= q for n in self._named_right)]
            if not quoted:
                return frozenset()

        def read_back(label: str) -> bool:  # (most of what was read, not "meter" of it)
            own = _content([label])
            return any(own and own <= q and 3 * len(own) >= 2 * len(q) for q in quoted)

        return frozenset(n.id for n in graph.nodes() if read_back(n.label))

    def put_right(self) -> bool:
        """The answer says the read-back was not right, or missed something ("not really no",
        "sort of??", "you missed the main bit")."""
        # ("Did I miss anything?" - "Yes, rather a lot", round 140)
        said_yes = _MISS_ASKED.search(self.question) and _YES.match(self.answer)
        return bool(self._denies() or said_yes or _MISSED.search(self.answer))

    def _denies(self) -> bool:
        """The answer says no to the read-back, or turns it round."""
        said_no = _NOT_RIGHT.match(self.answer) and not _NOTHING_MISSED.match(self.answer)
        return bool(said_no or _TURNED_ROUND.search(self.answer))

    @cached_property
    def _said(self) -> str:
        """The answer's content words, in order, without its frames and remarks (read once:
        every chain's every concept is looked for in it)."""
        return f" {' '.join(label_profile(blank(self.answer)).content)} "

    def _links(self) -> list[tuple[set[str], set[str]]]:
        """The words of each link's two ends, as the check-back read it back."""
        return [(_words(a), _words(b)) for a, b in _READ_BACK_LINK.findall(self.question)]

    def _agreed(self, said: set[str]) -> bool:
        """One link of the read-back agreed to by name: "the therapy bit is right tho"."""
        by_word = any(
            re.search(rf"\b{re.escape(w)}{_AGREED}", self.answer, re.IGNORECASE)
            for w in said
            if len(w) > 3
        )
        # (or by a phrase of it: "the grown up bit is right")
        link = _content([" ".join(sorted(said))])
        return by_word or any(n and n <= link for n in self._named_right)

    @cached_property
    def _named_right(self) -> list[set[str]]:
        """The content of each part the answer names as right ("the grown up bit is right")."""
        return [
            _content([m.group("named")])
            for m in _PART_RIGHT.finditer(self.answer)
            if not _DOUBTED.search(self.answer[: m.start()].rsplit(".", 1)[-1])
            and not _ONLY_THEN.match(self.answer, m.end())
        ]

    def _link_denied(
        self,
        graph: KnowledgeGraph,
        links: list[tuple[set[str], set[str]]],
        ids: list[str],
        answered: set[str],
    ) -> bool:
        """The chain ``ids`` holds a link read back, denied: its two ends are not both said
        again (or only to deny one), nor is it agreed to by name."""
        for said_a, said_b in links:
            ends = [i for i in ids if _names_same(_words(graph.node(i).label), said_a)]
            tops = [i for i in ids if _names_same(_words(graph.node(i).label), said_b)]
            if not ends or not tops:
                continue
            labels = [graph.node(i).label for i in ends + tops]
            named_again = all(_words(label) <= answered for label in labels)
            if (named_again and not self._named_as_not(labels)) or self._agreed(said_a | said_b):
                continue
            return True
        return False

    def _named_as_not(self, labels: list[str]) -> bool:
        """An end of the link named again only to deny it: "But not the funny looks, that was a
        joke" (round 42 kept "the speaking practice → the funny looks")."""
        return any(
            re.search(rf"\bnot\s+(?:the\s+|my\s+|a\s+)?{re.escape(label)}\b", self.answer, re.I)
            for label in labels
        )

    def _said_at_close(self, graph: KnowledgeGraph, node_id: str) -> bool:
        node = graph.node(node_id)
        return node.created_turn == self.turn or any(
            p["turn"] == self.turn for p in node.provenance
        )

    def _said_again(self, graph: KnowledgeGraph, node_id: str) -> bool:
        """A concept the reader knew already, said again at the close in its own words: "it
        froths so my coffee is right" leads with the chain that ends at it, not with every
        chain that passes through "froth for my coffee" (a typed interview's summary led with
        five, one of them ending at a correction of a scene)."""
        node = graph.node(node_id)
        return node.confidence != DISOWNED and self._restated(node.label)

    def _restated(self, label: str) -> bool:
        """The answer says the label's words again, a concept the reader knew already and so
        made nothing new of ("i get my saturday mornings back", round 139's summary left it
        out): two content words or more (one is too often said in passing: "no 4am crash"
        would have led with every chain through "crash", round 143)."""
        if any(_names_same(_words(label), _words(q)) for q in _QUOTED.findall(self.question)):
            return False  # read back, and said again to put it right: ``keep`` judges that
        own = label_profile(label).content
        long_enough = len(own) >= 2
        # (said together, as they were, where the answer talks of what matters: not a frame's
        # "the worries are", nor "pod" and "coffee" said apart)
        if not long_enough or f" {' '.join(own)} " not in self._said:
            return False
        # (not said to be nothing to them: "I dont care about battery life at all")
        at = self.answer.lower().find(own[0][:4])
        return not _DENIED_BEFORE.search(self.answer[max(0, at - 30) : max(at, 0)])


def ladder_to(graph: KnowledgeGraph, methodology: Methodology, node_id: str) -> list[str]:
    """Node ids of the longest chain (over the chain relations) that ends at ``node_id``,
    most concrete first; just ``[node_id]`` when nothing leads to it. At each step down, a
    concept of the same leaning as the one above it (both disliked, or neither) comes before
    the longer way: "fuel for the commute -> awake for emails" tells how they get there,
    "useless by 10 -> awake for emails" what gets in its way."""
    relations = methodology.ontology.chain_relations
    depths = graph.node_depths(relations)
    chain = [node_id]
    while len(chain) < MAX_CHAIN:
        below = [
            p
            for p in graph.predecessors(chain[-1], relations)
            if p not in chain and graph.node(p).confidence != DISOWNED
        ]
        if not below:
            break
        against = graph.node(chain[-1]).stance < 0

        def rank(p: str, against: bool = against) -> tuple[bool, int, str]:
            return ((graph.node(p).stance < 0) == against, depths.get(p, 0), p)

        chain.append(max(below, key=rank))
    return chain[::-1]


@dataclass(frozen=True)
class _Reading:
    """The graph as the summary reads it: each corrected concept's current wording, and
    the chain edges between the concepts that stand."""

    graph: KnowledgeGraph
    shown_as: dict[str, str]  # node id -> id of the concept that corrected it
    up: dict[str, list[str]]  # chain successors
    down: dict[str, list[str]]  # chain predecessors
    linked: set[str]  # with an edge other than a correction (a chain, a contrast...)

    def node(self, node_id: str) -> Node:
        """The concept read back for ``node_id``: the newer wording where one revises it."""
        return self.graph.node(self.shown_as.get(node_id, node_id))


def _read(graph: KnowledgeGraph, methodology: Methodology) -> _Reading:
    relations = set(methodology.ontology.chain_relations)
    shown_as: dict[str, str] = {}
    up: dict[str, list[str]] = {n.id: [] for n in graph.nodes()}
    down: dict[str, list[str]] = {n.id: [] for n in graph.nodes()}
    linked: set[str] = set()
    disowned = {n.id for n in graph.nodes() if n.confidence == DISOWNED}
    for relation in graph.edges():
        if relation.relation == REVISES:
            shown_as[relation.target] = relation.source  # the newer wording stands
            continue
        if {relation.source, relation.target} & disowned:
            continue  # "that was a joke": no link of it is read back
        linked.update((relation.source, relation.target))
        if relation.relation in relations and relation.source != relation.target:
            up[relation.source].append(relation.target)
            down[relation.target].append(relation.source)
    for node in graph.nodes():
        if node.superseded_by is not None and node.superseded_by in up:
            if node.superseded_by in disowned:
                continue  # corrected into something then taken back: the old wording stands
            shown_as.setdefault(node.id, node.superseded_by)
    return _Reading(graph, shown_as, up, down, linked)


def _doubtful(graph: KnowledgeGraph, methodology: Methodology) -> set[str]:
    """Concepts read with too little confidence to be asked about: not read back either."""
    return {n.id for n in graph.nodes() if methodology.tuning.vetoes.doubts(n.confidence)}


Say = Callable[[Node], "str | None"]

# The longest sentence of theirs a concept is told in, when its label cannot be said back.
MAX_TOLD_WORDS = 12


class SaidAs:
    """How a concept is read back to the respondent: its label in their own words where an
    answer holds them as a clean phrase ("I never charge it" for "never charge"), else as it
    stands (a model's paraphrase too). Where the only words for it stop in the middle of what
    they said ("whether they remember how" of "... how I like it") or leave some of theirs out
    ("not being stuck about 100 night"), it is told in the shortest of their own sentences it
    was read from ("they doubled the direct debit without telling me"), or not at all: the
    summary is the last thing they read, round 19's testers rated its broken bits 1 and 2 of
    4, and a typed support call was told "you missed that they doubled the direct debit
    without telling me" while the summary still left that point out."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self._phrases: dict[str, Phrase | None] = {}  # (asked of a label once, said or listed)

    def _phrase(self, label: str) -> Phrase | None:
        if label not in self._phrases:
            self._phrases[label] = phrase_for(label, self.answers)
        return self._phrases[label]

    def __call__(self, node: Node) -> str | None:
        label = node.label
        phrase = self._phrase(label)
        if phrase is not None:
            return told_plainly(phrase.verbatim)
        if cut_short(label, self.answers) or gapped(label, self.answers):
            # (to the end of the clause it was cut from, where that is short: round 163's
            # summary read "I dont want Mostyn to go the way")
            told = run_on(label, self.answers, MAX_TOLD_WORDS) or _own_sentence(node)
            return told_plainly(told) if told else told
        return label

    def clean(self, node: Node) -> bool:
        """The concept is a clean phrase of theirs, said back as they said it."""
        return self._phrase(node.label) is not None


def said_as(answers: Sequence[str]) -> SaidAs:
    """How concepts are read back to the respondent (``SaidAs``)."""
    return SaidAs(answers)


def _said(node: Node, say: Say | None) -> str | None:
    return say(node) if say is not None else node.label


def _own_sentence(node: Node) -> str | None:
    quotes = (p["quote"].strip() for p in node.provenance)
    short = [q for q in quotes if q and len(q.split()) <= MAX_TOLD_WORDS]
    return min(short, key=len) if short else None


def _labels(
    reading: _Reading, ids: list[str], skip: frozenset[str] = frozenset(), say: Say | None = None
) -> list[str]:
    labels: list[str] = []
    for node_id in ids:
        if node_id in skip:
            continue
        label = _said(reading.node(node_id), say)
        if not label or (labels and labels[-1] == label):
            continue
        if labels and _names_same(_words(labels[-1]), _words(label)):
            # "warranty → I want a good long warranty" (round 45): one rung, said twice
            labels[-1] = max(labels[-1], label, key=len)
            continue
        labels.append(label)
    return labels


def _side_chain(
    graph: KnowledgeGraph,
    methodology: Methodology,
    reading: _Reading,
    node_id: str,
    covered: set[str],
) -> list[str]:
    """A concept that joins a chain from the side: the ladder below it, then up from it to
    where it meets what is shown already."""
    chain = [n for n in ladder_to(graph, methodology, node_id) if n not in covered]
    while len(chain) < MAX_CHAIN and reading.up[chain[-1]]:
        above = reading.up[chain[-1]][0]
        if above in chain:
            break
        chain.append(above)
        if above in covered:
            break
    return chain


def summary_chains(
    graph: KnowledgeGraph,
    methodology: Methodology,
    limit: int,
    keep: Callable[[list[str]], int] | None = None,
) -> list[list[str]]:
    """Up to ``limit`` chains of labels (``ranked_chains`` without their ranks)."""
    return [labels for _, labels in ranked_chains(graph, methodology, limit, keep)]


def ranked_chains(
    graph: KnowledgeGraph,
    methodology: Methodology,
    limit: int,
    keep: Callable[[list[str]], int] | None = None,
    say: Say | None = None,
) -> list[tuple[int, list[str]]]:
    """Up to ``limit`` chains of labels in the order they were said, each with its rank after
    the check-back (``CheckBack.keep``: 1 said at the close, else 0): one per ladder end (the
    highest ends first when there are more), a two-step link for a concept joining a chain
    from the side, then single labels for concepts linked to nothing (up to ``MAX_LOOSE``).
    A chain that reads the same as another (a correction shown as what it corrected) is
    shown once. A concept read with doubt (below ``vetoes.min_focus_confidence``: a joke, an
    apology, backstory) is not asked about, so it is not read back either."""
    reading = _read(graph, methodology)
    level = methodology.ontology.levels
    said = {n.id: i for i, n in enumerate(graph.nodes())}  # creation order: as it was said
    ends = [n for n in graph.nodes() if reading.down[n.id] and not reading.up[n.id]]
    ends.sort(key=lambda n: (-level.get(n.node_type, 0), said[n.id]))
    candidates = [ladder_to(graph, methodology, n.id) for n in ends]
    covered = {node_id for chain in candidates for node_id in chain}
    for node in graph.nodes():
        if node.id not in covered and reading.up[node.id]:
            candidates.append(_side_chain(graph, methodology, reading, node.id, covered))
            covered.update(candidates[-1])
    if keep is not None:  # the check-back answered: what it said first, what it denied gone
        candidates = sorted((c for c in candidates if keep(c) >= 0), key=lambda c: -keep(c))
    chains: list[list[str]] = []
    shown: set[tuple[str, ...]] = set()
    for ids in candidates:
        labels = tuple(_labels(reading, ids))
        if labels not in shown and len(chains) < limit:
            shown.add(labels)
            chains.append(ids)
    chains.sort(key=lambda ids: min(said[i] for i in ids))
    if keep is not None:
        chains.sort(key=lambda ids: -keep(ids))
    loose = [
        [node.id]
        for node in graph.nodes()
        if node.id not in covered
        and node.id not in reading.shown_as.values()
        and node.id not in reading.linked
    ]
    # what the closing answer said again is meant, however it was read before ("the actual
    # point is recovering properly", said first as an aside)
    doubtful = frozenset(i for i in _doubtful(graph, methodology) if keep is None or keep([i]) < 1)
    loose = [ids for ids in loose if ids[0] not in doubtful]
    if isinstance(say, SaidAs):
        # on no chain, a concept is listed only as a clean phrase of theirs, or as the closing
        # answer said it: round 232's "also:" read back "Mitzi rides on it sometimes like shes"
        # and "bare weeks of that bot saying", and was rated 2 of 4
        loose = [
            ids
            for ids in loose
            if say.clean(graph.node(ids[0])) or (keep is not None and keep(ids) >= 1)
        ]
    if keep is not None:  # what the closing answer said is listed first, not cut off last
        loose.sort(key=lambda ids: -keep(ids))
    said_clearly = [
        (keep(ids) if keep is not None else 0, _labels(reading, ids, doubtful, say))
        for ids in chains + loose[:MAX_LOOSE]
    ]
    # a chain reads as it is shown: two that read the same once their doubtful concepts are
    # skipped and their words said as the respondent's ("hour -> the weights area" twice,
    # round 22) are one
    said_once: dict[tuple[str, ...], int] = {}
    for rank, shown_labels in said_clearly:
        if shown_labels:
            said_once.setdefault(tuple(shown_labels), rank)
    return [(rank, list(read)) for read, rank in said_once.items()]


def _joined(chains: list[list[str]]) -> list[list[str]]:
    """The chains of two or more rungs, those that join the same rung from the side said on
    one line ("5 people in, cheap → i dont feel watched", not a line each: round 29's summary
    read "i dont feel watched" back four times)."""
    long = [chain for chain in chains if len(chain) > 1]
    sides: dict[str, list[str]] = {}
    for chain in long:
        if len(chain) == 2:
            sides.setdefault(chain[1], []).append(chain[0])
    out: list[list[str]] = []
    for chain in long:
        if len(chain) != 2:
            out.append(chain)
        elif chain[1] in sides:
            out.append([", ".join(dict.fromkeys(sides.pop(chain[1]))), chain[1]])
    return out


def _within_none(chains: list[list[str]]) -> list[list[str]]:
    """The chains that are not the start of a longer one shown ("borrow one for a week first
    → sarah just offered" beside the two chains going on from it, round 57)."""
    return [
        chain
        for i, chain in enumerate(chains)
        if not any(
            len(other) > len(chain) and other[: len(chain)] == chain
            for j, other in enumerate(chains)
            if j != i
        )
    ]


def journey_summary(
    graph: KnowledgeGraph,
    methodology: Methodology,
    say: Say | None,
    order: Sequence[str] = (),
) -> str:
    """A journey told, a line a stage in the journey's order (``order``: the concept's element
    ids, first to last; a stage it does not list comes after, in the order told): what was
    done, felt or went wrong there (``MAX_PER_STAGE`` of them, in their words), not a chain
    from the stage to each ("choosing a delivery slot → ..." eight times over, round 45,
    rated 1 of 4). Round 74's summary put the delivery after the unpacking it came before."""
    spec = methodology.journey
    if spec is None:
        return ""
    doubtful = _doubtful(graph, methodology)
    lines: list[str] = []
    stages = graph.nodes(spec.stage_type)
    place = {element: i for i, element in enumerate(order)}
    for stage in sorted(stages, key=lambda n: place.get(n.element_id or "", len(place))):
        if graph.is_superseded(stage.id) or stage.id in doubtful:
            continue
        told: list[str] = []
        first = (spec.pain_type, spec.emotion_type)  # what went wrong and how it felt first
        # (and what hangs off its steps and pains: a fix of a pain, a pain of a touchpoint)
        near = [c for c in graph.successors(stage.id) if graph.node_type(c) != spec.stage_type]
        children = sorted(
            (
                c
                for c in dict.fromkeys([*near, *(g for c in near for g in graph.successors(c))])
                if c not in doubtful and not graph.is_superseded(c)
            ),
            key=lambda c: first.index(graph.node_type(c)) if graph.node_type(c) in first else 2,
        )
        for child in children:
            label = _said(graph.node(child), say)
            if label and label.lower() not in (t.lower() for t in told):
                told.append(label)
        said = f": {'; '.join(told[:MAX_PER_STAGE])}" if told else ""
        lines.append(f"- {stage.label}{said}")
    return "\n".join(lines)


def story_summary(
    graph: KnowledgeGraph,
    methodology: Methodology,
    keep: Callable[[list[str]], int] | None = None,
    say: Say | None = None,
    agreed: frozenset[str] = frozenset(),
) -> str:
    """A story's points (a critical incident), a line each: what the closing answer said
    first (half the lines at most, when the answer let the read-back stand), then what the
    check-back read back and the answer let stand (``agreed``), then what was said in the most
    answers (``MAX_TOLD`` in all), in the order said. A story's links (one step prompting the
    next) are no reasons, and read back as a chain they were taken for claims: "he didnt read
    anything → Im looking at switching provider" made the one good part of the call the
    reason to leave, and "I went on their website → typed router not working → that routers
    die → deep" read a story as findings (round 68, both rated 2 of 4)."""
    reading = _read(graph, methodology)
    doubtful = _doubtful(graph, methodology)
    order = {n.id: i for i, n in enumerate(graph.nodes())}

    rank = {n.id: keep([n.id]) if keep is not None else 0 for n in graph.nodes()}
    standing = [
        n.id
        for n in graph.nodes()
        if n.id not in reading.shown_as
        and n.confidence != DISOWNED
        and rank[n.id] >= 0
        and (n.id not in doubtful or rank[n.id] > 0 or n.id in agreed)
    ]
    said = {i: graph.node(i).answers_said_in for i in standing}
    if agreed:
        at_close = sorted((i for i in standing if rank[i] > 0), key=order.__getitem__)
        first = set(at_close[: MAX_TOLD // 2])
        rank = {
            i: 3 if i in first else 2 if i in agreed and r == 0 else 1 if r > 0 else r
            for i, r in rank.items()
        }
    chosen = sorted(standing, key=lambda i: (-rank[i], -said[i], order[i]))[:MAX_TOLD]
    told: list[str] = []
    for node_id in sorted(chosen, key=lambda i: (-rank[i], order[i])):
        label = _said(graph.node(node_id), say)
        if label and not any(_names_same(_words(label), _words(t)) for t in told):
            told.append(label)
    return "\n".join(f"- {label}" for label in told)


def _unrepeated(chains: list[list[str]]) -> list[list[str]]:
    """The chains without a lone concept another line says in more words: "get up the hill"
    beside "getting up the hill to clifton" (round 152's summary led with both)."""

    def within(small: list[str], big: list[str]) -> bool:
        words = _content(small)
        return len(small) == 1 and len(words) >= 2 and any(words < _content([b]) for b in big)

    return [c for c in chains if not any(within(c, other) for other in chains if other is not c)]


def _touched(
    chains: list[list[str]], checked: CheckBack, graph: KnowledgeGraph, say: Say | None
) -> list[list[str]]:
    """The chains the closing answer's own account touches, and those the check-back read back
    when the answer said that was right: "Aye, near enough. You've missed the stiff sole for
    scree and them lasting" left round 169's summary two lines long ("Did I miss anything?" -
    "Yes, rather a lot" agrees to nothing)."""
    told = set(label_profile(checked.answer).content)
    agreed: set[str] = set()
    if not _MISS_ASKED.search(checked.question):
        agreed = {t for i in checked.agreed(graph) if (t := _said(graph.node(i), say))}
    return [c for c in chains if len(c) > 1 and (told & _content(c) or agreed & set(c))]


def learned_summary(
    graph: KnowledgeGraph,
    methodology: Methodology,
    limit: int = MAX_CHAINS,
    checked: CheckBack | None = None,
    say: Say | None = None,
    order: Sequence[str] = (),
) -> str:
    """The chains as a bulleted list (``- a → b → c``), then ``- also: x; y`` for what is on
    no chain; after the closing check-back was answered (``checked``), as that answer left
    it. A journey is told a stage a line, in ``order`` (``journey_summary``)."""
    if methodology.shape == "journey" and methodology.journey is not None:
        return journey_summary(graph, methodology, say, order)
    keep = checked.keep(graph) if checked is not None else None
    if methodology.summary == "points":
        agreed = checked.agreed(graph) if checked is not None else frozenset()
        return story_summary(graph, methodology, keep, say, agreed)
    ranked = ranked_chains(graph, methodology, limit, keep, say)
    # after a "no", what the closing answer said leads, each on its own line, chained or not
    chained = [_words(label) for _, chain in ranked if len(chain) > 1 for label in chain]

    def on_a_chain(label: str) -> bool:  # "fussy" beside "sooo fussy → doesnt eat" (round 47)
        return any(_names_same(_words(label), words) for words in chained)

    said_at_close = _unrepeated(
        [
            chain
            for rank, chain in ranked
            if rank > 0 and (len(chain) > 1 or not on_a_chain(chain[0]))
        ]
    )
    lines = [f"- {' → '.join(chain)}" for chain in said_at_close]
    chains = [chain for rank, chain in ranked if rank <= 0]
    if checked is not None and sum(rank > 0 for rank, _ in ranked) >= 3 and checked.put_right():
        # they said what was missed, three things or more in their own words: their account
        # leads, and of the rest only the chains it touches stay (round 140's summary read its
        # four points back, then "strictly speaking it starts the night → ..." and "also: the
        # sweaty thing ..."); one or two said again leave the rest as it was
        chains = _touched(chains, checked, graph, say)
    lines += [f"- {' → '.join(chain)}" for chain in _within_none(_joined(chains))]
    # each concept once ("also: first chat; first chat; ..." read a correction's successor
    # back once for every node it corrected), and not again after a chain that holds it
    on_chains = {label for chain in [*chains, *said_at_close] if len(chain) > 1 for label in chain}
    on_chains |= {chain[0] for chain in said_at_close}
    loose = list(
        dict.fromkeys(
            chain[0]
            for chain in chains
            if len(chain) == 1 and chain[0] not in on_chains and not on_a_chain(chain[0])
        )
    )
    if loose and lines:
        lines.append(f"- also: {'; '.join(loose)}")
    elif loose:
        lines += [f"- {label}" for label in loose]
    return "\n".join(lines)
