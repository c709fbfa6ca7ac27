"""Sessions produced once per test run by the real pipeline (offline provider)."""

from __future__ import annotations

from pathlib import Path

import pytest
from session_factory import SPECS, run_interview


@pytest.fixture(scope="session")
def produced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Session files by name; tests copy one before changing it."""
    directory = tmp_path_factory.mktemp("produced")
    return {name: run_interview(directory, session_id=name, **spec) for name, spec in SPECS.items()}


@pytest.fixture(scope="session")
def produced_dir(produced: dict[str, Path]) -> Path:
    return next(iter(produced.values())).parent
