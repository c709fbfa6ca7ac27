"""The library search path: precedence, lookups, cross-file validation, the bundled copy."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import interview_cli
from interview_cli.config.library import (
    Library,
    LibraryRoot,
    bundled_root,
    check_paths,
    validate_paths,
)
from interview_cli.errors import ConfigError, UsageError

SAMPLE = Path(__file__).parent / "sample_library"
# The repository this test file belongs to (not where interview_cli is installed: in CI the
# package comes from site-packages, with the library copied into interview_cli/_library).
REPO = Path(__file__).resolve().parents[2]


def make_root(base: Path, version: str = "1.0", *, kinds: tuple[str, ...] = ("all",)) -> Path:
    """A copy of the sample library whose methodology carries ``version`` (to tell roots apart)."""
    shutil.copytree(SAMPLE, base)
    path = base / "methodologies" / "mini_ladder.yaml"
    path.write_text(path.read_text().replace('version: "1.0"', f'version: "{version}"'))
    if kinds != ("all",):
        for kind_dir in ("methodologies", "concepts", "personas"):
            if kind_dir not in kinds:
                shutil.rmtree(base / kind_dir)
    return base


def isolated(*roots: Path) -> Library:
    """A library of exactly these roots (no working directory, no bundled copy)."""
    return Library([LibraryRoot(r, "--library") for r in roots])


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- search path ---------------------------------------------------------------------------


def test_flag_beats_env_beats_cwd_beats_bundled(in_tmp: Path) -> None:
    flag = make_root(in_tmp / "flag", "flag")
    env_a = make_root(in_tmp / "env_a", "env_a", kinds=("methodologies", "personas"))
    env_b = make_root(in_tmp / "env_b", "env_b", kinds=("concepts",))
    cwd = make_root(in_tmp / "cwd", "cwd")
    lib = Library.discover(
        extra_roots=[flag], cwd=cwd, env={"INTERVIEW_LIBRARY": f"{env_a}{os.pathsep}{env_b}"}
    )
    origins = [(r.path, r.origin) for r in lib.roots]
    assert origins[:4] == [
        (flag, "--library"),
        (env_a, "INTERVIEW_LIBRARY"),
        (env_b, "INTERVIEW_LIBRARY"),
        (cwd, "working directory"),
    ]
    assert lib.methodology("mini_ladder").value.method.version == "flag"
    assert lib.methodology("mini_ladder").root == flag

    # Without the flag, the first env directory wins; for concepts it is the second one.
    lib = Library.discover(cwd=cwd, env={"INTERVIEW_LIBRARY": f"{env_a}{os.pathsep}{env_b}"})
    assert lib.methodology("mini_ladder").value.method.version == "env_a"
    assert lib.concept("mini_study").root == env_b

    # Only the working directory: it wins over the bundled copy.
    lib = Library.discover(cwd=cwd, env={})
    assert lib.methodology("mini_ladder").root == cwd
    shadowed = {
        (e.kind, e.root.origin)
        for e in Library.discover(extra_roots=[flag], cwd=cwd, env={}).shadowed()
    }
    assert ("methodology", "working directory") in shadowed


def test_environment_variable_is_read_by_default(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_root(in_tmp / "from_env", "env")
    monkeypatch.setenv("INTERVIEW_LIBRARY", str(root))
    assert Library.discover().methodology("mini_ladder").value.method.version == "env"


def test_working_directory_without_library_dirs_is_not_a_root(in_tmp: Path) -> None:
    lib = Library.discover(cwd=in_tmp, env={})
    assert all(r.origin != "working directory" for r in lib.roots)


@pytest.mark.parametrize("origin", ["--library", "INTERVIEW_LIBRARY"])
def test_explicit_directories_must_exist_and_hold_a_library(in_tmp: Path, origin: str) -> None:
    def discover(path: Path) -> Library:
        if origin == "--library":
            return Library.discover(extra_roots=[path], env={})
        return Library.discover(env={"INTERVIEW_LIBRARY": str(path)})

    with pytest.raises(UsageError, match=rf"^{origin}: .*missing is not a directory$"):
        discover(in_tmp / "missing")
    (in_tmp / "empty").mkdir()
    with pytest.raises(UsageError, match="has none of methodologies/, concepts/, personas/"):
        discover(in_tmp / "empty")


def test_the_checkout_is_listed_once_when_it_is_also_the_working_directory() -> None:
    if not (REPO / "methodologies").is_dir():
        pytest.skip("not running from a source checkout")
    lib = Library.discover(cwd=REPO, env={})
    assert [r.path.resolve() for r in lib.roots].count(REPO) == 1


# -- the bundled copy ----------------------------------------------------------------------


def test_bundled_library_is_found_when_the_working_directory_has_none(in_tmp: Path) -> None:
    methodologies = REPO / "methodologies"
    shipped = sorted(p.stem for p in methodologies.glob("*.yaml")) if methodologies.is_dir() else []
    if not shipped:
        pytest.skip("the shipped library has no methodologies yet")
    lib = Library.discover(env={})
    assert [r.origin for r in lib.roots] == ["bundled"]
    name = "means_end_chain" if "means_end_chain" in shipped else shipped[0]
    loaded = lib.methodology(name)
    assert loaded.value.method.name == name
    assert loaded.root is not None and loaded.root.resolve() == bundled_root().resolve()  # type: ignore[union-attr]


def test_shipped_library_is_valid() -> None:
    root = bundled_root()
    if root is None or not any((root / "methodologies").glob("*.yaml")):
        pytest.skip("the shipped library has no methodologies yet")
    lib = Library([LibraryRoot(root, "bundled")])
    assert lib.validate_all() == []


def test_wheel_copy_is_preferred_over_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "site" / "interview_cli"
    (package / "_library" / "methodologies").mkdir(parents=True)
    (tmp_path / "site" / "methodologies").mkdir()
    monkeypatch.setattr(interview_cli, "__file__", str(package / "__init__.py"))
    assert bundled_root() == (package / "_library").resolve()
    shutil.rmtree(package / "_library")
    assert bundled_root() == (tmp_path / "site").resolve()
    shutil.rmtree(tmp_path / "site" / "methodologies")
    assert bundled_root() is None


# -- lookups -------------------------------------------------------------------------------


def test_unknown_id_names_roots_and_available_ids(in_tmp: Path) -> None:
    lib = isolated(make_root(in_tmp / "lib"))
    with pytest.raises(ConfigError) as exc:
        lib.concept("headphones")
    message = str(exc.value)
    assert message.startswith("unknown concept 'headphones'; searched lib/concepts (--library)")
    assert message.endswith("available: mini_study")


def test_items_load_by_id_or_by_path_and_are_cached(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    lib = isolated(root)
    by_id = lib.persona("mini_person")
    assert lib.persona("mini_person") is by_id
    assert lib.persona("lib/personas/mini_person.yaml") is by_id
    assert lib.persona(root / "personas" / "mini_person.yaml") is by_id
    outside = in_tmp / "draft.yaml"
    shutil.copy(root / "concepts" / "mini_study.yaml", outside)
    loaded = lib.concept("draft.yaml")
    assert loaded.root is None and loaded.value.id == "mini_study"
    with pytest.raises(ConfigError, match="^nothere.yaml: no such concept file$"):
        lib.concept("nothere.yaml")


def test_listings_are_sorted_and_strict(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    shutil.copy(root / "concepts" / "mini_study.yaml", root / "concepts" / "another.yaml")
    lib = isolated(root)
    with pytest.raises(ConfigError) as exc:
        lib.concepts()
    assert exc.value.problems == [
        "lib/concepts/another.yaml: id: 'mini_study' does not match the file name 'another.yaml'; "
        "the library finds this file as 'another'"
    ]
    (root / "concepts" / "another.yaml").write_text(
        (root / "concepts" / "another.yaml").read_text().replace("id: mini_study", "id: another")
    )
    lib = isolated(root)
    assert [c.id for c in lib.concepts()] == ["another", "mini_study"]
    assert [m.id for m in lib.methodologies()] == ["mini_ladder"]
    assert [p.id for p in lib.personas()] == ["mini_person"]


def test_concept_needs_its_methodology_in_the_library(in_tmp: Path) -> None:
    lib = isolated(make_root(in_tmp / "lib", kinds=("concepts",)))
    with pytest.raises(ConfigError) as exc:
        lib.concept("mini_study")
    assert exc.value.problems == [
        "lib/concepts/mini_study.yaml: methodology: 'mini_ladder' is not a methodology in the "
        "library; available: none"
    ]


def test_persona_rungs_are_checked_against_the_library_methodology(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    persona = root / "personas" / "mini_person.yaml"
    persona.write_text(persona.read_text().replace("type: benefit", "type: consequence"))
    with pytest.raises(
        ConfigError, match=r"beliefs\.mini_study\[1\]\[1\]\.type: rung type 'consequence'"
    ):
        isolated(root).persona("mini_person")
    # Without the concept's methodology in the library, the ladder is not checked.
    shutil.rmtree(root / "methodologies")
    assert isolated(root).persona("mini_person").id == "mini_person"


def test_validate_all_collects_every_problem_of_every_file(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    assert isolated(root).validate_all() == []
    method = root / "methodologies" / "mini_ladder.yaml"
    method.write_text(method.read_text().replace("graph.max_depth: 0.7", "graph.max_dept: 0.7"))
    (root / "personas" / "broken.yaml").write_text("id: [\n")
    problems = isolated(root).validate_all()
    assert len(problems) == 2
    assert problems[0].startswith(
        'lib/methodologies/mini_ladder.yaml: strategies[2].signal_weights["graph.max_dept"]: '
        "unknown signal 'graph.max_dept'"
    )
    assert problems[1].startswith("lib/personas/broken.yaml: line 2, column 1: YAML syntax error")


# -- validating given paths ----------------------------------------------------------------


def test_validate_paths_accepts_files_and_directories(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    lib = isolated()
    report = check_paths([root], lib)
    assert report.problems == []
    assert report.counts() == {"methodology": 1, "concept": 1, "persona": 1}
    assert validate_paths([root / "concepts" / "mini_study.yaml", in_tmp / "nope"], lib) == [
        "nope: no such file or directory",
        "lib/concepts/mini_study.yaml: methodology: 'mini_ladder' is not a methodology in the "
        "library; available: none",
    ]


def test_kind_from_keys_outside_library_dirs(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    drafts = in_tmp / "drafts"
    drafts.mkdir()
    shutil.copy(root / "methodologies" / "mini_ladder.yaml", drafts / "new_method.yaml")
    shutil.copy(root / "concepts" / "mini_study.yaml", drafts / "study.yaml")
    (drafts / "notes.yaml").write_text("title: not a library file\n")
    report = check_paths([drafts], isolated())
    # The id need not match the file name outside a library directory, and the concept
    # finds the methodology that is being validated with it.
    assert sorted(report.checked) == [
        ("concept", "mini_study", drafts / "study.yaml"),
        ("methodology", "mini_ladder", drafts / "new_method.yaml"),
    ]
    assert report.problems == [
        "drafts/notes.yaml: cannot tell whether this is a methodology, concept or persona; "
        "put it in methodologies/, concepts/ or personas/"
    ]


# -- what validate reports -----------------------------------------------------------------


def test_broken_files_are_counted_as_checked(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    (root / "personas" / "no_yaml.yaml").write_text("id: [\n")
    (root / "personas" / "no_id.yaml").write_text("name: X\nprofile: p\n")
    for report in (check_paths([root], isolated()), isolated(root).validate_report()):
        assert report.counts() == {"methodology": 1, "concept": 1, "persona": 3}
        assert len(report.problems) == 2
        assert sorted(p.name for p in report.failed) == ["no_id.yaml", "no_yaml.yaml"]
        assert report.error_summary() == (
            "2 problems; checked 1 methodology, 1 concept, 3 personas; 2 files with errors"
        )


def test_files_of_unknown_kind_are_counted_apart(in_tmp: Path) -> None:
    drafts = in_tmp / "drafts"
    drafts.mkdir()
    (drafts / "notes.yaml").write_text("title: not a library file\n")
    (drafts / "broken.yaml").write_text("a: [\n")
    report = check_paths([drafts], isolated())
    assert report.summary() == "0 methodologies, 0 concepts, 0 personas, 2 other files"
    assert report.error_summary().endswith("; 2 files with errors")


def broken_methodology(root: Path) -> None:
    (root / "methodologies" / "bad_syntax.yaml").write_text("method: [\n")


def library_whose_concept_names(root: Path, methodology: str) -> Path:
    """The sample library with a broken methodology, its concept pointed at ``methodology``."""
    root = make_root(root)
    broken_methodology(root)
    concept = root / "concepts" / "mini_study.yaml"
    concept.write_text(
        concept.read_text().replace("methodology: mini_ladder", f"methodology: {methodology}")
    )
    return root


def test_available_hints_list_only_valid_items(in_tmp: Path) -> None:
    root = library_whose_concept_names(in_tmp / "lib", "grounded_theory")
    lib = isolated(root)
    with pytest.raises(ConfigError) as exc:
        lib.concept("mini_study")
    assert exc.value.problems == [
        "lib/concepts/mini_study.yaml: methodology: 'grounded_theory' is not a methodology in "
        "the library; available: mini_ladder"
    ]
    with pytest.raises(ConfigError) as exc:
        lib.methodology("mean_ladder")
    assert str(exc.value).endswith("available: mini_ladder")
    # The same when the files are validated by path.
    problems = validate_paths([root], isolated())
    assert any(
        p.endswith("'grounded_theory' is not a methodology in the library; available: mini_ladder")
        for p in problems
    )


def test_a_concept_naming_a_broken_methodology_is_not_told_it_is_missing(in_tmp: Path) -> None:
    root = library_whose_concept_names(in_tmp / "lib", "bad_syntax")
    problems = isolated(root).validate_all()
    # The methodology reports its own problem; the concept that names it is not at fault.
    assert [p.split(":")[0] for p in problems] == ["lib/methodologies/bad_syntax.yaml"]


def rename_topic(root: Path, key: str) -> None:
    persona = root / "personas" / "mini_person.yaml"
    persona.write_text(persona.read_text().replace("  mini_study:", f"  {key}:"))


def test_a_topic_that_misspells_a_concept_is_an_error(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    rename_topic(root, "mini_stdy")
    with pytest.raises(ConfigError) as exc:
        isolated(root).persona("mini_person")
    assert exc.value.problems == [
        "lib/personas/mini_person.yaml: beliefs.mini_stdy: no concept 'mini_stdy' in the "
        "library; did you mean mini_study? (ground truth under a misspelt topic is never used)"
    ]
    report = check_paths([root / "personas" / "mini_person.yaml"], isolated(root))
    assert len(report.problems) == 1 and report.warnings == []


def test_a_topic_for_a_concept_not_written_yet_is_a_warning(in_tmp: Path) -> None:
    root = make_root(in_tmp / "lib")
    rename_topic(root, "oat_milk_mec")
    lib = isolated(root)
    assert lib.persona("mini_person").id == "mini_person"  # still loads
    for report in (lib.validate_report(), check_paths([root], isolated())):
        assert report.problems == []
        assert report.warnings == [
            "lib/personas/mini_person.yaml: beliefs.oat_milk_mec: no concept 'oat_milk_mec' "
            "in the library (known: mini_study); its beliefs are kept but not checked"
        ]


def test_validate_prints_warnings_and_still_passes(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from interview_cli.cli.app import app

    monkeypatch.setattr("interview_cli.config.library.bundled_root", lambda: None)
    root = make_root(in_tmp / "lib")
    rename_topic(root, "oat_milk_mec")
    result = CliRunner().invoke(app, ["validate", "lib"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: lib/personas/mini_person.yaml: beliefs.oat_milk_mec: no concept "
        "'oat_milk_mec' in the library (known: mini_study); its beliefs are kept but not "
        "checked"
    ]
    assert result.stdout.startswith("OK: 1 methodology, 1 concept, 1 persona valid")
    persona = root / "personas" / "mini_person.yaml"
    persona.write_text(persona.read_text().replace("oat_milk_mec:", "mini_stdy:"))
    result = CliRunner().invoke(app, ["validate", "lib"])
    assert result.exit_code == 2
    assert "did you mean mini_study?" in result.stderr
