"""A small import checker for the layer rules in shared/ARCHITECTURE.md.

It parses every module of a package with `ast` (nothing is imported or executed) and
collects each import it contains: top-level, inside functions and methods, inside
try/except, under `if TYPE_CHECKING:`. Three rules are checked over those imports:

1. No upward import: a module imports only from its own layer or below.
2. No cycle: neither the modules nor the top-level parts of the package (core, llm,
   simulation, ...) import each other in a circle.
3. No import of a module the package does not have (what a move leaves behind in a
   function-level import, which nothing else notices until that function runs).

Imports under `if TYPE_CHECKING:` count for rules 1 and 2 like any other. They never run,
so they cannot fail at import time, but an annotation naming a higher layer is a dependency
on that layer all the same, and a pair of modules that need each other's types is one unit
split in two; the cure (a lower home for the shared type) is the same as for a runtime import.

`from a.b import c` counts as an import of module a.b.c when that exists, else of a.b. The
parent packages that Python also initialises on the way are not counted: a package's
`__init__` is checked through its own imports.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    source: str  # dotted name of the importing module
    target: str  # dotted name of the imported module (or package)
    line: int
    type_only: bool  # under `if TYPE_CHECKING:`
    missing: bool = False  # the target names no module of the package (a stale import)

    def where(self, root: Path, package: str) -> str:
        return f"{module_path(self.source, root, package)}:{self.line}"


def module_path(module: str, root: Path, package: str) -> str:
    """The file of `module` relative to the directory holding `package`."""
    parts = module.split(".")
    as_package = root.joinpath(*parts[1:], "__init__.py")
    if as_package.exists():
        return str(as_package.relative_to(root.parent))
    return str(root.joinpath(*parts[1:]).with_suffix(".py").relative_to(root.parent))


def discover(root: Path, package: str) -> dict[str, Path]:
    """Every module under `root` (the package directory) by its dotted name."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = [package, *rel.parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: Iterable[str], package: str) -> list[Import]:
    """The imports of one module that land inside `package`, resolved to known modules."""
    known = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def add(target: str, line: int, type_only: bool, base: str) -> None:
        # `from a.b import c` names module a.b.c when that exists, otherwise a name in a.b.
        if base.split(".")[0] != package:
            return
        if base not in known:
            found.append(Import(module, base, line, type_only, missing=True))
            return
        if target not in known:
            target = base
        if target != module:
            found.append(Import(module, target, line, type_only))

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno, type_only, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            for alias in node.names:
                add(f"{base}.{alias.name}", node.lineno, type_only, base)
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(tree, False)
    return found


def collect(root: Path, package: str) -> list[Import]:
    """Every import inside the package, once per (module, target, line)."""
    modules = discover(root, package)
    found: dict[tuple[str, str, int], Import] = {}
    for name, path in modules.items():
        for imp in imports_of(name, path, modules, package):
            found.setdefault((imp.source, imp.target, imp.line), imp)
    return list(found.values())


def missing_modules(found: Iterable[Import], root: Path, package: str) -> list[str]:
    """Imports of modules the package does not have (left behind when a module moved)."""
    return [
        f"{imp.where(root, package)}: {imp.source} imports {imp.target}, which does not exist"
        for imp in found
        if imp.missing
    ]


def layer_of(module: str, layers: Mapping[str, int]) -> int | None:
    """The layer of the longest prefix of `module` named in `layers`."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in layers:
            return layers[prefix]
    return None


def part_of(module: str, layers: Mapping[str, int]) -> str:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in layers:
            return prefix
    return module


def upward_imports(
    found: Iterable[Import],
    layers: Mapping[str, int],
    names: Mapping[int, str],
    root: Path,
    package: str,
) -> list[str]:
    """One readable line per import that reaches above its module's layer."""
    problems = []
    for imp in found:
        if imp.missing:
            continue
        low, high = layer_of(imp.source, layers), layer_of(imp.target, layers)
        if low is None or high is None or high <= low:
            continue
        kind = " (under TYPE_CHECKING)" if imp.type_only else ""
        problems.append(
            f"{imp.where(root, package)}: {imp.source} (layer {names[low]}) imports "
            f"{imp.target} (layer {names[high]}){kind}"
        )
    return problems


def _cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member, sorted (networkx's, the
    library the project already depends on)."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(edges)
    graph.add_edges_from((a, b) for a, targets in edges.items() for b in targets)
    components = (sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)
    return sorted(components)


def _shortest_loop(start: str, edges: Mapping[str, set[str]], members: set[str]) -> list[str]:
    """start -> ... -> start by the fewest imports, staying inside one cycle's members."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges.get(node, ())):
                if child not in members or child in came_from:
                    continue
                came_from[child] = node
                if child == start:
                    path = [start]
                    while path[-1] != start or len(path) == 1:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                following.append(child)
        frontier = following
    return [start]


def import_cycles(
    found: Iterable[Import], layers: Mapping[str, int], root: Path, package: str
) -> list[str]:
    """One readable line per cycle among modules, and among the top-level parts."""
    real = [imp for imp in found if not imp.missing]
    problems = []
    for label, key in (("modules", lambda m: m), ("parts", lambda m: part_of(m, layers))):
        edges: dict[str, set[str]] = {}
        witness: dict[tuple[str, str], Import] = {}
        for imp in real:
            a, b = key(imp.source), key(imp.target)
            if a != b:
                edges.setdefault(a, set()).add(b)
                witness.setdefault((a, b), imp)
        for component in _cycles(edges):
            loop = _shortest_loop(component[0], edges, set(component))
            links = [
                f"{witness[(a, b)].where(root, package)} ({a} -> {b}"
                + (", under TYPE_CHECKING)" if witness[(a, b)].type_only else ")")
                for a, b in zip(loop, loop[1:], strict=False)
            ]
            problems.append(
                f"import cycle among {label} {', '.join(component)}, e.g. " + "; ".join(links)
            )
    return problems
