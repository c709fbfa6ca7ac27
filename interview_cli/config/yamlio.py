"""YAML in and out through one door: libyaml's C parser and emitter when PyYAML was built
with them, the pure-Python ones otherwise.

The C loader parses about ten times faster, which is most of the cost of listing the library
and of reading a few hundred session snapshots in ``report``. Loaded data is the same either
way (both are YAML 1.1 "safe" loaders over the same constructors and resolvers). Two things
differ: libyaml words some errors otherwise, so the strict library loader (``config.loader``)
reparses a failing file in Python to keep its messages; and its emitter folds long quoted
strings at other places (the same data, other text), which the tests check does not touch
the prompt parts of the shipped methodologies.
"""

from __future__ import annotations

from typing import Any

import yaml

HAS_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))
SafeLoader: type[Any] = yaml.CSafeLoader if HAS_LIBYAML else yaml.SafeLoader
SafeDumper: type[Any] = yaml.CSafeDumper if HAS_LIBYAML else yaml.SafeDumper
YAMLError = yaml.YAMLError


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` semantics, through the fastest safe loader available."""
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader, C or Python


def dump_yaml(value: Any, **options: Any) -> str:
    """``yaml.safe_dump`` semantics (same options), through the fastest safe dumper."""
    return yaml.dump(value, Dumper=SafeDumper, **options)


__all__ = ["HAS_LIBYAML", "SafeDumper", "SafeLoader", "YAMLError", "dump_yaml", "load_yaml"]
