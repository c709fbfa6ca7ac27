"""House habits the tree keeps: no module over 500 lines (the tests' own files and the
benchmarks included), no function over 60.

A long module or function is where the next change goes wrong: split it into well-named
pieces (a sibling module with its own docstring, a helper per step) rather than raise a limit.
A function's length is its body: decorators, the signature (a Typer command's options are
declarations, not logic) and the docstring do not count; a nested function counts on its own
and inside the function that holds it.

The allow-lists name what is still over (with its size when the limit came in) and may only
shrink: an entry that is back under the limit fails a test until it is deleted, so the list
stays honest.
"""

from __future__ import annotations

import ast
from pathlib import Path

import interview_cli

PACKAGE = Path(interview_cli.__file__).parent
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60

# Modules over the limit, relative to interview_cli/, with their size when the limit came in.
# None now: keep it that way.
LONG_FILES: dict[str, int] = {}

# Functions over the limit, as "module path:qualified name", with their body length then.
# None now: keep it that way.
LONG_FUNCTIONS: dict[str, int] = {}


def _python_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def body_length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the function's last line."""
    body = node.body
    first = body[0]
    is_docstring = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    start = body[1] if is_docstring and len(body) > 1 else first
    end = node.end_lineno if node.end_lineno is not None else node.lineno
    return end - start.lineno + 1


def function_lengths(source: str) -> dict[str, int]:
    """Every function and method of ``source`` by qualified name ("Class.method",
    "outer.inner"), with its body length."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                found[name] = body_length(child)
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def _all_function_lengths() -> dict[str, int]:
    lengths: dict[str, int] = {}
    for path in _python_files():
        for name, length in function_lengths(path.read_text(encoding="utf-8")).items():
            lengths[f"{_name(path)}:{name}"] = length
    return lengths


def test_no_module_is_over_the_limit() -> None:
    over = {
        _name(p): n
        for p in _python_files()
        if (n := _line_count(p)) > MAX_FILE_LINES and _name(p) not in LONG_FILES
    }
    assert not over, (
        f"modules over {MAX_FILE_LINES} lines (move a concern into a sibling module): {over}"
    )


def test_no_test_or_benchmark_file_is_over_the_limit() -> None:
    root = PACKAGE.parent
    files = [p for d in ("tests", "benchmarks") for p in (root / d).rglob("*.py")]
    over = {
        p.relative_to(root).as_posix(): n
        for p in files
        if "__pycache__" not in p.parts and (n := _line_count(p)) > MAX_FILE_LINES
    }
    assert not over, (
        f"test or benchmark files over {MAX_FILE_LINES} lines (split by topic, shared helpers "
        f"in a fixtures module): {over}"
    )


def test_no_function_is_over_the_limit() -> None:
    over = {
        name: n
        for name, n in _all_function_lengths().items()
        if n > MAX_FUNCTION_LINES and name not in LONG_FUNCTIONS
    }
    assert not over, (
        f"functions over {MAX_FUNCTION_LINES} body lines (split them into steps): {over}"
    )


def test_the_allow_lists_only_name_what_is_still_over() -> None:
    lengths = _all_function_lengths()
    stale = [
        name
        for name in LONG_FILES
        if not (PACKAGE / name).exists() or _line_count(PACKAGE / name) <= MAX_FILE_LINES
    ]
    stale += [name for name in LONG_FUNCTIONS if lengths.get(name, 0) <= MAX_FUNCTION_LINES]
    assert not stale, f"now within the limit: remove from the allow-list in {__file__}: {stale}"


def test_the_length_rules_count_what_they_claim() -> None:
    source = '''
import typer

@app.command()
def command(
    a: int = typer.Option(1),
    b: int = typer.Option(2),
) -> None:
    """Docstring lines do not count.

    Nor does this one.
    """
    x = 1
    return None


class Shape:
    def area(self) -> int:
        def inner() -> int:
            return 2

        return inner()
'''
    assert function_lengths(source) == {
        "command": 2,
        "Shape.area": 4,
        "Shape.area.inner": 1,
    }
