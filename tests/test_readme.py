"""The README's two set-up commands: the first installs quietly (the first question, not
screens of pip output), the second is exactly what CI runs, and the README says how long
the suite takes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)


def test_the_first_command_installs_quietly_then_interviews() -> None:
    first = _commands()[0]
    assert "pip install -q ." in first and "interview run" in first


def test_ci_runs_the_readmes_test_command() -> None:
    readme_test = _commands()[1].split("&&")[-1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == readme_test


def test_the_readme_says_how_long_the_suite_takes() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text[text.index("## Set up") : text.index("## A short tour")]
    assert re.search(r"\d+ (seconds|minutes?)", setup)
