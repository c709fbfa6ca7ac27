"""Fixtures for the simulation tests: the shipped library, persona files (helpers: sim_helpers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.config.loader import Loaded
from interview_cli.config.schemas import Methodology, Persona

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def lib() -> Library:
    # The repository's library only (not the working directory's), so tests see what ships.
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


@pytest.fixture(scope="session")
def mec(lib: Library) -> Methodology:
    return lib.methodology("means_end_chain").value


@pytest.fixture
def loaded_persona(tmp_path: Path) -> Any:
    """Write a persona to a YAML file and return it as a library item."""

    def make(who: Persona) -> Loaded[Persona]:
        import yaml

        path = tmp_path / f"{who.id}.yaml"
        text = yaml.safe_dump(who.model_dump(mode="json"), sort_keys=False)
        path.write_text(text, encoding="utf-8")
        return Loaded(value=who, path=path, text=text)

    return make
