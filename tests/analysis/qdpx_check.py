"""A structural check of REFI-QDA project files (Project schema 1.0, urn:QDA-XML:project:1.0).

The XSD cannot be fetched in the tests (no network), so the parts of it a ``.qdpx`` of ours
uses are written down here from the specification: for each element its children in schema
order (``xsd:sequence``; ``1`` at most once, ``+`` at least once, ``*`` any number), its
required and optional attributes and their types (GUIDType, RGBType, xsd:boolean, xsd:integer,
xsd:dateTime). On top of the schema, the rules the specification states in words: a
TextSource has PlainTextContent or a plainTextPath, not both; an ``internal://`` path names a
file in the zip's ``sources/`` folder; GUIDs are unique and every reference resolves;
selection offsets lie inside the source text. Imported by the qdpx tests (analysis and cli).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from xml.etree import ElementTree as ET

NS = "urn:QDA-XML:project:1.0"
GUID = re.compile(
    r"^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"
    r"|^\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}$"
)
RGB = re.compile(r"^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$")
DATETIME = re.compile(r"^-?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$")
TYPES = {
    "guid": GUID,
    "targetGUID": GUID,
    "creatingUser": GUID,
    "modifyingUser": GUID,
    "creatingUserGUID": GUID,
    "modifyingUserGUID": GUID,
    "color": RGB,
    "isCodable": re.compile(r"^(true|false|1|0)$"),
    "startPosition": re.compile(r"^-?\d+$"),
    "endPosition": re.compile(r"^-?\d+$"),
    "creationDateTime": DATETIME,
    "modifiedDateTime": DATETIME,
    "typeOfVariable": re.compile(r"^(Text|Boolean|Integer|Float|Date|DateTime)$"),
}


@dataclass(frozen=True)
class Rule:
    children: tuple[tuple[str, str], ...]  # (element, "1" | "?" | "+" | "*") in schema order
    required: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    text: bool = False  # simple content (xsd:string)


def _r(children: str, required: str = "", optional: str = "", text: bool = False) -> Rule:
    kids = tuple((c[:-1], c[-1]) for c in children.split())
    return Rule(kids, frozenset(required.split()), frozenset(optional.split()), text)


_STAMPS = "creatingUser creationDateTime modifyingUser modifiedDateTime"
SCHEMA: dict[str, Rule] = {
    "Project": _r(
        "Users? CodeBook? Variables? Cases? Sources? Notes? Links? Sets? Graphs? Description? "
        "NoteRef*",
        "name",
        "origin creatingUserGUID creationDateTime modifyingUserGUID modifiedDateTime basePath",
    ),
    "Users": _r("User+"),
    "User": _r("", "guid", "name id"),
    "CodeBook": _r("Codes1"),
    "Codes": _r("Code+"),
    "Code": _r("Description? NoteRef* Code*", "guid name isCodable", "color"),
    "Variables": _r("Variable+"),
    "Variable": _r("Description?", "guid name typeOfVariable"),
    "VariableValue": _r("VariableRef1 TextValue?"),
    "VariableRef": _r("", "targetGUID"),
    "TextValue": _r("", text=True),
    "Cases": _r("Case+"),
    "Case": _r("Description? CodeRef* VariableValue* SourceRef* SelectionRef*", "guid", "name"),
    "Sources": _r("TextSource*"),
    "TextSource": _r(
        "Description? PlainTextContent? PlainTextSelection* Coding* NoteRef* VariableValue*",
        "guid",
        f"name richTextPath plainTextPath {_STAMPS}",
    ),
    "PlainTextSelection": _r(
        "Description? Coding* NoteRef*", "guid startPosition endPosition", f"name {_STAMPS}"
    ),
    "Coding": _r("CodeRef1 NoteRef*", "guid", "creatingUser creationDateTime"),
    "CodeRef": _r("", "targetGUID"),
    "SourceRef": _r("", "targetGUID"),
    "NoteRef": _r("", "targetGUID"),
    "Description": _r("", text=True),
    "PlainTextContent": _r("", text=True),
}


def _local(tag: str) -> str:
    if not tag.startswith(f"{{{NS}}}"):
        raise AssertionError(f"element {tag} is not in namespace {NS}")
    return tag[len(NS) + 2 :]


def _check_element(el: ET.Element, path: str, problems: list[str]) -> None:
    name = _local(el.tag)
    rule = SCHEMA.get(name)
    if rule is None:
        problems.append(f"{path}: element {name} is not expected here")
        return
    attrs = set(el.attrib)
    for missing in sorted(rule.required - attrs):
        problems.append(f"{path}: required attribute {missing} missing")
    for extra in sorted(attrs - rule.required - rule.optional):
        problems.append(f"{path}: attribute {extra} not in the schema")
    for key, value in el.attrib.items():
        pattern = TYPES.get(key)
        if pattern is not None and not pattern.match(value):
            problems.append(f"{path}: {key}={value!r} is not a valid value")
    if not rule.text and (el.text or "").strip():
        problems.append(f"{path}: text content in an element without simple content")
    order = [c for c, _ in rule.children]
    counts: dict[str, int] = {}
    last = -1
    for child in el:
        cname = _local(child.tag)
        if cname not in order:
            problems.append(f"{path}: {cname} is not a child of {name}")
            continue
        at = order.index(cname)
        if at < last:
            problems.append(f"{path}: {cname} out of schema order")
        last = max(last, at)
        counts[cname] = counts.get(cname, 0) + 1
        _check_element(child, f"{path}/{cname}", problems)
    for cname, occurs in rule.children:
        n = counts.get(cname, 0)
        if occurs in "1+" and n == 0:
            problems.append(f"{path}: {cname} required in {name}")
        if occurs in "1?" and n > 1:
            problems.append(f"{path}: {cname} may occur once in {name}")


@dataclass
class Project:
    root: ET.Element
    sources: dict[str, str]  # file name under sources/ -> text


def read_qdpx(data: bytes) -> Project:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert "project.qde" in names, names
        root = ET.fromstring(zf.read("project.qde"))
        sources = {
            n.removeprefix("sources/"): zf.read(n).decode("utf-8")
            for n in names
            if n.startswith("sources/") and not n.endswith("/")
        }
    return Project(root, sources)


def check_project(data: bytes) -> list[str]:
    """Every problem found (empty: the project is structurally valid)."""
    project = read_qdpx(data)
    problems: list[str] = []
    if project.root.tag != f"{{{NS}}}Project":
        return [f"root element is {project.root.tag}, not Project in {NS}"]
    _check_element(project.root, "Project", problems)
    guids: dict[str, str] = {}
    for el in project.root.iter():
        g = el.get("guid")
        if g is not None:
            if g.lower() in guids:
                problems.append(f"guid {g} used twice ({guids[g.lower()]}, {_local(el.tag)})")
            guids[g.lower()] = _local(el.tag)
    wanted = {
        "CodeRef": "Code",
        "SourceRef": "TextSource",
        "NoteRef": "Note",
        "VariableRef": "Variable",
    }
    for el in project.root.iter():
        kind = wanted.get(_local(el.tag))
        target = el.get("targetGUID", "").lower()
        if kind and guids.get(target) != kind:
            problems.append(f"{_local(el.tag)} {target} refers to no {kind}")
    for attr in ("creatingUser", "creatingUserGUID"):
        for el in project.root.iter():
            if el.get(attr) and guids.get(el.get(attr, "").lower()) != "User":
                problems.append(f"{_local(el.tag)} {attr} names no User")
    for source in project.root.iter(f"{{{NS}}}TextSource"):
        problems += _check_source(project, source)
    return problems


def source_text(project: Project, source: ET.Element) -> str:
    content = source.find(f"{{{NS}}}PlainTextContent")
    if content is not None:
        return content.text or ""
    path = source.get("plainTextPath", "")
    return project.sources[path.removeprefix("internal://")]


def _check_source(project: Project, source: ET.Element) -> list[str]:
    name = source.get("name")
    has_content = source.find(f"{{{NS}}}PlainTextContent") is not None
    path = source.get("plainTextPath")
    if has_content == (path is not None):
        return [f"TextSource {name}: PlainTextContent or plainTextPath, exactly one"]
    if path is not None:
        if not path.startswith("internal://"):
            return [f"TextSource {name}: plainTextPath {path} is not internal://"]
        if path.removeprefix("internal://") not in project.sources:
            return [f"TextSource {name}: {path} is not in the zip's sources/"]
    text = source_text(project, source)
    problems = []
    for sel in source.iter(f"{{{NS}}}PlainTextSelection"):
        start, end = int(sel.get("startPosition", -1)), int(sel.get("endPosition", -1))
        if not 0 <= start < end <= len(text):
            problems.append(f"TextSource {name}: selection {start}-{end} outside 0-{len(text)}")
    return problems
