"""Reading library files: YAML text -> pydantic model, with errors a person can act on.

Implements the loading half of seed 001 "Methodology Registry" / "Concept Loading" for our
library: ``yaml.safe_load`` semantics (through libyaml's parser when available, see
``config.yamlio``), then ``Model.model_validate`` against the strict schemas in
``config.schemas``. Every failure becomes one line ``file: key.path: message`` collected
into a single :class:`~interview_cli.errors.ConfigError` (all problems, not just the first):

- YAML syntax errors name the line and column;
- an empty file, or one whose top level is not a mapping, says so;
- a key written twice in one mapping is a problem (plain YAML keeps the last one silently);
- pydantic errors keep their location, rendered ``strategies[0].signal_weights.x``
  (keys that contain dots are quoted: ``signal_weights["llm.response_depth"]``).

Cross-field checks (signals that exist, strategies that phases name...) are in
``config.validation``; finding files by id is ``config.library``.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from interview_cli.config.files import MAX_YAML_BYTES, read_user_bytes
from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.config.yamlio import MAX_YAML_DEPTH, SafeLoader, YAMLTooBig, check_expansion
from interview_cli.errors import ConfigError

Kind = Literal["methodology", "concept", "persona"]
KINDS: tuple[Kind, ...] = ("methodology", "concept", "persona")
#: The directory each kind lives in, inside a library root.
KIND_DIRS: dict[Kind, str] = {
    "methodology": "methodologies",
    "concept": "concepts",
    "persona": "personas",
}
MODELS: dict[Kind, type[BaseModel]] = {
    "methodology": Methodology,
    "concept": Concept,
    "persona": Persona,
}
YAML_SUFFIXES: tuple[str, ...] = (".yaml", ".yml")

Loc = tuple[str | int, ...]
T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Loaded(Generic[T]):
    """A validated library item together with where it came from.

    ``text`` is the file's exact text, so a session can snapshot it and ``sha256`` can tell
    later whether the file changed; ``root`` is the library root it was found under (None for
    a file given by path outside every root).
    """

    value: T
    path: Path
    text: str
    root: Path | None = None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def id(self) -> str:
        """The id other files refer to it by: ``method.name`` or ``id``."""
        value: Any = self.value
        if isinstance(value, Methodology):
            return value.method.name
        return str(value.id)


@dataclass(frozen=True)
class YamlDocument:
    """A parsed YAML file whose top level is a mapping."""

    path: Path
    text: str
    data: dict[str, Any]


# --------------------------------------------------------------------------------------------
# Locations and problem lines
# --------------------------------------------------------------------------------------------

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def format_loc(loc: Loc) -> str:
    """A pydantic-style location as a key path.

    ``("strategies", 0, "signal_weights", "llm.x")`` -> ``strategies[0].signal_weights["llm.x"]``
    """
    out = ""
    for part in loc:
        if part == "[key]":
            continue  # pydantic's marker for "the key itself is wrong": the path says which
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += f'["{part}"]'
    return out


def problem_line(path: Path, loc: Loc, message: str) -> str:
    """One problem, one line: ``file: key.path: message`` (no key path for file-level problems)."""
    where = format_loc(loc)
    return (
        f"{display_path(path)}: {where}: {message}" if where else f"{display_path(path)}: {message}"
    )


# --------------------------------------------------------------------------------------------
# YAML
# --------------------------------------------------------------------------------------------


class _DuplicateKeys:
    """Loader mix-in that records keys written twice in the same mapping.

    A duplicated ``deepen:`` under a phase would otherwise silently drop the first value,
    which is exactly the kind of tuning mistake that is hard to see later.
    """

    duplicates: list[tuple[str, int]]

    def __init__(self, stream: str) -> None:
        super().__init__(stream)  # type: ignore[call-arg]
        self.duplicates = []

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                if key_node.value in seen:
                    self.duplicates.append((key_node.value, key_node.start_mark.line + 1))
                seen.add(key_node.value)
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc, no-any-return]


class _StrictSafeLoader(_DuplicateKeys, yaml.SafeLoader):
    """The pure-Python safe loader: the reference for what a broken file's message says."""


