"""The package type-checks with `mypy --strict` (configured in pyproject.toml), pinned in
the test extra with the stubs of the libraries it types against, so CI fails on a type error
instead of a user. The check runs in the background from the start of the session
(tests/typecheck.py)."""

from __future__ import annotations

import pytest
import typecheck


def test_the_package_passes_mypy_strict() -> None:
    code, output = typecheck.result()
    if code is None:
        pytest.skip(output)
    assert code == 0, output
