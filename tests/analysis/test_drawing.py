"""Mermaid, DOT and the self-laid-out SVG of a levelled graph."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from dot_parser import parse_dot

from interview_cli.analysis.export.drawing import (
    DrawEdge,
    Drawing,
    DrawNode,
    order_rows,
    to_dot,
    to_mermaid,
    to_svg,
)

SVG = "{http://www.w3.org/2000/svg}"

ODD = Drawing(
    title='A "map" <with> odd & labels',
    nodes=(
        DrawNode("a-1", 'say "hi" [now]', 1, "attribute", tooltip="x < y"),
        DrawNode("a2", "a very long label that must wrap over several lines in a box", 1),
        DrawNode("c1", "feel | calm", 2, "consequence"),
        DrawNode("v1", "freedom", 3, "value"),
    ),
    edges=(
        DrawEdge("a-1", "c1", "2.1", 3),
        DrawEdge("a2", "c1", "1.0", 1),
        DrawEdge("c1", "v1", "", 2, dashed=True),
        DrawEdge("a-1", "a2", "contrasts"),
    ),
    level_names={1: "attribute", 2: "consequence", 3: "value / goal"},
)


def test_mermaid_escapes_labels_and_ids() -> None:
    text = to_mermaid(ODD)
    lines = text.splitlines()
    assert lines[0] == "flowchart BT"
    # ids: the position (unique, never a keyword) and the id's plain letters
    assert 'n0_a1["say #quot;hi#quot; [now]"]' in text
    assert 'n2_c1["feel | calm"]' in text
    assert 'n0_a1 -->|"2.1"| n2_c1' in text
    assert "n2_c1 -.-> n3_v1" in text  # dashed, no label
    assert "class n0_a1,n1_a2 level1" in text


def test_mermaid_encodes_what_it_would_read_as_entity_codes() -> None:
    # Mermaid reads "#word;" in a label as an entity code: "#hash; end" must stay text.
    odd = Drawing(
        "t",
        (DrawNode("a", '#hash; end "q" <b> & c', 1), DrawNode("b", "x", 2)),
        (DrawEdge("a", "b", "#1;"),),
    )
    text = to_mermaid(odd)
    assert 'n0_a["#35;hash#59; end #quot;q#quot; #lt;b#gt; #amp; c"]' in text
    assert 'n0_a -->|"#35;1#59;"| n1_b' in text
    # nothing left that Mermaid would decode into something else: every "#" opens a code
    label = text.split('a["', 1)[1].split('"]', 1)[0]
    codes = label.split("#")[1:]
    assert codes and all(
        c.split(";", 1)[0] in {"35", "59", "quot", "lt", "gt", "amp"} for c in codes
    )


def test_dot_parses_with_levels_as_ranks() -> None:
    text = to_dot(ODD, name="HVM")
    g = parse_dot(text)
    assert g.directed and g.name == "HVM"
    assert g.attrs["rankdir"] == "BT" and g.attrs["label"] == ODD.title
    assert g.subgraphs == ["level_1", "level_2", "level_3"]
    assert g.nodes["a-1"]["label"] == 'say "hi" [now]'
    assert {(a, b) for a, b, _ in g.edges} == {
        ("a-1", "c1"),
        ("a2", "c1"),
        ("c1", "v1"),
        ("a-1", "a2"),
    }
    attrs = {(a, b): at for a, b, at in g.edges}
    assert attrs[("c1", "v1")]["style"] == "dashed"
    assert float(attrs[("a-1", "c1")]["penwidth"]) > float(attrs[("a2", "c1")]["penwidth"])


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_renders_the_dot() -> None:
    done = subprocess.run(
        ["dot", "-Tsvg"], input=to_dot(ODD), capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "<svg" in done.stdout


def _boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(f"{SVG}g"):
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        out[g.get("data-id", "")] = (
            float(rect.get("x", 0)),
            float(rect.get("y", 0)),
            float(rect.get("width", 0)),
            float(rect.get("height", 0)),
        )
    return out


def test_svg_is_well_formed_and_laid_out_by_level() -> None:
    svg = to_svg(ODD)
    root = ET.fromstring(svg)  # well-formed XML, escaped text
    assert root.get("aria-label") == ODD.title
    boxes = _boxes(svg)
    assert set(boxes) == {"a-1", "a2", "c1", "v1"}
    # the most abstract level on top (smaller y), the concrete at the bottom
    centre = {k: y + h / 2 for k, (_, y, _, h) in boxes.items()}
    assert centre["v1"] < centre["c1"] < centre["a-1"] == centre["a2"]
    # boxes of a row do not overlap
    (x1, _, w1, _), (x2, _, w2, _) = sorted([boxes["a-1"], boxes["a2"]])
    assert x1 + w1 <= x2
    texts = [t.text or "" for t in root.iter(f"{SVG}text")] + [
        s.text or "" for s in root.iter(f"{SVG}tspan")
    ]
    assert 'say "hi" [now]' in texts
    assert "value" in texts and "goal" in texts  # level names, split on " / "
    long_lines = [t for t in texts if t.startswith("a very long")]
    assert long_lines and all(len(t) <= 25 for t in long_lines)
    paths = [p for p in root.iter(f"{SVG}path") if p.get("marker-end")]
    assert len(paths) == 4
    assert sum(1 for p in paths if p.get("stroke-dasharray")) == 1
    assert "<script" not in svg and "http://" not in svg.replace("http://www.w3.org/2000/svg", "")


def test_rows_are_ordered_to_undo_a_crossing() -> None:
    crossing = Drawing(
        "x",
        nodes=(
            DrawNode("a", "a", 1),
            DrawNode("b", "b", 1),
            DrawNode("x", "x", 2),
            DrawNode("y", "y", 2),
        ),
        edges=(DrawEdge("a", "y"), DrawEdge("b", "x")),
    )
    rows = order_rows(crossing)
    low, high = rows[1], rows[2]
    # a is linked to y and b to x: their relative order must agree
    assert (low.index("a") < low.index("b")) == (high.index("y") < high.index("x"))


def test_an_empty_drawing_still_draws() -> None:
    empty = Drawing("nothing yet", (), ())
    assert ET.fromstring(to_svg(empty)).tag == f"{SVG}svg"
    assert parse_dot(to_dot(empty)).nodes == {}
    assert to_mermaid(empty) == "flowchart BT\n"
