"""The library search path: find methodologies, concepts and personas by id, validated.

The library ships inside the wheel, so a fresh install can run; user directories come first,
so a team can override a shipped file without editing the package.
A :class:`Library` is an ordered list of roots; each root may hold ``methodologies/``,
``concepts/`` and ``personas/``. Roots, first wins per id:

1. ``--library DIR`` (repeatable), in the order given;
2. ``INTERVIEW_LIBRARY`` (``os.pathsep``-separated directories);
3. the working directory, when it has any of the three directories;
4. the bundled copy: ``interview_cli/_library/`` in an installed wheel, else the source
   checkout's top-level directories.

A file is found by its name: ``concepts/headphones_mec.yaml`` is concept ``headphones_mec``,
and its ``id`` (``method.name`` for a methodology) must say the same. Anything loaded through
the library is checked in full (schema, then ``config.validation``); errors are
:class:`~interview_cli.errors.ConfigError` with one ``file: key.path: message`` line each.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import interview_cli
from interview_cli.config import validation
from interview_cli.config.loader import (
    KIND_DIRS,
    KINDS,
    Kind,
    Loaded,
    build,
    config_error,
    detect_kind,
    display_path,
    is_yaml_file,
    problem_line,
    read_yaml,
    yaml_files,
)
from interview_cli.config.plurals import plural
from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.config.shape_validation import concept_shape_issues, persona_shape_issues
from interview_cli.errors import ConfigError, UsageError

ENV_VAR = "INTERVIEW_LIBRARY"


@dataclass(frozen=True)
class LibraryRoot:
    """One directory on the search path and why it is there (shown by listings and errors)."""

    path: Path
    origin: str  # "--library", "INTERVIEW_LIBRARY", "working directory", "bundled"

    def kind_dir(self, kind: Kind) -> Path:
        return self.path / KIND_DIRS[kind]


@dataclass(frozen=True)
class Entry:
    """Where a library id resolves to."""

    kind: Kind
    id: str
    path: Path
    root: LibraryRoot


@dataclass
class ValidationReport:
    """What ``validate`` looked at and what it found.

    ``checked`` has every file of a known kind that was looked at, valid or not (a file that
    is not YAML or fails its schema was checked too); ``unrecognised`` the files whose kind
    could not be told; ``failed`` the files with at least one problem. ``warnings`` do not
    make a file invalid.
    """

    checked: list[tuple[Kind, str, Path]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    failed: list[Path] = field(default_factory=list)
    unrecognised: list[Path] = field(default_factory=list)

    def counts(self) -> dict[Kind, int]:
        return {kind: sum(1 for k, _, _ in self.checked if k == kind) for kind in KINDS}

    def summary(self) -> str:
        """``3 methodologies, 1 concept, 2 personas`` (and ``, 1 other file``)."""
        parts = [plural(n, kind) for kind, n in self.counts().items()]
        if self.unrecognised:
            parts.append(plural(len(self.unrecognised), "other file"))
        return ", ".join(parts)

    def error_summary(self) -> str:
        """The closing line when there were problems: how many, in how many of the files."""
        failed = len(dict.fromkeys(self.failed))
        return (
            f"{plural(len(self.problems), 'problem')}; checked {self.summary()}; "
            f"{plural(failed, 'file')} with errors"
        )


def _has_library_dirs(path: Path) -> bool:
    return any((path / d).is_dir() for d in KIND_DIRS.values())


def bundled_root() -> Path | None:
    """The library that ships with the package: wheel copy first, else the source checkout."""
    package = Path(interview_cli.__file__).resolve().parent
    wheel_copy = package / "_library"
    if _has_library_dirs(wheel_copy):
        return wheel_copy
    checkout = package.parent
    if (checkout / "methodologies").is_dir():
        return checkout
    return None


def _looks_like_path(ref: str) -> bool:
    return ref.lower().endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref


class Library:
    """An ordered set of library roots with validated, cached loading by id or path."""

    def __init__(self, roots: Sequence[LibraryRoot]) -> None:
        unique: list[LibraryRoot] = []
        seen: set[Path] = set()
        for root in roots:
            key = root.path.resolve()
            if key not in seen:  # the checkout is often both cwd and the bundled copy
                seen.add(key)
                unique.append(root)
        self.roots: tuple[LibraryRoot, ...] = tuple(unique)
        self._index: dict[Kind, dict[str, Entry]] | None = None
        self._shadowed: list[Entry] = []
        self._cache: dict[tuple[Kind, Path], Loaded[Any] | ConfigError] = {}

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def discover(
        cls,
        extra_roots: Sequence[Path] = (),
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Library:
        """The search path of the module docstring. Explicit directories must exist."""
        env = os.environ if env is None else env
        roots: list[LibraryRoot] = []
        for path in extra_roots:
            roots.append(LibraryRoot(_checked_dir(Path(path), "--library"), "--library"))
        for part in env.get(ENV_VAR, "").split(os.pathsep):
            if part.strip():
                roots.append(LibraryRoot(_checked_dir(Path(part), ENV_VAR), ENV_VAR))
        here = Path.cwd() if cwd is None else cwd
        if _has_library_dirs(here):
            roots.append(LibraryRoot(here, "working directory"))
        bundled = bundled_root()
        if bundled is not None:
            roots.append(LibraryRoot(bundled, "bundled"))
        return cls(roots)

    # -- the index ---------------------------------------------------------------------------

    def _entries(self) -> dict[Kind, dict[str, Entry]]:
        if self._index is None:
            index: dict[Kind, dict[str, Entry]] = {kind: {} for kind in KINDS}
            for root in self.roots:
                for kind in KINDS:
                    for path in yaml_files(root.kind_dir(kind)):
                        entry = Entry(kind, path.stem, path, root)
                        if path.stem in index[kind]:
                            self._shadowed.append(entry)
                        else:
                            index[kind][path.stem] = entry
            self._index = index
        return self._index

    def ids(self, kind: Kind) -> list[str]:
        return sorted(self._entries()[kind])

    def entry(self, kind: Kind, ref: str) -> Entry:
        found = self._entries()[kind].get(ref)
        if found is None:
            raise self._unknown(kind, ref)
        return found

    def shadowed(self) -> list[Entry]:
        """Files hidden by a same-named file in an earlier root."""
        self._entries()
        return list(self._shadowed)

    def valid_ids(self, kind: Kind) -> list[str]:
        """Ids of the items of a kind that load and validate (what a hint may offer)."""
        valid = []
        for ref in self.ids(kind):
            try:
                self.load(kind, ref)
            except ConfigError:
                continue
            valid.append(ref)
        return valid

    def _unknown(self, kind: Kind, ref: str) -> ConfigError:
        searched = (
            ", ".join(f"{display_path(r.kind_dir(kind))} ({r.origin})" for r in self.roots)
            or "no library directories (use --library DIR or INTERVIEW_LIBRARY)"
        )
        # Only what would load: offering a broken file just moves the error one step on.
        available = ", ".join(self.valid_ids(kind)) or "none"
        return ConfigError(f"unknown {kind} '{ref}'; searched {searched}; available: {available}")

    def root_of(self, path: Path) -> LibraryRoot | None:
        resolved = path.resolve()
        if resolved.parent.name not in KIND_DIRS.values():
            return None
        for root in self.roots:
            if resolved.parent.parent == root.path.resolve():
                return root
        return None

    # -- loading -----------------------------------------------------------------------------

    def _resolve(self, kind: Kind, ref: str | Path) -> Path:
        if isinstance(ref, Path) or _looks_like_path(ref):
            path = Path(ref)
            if not path.exists():
                raise ConfigError(f"{display_path(path)}: no such {kind} file")
            return path  # a device, a FIFO or a folder is named as such by the reader
        return self.entry(kind, ref).path

    def load(self, kind: Kind, ref: str | Path) -> Loaded[Any]:
        """Load and fully validate one item by id or by path; cached per file."""
        path = self._resolve(kind, ref)
        key = (kind, path.resolve())
        if key not in self._cache:
            try:
                self._cache[key] = self._load_checked(kind, path)
            except ConfigError as exc:
                self._cache[key] = exc
        cached = self._cache[key]
        if isinstance(cached, ConfigError):
            raise cached
        return cached

    def _load_checked(
        self, kind: Kind, path: Path, extra_methodologies: Mapping[str, Methodology] | None = None
    ) -> Loaded[Any]:
        root = self.root_of(path)
        loaded = build(
            kind, read_yaml(path, expected=f"a {kind}"), root=root.path if root else None
        )
        problems = self.problems_of(kind, loaded, extra_methodologies or {})
        if problems:
            raise config_error(problems)
        return loaded

    def problems_of(
        self,
        kind: Kind,
        loaded: Loaded[Any],
        extra_methodologies: Mapping[str, Methodology],
        extra_valid: Iterable[str] = (),
        extra_concepts: Mapping[str, Concept] | None = None,
    ) -> list[str]:
        """Cross-field and cross-file problems of an item that passed its schema
        (``extra_*``: items validated alongside, present for this one)."""
        value = loaded.value
        issues: list[tuple[tuple[str | int, ...], str]] = []
        # The id must match the file name inside a library directory, since lookups go by name.
        if loaded.path.parent.name == KIND_DIRS[kind] and loaded.id != loaded.path.stem:
            id_key = ("method", "name") if kind == "methodology" else ("id",)
            issues.append(
                (
                    id_key,
                    f"'{loaded.id}' does not match the file name '{loaded.path.name}'; "
                    f"the library finds this file as '{loaded.path.stem}'",
                )
            )
        if isinstance(value, Methodology):
            issues += validation.methodology_issues(value)
        elif isinstance(value, Concept):
            names = set(self.ids("methodology")) | set(extra_methodologies)
            valid: set[str] = set(extra_valid)
            if value.methodology not in names:
                valid |= set(self.valid_ids("methodology"))
            issues += validation.concept_issues(value, names, available=valid)
            issues += concept_shape_issues(
                value,
                extra_methodologies.get(value.methodology)
                or self._methodology_or_none(value.methodology),
            )
        elif isinstance(value, Persona):
            topics = extra_concepts or {}

            def methodology_of(concept_id: str) -> Methodology | None:
                return self._topic_methodology(concept_id, extra_methodologies, topics)

            issues += validation.persona_issues(
                value, methodology_of, known=set(self.ids("concept")) | set(topics)
            )
            issues += persona_shape_issues(value, methodology_of)
        return [problem_line(loaded.path, loc, message) for loc, message in issues]

    def warnings_of(
        self,
        kind: Kind,
        loaded: Loaded[Any],
        extra_methodologies: Mapping[str, Methodology],
        extra_concepts: Mapping[str, Concept] | None = None,
    ) -> list[str]:
        """Lines worth reading that do not make the item invalid (``validate`` prints them)."""
        if not isinstance(loaded.value, Persona):
            return []
        known = set(self.ids("concept")) | set(extra_concepts or {})
        return [
            problem_line(loaded.path, loc, message)
            for loc, message in validation.persona_warnings(loaded.value, known)
        ]

    def _topic_methodology(
        self,
        concept_id: str,
        extra_methodologies: Mapping[str, Methodology],
        extra_concepts: Mapping[str, Concept],
    ) -> Methodology | None:
        """The methodology of the concept ``concept_id`` (validated alongside, or in the
        library); None: no such valid concept, or its methodology is broken and reports its
        own problems."""
        if concept_id in extra_concepts:
            name = extra_concepts[concept_id].methodology
        elif concept_id in self._entries()["concept"]:
            try:
                name = self.concept(concept_id).value.methodology
            except ConfigError:
                return None
        else:
            return None
        return extra_methodologies.get(name) or self._methodology_or_none(name)

    def _methodology_or_none(self, name: str) -> Methodology | None:
        # A broken methodology reports its own problems; personas are then not checked against it.
        if name not in self._entries()["methodology"]:
            return None
        try:
            return self.methodology(name).value
        except ConfigError:
            return None

    def methodology(self, name_or_path: str | Path) -> Loaded[Methodology]:
        return self.load("methodology", name_or_path)

    def concept(self, id_or_path: str | Path) -> Loaded[Concept]:
        return self.load("concept", id_or_path)

    def persona(self, id_or_path: str | Path) -> Loaded[Persona]:
        return self.load("persona", id_or_path)

    def load_all(self, kind: Kind) -> tuple[list[Loaded[Any]], list[str]]:
        """Every item of a kind that loads, sorted by id, and the problems of those that don't."""
        items: list[Loaded[Any]] = []
        problems: list[str] = []
        for ref in self.ids(kind):
            try:
                items.append(self.load(kind, ref))
            except ConfigError as exc:
                problems.extend(exc.problems)
        return items, problems

    def _all_or_raise(self, kind: Kind) -> list[Loaded[Any]]:
        items, problems = self.load_all(kind)
        if problems:
            raise config_error(problems)
        return items

    def methodologies(self) -> list[Loaded[Methodology]]:
        return self._all_or_raise("methodology")

    def concepts(self) -> list[Loaded[Concept]]:
        return self._all_or_raise("concept")

    def personas(self) -> list[Loaded[Persona]]:
        return self._all_or_raise("persona")

    # -- validation --------------------------------------------------------------------------

    def validate_report(self) -> ValidationReport:
        report = ValidationReport()
        for kind in KINDS:
            for ref in self.ids(kind):
                entry = self.entry(kind, ref)
                report.checked.append((kind, ref, entry.path))
                try:
                    loaded = self.load(kind, ref)
                except ConfigError as exc:
                    report.problems.extend(exc.problems)
                    report.failed.append(entry.path)
                    continue
                report.warnings.extend(self.warnings_of(kind, loaded, {}))
        return report

    def validate_all(self) -> list[str]:
        """Every problem of every file the library resolves to (empty = all valid)."""
        return self.validate_report().problems


