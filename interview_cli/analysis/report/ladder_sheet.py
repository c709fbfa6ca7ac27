"""Ladders coded by hand: a coding sheet (CSV) read as respondents for ``report``.

Analysts who ladder by hand, or with another tool, code every interview into a sheet with one
row per rung::

    respondent,ladder,position,code,level
    R1,1,1,price,A
    R1,1,2,saves money,C
    R1,1,3,security,V

``position`` numbers the rungs of a ladder from 1 (the most concrete) up; ``level`` is a node
type of the methodology (``attribute``, ``functional_consequence`` ...) or, for means-end
chains, ``A``/``C``/``V`` (also ``attribute``/``consequence``/``value``), read as the lowest
type of that class. Columns may come in any order and further columns are ignored; a comma,
semicolon or tab separates them (spreadsheets in many locales write semicolons).

Each respondent becomes a :class:`RespondentGraph` whose nodes are its codes and whose
``ladders`` are the sheet's ladders as given, so a sheet is coded (codes shared by label with
any sessions in the same report) and counted exactly like an interview. Every problem is one
line naming the file, row and column: a gap or a repeated position in a ladder, a ladder
going down a level, an unknown level, an empty cell.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interview_cli.analysis.report.codes import RespondentGraph
from interview_cli.config.files import read_user_text
from interview_cli.config.plurals import plural
from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import ProvenanceEntry
from interview_cli.core.text import normalise
from interview_cli.errors import UsageError

COLUMNS = ("respondent", "ladder", "position", "code", "level")
CLASSES = ("attribute", "consequence", "value")  # A, C, V
MAX_SHEET_BYTES = 16 * 1024 * 1024
MAX_CELL = 200  # a code is a label, not a paragraph
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Rung:
    row: int  # line of the sheet (the header is row 1)
    position: int
    code: str
    node_type: str
    level: int  # the methodology's level of node_type
    klass: int | None  # 0 A, 1 C, 2 V; None outside means-end classes
    by_letter: bool  # the level was given as A/C/V (compared by class only)


@dataclass(frozen=True)
class LadderSheet:
    source: str
    # respondent -> ladders (each a tuple of rungs, lowest first), in the sheet's order
    respondents: dict[str, list[tuple[Rung, ...]]]

    @property
    def ladder_count(self) -> int:
        return sum(len(ladders) for ladders in self.respondents.values())

    def describe(self) -> str:
        return (
            f"{self.source}: {plural(len(self.respondents), 'respondent')}, "
            f"{plural(self.ladder_count, 'ladder')}"
        )


def _class_of(node_type: str) -> int | None:
    words = node_type.lower().split("_")
    return next((i for i, word in enumerate(CLASSES) if word in words), None)


def level_names(methodology: Methodology) -> dict[str, tuple[str, int, int | None, bool]]:
    """Accepted level spellings (lower case) -> (node type, level, class, given by letter)."""
    types = sorted(methodology.ontology.nodes, key=lambda n: (n.level, n.name))
    out = {n.name.lower(): (n.name, n.level, _class_of(n.name), False) for n in types}
    for klass, word in enumerate(CLASSES):
        lowest = next((n for n in types if _class_of(n.name) == klass), None)
        if lowest is not None:
            for spelling in (word[0], word):
                out.setdefault(spelling, (lowest.name, lowest.level, klass, True))
    return out


def _delimiter(text: str) -> str:
    header = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=header.count)


def parse_ladder_sheet(text: str, *, source: str, methodology: Methodology) -> LadderSheet:
    """The sheet's ladders, checked; the first problem raises a one-line ``UsageError``."""
    text = text.removeprefix("\ufeff")  # a byte-order mark, as spreadsheets save UTF-8
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    rows = _rows(reader, source)
    header = [h.strip().lower() for h in next(rows, (1, []))[1]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise UsageError(
            f"{source}: row 1: missing column(s) {', '.join(missing)}; the header must name "
            f"{', '.join(COLUMNS)}"
        )
    col = {c: header.index(c) for c in COLUMNS}
    levels = level_names(methodology)
    rungs: dict[tuple[str, str], list[Rung]] = {}
    for row, cells in rows:
        if not any(c.strip() for c in cells):
            continue  # a blank line
        value = {c: (cells[i].strip() if i < len(cells) else "") for c, i in col.items()}
        for name in COLUMNS:
            if not value[name]:
                raise UsageError(f"{source}: row {row}, column {name}: empty; every rung needs one")
        for name in COLUMNS:
            if len(value[name]) > MAX_CELL or _CONTROL.search(value[name]):
                raise UsageError(
                    f"{source}: row {row}, column {name}: not a short one-line value (at most "
                    f"{MAX_CELL} characters, no control characters)"
                )
        if not normalise(value["code"]):
            raise UsageError(
                f"{source}: row {row}, column code: {value['code']!r} has no letter or digit; "
                "name the code in words"
            )
        try:
            position = int(value["position"])
        except ValueError:
            position = 0
        if position < 1:
            raise UsageError(
                f"{source}: row {row}, column position: {value['position']!r} is not a rung "
                "number; number the rungs of a ladder 1, 2, 3 ... from the most concrete up"
            )
        spelled = levels.get(value["level"].lower())
        if spelled is None:
            known = ", ".join(sorted({t for t, *_ in levels.values()}, key=str.lower))
            letters = "; or A, C, V" if any(x[3] for x in levels.values()) else ""
            raise UsageError(
                f"{source}: row {row}, column level: unknown level {value['level']!r}; use one "
                f"of {known}{letters}"
            )
        node_type, level, klass, by_letter = spelled
        key = (value["respondent"], value["ladder"])
        rungs.setdefault(key, []).append(
            Rung(row, position, value["code"], node_type, level, klass, by_letter)
        )
    if not rungs:
        raise UsageError(f"{source}: no rungs below the header; one row per rung is expected")
    sheet: dict[str, list[tuple[Rung, ...]]] = {}
    for (respondent, ladder), found in rungs.items():
        sheet.setdefault(respondent, []).append(_checked_ladder(source, respondent, ladder, found))
    return LadderSheet(source, sheet)


def _rows(reader: Any, source: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of each row; a malformed CSV stops with its row named."""
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise UsageError(
                f"{source}: row {reader.line_num}: not readable as CSV ({exc}); save the sheet "
                "as CSV (UTF-8) from your spreadsheet"
            ) from None
        yield reader.line_num, cells


def _checked_ladder(
    source: str, respondent: str, ladder: str, found: list[Rung]
) -> tuple[Rung, ...]:
    name = f"ladder {ladder!r} of respondent {respondent!r}"
    ordered = sorted(found, key=lambda r: (r.position, r.row))
    for expected, rung in enumerate(ordered, start=1):
        if rung.position == expected:
            continue
        if rung.position < expected:
            raise UsageError(
                f"{source}: row {rung.row}, column position: {name} has position "
                f"{rung.position} twice; one row per rung"
            )
        raise UsageError(
            f"{source}: row {rung.row}, column position: {name} jumps from position "
            f"{expected - 1} to {rung.position}; a gap - number its rungs 1, 2, 3 ... "
            "without holes"
        )
    for lower, upper in zip(ordered, ordered[1:], strict=False):
        by_class = lower.by_letter or upper.by_letter
        if by_class and lower.klass is not None and upper.klass is not None:
            down = upper.klass < lower.klass
        else:
            down = upper.level < lower.level
        if down:
            raise UsageError(
                f"{source}: row {upper.row}, column level: {name} goes down from "
                f"{lower.node_type} (position {lower.position}) to {upper.node_type} "
                f"(position {upper.position}); a ladder climbs from attributes to values"
            )
    return tuple(ordered)


def read_ladder_sheet(path: Path, methodology: Methodology) -> LadderSheet:
    text = read_user_text(path, limit=MAX_SHEET_BYTES, what="coding sheet", error=UsageError)
    return parse_ladder_sheet(text, source=str(path), methodology=methodology)


def sheet_graphs(sheet: LadderSheet, methodology: Methodology) -> list[RespondentGraph]:
    """One respondent graph per respondent: a node per code and type, the ladders as given."""
    out: list[RespondentGraph] = []
    for respondent, ladders in sheet.respondents.items():
        graph = KnowledgeGraph()
        ids: dict[tuple[str, str], str] = {}
        node_ladders = []
        for ladder in ladders:
            path = []
            for rung in ladder:
                # Each rung is a mention, its sheet row standing where an answer would.
                said = ProvenanceEntry(utterance_id=f"row {rung.row}", quote=rung.code, turn=0)
                key = (rung.code, rung.node_type)
                if key not in ids:
                    found = graph.find_by_label(rung.code, rung.node_type)
                    if found:
                        ids[key] = found[0]
                    else:
                        node = graph.add_node(
                            rung.code, rung.node_type, methodology=methodology, turn=0
                        )
                        ids[key] = node.id
                graph.merge_into(ids[key], label=rung.code, provenance=said)
                path.append(ids[key])
            node_ladders.append(tuple(path))
        out.append(
            RespondentGraph(
                f"{sheet.source}#{respondent}", graph, ladders=tuple(node_ladders), coded=True
            )
        )
    return out


def sheets_graphs(sheets: Sequence[LadderSheet], methodology: Methodology) -> list[RespondentGraph]:
    return [g for sheet in sheets for g in sheet_graphs(sheet, methodology)]
