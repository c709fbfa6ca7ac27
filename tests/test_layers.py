"""The layer rules of shared/ARCHITECTURE.md, checked on the real package.

Layers, low to high: errors -> config -> core -> llm -> session -> pipeline ->
simulation, analysis -> ui -> cli. A module imports only from its own layer or below, and
no modules or top-level parts import each other in a circle (simulation and analysis share
a layer, so a cycle between them fails too). How imports are read (function-level ones
included, TYPE_CHECKING ones counted) is explained in `layering.py`; the tests at the end
prove on a made-up package that the checker catches what it claims to.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from layering import collect, discover, import_cycles, missing_modules, part_of, upward_imports

import interview_cli

ROOT = Path(interview_cli.__file__).parent
PACKAGE = "interview_cli"

# The package root holds only the version string, so it sits with errors at the bottom; the
# cleaning of text for terminals, exports and prompts sits beside errors, whose messages it
# redacts.
LEVELS: list[tuple[str, ...]] = [
    ("interview_cli", "interview_cli.errors", "interview_cli.safe_text"),
    ("interview_cli.config",),
    ("interview_cli.core",),
    ("interview_cli.llm",),
    ("interview_cli.session",),
    ("interview_cli.pipeline",),
    ("interview_cli.simulation", "interview_cli.analysis"),
    ("interview_cli.ui",),
    ("interview_cli.cli", "interview_cli.__main__"),
]


def layer_table(levels: list[tuple[str, ...]]) -> tuple[dict[str, int], dict[int, str]]:
    layers = {part: level for level, parts in enumerate(levels) for part in parts}
    names = {
        level: "/".join(p.rpartition(".")[2] for p in parts) for level, parts in enumerate(levels)
    }
    return layers, names


LAYERS, NAMES = layer_table(LEVELS)


def report(problems: list[str], rule: str) -> str:
    return f"{len(problems)} {rule}:\n  " + "\n  ".join(problems)


@pytest.fixture(scope="module")
def imports() -> list:
    return collect(ROOT, PACKAGE)


def test_every_module_belongs_to_a_layer() -> None:
    # A new top-level module must be placed in LEVELS, not fall to the root's layer.
    stray = [m for m in discover(ROOT, PACKAGE) if m != PACKAGE and part_of(m, LAYERS) == PACKAGE]
    assert not stray, f"modules without a layer (add them to LEVELS): {stray}"


def test_the_checker_sees_the_package(imports: list) -> None:
    # Guards the tests below against passing on an empty harvest (a wrong ROOT, say).
    assert len(discover(ROOT, PACKAGE)) > 100
    assert len(imports) > 300
    assert any(i.source == "interview_cli.cli.app" for i in imports)


def test_no_module_imports_from_a_higher_layer(imports: list) -> None:
    problems = upward_imports(imports, LAYERS, NAMES, ROOT, PACKAGE)
    assert not problems, report(problems, "upward imports (move the code down or invert it)")


def test_no_import_cycles(imports: list) -> None:
    problems = import_cycles(imports, LAYERS, ROOT, PACKAGE)
    assert not problems, report(problems, "import cycles")


def test_no_import_names_a_missing_module(imports: list) -> None:
    problems = missing_modules(imports, ROOT, PACKAGE)
    assert not problems, report(problems, "imports of modules that do not exist")


# The checker itself, on a made-up package: each rule must fail when it is broken.

SYNTHETIC_LEVELS = [("pkg.low",), ("pkg.mid_a", "pkg.mid_b"), ("pkg.high",)]


def write_package(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    for rel in (
        "__init__.py",
        "low/__init__.py",
        "mid_a/__init__.py",
        "mid_b/__init__.py",
        "high/__init__.py",
        *files,
    ):
        path = pkg / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(files.get(rel, "")), encoding="utf-8")
    return pkg


def check(pkg: Path) -> tuple[list[str], list[str], list[str]]:
    layers, names = layer_table(SYNTHETIC_LEVELS)
    found = collect(pkg, "pkg")
    return (
        upward_imports(found, layers, names, pkg, "pkg"),
        import_cycles(found, layers, pkg, "pkg"),
        missing_modules(found, pkg, "pkg"),
    )


CLEAN = {
    "low/base.py": "X = 1\n",
    "mid_a/use.py": "from pkg.low.base import X\nfrom . import helper\n",
    "mid_a/helper.py": "from ..low import base\n",
    "mid_b/other.py": "import pkg.low.base\nfrom pkg.mid_a.use import X\n",
    "high/top.py": "from pkg.mid_b import other\n",
}


def test_checker_passes_a_clean_package(tmp_path: Path) -> None:
    assert check(write_package(tmp_path, CLEAN)) == ([], [], [])


@pytest.mark.parametrize(
    "body",
    [
        "from pkg.high.top import thing\n",  # module level
        "def later():\n    from pkg.high import top\n",  # inside a function
        "import typing\nif typing.TYPE_CHECKING:\n    from ..high.top import T\n",  # types only
        "class K:\n    def m(self):\n        import pkg.high.top\n",  # inside a method
    ],
)
def test_checker_finds_an_upward_import(tmp_path: Path, body: str) -> None:
    pkg = write_package(tmp_path, {**CLEAN, "low/bad.py": body})
    upward, _, _ = check(pkg)
    assert len(upward) == 1, upward
    assert upward[0].startswith("pkg/low/bad.py:")
    assert "pkg.low.bad (layer low) imports pkg.high" in upward[0]
    assert "(layer high)" in upward[0]


def test_checker_finds_a_module_cycle_inside_a_part(tmp_path: Path) -> None:
    pkg = write_package(
        tmp_path,
        {
            **CLEAN,
            "low/a.py": "from pkg.low import b\n",
            "low/b.py": "def f():\n    from pkg.low.a import g\n",
        },
    )
    upward, cycles, _ = check(pkg)
    assert upward == []
    assert len(cycles) == 1, cycles
    assert "among modules pkg.low.a, pkg.low.b" in cycles[0]
    assert "pkg/low/b.py:2 (pkg.low.b -> pkg.low.a)" in cycles[0]


def test_checker_finds_a_cycle_between_parts_of_one_layer(tmp_path: Path) -> None:
    # mid_b already imports mid_a; a module of mid_a importing mid_b closes the circle
    # without any module importing itself back.
    pkg = write_package(tmp_path, {**CLEAN, "mid_a/late.py": "from pkg.mid_b.other import Y\n"})
    upward, cycles, _ = check(pkg)
    assert upward == []
    assert any("among parts pkg.mid_a, pkg.mid_b" in c for c in cycles), cycles


def test_checker_finds_an_import_of_a_moved_module(tmp_path: Path) -> None:
    pkg = write_package(
        tmp_path, {**CLEAN, "mid_a/stale.py": "def f():\n    from pkg.low.gone import X\n"}
    )
    _, _, missing = check(pkg)
    assert missing == [
        "pkg/mid_a/stale.py:2: pkg.mid_a.stale imports pkg.low.gone, which does not exist"
    ]


def test_the_top_of_the_package_holds_at_most_two_loose_modules() -> None:
    # Code belongs in a room; the top keeps the entry points, the exception tree and at most
    # two modules everything stands on.
    loose = sorted(
        p.name
        for p in ROOT.glob("*.py")
        if p.name not in {"__init__.py", "__main__.py", "errors.py"}
    )
    assert len(loose) <= 2, f"move these into a room: {loose}"
