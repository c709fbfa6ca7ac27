"""interview report: metrics, the laddering analysis, other methods, and every output format."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from html_check import check_html

from interview_cli.analysis.report.build import Report, ReportOptions, build_report
from interview_cli.analysis.report.metrics import aggregate, session_metrics, simulation_recall
from interview_cli.analysis.report.to_html import report_html
from interview_cli.analysis.report.to_json import report_to_dict
from interview_cli.analysis.report.to_markdown import report_markdown
from interview_cli.analysis.sources import (
    SessionSource,
    collect,
    read_session,
    snapshot_methodology,
)
from interview_cli.core.graph.node_link import from_json
from interview_cli.core.state import compute_graph_state
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore


@pytest.fixture(scope="module")
def report(produced_dir: Path) -> Report:
    collected = collect([str(produced_dir)], SessionStore(produced_dir))
    return build_report(collected.sources, ReportOptions())


def test_metrics_per_session_match_the_files(produced: dict[str, Path]) -> None:
    for path in produced.values():
        session = read_session(path)
        row = session_metrics(session, str(path))
        graph = from_json(session.graph)
        assert row.turns == session.turn_count
        assert (row.nodes, row.edges) == (graph.node_count, graph.edge_count)
        nodes = graph.node_count  # none for a persona with nothing to say about the topic
        assert row.edge_node_ratio == (round(graph.edge_count / nodes, 3) if nodes else 0.0)
        assert sum(row.strategy_mix.values()) == session.turn_count
        # the interview's own depth: rungs along the methodology's chain relations only
        state = compute_graph_state(graph, snapshot_methodology(session), session.turn_count)
        assert row.max_depth == state.max_depth
        assert row.status == session.status
        assert row.recall is None  # not simulated


def _with_a_contrast_before_the_longest_chain(session: SessionFile) -> SessionFile:
    """``session`` with one more attribute, contrasted with the first node of its longest chain.

    ``contrasts_with`` is no rung (``chain: false``), so the interview's depth stays what it
    was while the raw graph's longest path over every relation grows by one.
    """
    doc = session.model_dump(mode="json")
    graph = from_json(doc["graph"])
    methodology = snapshot_methodology(session)
    start = graph.longest_chain(methodology.ontology.chain_relations)[0]
    node = next(n for n in doc["graph"]["nodes"] if n["id"] == start)
    assert node["node_type"] == "attribute"  # contrasts_with links two attributes
    doc["graph"]["nodes"].append({**node, "id": "n999", "label": "wired cable", "aliases": []})
    relation = next(iter(doc["graph"]["links"][0]["relations"].values()))  # its fields
    doc["graph"]["links"].append(
        {"source": "n999", "target": start, "relations": {"contrasts_with": dict(relation)}}
    )
    return SessionFile.model_validate(doc)


def test_the_report_depth_follows_chain_relations_only(produced: dict[str, Path]) -> None:
    session = _with_a_contrast_before_the_longest_chain(read_session(produced["mec-scripted"]))
    graph = from_json(session.graph)
    chain_depth = compute_graph_state(
        graph, snapshot_methodology(session), session.turn_count
    ).max_depth
    assert graph.max_depth == chain_depth + 1  # every relation: the contrast counts as a rung
    row = session_metrics(session)
    assert row.max_depth == chain_depth
    source = SessionSource(session, Path("edited.json"))
    report = build_report([source], ReportOptions())
    assert report.sessions[0].max_depth == report.aggregate.max_depth_max == chain_depth
    assert report_to_dict(report)["sessions"][0]["max_depth"] == chain_depth


def test_each_graph_is_parsed_once(
    produced: dict[str, Path], produced_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.analysis.sources as report_module  # session_graph's from_json

    sources = collect([str(produced_dir)], SessionStore(produced_dir)).sources
    said = read_session(produced["mec-scripted"]).graph["nodes"][0]["label"]
    calls: list[int] = []
    real = report_module.from_json

    def counting(data: object) -> object:
        calls.append(1)
        return real(data)  # type: ignore[arg-type]

    monkeypatch.setattr(report_module, "from_json", counting)
    merges = {"calm": ["serentiy"], "kept": [said]}
    result = build_report(sources, ReportOptions(merges=merges))
    # once per session with a graph for its metrics, once for the analysis (the merge check
    # reuses it), once more per session with canonical slots for the surface-vs-canonical
    # figures
    with_graph = [s for s in sources if s.session.graph.get("nodes")]
    assert len(calls) == 2 * len(with_graph) + len(result.dual_graph)
    assert result.unmatched_merges == [("calm", "serentiy")]


def test_the_aggregate_sums_and_averages(report: Report) -> None:
    rows = report.sessions
    agg = report.aggregate
    assert agg.sessions == len(rows) == 9
    assert agg.turns_total == sum(r.turns for r in rows)
    assert agg.max_depth_max == max(r.max_depth for r in rows)
    assert sum(agg.strategy_mix.values()) == agg.turns_total
    assert sum(agg.by_status.values()) == 9
    assert agg == aggregate(rows)


def test_simulated_recall_is_read_where_batch_puts_it() -> None:
    assert simulation_recall({"evaluation": {"ladder_recall": 0.5}}) == 0.5
    assert simulation_recall({"rung_recall": 0.25}) == 0.25
    assert simulation_recall({"recall": True}) is None
    assert simulation_recall(None) is None


def test_one_section_per_methodology(report: Report) -> None:
    by_name = {s.methodology: s for s in report.sections}
    assert set(by_name) == {"means_end_chain", "jobs_to_be_done", "critical_incident"}
    mec = by_name["means_end_chain"]
    assert mec.ladder is not None and mec.structure is None
    assert len(mec.session_ids) == 7
    assert mec.ladder.matrix.respondents == 7
    assert mec.ladder.matrix.total_links > 0
    hvm = mec.ladder.hvm
    assert hvm.share_kept >= 2 / 3 or hvm.cutoff == 1
    assert hvm.links and set(hvm.codes) <= {c.id for c in mec.codebook.codes}
    # every HVM link goes up the ladder or stays level (leads_to never points down)
    for link in hvm.links:
        assert mec.codebook.code(link.source).level <= mec.codebook.code(link.target).level
    for name in ("jobs_to_be_done", "critical_incident"):
        section = by_name[name]
        assert section.ladder is None and section.structure is not None
        assert section.structure.node_types and section.structure.connections
        assert section.structure.hub_type in section.levels


def test_the_jobs_section_lists_each_job_with_what_it_connects_to(report: Report) -> None:
    jtbd = next(s for s in report.sections if s.methodology == "jobs_to_be_done")
    st = jtbd.structure
    assert st is not None and st.hubs
    for hub in st.hubs:
        assert jtbd.codebook.code(hub.code).node_type == st.hub_type
        assert hub.neighbours


def test_markdown_has_tables_mermaid_and_dot(report: Report) -> None:
    md = report_markdown(report)
    assert md.startswith("# Interview report")
    assert "| session | turns |" in md
    assert "### Implication matrix" in md and "### Hierarchical value map" in md
    assert md.count("```mermaid") == 3 and "```dot" in md
    assert "Cut-off **" in md and "of all links" in md


def test_md_and_html_compare_the_surface_and_canonical_graphs(report: Report) -> None:
    # Issue 8 item 4: not only the terminal view and --json show the dual graph.
    assert report.dual_graph  # the produced sessions ran with canonical slots (the default)
    md = report_markdown(report)
    assert "## Surface vs canonical graph" in md
    assert "| session | surface nodes | surface edges | edges/node | slots (active) |" in md
    for row in report.dual_graph:
        assert f"| {row['id']} | {row['surface_nodes']} | {row['surface_edges']} |" in md
    text = " ".join(check_html(report_html(report)).text)
    assert "Surface vs canonical graph" in text and "canonical edges" in text


def test_each_section_names_the_concepts_it_pools(report: Report) -> None:
    mec = next(s for s in report.sections if s.methodology == "means_end_chain")
    # the produced MEC sessions are about three concepts, pooled in one matrix and map
    ids = {c.id: c.sessions for c in mec.concepts}
    assert ids == {"headphones_mec": 5, "oat_milk_mec": 1, "plant_yoghurt_concept_mec": 1}
    assert sum(ids.values()) == len(mec.session_ids)
    md = report_markdown(report)
    assert f"Concepts (sessions): {mec.concepts_text()}." in md
    assert "Wireless headphones (headphones_mec) 5" in md
    assert "Wireless headphones (headphones_mec) 5" in " ".join(
        check_html(report_html(report)).text
    )
    data = report_to_dict(report)
    (mec_json,) = [m for m in data["methodologies"] if m["methodology"] == "means_end_chain"]
    assert {c["id"] for c in mec_json["concepts"]} == set(ids)


def test_the_terminal_matrix_cut_keeps_the_most_linked_codes_and_says_so(
    report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    import interview_cli.ui.report as views
    from interview_cli.analysis.report.to_markdown import matrix_window

    mec = next(s for s in report.sections if s.ladder is not None)
    assert mec.ladder is not None
    window = matrix_window(mec)  # the codes at the cut-off, the most linked of them shown
    rows, cols = window.rows, window.cols
    linked = set(rows) | set(cols)
    # a window narrower than the linked codes, however many the produced sessions hold
    shown = min(6, len(linked) - 1)
    assert shown >= 3, linked
    monkeypatch.setattr(views, "MATRIX_MAX_CODES", shown)
    console = Console(width=200, record=True, color_system=None)
    console.print(views.matrix_table(mec))
    out = console.export_text()
    flat = " ".join(out.split())  # the title wraps at the table's width
    assert f"of these {len(linked)} codes, those with the most links" in flat
    assert "--format md or html has them all" in flat
    header = next(line for line in out.splitlines() if "from \\ to" in line).split()[3:]
    assert 0 < len(header) <= shown
    # the columns include the top (value) level, which the old first-N window dropped
    top = max(mec.codebook.code(c).level for c in cols)
    assert any(mec.codebook.code(c).level == top for c in header)


def test_json_is_complete_and_plain(report: Report) -> None:
    data = json.loads(json.dumps(report_to_dict(report)))
    assert len(data["sessions"]) == 9
    mec = next(m for m in data["methodologies"] if m["methodology"] == "means_end_chain")
    assert mec["hvm"]["mermaid"].startswith("flowchart BT")
    assert mec["hvm"]["dot"].startswith("digraph")
    assert {"cells", "codes", "total_links"} <= set(mec["implication_matrix"])
    assert data["options"]["keep_share"] == pytest.approx(2 / 3)


def test_html_is_one_self_contained_valid_file(report: Report, tmp_path: Path) -> None:
    html = report_html(report)
    parsed = check_html(html)
    assert parsed.problems == []
    assert parsed.tags["svg"] == 3  # the HVM and one connection map per other method
    assert parsed.tags["table"] >= 6
    text = " ".join(parsed.text)
    assert "Hierarchical value map" in text and "Implication matrix" in text
    # each inline SVG is well-formed XML; the HVM has a box per code on the map
    mec = next(s for s in report.sections if s.ladder is not None)
    svgs, start = [], 0
    while (start := html.find("<svg", start)) != -1:
        end = html.index("</svg>", start) + len("</svg>")
        svgs.append(ET.fromstring(html[start:end]))
        start = end
    assert len(svgs) == 3
    hvm = next(svg for svg in svgs if svg.get("aria-label", "").startswith("Hierarchical"))
    boxes = [g for g in hvm.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert mec.ladder is not None
    assert {b.get("data-id") for b in boxes} == set(mec.ladder.hvm.codes)


BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


@pytest.mark.skipif(
    not any(shutil.which(b) for b in BROWSERS), reason="no Chromium installed (not installed in CI)"
)
def test_html_opens_in_headless_chromium(report: Report, tmp_path: Path) -> None:
    browser = next(shutil.which(b) for b in BROWSERS if shutil.which(b))
    page = tmp_path / "report.html"
    page.write_text(report_html(report), encoding="utf-8")
    done = subprocess.run(
        [str(browser), "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "Hierarchical value map" in done.stdout and "<svg" in done.stdout


def test_a_given_cutoff_and_merges_reach_the_analysis(produced_dir: Path) -> None:
    sources = collect([str(produced_dir)], SessionStore(produced_dir)).sources
    mec_sources = [s for s in sources if s.session.methodology.name == "means_end_chain"]
    plain = build_report(mec_sources, ReportOptions(cutoff=1))
    section = plain.sections[0]
    assert section.ladder is not None and section.ladder.hvm.cutoff == 1
    assert section.ladder.hvm.relations_kept == section.ladder.hvm.relations_total
    # a merge names labels: two codes each of one label (a code grouped by meaning holds
    # several, and merging its name alone would leave the others a code of their own)
    two = [
        c for c in section.codebook.codes if c.node_type == "attribute" and c.variants == (c.name,)
    ][:2]
    merged = build_report(
        mec_sources, ReportOptions(merges={"any feature": [two[0].name, two[1].name]})
    )
    names = {c.name: c for c in merged.sections[0].codebook.codes}
    assert "any feature" in names and names["any feature"].source == "merge"
    assert len(merged.sections[0].codebook.codes) == len(section.codebook.codes) - 1
