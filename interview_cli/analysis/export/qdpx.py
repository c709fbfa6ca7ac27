"""REFI-QDA project export (``.qdpx``): sessions for QualCoder, ATLAS.ti, NVivo, MAXQDA.

REFI-QDA (the Rotterdam Exchange Format Initiative, www.qdasoftware.org) is the exchange
format of qualitative data analysis tools. A ``.qdpx`` file is a zip holding ``project.qde``,
an XML document in the namespace ``urn:QDA-XML:project:1.0`` (Project schema 1.0), and a
``sources/`` folder with the documents it refers to as ``internal://<file>``. What we put in:

- **Users**: one user, the tool, as the author of every coding;
- **CodeBook**: one parent code per node type (``attribute``, ``job`` ...; not codable, a
  category in QualCoder), holding the content codes of the sessions (``codes``: one code per
  concept across the exported sessions, named as in ``report``); for a concept test, one
  parent code per concept ("Stimulus elements: ...") holding a code per stimulus element;
- **Variables** and **Cases**: one case per session, named after the participant (``run
  --participant``; else the persona or the session), with the participant's facts (``--meta``)
  as text variables, pointing at its transcript;
- **Sources**: one ``TextSource`` per session, its transcript as ``sources/<guid>.txt``
  (questions and answers, each line naming who speaks, the respondent by id), and in it every
  node's provenance quote as a ``PlainTextSelection`` (character offsets into the transcript,
  end exclusive) coded with the node's content code, and the quotes of a node about a
  stimulus element (``analysis.report.elements``) coded with the element's code too.

A quote is looked up in the answer it came from; when the extraction paraphrased it and it is
not found verbatim, the whole answer is coded and the selection's description says so, so no
coding points at words nobody said. GUIDs are derived from the session and code ids (UUID 5),
so exporting the same sessions twice gives the same project.
"""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from interview_cli.analysis.export.formats import xml_text
from interview_cli.analysis.report.codes import CodeBook, RespondentGraph, build_codebook
from interview_cli.analysis.report.elements import SessionCoverage, session_coverage
from interview_cli.analysis.sources import session_graph, snapshot_methodology
from interview_cli.config.plurals import plural
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import Node
from interview_cli.session.schema import SessionFile

NS = "urn:QDA-XML:project:1.0"
_GUIDS = uuid.UUID("6f1c0a52-8d1e-4c0e-9b7a-2f4f6c1d9e30")
PALETTE = ("#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948", "#B07AA1")
_SPACE = re.compile(r"\s+")


def guid(*parts: str) -> str:
    """A stable GUID for ``parts`` (the same sessions give the same project)."""
    return str(uuid.uuid5(_GUIDS, "\x1f".join(parts)))


def _q(tag: str) -> str:
    return f"{{{NS}}}{tag}"


@dataclass(frozen=True)
class Transcript:
    text: str
    answers: dict[str, tuple[int, int]]  # utterance id -> (start, end) of the answer text


def respondent_id(session: SessionFile) -> str:
    """Who answered: the participant, else the simulated persona, else the session itself."""
    if session.participant is not None:
        return session.participant.id
    sim = session.simulation or {}
    persona = sim.get("persona") or sim.get("persona_id")
    return str(persona) if persona else f"respondent {session.id}"


def transcript(session: SessionFile) -> Transcript:
    """The session as text: a heading, then each question and answer on its own line."""
    who = respondent_id(session)
    parts = [
        f"Interview {session.id} - {session.concept.name} ({session.methodology.name})\n",
        f"Respondent: {who}\n\n",
    ]
    length = sum(map(len, parts))
    answers: dict[str, tuple[int, int]] = {}
    for turn in session.turns:
        if not turn.answer.text:
            continue
        question = f"Q{turn.turn_number} Interviewer: {_one_line(turn.question.text)}\n"
        lead = f"A{turn.turn_number} {who}: "
        answer = _one_line(turn.answer.text)
        start = length + len(question) + len(lead)
        answers[turn.answer.utterance_id] = (start, start + len(answer))
        for piece in (question, lead, answer, "\n\n"):
            parts.append(piece)
            length += len(piece)
    return Transcript("".join(parts), answers)