class _FastStrictSafeLoader(_DuplicateKeys, SafeLoader):  # type: ignore[misc]
    """libyaml's parser where available (same data, same duplicates, other error wording)."""


def _run(loader_class: type[Any], text: str) -> tuple[Any, list[tuple[str, int]]]:
    loader = loader_class(text)
    try:
        return check_expansion(loader.get_single_data()), loader.duplicates
    except RecursionError:
        raise YAMLTooBig(f"it nests more than {MAX_YAML_DEPTH} levels deep") from None
    finally:
        loader.dispose()


def _load_strict(text: str) -> tuple[Any, list[tuple[str, int]]]:
    """The data and the duplicated keys of one YAML document; raises ``yaml.YAMLError``."""
    if SafeLoader is yaml.SafeLoader:
        return _run(_StrictSafeLoader, text)
    try:
        return _run(_FastStrictSafeLoader, text)
    except yaml.YAMLError:
        # A broken file is rare: parse it again in Python so the message reads as it always has.
        return _run(_StrictSafeLoader, text)


def yaml_error_line(where: Path | str, exc: yaml.YAMLError) -> str:
    """A YAML parser error as ONE line: ``file: line L, column C: YAML syntax error: problem``.

    PyYAML's own ``str(exc)`` spans four lines (context, problem, a quoted source line and a
    caret), which breaks the one-line-per-problem rule of every error this tool prints.
    ``where`` is a path (shown relative to the working directory) or a label used as is.
    """
    shown = display_path(where) if isinstance(where, Path) else where
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        message = f"YAML syntax error: {_one_line(exc.problem or 'unreadable YAML')}"
        if exc.context:
            context_mark = exc.context_mark
            at = f" (line {context_mark.line + 1})" if context_mark is not None else ""
            message += f", {_one_line(exc.context)}{at}"
        return f"{shown}: line {mark.line + 1}, column {mark.column + 1}: {message}"
    return f"{shown}: YAML error: {_one_line(str(exc))}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def read_text(path: Path) -> str:
    """The file's text, or a ConfigError saying why it cannot be read."""
    # Regular files only, bounded: `validate /dev/zero` or a FIFO is refused at once.
    raw = read_user_bytes(
        path, limit=MAX_YAML_BYTES, what="YAML file", error=ConfigError, shown=display_path(path)
    )
    try:
        # Decode without newline translation so the text hashes like the bytes on disk.
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{display_path(path)}: not UTF-8 text (byte {exc.start}); save the file as UTF-8"
        ) from None


def parse_yaml(
    path: Path, text: str, *, expected: str = "a library file", allow_empty: bool = False
) -> YamlDocument:
    """Parse ``text`` (from ``path``) into a mapping, or raise ConfigError with every problem.

    ``allow_empty``: an empty (or comments-only) file is an empty mapping, for override files
    where every key is optional.
    """
    try:
        data, duplicates = _load_strict(text)
    except yaml.YAMLError as exc:
        raise ConfigError(yaml_error_line(path, exc)) from None
    if data is None and allow_empty:
        data = {}
    if data is None:
        raise ConfigError(f"{display_path(path)}: the file is empty, expected {expected}")
    if not isinstance(data, dict):
        found = type(data).__name__
        shown = {"list": "a list", "str": "plain text", "int": "a number", "float": "a number"}
        raise ConfigError(
            f"{display_path(path)}: expected {expected} (a mapping of keys at the top level), "
            f"found {shown.get(found, found)}"
        )
    problems = [
        f"{display_path(path)}: line {line}: duplicate key '{key}' "
        "(only the last value would be used)"
        for key, line in duplicates
    ]
    if problems:
        raise ConfigError(_summary(problems), problems)
    non_text = [k for k in data if not isinstance(k, str)]
    if non_text:
        raise ConfigError(
            f"{display_path(path)}: top-level key {non_text[0]!r} is not text; "
            "quote it (YAML reads yes/no/on/off and numbers as other types)"
        )
    return YamlDocument(path=path, text=text, data=data)


def read_yaml(
    path: Path, *, expected: str = "a library file", allow_empty: bool = False
) -> YamlDocument:
    return parse_yaml(path, read_text(path), expected=expected, allow_empty=allow_empty)


