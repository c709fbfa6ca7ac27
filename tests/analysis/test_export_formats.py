"""interview export: every format read back by the tool it is meant for."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import pytest
from dot_parser import parse_dot

from interview_cli.analysis.export.formats import (
    EDGE_COLUMNS,
    NODE_COLUMNS,
    export,
    export_graphml,
)
from interview_cli.analysis.sources import read_session
from interview_cli.core.graph.knowledge import DISOWNED
from interview_cli.core.graph.node_link import from_json
from interview_cli.session.schema import SessionFile

NAMES = ("mec-cooperative", "jtbd-cooperative", "ci-verbose", "mec-interrupted")


@pytest.fixture(params=NAMES)
def session(request: pytest.FixtureRequest, produced: dict[str, Path]) -> SessionFile:
    return read_session(produced[request.param])


def test_graphml_reads_back_with_networkx(session: SessionFile) -> None:
    g = nx.read_graphml(io.BytesIO(export_graphml(session).encode("utf-8")))
    kg = from_json(session.graph)
    assert isinstance(g, nx.DiGraph)
    assert set(g.nodes) == set(kg.node_ids())
    assert g.number_of_edges() == len({(r.source, r.target) for r in kg.edges()})
    for node in kg.nodes():
        data = g.nodes[node.id]
        assert data["label"] == node.label and data["node_type"] == node.node_type
        assert data["created_turn"] == node.created_turn
        assert isinstance(data["level"], int) and data["level"] >= 1
    for rel in kg.edges():
        assert rel.relation in g.edges[rel.source, rel.target]["relation"].split("; ")
    assert g.graph["methodology"] == session.methodology.name


def test_graphml_merges_a_second_relation_that_no_turn_produced(produced: dict[str, Path]) -> None:
    session = read_session(produced["mec-cooperative"])
    graph = json.loads(json.dumps(session.graph))
    link = graph["links"][0]
    link["relations"]["contrasts_with"] = {
        "quotes": [],
        "provenance": [],  # added by hand: no turn to cite
        "confidence": 0.5,
        "created_turn": 1,
    }
    edited = session.model_copy(update={"graph": graph})
    g = nx.read_graphml(io.BytesIO(export_graphml(edited).encode("utf-8")))
    data = g.edges[link["source"], link["target"]]
    assert "contrasts_with" in data["relation"].split("; ")
    assert all(turn for turn in data["turns"].split(";"))


def test_dot_parses_and_has_every_live_node(session: SessionFile) -> None:
    g = parse_dot(export(session, "dot"))
    kg = from_json(session.graph)
    # what the respondent revised or took back ("that was a joke") is not drawn
    live = {n.id for n in kg.nodes() if n.superseded_by is None and n.confidence != DISOWNED}
    assert set(g.nodes) == live
    expected = {
        (r.source, r.target, r.relation)
        for r in kg.edges()
        if r.source != r.target and {r.source, r.target} <= live
    }
    assert {(a, b, at["label"]) for a, b, at in g.edges} == expected
    assert g.attrs["rankdir"] == "BT"


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_renders_the_export(session: SessionFile) -> None:
    done = subprocess.run(
        ["dot", "-Tsvg"],
        input=export(session, "dot"),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_csv_tables_read_back(session: SessionFile) -> None:
    kg = from_json(session.graph)
    nodes = list(csv.DictReader(io.StringIO(export(session, "csv", table="nodes"))))
    edges = list(csv.DictReader(io.StringIO(export(session, "csv", table="edges"))))
    assert tuple(nodes[0]) == NODE_COLUMNS and tuple(edges[0]) == EDGE_COLUMNS
    assert [r["id"] for r in nodes] == kg.node_ids()
    assert [(r["source"], r["target"], r["relation"]) for r in edges] == [
        (r.source, r.target, r.relation) for r in kg.edges()
    ]
    by_id = {n.id: n for n in kg.nodes()}
    for row in nodes:
        assert row["label"] == by_id[row["id"]].label
        assert int(row["mentions"]) == by_id[row["id"]].mention_count
    for row in edges:
        assert row["source_label"] == by_id[row["source"]].label
        assert all(t.isdigit() for t in row["turns"].split(";"))


def test_jsonl_has_one_record_per_turn(session: SessionFile) -> None:
    lines = export(session, "jsonl").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["turn_number"] for r in records] == [t.turn_number for t in session.turns]
    assert all(r["session"] == session.id for r in records)
    complete = [r for r in records if r["status"] == "complete"]
    assert all(r["decision"]["strategy"] and "extraction" in r for r in complete)


def test_markdown_transcript_shows_answers_and_what_they_yielded(session: SessionFile) -> None:
    md = export(session, "md")
    assert md.startswith(f"# {session.concept.name}")
    for turn in session.turns:
        assert f"## Turn {turn.turn_number}" in md
        assert turn.answer.text in md
    if any(t.extraction and t.extraction.nodes for t in session.turns):
        assert "Extracted:" in md
    if session.turns[-1].status != "complete":
        assert "interrupted" in md


def test_mermaid_is_a_bottom_up_flowchart(session: SessionFile) -> None:
    text = export(session, "mermaid")
    assert text.startswith("flowchart BT\n")
    assert text.count('["') == sum(
        1
        for n in from_json(session.graph).nodes()
        if n.superseded_by is None and n.confidence != DISOWNED
    )
