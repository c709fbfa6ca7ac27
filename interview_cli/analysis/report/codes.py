"""Content codes across sessions: the first step of laddering analysis (Reynolds & Gutman 1988).

Before ladders can be summed into an implication matrix, the respondents' own words must be
grouped into a shared set of codes ("content analysis"). A node of a session graph gets its
code from, in order of precedence:

1. an analyst merge: a small YAML mapping ``code name: [labels that mean the same]``
   (:func:`load_merges`), matched on the same loose key as below;
2. its canonical slot (dual graph) when the session recorded one;
3. its de-duplicated label: the label and the aliases the in-session de-duplication already
   merged, compared across sessions by ``core.text.lemma_key`` (case, punctuation, word forms,
   synonym groups and negation are normalised, so "feeling in control" and "feel in control"
   share a code while "stressed" and "not stressed" do not).

Nodes that share any key end up in one code (union-find), so an alias in one interview can join
two labels seen in others. Then codes that say the same thing in other words are grouped by
meaning (``analysis.report.grouping``: one respondent's slot ``battery`` and another's
"decent battery"), analyst merges excepted; ``by_meaning=False`` keeps the exact codes.
A code is named after its merge, else after its most frequent surface label (slot names are
identifiers such as ``feel_control_time``, kept in ``source``); its node type is the most
frequent type among its nodes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interview_cli.analysis.report.grouping import Wording, group_by_meaning
from interview_cli.config.files import MAX_YAML_BYTES, read_user_text
from interview_cli.config.yamlio import YAMLError, load_yaml
from interview_cli.core.canonical.slots import slot_text
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.text import lemma_key, normalise
from interview_cli.errors import ConfigError


@dataclass(frozen=True)
class RespondentGraph:
    """One session's graph as input to coding (``slots``: node id -> canonical slot name)."""

    id: str
    graph: KnowledgeGraph
    slots: Mapping[str, str] = field(default_factory=dict)
    # Node ids per ladder, lowest rung first, when the ladders were coded by hand (a coding
    # sheet); None: read them from the graph (``graph_ladders``).
    ladders: tuple[tuple[str, ...], ...] | None = None
    # The labels are an analyst's codes already (a coding sheet): never regrouped by meaning.
    coded: bool = False


@dataclass(frozen=True)
class Code:
    id: str
    name: str
    node_type: str
    level: int
    respondents: int
    mentions: int
    variants: tuple[str, ...]
    # "merge", "slot <slot name>", "label", or "meaning": codes of other wordings grouped by
    # what they say (analysis.report.grouping)
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "node_type": self.node_type,
            "level": self.level,
            "respondents": self.respondents,
            "mentions": self.mentions,
            "variants": list(self.variants),
            "source": self.source,
        }


@dataclass(frozen=True)
class CodeBook:
    codes: tuple[Code, ...]
    assignment: Mapping[tuple[int, str], str]  # (respondent index, node id) -> code id

    def code(self, code_id: str) -> Code:
        return self._by_id[code_id]

    @property
    def _by_id(self) -> dict[str, Code]:
        return {c.id: c for c in self.codes}

    def code_of(self, respondent: int, node_id: str) -> str | None:
        return self.assignment.get((respondent, node_id))


# --------------------------------------------------------------------------------------------
# Analyst merges
# --------------------------------------------------------------------------------------------


def parse_merges(data: Any, *, source: str) -> dict[str, list[str]]:
    """``{code: [labels]}`` (optionally under a top-level ``merges:`` key), checked."""
    if isinstance(data, Mapping) and set(data) == {"merges"}:
        data = data["merges"]
    if not isinstance(data, Mapping) or not data:
        raise ConfigError(
            f"{source}: expected a mapping 'code name: [labels that mean the same]'",
            problems=[f"{source}: expected a mapping 'code name: [labels that mean the same]'"],
        )
    merges: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    problems: list[str] = []
    for name, labels in data.items():
        if isinstance(labels, str):
            labels = [labels]
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{source}: {name!r}: a code name must be a non-empty string")
            continue
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            problems.append(f"{source}: {name}: expected a list of labels")
            continue
        for label in [name, *labels]:
            key = _key(label)
            if key in owner and owner[key] != name:
                problems.append(
                    f"{source}: {name}: '{label}' is already merged into '{owner[key]}'"
                )
            owner[key] = name
        merges[name.strip()] = [x.strip() for x in labels if x.strip()]
    if problems:
        raise ConfigError(problems[0], problems=problems)
    return merges