# --------------------------------------------------------------------------------------------
# pydantic -> problem lines
# --------------------------------------------------------------------------------------------


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete types inside an annotation (Optional/Union/Annotated peeled off)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    return [annotation]


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The pydantic model whose fields live at ``loc`` (for "did you mean" on unknown keys)."""
    current: list[Any] = [model]
    for part in loc:
        nxt: list[Any] = []
        for candidate in current:
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                if isinstance(part, str) and part in candidate.model_fields:
                    nxt.extend(_unwrap(candidate.model_fields[part].annotation))
                continue
            origin = typing.get_origin(candidate)
            args = typing.get_args(candidate)
            if origin in (list, tuple, set, frozenset, Sequence) and args:
                nxt.extend(_unwrap(args[0]))
            elif origin is dict and len(args) == 2:
                nxt.extend(_unwrap(args[1]))
        current = nxt
    for candidate in current:
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _error_message(model: type[BaseModel], error: Any) -> str:
    kind = error["type"]
    loc: Loc = tuple(error["loc"])
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        if owner is None:
            return "unknown key"
        allowed = sorted(owner.model_fields)
        guess = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        return f"unknown key{hint}; allowed: {', '.join(allowed)}"
    message = str(error["msg"])
    value = error.get("input")
    plain = not isinstance(value, dict | list) and kind not in ("value_error", "assertion_error")
    if plain and not (isinstance(value, str) and repr(value) in message):  # named once
        message += f", got {_shown(value)}"
    return message


def validation_problems(path: Path, model: type[BaseModel], exc: ValidationError) -> list[str]:
    """Every pydantic error as a ``file: key.path: message`` line."""
    return [
        problem_line(path, tuple(error["loc"]), _error_message(model, error))
        for error in exc.errors(include_url=False)
    ]


def _summary(problems: Sequence[str]) -> str:
    if len(problems) == 1:
        return problems[0]
    files = {p.split(": ", 1)[0] for p in problems}
    noun = "file" if len(files) == 1 else "files"
    return f"{len(problems)} problems in {len(files)} {noun}"


def config_error(problems: Sequence[str]) -> ConfigError:
    """A ConfigError whose message is the one problem, or a count when there are several."""
    return ConfigError(_summary(problems), problems)


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def build(kind: Kind, document: YamlDocument, *, root: Path | None = None) -> Loaded[Any]:
    """Validate a parsed document against the schema of ``kind`` (types and ranges only)."""
    model = MODELS[kind]
    try:
        value = model.model_validate(document.data)
    except ValidationError as exc:
        raise config_error(validation_problems(document.path, model, exc)) from None
    return Loaded(value=value, path=document.path, text=document.text, root=root)


def load(kind: Kind, path: Path, *, root: Path | None = None) -> Loaded[Any]:
    return build(kind, read_yaml(path, expected=f"a {kind}"), root=root)


def load_methodology(path: Path, *, root: Path | None = None) -> Loaded[Methodology]:
    """Load one methodology file (schema only; ``validation`` does the cross-field checks)."""
    return load("methodology", path, root=root)


def load_concept(path: Path, *, root: Path | None = None) -> Loaded[Concept]:
    return load("concept", path, root=root)


def load_persona(path: Path, *, root: Path | None = None) -> Loaded[Persona]:
    return load("persona", path, root=root)


def detect_kind(path: Path, data: dict[str, Any] | None = None) -> Kind | None:
    """What a file is: from its directory's name, else from its keys; None when unclear."""
    for kind, dirname in KIND_DIRS.items():
        if path.parent.name == dirname:
            return kind
    if not data:
        return None
    keys = set(data)
    if {"method", "ontology"} & keys:
        return "methodology"
    if {"profile", "beliefs", "voice", "traits", "ladders"} & keys:
        return "persona"
    if "methodology" in keys or {"objective", "context"} & keys:
        return "concept"
    return None


def is_yaml_file(path: Path) -> bool:
    return path.suffix.lower() in YAML_SUFFIXES and not path.name.startswith(".")


def yaml_files(directory: Path) -> list[Path]:
    """The YAML files directly inside ``directory``, sorted (hidden files skipped)."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return []
    return [Path(e.path) for e in entries if e.is_file() and is_yaml_file(Path(e.name))]
