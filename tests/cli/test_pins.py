"""Typer and Rich are pinned to the minor releases the help patches were written against
(cli/helpstyle.py, cli/deferred.py): the suite runs inside the pinned range, and every
private name the patches touch exists there, so a release that moves one fails here, not in
a user's terminal."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the patches read or replace, by module.
PATCHED = {
    "typer.core": ("_TyperParameter", "TyperOption", "_get_default_string", "TyperCommand"),
    "typer.rich_utils": (
        "_get_rich_console",
        "_print_options_panel",
        "_make_rich_text",
        "_get_parameter_help",
        "MAX_WIDTH",
    ),
    "typer.main": ("get_command_from_info", "get_command_name"),
}


def _pins() -> dict[str, tuple[str, str]]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    found = {}
    for dep in deps:
        match = re.fullmatch(r"([a-z]+)>=([\d.]+),<([\d.]+)", dep)
        if match:
            found[match[1]] = (match[2], match[3])
    return found


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:3])


@pytest.mark.parametrize("package", ["typer", "rich"])
def test_the_package_is_pinned_and_the_suite_runs_inside_the_pin(package: str) -> None:
    low, high = _pins()[package]
    installed = _version(metadata.version(package))
    assert _version(low) <= installed < _version(high), (package, installed, low, high)


def test_every_private_name_the_help_patches_touch_exists() -> None:
    import importlib

    for module, names in PATCHED.items():
        loaded = importlib.import_module(module)
        missing = [n for n in names if not hasattr(loaded, n)]
        assert not missing, (module, missing)
    from typer.core import TyperOption, _TyperParameter

    assert callable(_TyperParameter.display_type_rich) and callable(TyperOption.display_type_rich)
