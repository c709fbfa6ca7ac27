"""Implication matrix, cut-off and hierarchical value map (Reynolds & Gutman 1988).

Laddering analysis after content coding (``codes``):

**Implication matrix.** A square matrix over the codes whose cell (A, B) counts how often A
leads to B, split into *direct* relations (A is immediately followed by B) and *indirect*
relations (B follows A with other codes in between). Reynolds & Gutman write a cell as
"direct.indirect". Relations are counted within a ladder and never across two ladders of one
respondent (:func:`ladder_matrix`): a respondent who says A→C in one ladder and C→V in another
has not said that A leads to V. Two rules decide what one count is:

- ``ladder`` (the default, Reynolds & Gutman's own): a cell counts the ladders that hold the
  relation;
- ``respondent``: a cell counts the respondents with at least one ladder that holds it, so one
  talkative respondent who tells the same chain many times weighs as much as anyone else (the
  "count each respondent once" option of laddering software).

A respondent can contribute to both parts of a cell, as one ladder may say A→B and another
A→C→B. Ladders come from a coding sheet (``ladder_sheet``) or, for our sessions, are the chains
the interview recorded (``codes.graph_ladders``). :func:`implication_matrix` keeps the older
count on the respondent's merged graph, which lets relations run across ladders and inflates
indirect counts; it is no longer what ``report`` uses.

**Cut-off.** Only relations whose total (direct + indirect) reaches the cut-off are mapped. The
share of links kept at cut-off c is the sum of the totals of the cells at or above c over the
sum of all totals. :func:`choose_cutoff` takes the highest cut-off that still keeps a stated
share (default two thirds, a common rule of thumb in the laddering literature, e.g. Pieters,
Baumgartner & Allen 1995); the report states the cut-off and the share it actually keeps.

**HVM.** The hierarchical value map draws every kept relation with a direct count as a solid
link. A kept relation that is only indirect is drawn as a dashed link, unless the target is
already reachable from the source over drawn links (it would add nothing but clutter).

Everything here is a pure function of the counts; the worked example in
``tests/analysis/test_implication.py`` is computed by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interview_cli.config.plurals import plural

DEFAULT_KEEP_SHARE = 2 / 3

COUNTING_RULES = ("ladder", "respondent")
COUNTING_TEXT = {
    "ladder": "per ladder (Reynolds & Gutman): a cell counts the ladders that hold the relation",
    "respondent": "per respondent: a cell counts the respondents with a ladder that holds the "
    "relation",
    "graph": "per respondent graph: a cell counts the respondents whose merged graph holds it",
}

Pair = tuple[str, str]


@dataclass(frozen=True)
class Cell:
    source: str
    target: str
    direct: int
    indirect: int

    @property
    def total(self) -> int:
        return self.direct + self.indirect

    def notation(self) -> str:
        """Reynolds & Gutman's "direct.indirect"."""
        return f"{self.direct}.{self.indirect}"


@dataclass(frozen=True)
class ImplicationMatrix:
    codes: tuple[str, ...]  # row and column order
    direct: Mapping[Pair, int]
    indirect: Mapping[Pair, int]
    respondents: int
    # What one count is: "ladder" (Reynolds & Gutman: every ladder that holds the relation),
    # "respondent" (each relation once per respondent) or "graph" (the respondent's merged
    # graph; kept for comparison, it lets relations run across ladders).
    counting: str = "graph"
    ladders: int | None = None

    def ladders_text(self) -> str:
        """``7 ladders``, or ``ladders`` when they were not counted (graph counting)."""
        return "ladders" if self.ladders is None else plural(self.ladders, "ladder")

    def counting_text(self) -> str:
        """The counting rule in words, for every report format."""
        return COUNTING_TEXT.get(self.counting, self.counting)

    def cell(self, source: str, target: str) -> Cell:
        pair = (source, target)
        return Cell(source, target, self.direct.get(pair, 0), self.indirect.get(pair, 0))

    def cells(self) -> list[Cell]:
        """Non-empty cells, by row then column order."""
        index = {c: i for i, c in enumerate(self.codes)}
        pairs = set(self.direct) | set(self.indirect)
        ordered = sorted(
            pairs, key=lambda p: (index.get(p[0], 1 << 30), index.get(p[1], 1 << 30), p)
        )
        return [self.cell(a, b) for a, b in ordered]

    @property
    def total_links(self) -> int:
        return sum(self.direct.values()) + sum(self.indirect.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "codes": list(self.codes),
            "respondents": self.respondents,
            "ladders": self.ladders,
            "counting": self.counting,
            "total_links": self.total_links,
            "cells": [
                {"source": c.source, "target": c.target, "direct": c.direct, "indirect": c.indirect}
                for c in self.cells()
            ],
        }


