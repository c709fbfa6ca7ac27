"""House style is a tool's job: the tree is `ruff format`-clean and `ruff check`-clean.

Runs the pinned ruff from the test extra (pyproject.toml) over the checkout, so CI fails on an
unformatted file or a lint finding instead of a reviewer. Run `ruff format .` to fix the
first, `ruff check --fix .` for most of the second.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is not installed: pip install '.[test]' installs the pinned version")
    return subprocess.run(
        [exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_tree_is_formatted() -> None:
    done = _ruff("format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_tree_passes_the_linter() -> None:
    done = _ruff("check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_merge_conflict_is_left_in_a_text_file() -> None:
    # A prompt template or golden file keeps whatever a merge leaves in it, and the golden test
    # would only compare marker with marker: a marker line anywhere in the tree fails here.
    markers = ("<<<<<<< ", ">>>>>>> ", "=======\n")
    hits = []
    for folder in ("interview_cli", "tests", "benchmarks", "methodologies", "concepts", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.suffix not in {".py", ".md", ".txt", ".yaml", ".yml"}:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(True), 1):
                if line.startswith(markers) or line == "=======":
                    hits.append(f"{path.relative_to(ROOT)}:{number}")
    assert not hits, f"merge conflict markers left in: {hits}"
