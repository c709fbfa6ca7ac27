"""A report reads the same few methodology snapshots in hundreds of sessions: each distinct
text is parsed once, and a changed or broken snapshot is still read (or refused) as itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.analysis import sources
from interview_cli.analysis.report.build import build_report
from interview_cli.analysis.report.to_json import report_to_dict
from interview_cli.analysis.sources import SessionSource, read_session, snapshot_methodology
from interview_cli.errors import SessionFileError


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every snapshot text actually parsed, with an empty cache to start from."""
    seen: list[str] = []
    real = sources.load_yaml

    def counting(text: str) -> object:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(sources, "_PARSED", {})
    monkeypatch.setattr(sources, "load_yaml", counting)
    return seen


def test_each_distinct_methodology_text_is_parsed_once(
    produced: dict[str, Path], parses: list[str]
) -> None:
    found = [SessionSource(read_session(path), path) for path in produced.values()]
    distinct = {s.session.methodology.source for s in found}
    assert 1 < len(distinct) < len(found)  # shared texts, more than one of them
    first = [snapshot_methodology(s.session) for s in found]
    again = [snapshot_methodology(s.session) for s in found]
    assert sorted(parses) == sorted(distinct)
    assert all(a is b for a, b in zip(first, again, strict=True))
    # The whole report on top parses nothing more, but for the concept of a concept test
    # (its stimulus elements' table), once.
    report_to_dict(build_report(found))
    tests = {
        s.session.concept.source for s in found if s.session.concept.id.endswith("concept_mec")
    }
    assert len(tests) == 1
    assert sorted(parses) == sorted(distinct | tests)


def test_an_edited_snapshot_is_parsed_as_itself(
    produced: dict[str, Path], parses: list[str]
) -> None:
    session = read_session(produced["mec-scripted"])
    original = snapshot_methodology(session)
    edited_text = session.methodology.source.replace(
        f"name: {original.name}", "name: renamed_copy", 1
    )
    assert edited_text != session.methodology.source
    edited = session.model_copy(
        update={"methodology": session.methodology.model_copy(update={"source": edited_text})}
    )
    assert snapshot_methodology(edited).name == "renamed_copy"
    assert snapshot_methodology(session) is original
    broken = session.model_copy(
        update={"methodology": session.methodology.model_copy(update={"source": "a: [\n"})}
    )
    with pytest.raises(SessionFileError, match="methodology snapshot no longer loads"):
        snapshot_methodology(broken)
    assert len(parses) == 3