def _reachable(succ: Mapping[str, set[str]], start: str, blocked: str) -> set[str]:
    """Nodes reachable from ``start`` without passing through ``blocked`` (start excluded)."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in succ.get(stack.pop(), ()):
            if nxt != blocked and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    seen.discard(start)
    return seen


def indirect_pairs(links: Iterable[Pair]) -> set[Pair]:
    """(A, B) such that a simple path A→C→…→B with at least two links exists."""
    succ: dict[str, set[str]] = {}
    for a, b in links:
        if a != b:
            succ.setdefault(a, set()).add(b)
    pairs: set[Pair] = set()
    for a, nexts in succ.items():
        for c in nexts:
            # A path A→C→…→B is simple when it never comes back to A; C itself is excluded
            # from B (reaching C again would repeat it).
            for b in _reachable(succ, c, blocked=a):
                pairs.add((a, b))
    return pairs


def implication_matrix(
    respondent_links: Sequence[Iterable[Pair]], order: Sequence[str] | None = None
) -> ImplicationMatrix:
    """Sum direct and indirect relations over respondents (each counted once per cell)."""
    direct: dict[Pair, int] = {}
    indirect: dict[Pair, int] = {}
    seen_codes: list[str] = []
    for links in respondent_links:
        mine = {(a, b) for a, b in links if a != b}
        for a, b in sorted(mine):
            direct[(a, b)] = direct.get((a, b), 0) + 1
            seen_codes += [a, b]
        for pair in indirect_pairs(mine):
            indirect[pair] = indirect.get(pair, 0) + 1
    codes = list(order) if order is not None else []
    codes += [c for c in dict.fromkeys(seen_codes) if c not in set(codes)]
    return ImplicationMatrix(tuple(codes), direct, indirect, len(respondent_links))


def ladder_pairs(ladder: Sequence[str]) -> tuple[set[Pair], set[Pair]]:
    """(direct, indirect) relations of one ladder: next rung, and any rung further up.

    A code repeated on adjacent rungs (two mentions, one code) is one rung; a relation of a
    code to itself is no relation.
    """
    rungs = [c for i, c in enumerate(ladder) if i == 0 or c != ladder[i - 1]]
    direct = {(a, b) for a, b in zip(rungs, rungs[1:], strict=False) if a != b}
    indirect = {
        (rungs[i], rungs[j])
        for i in range(len(rungs))
        for j in range(i + 2, len(rungs))
        if rungs[i] != rungs[j]
    }
    return direct, indirect


def ladder_matrix(
    respondent_ladders: Sequence[Sequence[Sequence[str]]],
    *,
    counting: str = "ladder",
    order: Sequence[str] | None = None,
) -> ImplicationMatrix:
    """Direct and indirect relations counted within each ladder, never across two ladders.

    ``respondent_ladders[r]`` holds respondent r's ladders, each a list of codes from the
    lowest rung up. ``counting="ladder"`` adds one per ladder holding a relation (Reynolds &
    Gutman 1988); ``"respondent"`` adds one per respondent with any such ladder, so a
    respondent who tells the same chain twice weighs as much as one who tells it once.
    """
    if counting not in COUNTING_RULES:
        raise ValueError(f"counting must be one of {', '.join(COUNTING_RULES)}")
    direct: dict[Pair, int] = {}
    indirect: dict[Pair, int] = {}
    seen_codes: list[str] = []
    ladders = 0
    for mine in respondent_ladders:
        units: list[tuple[set[Pair], set[Pair]]] = [ladder_pairs(lad) for lad in mine]
        ladders += len(units)
        seen_codes += [c for lad in mine for c in lad]
        if counting == "respondent":
            units = [(set().union(*(u[0] for u in units)), set().union(*(u[1] for u in units)))]
        for d, i in units:
            for pair in d:
                direct[pair] = direct.get(pair, 0) + 1
            for pair in i:
                indirect[pair] = indirect.get(pair, 0) + 1
    linked = {c for pair in (*direct, *indirect) for c in pair}
    codes = list(order) if order is not None else []
    codes += [c for c in dict.fromkeys(seen_codes) if c in linked and c not in set(codes)]
    return ImplicationMatrix(
        tuple(codes), direct, indirect, len(respondent_ladders), counting, ladders
    )


# --------------------------------------------------------------------------------------------
# Cut-off
# --------------------------------------------------------------------------------------------


def share_kept(matrix: ImplicationMatrix, cutoff: int) -> float:
    """Share of all links (direct + indirect) in cells whose total is at least ``cutoff``."""
    total = matrix.total_links
    if total == 0:
        return 0.0
    return sum(c.total for c in matrix.cells() if c.total >= cutoff) / total


def choose_cutoff(matrix: ImplicationMatrix, keep_share: float = DEFAULT_KEEP_SHARE) -> int:
    """The highest cut-off (>= 1) that still keeps at least ``keep_share`` of all links."""
    if not 0.0 < keep_share <= 1.0:
        raise ValueError("keep_share must be in (0, 1]")
    best = 1
    for cutoff in sorted({c.total for c in matrix.cells()}):
        if share_kept(matrix, cutoff) >= keep_share - 1e-12:
            best = max(best, cutoff)
    return best


# --------------------------------------------------------------------------------------------
# Hierarchical value map
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HVMLink:
    source: str
    target: str
    direct: int
    indirect: int
    kind: str  # "direct" (solid) | "indirect" (dashed)

    @property
    def total(self) -> int:
        return self.direct + self.indirect


@dataclass(frozen=True)
class HVM:
    cutoff: int
    keep_share: float | None  # the share asked for (None when the cut-off was given)
    share_kept: float
    relations_total: int  # non-empty cells
    relations_kept: int  # cells at or above the cut-off
    codes: tuple[str, ...]  # codes on the map, in matrix order
    links: tuple[HVMLink, ...]
    implied: tuple[Pair, ...]  # kept indirect-only relations already shown by drawn paths

    def to_dict(self) -> dict[str, Any]:
        return {
            "cutoff": self.cutoff,
            "keep_share_target": self.keep_share,
            "share_of_links_kept": round(self.share_kept, 4),
            "relations_total": self.relations_total,
            "relations_kept": self.relations_kept,
            "codes": list(self.codes),
            "links": [
                {
                    "source": link.source,
                    "target": link.target,
                    "direct": link.direct,
                    "indirect": link.indirect,
                    "kind": link.kind,
                }
                for link in self.links
            ],
            "implied_by_paths": [list(p) for p in self.implied],
        }


def build_hvm(
    matrix: ImplicationMatrix, *, cutoff: int | None = None, keep_share: float = DEFAULT_KEEP_SHARE
) -> HVM:
    """The map at ``cutoff`` (chosen by :func:`choose_cutoff` when not given)."""
    chosen = cutoff if cutoff is not None else choose_cutoff(matrix, keep_share)
    cells = matrix.cells()
    kept = [c for c in cells if c.total >= chosen]
    solid = [c for c in kept if c.direct > 0]
    succ: dict[str, set[str]] = {}
    for c in solid:
        succ.setdefault(c.source, set()).add(c.target)
    links = [HVMLink(c.source, c.target, c.direct, c.indirect, "direct") for c in solid]
    implied: list[Pair] = []
    # Strongest indirect relations first, so a weaker one can be implied by a stronger one.
    for c in sorted(
        (c for c in kept if c.direct == 0), key=lambda c: (-c.total, c.source, c.target)
    ):
        if c.target in _reachable(succ, c.source, blocked=""):
            implied.append((c.source, c.target))
            continue
        links.append(HVMLink(c.source, c.target, 0, c.indirect, "indirect"))
        succ.setdefault(c.source, set()).add(c.target)
    on_map = {code for link in links for code in (link.source, link.target)}
    index = {c: i for i, c in enumerate(matrix.codes)}
    links.sort(key=lambda link: (index.get(link.source, 0), index.get(link.target, 0)))
    return HVM(
        cutoff=chosen,
        keep_share=None if cutoff is not None else keep_share,
        share_kept=share_kept(matrix, chosen),
        relations_total=len(cells),
        relations_kept=len(kept),
        codes=tuple(c for c in matrix.codes if c in on_map),
        links=tuple(links),
        implied=tuple(implied),
    )


# --------------------------------------------------------------------------------------------
# A readable window on a large matrix
# --------------------------------------------------------------------------------------------


def codes_at_cutoff(matrix: ImplicationMatrix, cutoff: int) -> tuple[list[str], list[str]]:
    """The rows and columns worth showing at ``cutoff``, in matrix order: the codes that lead
    to another code (rows) or are led to (columns) by at least one relation at or above it.

    Most of a large matrix is empty or holds counts of one (83 codes over 9 sessions, most of
    them said once): the window keeps every relation the map is drawn from, and any smaller
    count between two codes it shows. A hidden code has only relations below the cut-off.
    """
    kept = [c for c in matrix.cells() if c.total >= cutoff]
    sources = {c.source for c in kept}
    targets = {c.target for c in kept}
    return [c for c in matrix.codes if c in sources], [c for c in matrix.codes if c in targets]


def most_linked_codes(
    matrix: ImplicationMatrix,
    limit: int,
    levels: Mapping[str, int] | None = None,
    among: Iterable[str] | None = None,
    min_total: int = 1,
) -> list[str]:
    """At most ``limit`` codes worth showing when the whole matrix does not fit a screen.

    A code's weight is the number of links (direct + indirect, in and out) it takes part in,
    so the chosen codes hold as many of the matrix's links as a small set can. With
    ``levels``, the most linked code of each level comes first: a window cut by weight alone
    tends to fill up with many-linked consequences and drop the few value codes the ladders
    end in - the column a reader of an HVM looks for first. Returned in matrix order, so rows
    and columns of the window read like those of the full matrix. ``among``: choose from
    these codes only, weighed by the links between them; ``min_total``: weigh only cells
    with at least this many links (the cut-off, so the window holds the mapped relations).
    """
    pool = set(among) if among is not None else None
    weight: dict[str, int] = {}
    for c in matrix.cells():
        if c.total < min_total or (
            pool is not None and not (c.source in pool and c.target in pool)
        ):
            continue
        weight[c.source] = weight.get(c.source, 0) + c.total
        weight[c.target] = weight.get(c.target, 0) + c.total
    index = {c: i for i, c in enumerate(matrix.codes)}
    ranked = sorted(weight, key=lambda c: (-weight[c], index.get(c, 1 << 30), c))
    chosen: list[str] = []
    if levels is not None:
        best: dict[int, str] = {}
        for code in ranked:
            best.setdefault(levels.get(code, 0), code)
        chosen = sorted(best.values(), key=ranked.index)[:limit]
    for code in ranked:
        if len(chosen) >= limit:
            break
        if code not in chosen:
            chosen.append(code)
    return sorted(chosen, key=lambda c: (index.get(c, 1 << 30), c))