def _checked_dir(path: Path, origin: str) -> Path:
    if not path.is_dir():
        raise UsageError(f"{origin}: {path} is not a directory")
    if not _has_library_dirs(path):
        raise UsageError(
            f"{origin}: {path} has none of methodologies/, concepts/, personas/; "
            "point it at the directory that contains them"
        )
    return path


def _expand(paths: Iterable[Path]) -> tuple[list[Path], list[str], list[Path]]:
    """Files to validate from the given paths: files as given, directories expanded; the
    problems of paths that give none, and those paths (each counts as a file with errors)."""
    files: list[Path] = []
    problems: list[str] = []
    failed: list[Path] = []
    for path in paths:
        if path.is_dir():
            if _has_library_dirs(path):
                found = [f for d in KIND_DIRS.values() for f in yaml_files(path / d)]
            else:
                found = sorted(p for p in path.rglob("*") if p.is_file() and is_yaml_file(p))
            if not found:
                problems.append(f"{display_path(path)}: no YAML files to validate")
                failed.append(path)
            files.extend(found)
        elif path.exists():
            files.append(path)  # a device or a FIFO: the reader says what it is
        else:
            problems.append(f"{display_path(path)}: no such file or directory")
            failed.append(path)
    return files, problems, failed


def check_paths(paths: Sequence[Path], lib: Library) -> ValidationReport:
    """Validate the given files (or directories of them) against the library.

    Methodologies among the paths count as present for the concepts and personas among them,
    and concepts for the personas, so a new methodology, the concept that uses it and the
    personas that believe things about it can be checked before any is installed.
    """
    files, problems, failed = _expand(paths)
    report = ValidationReport(problems=problems, failed=failed)
    parsed: list[tuple[Kind, Any]] = []
    for path in files:
        try:
            document = read_yaml(path)
        except ConfigError as exc:
            # Not YAML (or not a mapping) is still a file checked: count it under the kind
            # its directory says, so the summary adds up to the files given.
            report.problems.extend(exc.problems)
            report.failed.append(path)
            kind_by_dir = detect_kind(path)
            if kind_by_dir is None:
                report.unrecognised.append(path)
            else:
                report.checked.append((kind_by_dir, path.stem, path))
            continue
        kind = detect_kind(path, document.data)
        if kind is None:
            report.problems.append(
                f"{display_path(path)}: cannot tell whether this is a methodology, concept or "
                "persona; put it in methodologies/, concepts/ or personas/"
            )
            report.failed.append(path)
            report.unrecognised.append(path)
            continue
        parsed.append((kind, document))
    extra: dict[str, Methodology] = {}
    extra_valid: list[str] = []
    topics: dict[str, Concept] = {}
    # Methodologies first, so the concepts and personas below can refer to them.
    parsed.sort(key=lambda item: KINDS.index(item[0]))
    for kind, document in parsed:
        root = lib.root_of(document.path)
        try:
            loaded = build(kind, document, root=root.path if root else None)
        except ConfigError as exc:
            report.problems.extend(exc.problems)
            report.failed.append(document.path)
            report.checked.append(
                (kind, _declared_id(kind, document.data, document.path), document.path)
            )
            continue
        report.checked.append((kind, loaded.id, document.path))
        found = lib.problems_of(kind, loaded, extra, extra_valid, topics)
        report.problems.extend(found)
        if found:
            report.failed.append(document.path)
        report.warnings.extend(lib.warnings_of(kind, loaded, extra, topics))
        if kind == "concept":
            topics[loaded.id] = loaded.value
        if kind == "methodology":
            # Schema-valid is enough for others to refer to it; its own problems are listed.
            extra[loaded.id] = loaded.value
            if not found:
                extra_valid.append(loaded.id)
    return report


def _declared_id(kind: Kind, data: Mapping[str, Any], path: Path) -> str:
    """The id a file that failed its schema says it has, else its file name."""
    if kind == "methodology":
        method = data.get("method")
        declared = method.get("name") if isinstance(method, dict) else None
    else:
        declared = data.get("id")
    return declared if isinstance(declared, str) and declared else path.stem


def validate_paths(paths: Sequence[Path], lib: Library) -> list[str]:
    """Every problem in the given files or directories (empty = all valid)."""
    return check_paths(paths, lib).problems
