"""The assessor's rubrics, read from ``signals.md`` (seed 001 "Rubric-Based LLM Detection").

Parsing is by indentation, as in the seed: a header starts at column 0 and contains ``:``
(``name: question``) and is not a comment; the indented lines under it are that signal's
rubric. Researchers edit the wording in the markdown file without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Rubric:
    name: str
    question: str
    lines: tuple[str, ...]

    def render(self) -> str:
        body = "\n".join(f"    {line}" for line in self.lines)
        return f"{self.name}: {self.question}\n{body}" if body else f"{self.name}: {self.question}"


def parse_rubrics(text: str) -> dict[str, Rubric]:
    """Rubrics by signal name, in file order. Content before the first header is ignored."""
    headers: list[tuple[str, str, list[str]]] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw[0].isspace():
            if headers:
                headers[-1][2].append(raw.strip())
            continue
        if ":" in raw:
            name, _, question = raw.partition(":")
            headers.append((name.strip(), question.strip(), []))
    return {name: Rubric(name, question, tuple(lines)) for name, question, lines in headers}


@lru_cache(maxsize=1)
def load_rubrics() -> dict[str, Rubric]:
    """The shipped rubric file, parsed once."""
    text = resources.files(__package__).joinpath("signals.md").read_text(encoding="utf-8")
    return parse_rubrics(text)
