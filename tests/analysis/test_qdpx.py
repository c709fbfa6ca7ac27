"""REFI-QDA export: the structural schema check, and a round trip finding every code and quote."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from qdpx_check import NS, check_project, read_qdpx, source_text

from interview_cli.analysis.export.qdpx import export_qdpx, locate, session_codebook, transcript
from interview_cli.analysis.sources import read_session
from interview_cli.core.graph.node_link import from_json
from interview_cli.session.schema import SessionFile

PAIR = ("mec-scripted", "jtbd-cooperative")
Q = f"{{{NS}}}"


@pytest.fixture
def sessions(produced: dict[str, Path]) -> list[SessionFile]:
    return [read_session(produced[name]) for name in PAIR]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def test_two_sessions_pass_the_structural_schema_check(sessions: list[SessionFile]) -> None:
    data = export_qdpx(sessions, name="study")
    assert check_project(data) == []
    project = read_qdpx(data)
    assert project.root.get("name") == "study"
    assert len(project.root.findall(f"{Q}Sources/{Q}TextSource")) == 2
    assert len(project.sources) == 2
    cases = project.root.findall(f"{Q}Cases/{Q}Case")
    assert [c.get("name") for c in cases] == [f"respondent {s.id}" for s in sessions]


def test_the_round_trip_finds_every_code_and_every_quote(sessions: list[SessionFile]) -> None:
    project = read_qdpx(export_qdpx(sessions))
    book, _ = session_codebook(sessions)
    # Codes: every content code under the parent code of its node type.
    parents = project.root.findall(f"{Q}CodeBook/{Q}Codes/{Q}Code")
    found_codes: dict[str, tuple[str, str]] = {}  # guid -> (name, parent name)
    for parent in parents:
        assert parent.get("isCodable") == "false"
        for child in parent.findall(f"{Q}Code"):
            found_codes[child.get("guid")] = (child.get("name"), parent.get("name"))
    assert sorted(found_codes.values()) == sorted(
        (c.name, c.node_type.replace("_", " ")) for c in book.codes
    )
    # Selections: every provenance quote of every node, at offsets that hold its words.
    expected: set[tuple[str, str, str]] = set()
    for s in sessions:
        answers = {t.answer.utterance_id for t in s.turns if t.answer.text}
        for node in from_json(s.graph).nodes():
            for said in node.provenance:
                if said["utterance_id"] in answers:
                    expected.add((s.id, node.label, _norm(said["quote"])))
    found: set[tuple[str, str, str]] = set()
    verbatim = 0
    for source in project.root.iter(f"{Q}TextSource"):
        text = source_text(project, source)
        session_id = source.get("name").split(" ")[0]
        for sel in source.findall(f"{Q}PlainTextSelection"):
            start, end = int(sel.get("startPosition")), int(sel.get("endPosition"))
            (coding,) = sel.findall(f"{Q}Coding")
            code_name, _ = found_codes[coding.find(f"{Q}CodeRef").get("targetGUID")]
            note = sel.find(f"{Q}Description").text
            selected = _norm(text[start:end])
            if "not found verbatim" in note:
                quote = _norm(note.split("whole answer coded: ", 1)[1])
            else:
                quote, verbatim = selected, verbatim + 1
            found.add((session_id, sel.get("name"), quote))
            assert code_name  # every selection is coded with a code of the codebook
    assert expected and expected <= found
    assert verbatim >= len(expected) * 0.8  # the quotes are the respondents' own words


def test_transcript_offsets_hold_each_answer(sessions: list[SessionFile]) -> None:
    for s in sessions:
        doc = transcript(s)
        for turn in s.turns:
            start, end = doc.answers[turn.answer.utterance_id]
            assert doc.text[start:end] == " ".join(turn.answer.text.split())
            assert f"Q{turn.turn_number} Interviewer: " in doc.text


def test_a_quote_not_said_verbatim_codes_the_whole_answer() -> None:
    text = "A1 x: I love the Noise  cancelling a lot"
    span = (6, len(text))
    start, end, exact = locate(text, span, "noise cancelling")
    assert exact is False and (start, end) == span  # two spaces in the answer: not verbatim
    start, end, exact = locate(text, span, "love the")
    assert exact and text[start:end] == "love the"
    start, end, exact = locate(text, span, "LOVE THE")
    assert exact and text[start:end] == "love the"


def test_the_export_is_deterministic(sessions: list[SessionFile]) -> None:
    assert export_qdpx(sessions) == export_qdpx(sessions)
    with pytest.raises(ValueError):
        export_qdpx([])


def _tampered(data: bytes, change) -> bytes:
    import io
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(data))
    root = ET.fromstring(src.read("project.qde"))
    change(root)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in src.namelist():
            body = ET.tostring(root) if name == "project.qde" else src.read(name)
            zf.writestr(name, body)
    return out.getvalue()


def _first(root: ET.Element, tag: str) -> ET.Element:
    return next(root.iter(f"{Q}{tag}"))


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: _first(r, "Code").attrib.pop("isCodable"), "required attribute isCodable"),
        (lambda r: _first(r, "Code").set("guid", "not-a-guid"), "guid='not-a-guid'"),
        (lambda r: _first(r, "Code").set("color", "red"), "color='red'"),
        (
            lambda r: _first(r, "CodeRef").set(
                "targetGUID", "00000000-0000-0000-0000-000000000000"
            ),
            "refers to no Code",
        ),
        (lambda r: _first(r, "PlainTextSelection").set("endPosition", "99999999"), "outside"),
        (lambda r: r.insert(0, r.find(f"{Q}Sources")), "out of schema order"),
        (
            lambda r: _first(r, "TextSource").set("plainTextPath", "internal://gone.txt"),
            "not in the zip",
        ),
        (lambda r: _first(r, "TextSource").set("colour", "x"), "not in the schema"),
        (lambda r: r.append(ET.Element(f"{Q}Nonsense")), "Nonsense is not a child"),
    ],
)
def test_the_check_catches_broken_projects(sessions: list[SessionFile], change, problem) -> None:
    problems = check_project(_tampered(export_qdpx(sessions), change))
    assert any(problem in p for p in problems), problems


def test_sessions_without_concepts_still_make_a_valid_project(
    sessions: list[SessionFile],
) -> None:
    empty = [s.model_copy(update={"graph": {}}) for s in sessions]
    data = export_qdpx(empty)
    assert check_project(data) == []
    root = read_qdpx(data).root
    assert root.find(f"{Q}CodeBook") is None
    assert len(root.findall(f"{Q}Sources/{Q}TextSource")) == 2
    assert not list(root.iter(f"{Q}PlainTextSelection"))
