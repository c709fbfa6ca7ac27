"""YAML in and out through one door: libyaml's C parser and emitter when PyYAML was built
with them, the pure-Python ones otherwise.

The C loader parses about ten times faster, which is most of the cost of listing the library
and of reading a few hundred session snapshots in ``report``. Loaded data is the same either
way (both are YAML 1.1 "safe" loaders over the same constructors and resolvers). Two things
differ: libyaml words some errors otherwise, so the strict library loader (``config.loader``)
reparses a failing file in Python to keep its messages; and its emitter folds long quoted
strings at other places (the same data, other text), which the tests check does not touch
the prompt parts of the shipped methodologies.

Every document is bounded (:func:`check_expansion`): aliases may not expand it beyond what a
library file can hold, nor may it nest deeper than a file is ever written.
"""

from __future__ import annotations

from typing import Any

import yaml

HAS_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))
SafeLoader: type[Any] = yaml.CSafeLoader if HAS_LIBYAML else yaml.SafeLoader
SafeDumper: type[Any] = yaml.CSafeDumper if HAS_LIBYAML else yaml.SafeDumper
YAMLError = yaml.YAMLError


# Bounds on what a document may grow to once its aliases are expanded: every library file
# holds a few thousand values at most and nests a dozen levels, so these only stop a "billion
# laughs" (nine aliases of nine aliases: hundreds of millions of values from a kilobyte, which
# validating, dumping or prompting would then walk for hours) and a document nested so deep
# that walking it exhausts the stack.
MAX_YAML_VALUES = 250_000
MAX_YAML_DEPTH = 100


class YAMLTooBig(yaml.YAMLError):
    """A document whose aliases expand beyond ``MAX_YAML_VALUES``, that nests deeper than
    ``MAX_YAML_DEPTH`` or that contains itself."""


def check_expansion(data: Any) -> Any:
    """``data`` when, with every alias expanded, it stays within the bounds; else
    :class:`YAMLTooBig`. Each shared value is measured once, so the check costs what the
    document holds, not what it would expand to."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[Any, int, bool]] = [(data, 0, False)]
    while stack:
        node, depth, children_done = stack.pop()
        if not isinstance(node, dict | list):
            continue
        key = id(node)
        children = list(node.values()) if isinstance(node, dict) else node
        if children_done:
            open_.discard(key)
            sizes[key] = 1 + sum(sizes.get(id(c), 1) for c in children)
            if sizes[key] > MAX_YAML_VALUES:
                raise YAMLTooBig(
                    f"its aliases expand to more than {MAX_YAML_VALUES:,} values; "
                    "write the values out instead of nesting aliases"
                )
            continue
        if key in sizes:
            continue
        if key in open_:
            raise YAMLTooBig("an alias refers to a value that contains it")
        if depth > MAX_YAML_DEPTH:
            raise YAMLTooBig(f"it nests more than {MAX_YAML_DEPTH} levels deep")
        open_.add(key)
        stack.append((node, depth, True))
        stack.extend((c, depth + 1, False) for c in children)
    return data


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` semantics, through the fastest safe loader available, within the
    bounds of :func:`check_expansion` (a ``YAMLError`` otherwise, also for a document the
    parser cannot descend: too deep for its stack)."""
    try:
        data = yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader, C or Python
    except RecursionError:
        raise YAMLTooBig(f"it nests more than {MAX_YAML_DEPTH} levels deep") from None
    return check_expansion(data)


def dump_yaml(value: Any, **options: Any) -> str:
    """``yaml.safe_dump`` semantics (same options), through the fastest safe dumper."""
    return yaml.dump(value, Dumper=SafeDumper, **options)


__all__ = [
    "HAS_LIBYAML",
    "SafeDumper",
    "SafeLoader",
    "YAMLError",
    "YAMLTooBig",
    "check_expansion",
    "dump_yaml",
    "load_yaml",
]