def _one_line(text: str) -> str:
    # One line per utterance keeps the layout readable; offsets are taken after this, so they
    # point into exactly the text written to the source file.
    return xml_text(_SPACE.sub(" ", text).strip())


def locate(text: str, span: tuple[int, int], quote: str) -> tuple[int, int, bool]:
    """(start, end, verbatim) of ``quote`` inside ``text[span]``; the whole span if absent."""
    start, end = span
    answer = text[start:end]
    needle = _one_line(quote)
    if needle:
        at = answer.find(needle)
        if at < 0:
            at = answer.lower().find(needle.lower())
        if at >= 0:
            return start + at, start + at + len(needle), True
    return start, end, False


def _graph(session: SessionFile) -> KnowledgeGraph:
    return session_graph(session)


def session_codebook(sessions: Sequence[SessionFile]) -> tuple[CodeBook, list[KnowledgeGraph]]:
    graphs = [_graph(s) for s in sessions]
    levels: dict[str, int] = {}
    for s in sessions:
        for n in snapshot_methodology(s).ontology.nodes:
            levels.setdefault(n.name, n.level)
    respondents = [RespondentGraph(s.id, g) for s, g in zip(sessions, graphs, strict=True)]
    return build_codebook(respondents, levels=levels), graphs


def _stamp(session: SessionFile) -> str | None:
    """An xsd:dateTime for the session (its creation, else its first answer), if recorded."""
    for value in (session.created_at, *(t.answer.received_at for t in session.turns)):
        if value:
            return value.replace("+00:00", "Z")
    return None


def build_project(sessions: Sequence[SessionFile], name: str) -> tuple[bytes, dict[str, str]]:
    """(project.qde, {source file name in the zip: transcript text})."""
    ET.register_namespace("", NS)
    user = guid("user", "interview_cli")
    root = ET.Element(_q("Project"), {"name": xml_text(name), "origin": "interview_cli"})
    root.set("creatingUserGUID", user)
    stamps = [s for s in map(_stamp, sessions) if s]
    if stamps:
        root.set("creationDateTime", min(stamps))
    users = ET.SubElement(root, _q("Users"))
    ET.SubElement(users, _q("User"), {"guid": user, "name": "interview_cli"})

    book, graphs = session_codebook(sessions)
    code_guid = {c.id: guid("code", c.id, c.name) for c in book.codes}
    coverages = [session_coverage(s) for s in sessions]
    codes_el = _codebook(root, book, code_guid)
    _element_codes(root, codes_el, sessions, coverages)
    variables = _variables(root, sessions)
    cases = ET.SubElement(root, _q("Cases"))
    sources_el = ET.SubElement(root, _q("Sources"))
    files: dict[str, str] = {}
    for index, (session, graph) in enumerate(zip(sessions, graphs, strict=True)):
        source_guid = guid("source", session.id)
        case = ET.SubElement(
            cases,
            _q("Case"),
            {"guid": guid("case", session.id), "name": xml_text(respondent_id(session))},
        )
        for key, value in (session.participant.meta if session.participant else {}).items():
            held = ET.SubElement(case, _q("VariableValue"))
            ET.SubElement(held, _q("VariableRef"), {"targetGUID": variables[key]})
            ET.SubElement(held, _q("TextValue")).text = xml_text(value)
        ET.SubElement(case, _q("SourceRef"), {"targetGUID": source_guid})
        doc = transcript(session)
        files[f"{source_guid}.txt"] = doc.text
        source = _source(sources_el, session, index, graph, book, code_guid, doc, source_guid, user)
        coverage = coverages[index]
        if coverage is not None:
            _code_elements(source, session, graph, coverage, doc, user)
    xml = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return xml, files