def load_merges(path: Path) -> dict[str, list[str]]:
    # The bounded reader: a regular UTF-8 file of YAML size, or one line saying what it is
    # (`--merges /dev/zero` would be read until memory ran out, a FIFO waited on for ever).
    text = read_user_text(path, limit=MAX_YAML_BYTES, what="merges file", error=ConfigError)
    try:
        data = load_yaml(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        message = f"{path}: not valid YAML{where}"
        raise ConfigError(message, problems=[message]) from None
    return parse_merges(data, source=str(path))


def unmatched_merges(
    graphs: Iterable[KnowledgeGraph], merges: Mapping[str, Sequence[str]] | None
) -> list[tuple[str, str]]:
    """(code name, label) for every merge label that no node of any session is called.

    Matched on the same loose key as the coding, so a typo or a label from another study
    shows up here instead of silently merging nothing. A code's own name is only checked when
    it lists no labels (then the name is what is meant to match).
    """
    if not merges:
        return []
    said = {_key(label) for g in graphs for node in g.nodes() for label in node.labels}
    out: list[tuple[str, str]] = []
    for name, labels in merges.items():
        for label in labels or [name]:
            if _key(label) not in said:
                out.append((name, label))
    return out


# --------------------------------------------------------------------------------------------
# Canonical slots (dual graph) as recorded in SessionFile.canonical
# --------------------------------------------------------------------------------------------


def slot_names(canonical: Mapping[str, Any] | None) -> dict[str, str]:
    """Surface node id -> slot name from a session's canonical state.

    Reads ``slots`` (a list of ``{id, slot_name}`` or a mapping id -> slot) and ``mappings``
    (surface node id -> slot id, or -> ``{slot_id: ...}``, or a list of ``{node_id|surface_id,
    slot_id}``); anything else yields no slots, so an older or empty state codes by label.
    """
    if not canonical:
        return {}
    raw_slots = canonical.get("slots") or {}
    items = (
        raw_slots.items()
        if isinstance(raw_slots, Mapping)
        else ((s.get("id"), s) for s in raw_slots if isinstance(s, Mapping))
    )
    names: dict[str, str] = {}
    for slot_id, slot in items:
        if isinstance(slot, Mapping):
            name = slot.get("slot_name") or slot.get("name")
            if slot_id is not None and isinstance(name, str) and name.strip():
                names[str(slot_id)] = name.strip()
    raw_map = canonical.get("mappings") or {}
    pairs: Iterable[tuple[Any, Any]]
    if isinstance(raw_map, Mapping):
        pairs = raw_map.items()
    else:
        pairs = (
            (m.get("node_id") or m.get("surface_id") or m.get("surface_node_id"), m)
            for m in raw_map
            if isinstance(m, Mapping)
        )
    out: dict[str, str] = {}
    for node_id, target in pairs:
        slot_id = target.get("slot_id") if isinstance(target, Mapping) else target
        if node_id is not None and str(slot_id) in names:
            out[str(node_id)] = names[str(slot_id)]
    return out


# --------------------------------------------------------------------------------------------
# Coding
# --------------------------------------------------------------------------------------------


def _key(label: str) -> str:
    return lemma_key(label) or normalise(label)


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:  # path compression
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # Deterministic: the smaller key becomes the root.
            lo, hi = sorted((ra, rb))
            self.parent[hi] = lo


def _final(graph: KnowledgeGraph, node_id: str) -> str:
    seen = {node_id}
    while (
        (nxt := graph.node(node_id).superseded_by) is not None and nxt in graph and nxt not in seen
    ):
        seen.add(nxt)
        node_id = nxt
    return node_id


def _most_common(counter: Counter[str]) -> str:
    return min(counter, key=lambda s: (-counter[s], len(s), s))


@dataclass
class _Draft:
    name: str
    node_type: str
    level: int
    source: str
    respondents: int
    mentions: int
    variants: tuple[str, ...]
    members: list[tuple[int, str]]


def _draft(
    root: str,
    members: list[tuple[int, str]],
    respondents: Sequence[RespondentGraph],
    levels: Mapping[str, int],
    merge_root: Mapping[str, str],
    grouped: bool = False,
) -> _Draft:
    labels: Counter[str] = Counter()
    slots: Counter[str] = Counter()
    types: Counter[str] = Counter()
    variants: set[str] = set()
    mentions = 0
    who: set[int] = set()
    for r, node_id in members:
        resp = respondents[r]
        node = resp.graph.node(node_id)
        variants.update(node.labels)
        if slot := resp.slots.get(node_id):
            slots[slot] += 1
        # A superseded node's mentions already count on the node that replaced it.
        if node.superseded_by is None:
            labels[node.label] += 1
            types[node.node_type] += 1
            mentions += node.mention_count
            who.add(r)
    if not types:  # only superseded nodes: keep their type, they still name something
        for r, node_id in members:
            node = respondents[r].graph.node(node_id)
            labels[node.label] += 1
            types[node.node_type] += 1
            who.add(r)
    name = merge_root.get(root) or _most_common(labels)
    if root in merge_root:
        source = "merge"
    elif grouped:
        source = "meaning"
    elif slots:
        source = f"slot {_most_common(slots)}"
    else:
        source = "label"
    node_type = min(types, key=lambda t: (-types[t], levels.get(t, 99), t))
    level = levels.get(node_type, max(levels.values(), default=0) + 1)
    ordered = sorted(variants, key=lambda v: (-labels[v], v))
    return _Draft(name, node_type, level, source, len(who), mentions, tuple(ordered), members)


def build_codebook(
    respondents: Sequence[RespondentGraph],
    *,
    levels: Mapping[str, int],
    merges: Mapping[str, Sequence[str]] | None = None,
    by_meaning: bool = True,
    embedder: Embedder | None = None,
) -> CodeBook:
    """Code every node of every respondent's graph (see the module docstring); ``embedder``:
    the embedding tier for grouping by meaning (None: words)."""
    uf = _UnionFind()
    merge_of_key: dict[str, str] = {}
    for name, labels in (merges or {}).items():
        anchor = f"M:{name}"
        uf.find(anchor)
        for label in [name, *labels]:
            merge_of_key[f"L:{_key(label)}"] = name
            uf.union(anchor, f"L:{_key(label)}")

    node_anchor: dict[tuple[int, str], str] = {}
    for r, resp in enumerate(respondents):
        g = resp.graph
        for node in g.nodes():
            target = _final(g, node.id)
            keys = [f"L:{_key(label)}" for label in node.labels]
            slot = resp.slots.get(target) or resp.slots.get(node.id)
            if slot:
                keys.insert(0, f"S:{_key(slot)}")
            anchor = f"N:{r}:{target}"
            for key in keys:
                uf.union(anchor, key)
            node_anchor[(r, node.id)] = anchor

    groups: dict[str, list[tuple[int, str]]] = {}
    for (r, node_id), anchor in node_anchor.items():
        groups.setdefault(uf.find(anchor), []).append((r, node_id))
    merge_root = {uf.find(f"M:{name}"): name for name in (merges or {})}
    clusters = _by_meaning(groups, respondents, merge_root, embedder) if by_meaning else None

    drafts: list[_Draft] = []
    for root, members, grouped in _joined(groups, clusters):
        drafts.append(_draft(root, members, respondents, levels, merge_root, grouped))
    drafts.sort(key=lambda d: (d.level, -d.respondents, d.name))
    codes: list[Code] = []
    assignment: dict[tuple[int, str], str] = {}
    for i, d in enumerate(drafts, 1):
        code_id = f"c{i}"
        codes.append(
            Code(
                code_id,
                d.name,
                d.node_type,
                d.level,
                d.respondents,
                d.mentions,
                d.variants,
                d.source,
            )
        )
        for member in d.members:
            assignment[member] = code_id
    return CodeBook(tuple(codes), assignment)


def _wording(
    members: Sequence[tuple[int, str]], respondents: Sequence[RespondentGraph], fixed: bool
) -> Wording:
    """An exact code's words: its most frequent slot name (else first label) and labels."""
    slots: Counter[str] = Counter()
    types: Counter[str] = Counter()
    texts: list[str] = []
    for r, node_id in members:
        resp = respondents[r]
        if slot := resp.slots.get(node_id):
            slots[slot] += 1
        node = resp.graph.node(node_id)
        texts.extend(node.labels)
        types[node.node_type] += 1
    texts = list(dict.fromkeys(texts))
    name = slot_text(_most_common(slots)) if slots else texts[0]
    return Wording(name, tuple(texts), fixed=fixed, node_type=_most_common(types))


def _by_meaning(
    groups: Mapping[str, list[tuple[int, str]]],
    respondents: Sequence[RespondentGraph],
    merge_root: Mapping[str, str],
    embedder: Embedder | None,
) -> list[int]:
    wordings = [
        _wording(
            members,
            respondents,
            root in merge_root or any(respondents[r].coded for r, _ in members),
        )
        for root, members in groups.items()
    ]
    return group_by_meaning(wordings, embedder=embedder)


def _joined(
    groups: Mapping[str, list[tuple[int, str]]], clusters: Sequence[int] | None
) -> list[tuple[str, list[tuple[int, str]], bool]]:
    """(root, members, grouped by meaning) per code: the exact groups of one cluster joined,
    under the first one's root."""
    if clusters is None:
        return [(root, list(members), False) for root, members in groups.items()]
    roots: dict[int, list[str]] = {}
    for root, cluster in zip(groups, clusters, strict=True):
        roots.setdefault(cluster, []).append(root)
    return [
        (same[0], [m for root in same for m in groups[root]], len(same) > 1)
        for same in roots.values()
    ]


def code_links(
    codebook: CodeBook,
    respondent: int,
    graph: KnowledgeGraph,
    relations: Iterable[str] | None = None,
) -> set[tuple[str, str]]:
    """The respondent's edges as (code, code) pairs, self-links (two nodes, one code) dropped."""
    wanted = set(relations) if relations is not None else None
    links: set[tuple[str, str]] = set()
    for rel in graph.edges():
        if wanted is not None and rel.relation not in wanted:
            continue
        a = codebook.code_of(respondent, rel.source)
        b = codebook.code_of(respondent, rel.target)
        if a is not None and b is not None and a != b:
            links.add((a, b))
    return links


# At most this many ladders are read from one session graph: an interview's chains branch a
# little, but a pathological graph (every attribute to every consequence to every value) would
# otherwise multiply them without end. Paths are found in the interview's own order, so the
# ladders kept are the first ones told.
MAX_LADDERS_PER_GRAPH = 2000


def graph_ladders(
    graph: KnowledgeGraph, relations: Iterable[str] | None = None
) -> list[tuple[str, ...]]:
    """The chains a session recorded: node ids of every maximal path over ``relations``.

    A ladder starts at a node no chain relation leads to (or, inside a loop nothing enters, at
    its earliest node) and climbs until no further rung is open; where the respondent branched
    (one consequence reached from two attributes), each branch is its own ladder, as in a
    hand-coded sheet. Paths are simple: a loop is not walked twice.
    """
    wanted = set(relations) if relations is not None else None
    succ: dict[str, list[str]] = {}
    has_pred: set[str] = set()
    for rel in graph.edges():
        if (wanted is None or rel.relation in wanted) and rel.source != rel.target:
            if rel.target not in succ.setdefault(rel.source, []):
                succ[rel.source].append(rel.target)
            has_pred.add(rel.target)
    order = {n: i for i, n in enumerate(graph.node_ids())}
    for nexts in succ.values():
        nexts.sort(key=lambda n: order.get(n, 1 << 30))
    ladders: list[tuple[str, ...]] = []
    covered: set[str] = set()
    starts = [n for n in graph.node_ids() if n in succ and n not in has_pred]
    loops = [n for n in graph.node_ids() if n in succ and n in has_pred]
    for start in [*starts, *loops]:
        if start in has_pred and start in covered:
            continue
        _climb([start], succ, ladders, covered)
        if len(ladders) >= MAX_LADDERS_PER_GRAPH:
            break
    return ladders[:MAX_LADDERS_PER_GRAPH]


def _climb(
    path: list[str],
    succ: Mapping[str, list[str]],
    out: list[tuple[str, ...]],
    covered: set[str],
) -> None:
    """Depth first: every maximal simple path that extends ``path`` (iterative, bounded)."""
    stack: list[list[str]] = [path]
    while stack and len(out) < MAX_LADDERS_PER_GRAPH:
        here = stack.pop()
        open_rungs = [n for n in succ.get(here[-1], ()) if n not in here]
        if not open_rungs:
            if len(here) > 1:
                out.append(tuple(here))
                covered.update(here)
            continue
        stack.extend([*here, n] for n in reversed(open_rungs))
