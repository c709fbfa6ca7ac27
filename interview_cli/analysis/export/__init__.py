"""``interview export``: one session in formats other tools read.

- ``formats``: graphml, dot, mermaid, csv, jsonl and md
- ``qdpx``: a REFI-QDA project for QualCoder, ATLAS.ti, NVivo, MAXQDA
- ``drawing``: levelled graphs as Mermaid, DOT and SVG (the report draws with it too)
- ``markdown``: Markdown text that shows what was said as written

``FORMATS`` is the one list of export formats: `interview export --format` offers exactly
these, with these descriptions in its help, and calls the writer each names. A writer is a
function of this package taking one ``SessionFile`` and returning the text; it is imported
only when its format is asked for, so this module stays light enough for `--help`. Two
formats are handled apart by the command: csv (two tables, ``--table``) and qdpx (several
sessions into one zip). docs/how-to/add-an-export-format.md adds one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interview_cli.session.schema import SessionFile

CSV = "csv"
QDPX = "qdpx"


@dataclass(frozen=True)
class ExportFormat:
    """One format of `interview export`: its name, what it is for (the help) and its writer
    as ``module:function`` in this package (None: the command writes it, as qdpx)."""

    name: str
    describes: str
    writer: str | None

    def write(self) -> Callable[[SessionFile], str]:
        if self.writer is None:
            raise ValueError(f"{self.name} has no one-session writer")
        module, _, function = self.writer.partition(":")
        found: Callable[[SessionFile], str] = getattr(
            importlib.import_module(f"{__name__}.{module}"), function
        )
        return found


FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("graphml", "Gephi, yEd", "formats:export_graphml"),
    ExportFormat("dot", "Graphviz", "formats:export_dot"),
    ExportFormat("mermaid", "Markdown viewers that draw Mermaid", "formats:export_mermaid"),
    ExportFormat(CSV, "nodes and edges", "formats:nodes_csv"),
    ExportFormat("jsonl", "one line per turn", "formats:export_jsonl"),
    ExportFormat("md", "transcript with what each answer yielded", "formats:export_markdown"),
    ExportFormat(
        QDPX, "REFI-QDA project for QualCoder, ATLAS.ti, NVivo, MAXQDA; needs --out", None
    ),
)
FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)


def export_format(name: str) -> ExportFormat:
    return next(f for f in FORMATS if f.name == name)