def _variables(root: ET.Element, sessions: Sequence[SessionFile]) -> dict[str, str]:
    """One text variable per participant fact (``run --meta``); key -> variable GUID."""
    keys = list(dict.fromkeys(k for s in sessions if s.participant for k in s.participant.meta))
    if not keys:
        return {}
    parent = ET.SubElement(root, _q("Variables"))
    out = {}
    for key in keys:
        out[key] = guid("variable", key)
        var = ET.SubElement(
            parent,
            _q("Variable"),
            {"guid": out[key], "name": xml_text(key), "typeOfVariable": "Text"},
        )
        ET.SubElement(var, _q("Description")).text = "Participant fact (interview run --meta)"
    return out


def _codebook(root: ET.Element, book: CodeBook, code_guid: dict[str, str]) -> ET.Element | None:
    """The content codes by node type; the ``Codes`` element (None: no code at all)."""
    if not book.codes:
        return None  # the schema wants at least one Code in a CodeBook: leave it out instead
    codes_el = ET.SubElement(ET.SubElement(root, _q("CodeBook")), _q("Codes"))
    types = sorted(
        {c.node_type for c in book.codes},
        key=lambda t: (min(c.level for c in book.codes if c.node_type == t), t),
    )
    for i, node_type in enumerate(types):
        color = PALETTE[i % len(PALETTE)]
        parent = ET.SubElement(
            codes_el,
            _q("Code"),
            {
                "guid": guid("type", node_type),
                "name": node_type.replace("_", " "),
                "isCodable": "false",
                "color": color,
            },
        )
        ET.SubElement(parent, _q("Description")).text = f"Node type {node_type}"
        for code in (c for c in book.codes if c.node_type == node_type):
            child = ET.SubElement(
                parent,
                _q("Code"),
                {
                    "guid": code_guid[code.id],
                    "name": xml_text(code.name),
                    "isCodable": "true",
                    "color": color,
                },
            )
            said = "; ".join(code.variants)
            ET.SubElement(child, _q("Description")).text = xml_text(
                f"{code.id}: {plural(code.respondents, 'respondent')}, "
                f"{plural(code.mentions, 'mention')}; "
                f"said as: {said}"
            )
    return codes_el


def element_guid(concept_id: str, element_id: str) -> str:
    return guid("element", concept_id, element_id)


def _element_codes(
    root: ET.Element,
    codes_el: ET.Element | None,
    sessions: Sequence[SessionFile],
    coverages: Sequence[SessionCoverage | None],
) -> None:
    """One parent code per concept test, a code per stimulus element under it."""
    concepts: dict[str, tuple[str, SessionCoverage]] = {}
    for session, coverage in zip(sessions, coverages, strict=True):
        if coverage is not None:
            concepts.setdefault(session.concept.id, (session.concept.name, coverage))
    if not concepts:
        return
    if codes_el is None:
        codes_el = ET.SubElement(ET.SubElement(root, _q("CodeBook")), _q("Codes"))
    color = PALETTE[-1]
    for concept_id, (name, coverage) in concepts.items():
        parent = ET.SubElement(
            codes_el,
            _q("Code"),
            {
                "guid": guid("elements", concept_id),
                "name": xml_text(f"Stimulus elements: {name}"),
                "isCodable": "false",
                "color": color,
            },
        )
        ET.SubElement(parent, _q("Description")).text = xml_text(
            f"The elements of the concept test {concept_id}, as its stimulus shows them"
        )
        for element in coverage.elements:
            child = ET.SubElement(
                parent,
                _q("Code"),
                {
                    "guid": element_guid(concept_id, element.id),
                    "name": xml_text(element.label),
                    "isCodable": "true",
                    "color": color,
                },
            )
            ET.SubElement(child, _q("Description")).text = xml_text(
                f"Stimulus element {element.id} of {concept_id}"
            )


def _source(
    parent: ET.Element,
    session: SessionFile,
    index: int,
    graph: KnowledgeGraph,
    book: CodeBook,
    code_guid: dict[str, str],
    doc: Transcript,
    source_guid: str,
    user: str,
) -> ET.Element:
    attrs = {
        "guid": source_guid,
        "name": xml_text(f"{session.id} ({respondent_id(session)})"),
        "plainTextPath": f"internal://{source_guid}.txt",
        "creatingUser": user,
    }
    stamp = _stamp(session)
    if stamp:
        attrs["creationDateTime"] = stamp
    source = ET.SubElement(parent, _q("TextSource"), attrs)
    ET.SubElement(source, _q("Description")).text = xml_text(
        f"Interview {session.id}: {session.concept.name} ({session.concept.id}), "
        f"{session.methodology.name} {session.methodology.version}, status {session.status}"
    )
    seen: set[tuple[int, int, str]] = set()
    for node in graph.nodes():
        code = book.code_of(index, node.id)
        if code is None:
            continue
        for said in node.provenance:
            span = doc.answers.get(said["utterance_id"])
            if span is None:
                continue  # said outside the recorded answers (e.g. a stimulus element)
            start, end, verbatim = locate(doc.text, span, said["quote"])
            key = (start, end, code)
            if key in seen or end <= start:
                continue
            seen.add(key)
            note = f"{node.node_type} '{node.label}' (node {node.id}, turn {said['turn']})"
            if not verbatim:
                note += f"; quote not found verbatim, whole answer coded: {said['quote']}"
            _select(source, session.id, node, (start, end), (code, code_guid[code]), note, user)
    return source


def _select(
    source: ET.Element,
    session_id: str,
    node: Node,
    span: tuple[int, int],
    code: tuple[str, str],
    note: str,
    user: str,
) -> None:
    """A ``PlainTextSelection`` of ``span`` (named after the node) coded with ``code`` (its
    id and GUID)."""
    node_id = node.id
    start, end = (str(x) for x in span)
    selection = ET.SubElement(
        source,
        _q("PlainTextSelection"),
        {
            "guid": guid("selection", session_id, node_id, start, end, code[0]),
            "name": xml_text(node.label),
            "startPosition": start,
            "endPosition": end,
            "creatingUser": user,
        },
    )
    ET.SubElement(selection, _q("Description")).text = xml_text(note)
    coding = ET.SubElement(
        selection,
        _q("Coding"),
        {"guid": guid("coding", session_id, node_id, start, end, code[0]), "creatingUser": user},
    )
    ET.SubElement(coding, _q("CodeRef"), {"targetGUID": code[1]})


def _code_elements(
    source: ET.Element,
    session: SessionFile,
    graph: KnowledgeGraph,
    coverage: SessionCoverage,
    doc: Transcript,
    user: str,
) -> None:
    """The quotes of the nodes about each stimulus element, coded with the element's code."""
    seen: set[tuple[int, int, str]] = set()
    for element in coverage.elements:
        key_id = f"element:{element.id}"
        target = element_guid(session.concept.id, element.id)
        for node_id in element.node_ids:
            node = graph.node(node_id)
            for said in node.provenance:
                span = doc.answers.get(said["utterance_id"])
                if span is None:
                    continue
                start, end, _ = locate(doc.text, span, said["quote"])
                if (start, end, key_id) in seen or end <= start:
                    continue
                seen.add((start, end, key_id))
                note = f"{element.label} (node {node.id}, turn {said['turn']})"
                _select(source, session.id, node, (start, end), (key_id, target), note, user)


def export_qdpx(sessions: Sequence[SessionFile], name: str = "interview_cli export") -> bytes:
    """The ``.qdpx`` zip: ``project.qde`` and ``sources/<guid>.txt`` per session."""
    if not sessions:
        raise ValueError("a project needs at least one session")
    xml, files = build_project(sessions, name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        # A fixed date keeps the zip byte-identical for the same sessions.
        info = zipfile.ZipInfo("project.qde", date_time=(2019, 3, 18, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, xml)
        for file_name, text in files.items():
            info = zipfile.ZipInfo(f"sources/{file_name}", date_time=(2019, 3, 18, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()
