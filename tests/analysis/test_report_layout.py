"""A report over many codes stays readable (issue 21, item 5): the value map fits a 1280 px
screen at full size, and the implication matrix shows the codes at the cut-off, says how many
it hid, and shows them all with --full-matrix."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.analysis.export.drawing import MAX_WIDTH, DrawEdge, Drawing, DrawNode, to_svg
from interview_cli.analysis.report.implication import (
    codes_at_cutoff,
    ladder_matrix,
    most_linked_codes,
)
from interview_cli.cli.app import app

SVG = "{http://www.w3.org/2000/svg}"
VIEWPORT = 1280
LEVELS = (
    "attribute",
    "functional_consequence",
    "psychosocial_consequence",
    "instrumental_value",
    "terminal_value",
)
VALUE_LEVELS = {4, 5}


def coding_sheet(respondents: int = 40, seed: int = 7) -> str:
    """Ladders over 69 of 82 codes: three in four tell one of four common chains, the rest
    pick a code of each level at random (so most of the matrix holds counts of one)."""
    rng = random.Random(seed)
    sizes = (16, 22, 20, 14, 10)
    pools = [
        [f"{level.split('_')[0]} code {i:02d} with a longer label" for i in range(n)]
        for level, n in zip(LEVELS, sizes, strict=True)
    ]
    common = [[pool[k] for pool in pools] for k in range(4)]
    lines = ["respondent,ladder,position,code,level"]
    for r in range(respondents):
        for ladder in range(1, 4):
            chain = (
                common[rng.randrange(4)] if rng.random() < 0.75 else [rng.choice(p) for p in pools]
            )
            for position, (code, level) in enumerate(zip(chain, LEVELS, strict=True), 1):
                lines.append(f"R{r},{ladder},{position},{code},{level}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("layout") / "many_codes.csv"
    path.write_text(coding_sheet(), encoding="utf-8")
    return path


def report(*args: str, width: int = 120) -> str:
    result = CliRunner().invoke(app, ["report", *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.stdout


# --------------------------------------------------------------------------------------------
# The value map
# --------------------------------------------------------------------------------------------


def _svgs(html: str) -> list[ET.Element]:
    return [ET.fromstring(m.group(0)) for m in re.finditer(r"<svg.*?</svg>", html, re.S)]


def _px(css: str, selector: str, prop: str) -> float:
    """A horizontal length of the report's stylesheet in px (1em = 16 px): for a shorthand
    such as ``padding: 0 1em``, its left and right value."""
    block = re.search(rf"(?m)^{re.escape(selector)} \{{([^}}]*)\}}", css)
    assert block, selector
    value = re.search(rf"(?<![-\w]){prop}: *([^;]+);", block.group(1))
    assert value, (selector, prop)
    tokens = value.group(1).split()
    found = re.fullmatch(r"([\d.]+)(px|em)?", tokens[1] if len(tokens) > 1 else tokens[0])
    assert found, value.group(1)
    return float(found.group(1)) * (16 if found.group(2) == "em" else 1)


def rendered_nodes(html: str, viewport: int = VIEWPORT) -> list[tuple[int, float, float, float]]:
    """(level, left, right, scale) of each node of the value map, in page pixels, as a
    browser lays the report out in a ``viewport`` px wide window: the body's column
    (max-width, centred, padded), the figure's border and padding, and the SVG at its own
    size, or scaled down to the figure when the stylesheet lets it (``max-width: 100%``)."""
    css = html[html.index("<style>") : html.index("</style>")]
    body_pad = _px(css, "body", "padding")
    column = min(_px(css, "body", "max-width"), viewport - 2 * body_pad)
    inset = 1 + _px(css, ".figure", "padding")  # 1 px border, then the padding
    left = (viewport - column - 2 * body_pad) / 2 + body_pad + inset
    room = column - 2 * inset
    hvm = next(s for s in _svgs(html) if s.get("aria-label", "").startswith("Hierarchical"))
    width = float(hvm.get("width", 0))
    shrinks = re.search(r"\.figure svg \{[^}]*max-width: 100%", css) is not None
    scale = min(1.0, room / width) if shrinks else 1.0
    out = []
    for g in hvm.iter(f"{SVG}g"):
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        x, w = float(rect.get("x", 0)), float(rect.get("width", 0))
        out.append((int(g.get("data-level", 0)), left + x * scale, left + (x + w) * scale, scale))
    return out


def test_every_value_node_is_inside_a_1280_px_window_at_full_size(sheet: Path) -> None:
    # Cut-off 1: each of the 69 codes the ladders use on the map, 20 on one level. The map was
    # 3,900 px wide and no value node lay inside the first 1280 px.
    html = report("--ladders", str(sheet), "--cutoff", "1", "-f", "html")
    nodes = rendered_nodes(html)
    assert len(nodes) == 69
    values = [n for n in nodes if n[0] in VALUE_LEVELS]
    assert len(values) >= 15
    for level, left, right, scale in nodes:
        assert 0 <= left and right <= VIEWPORT, (level, left, right)
        assert scale >= 0.9  # shown at (nearly) full size: 11 px labels stay readable


def test_a_wide_level_wraps_into_rows_within_its_band() -> None:
    nodes = [DrawNode(f"a{i}", f"attribute number {i} of many", 1) for i in range(30)]
    nodes += [DrawNode(f"c{i}", f"consequence {i}", 2) for i in range(12)]
    nodes += [DrawNode("v", "a value", 3)]
    edges = [DrawEdge(f"a{i}", f"c{i % 12}") for i in range(30)]
    edges += [DrawEdge(f"c{i}", "v") for i in range(12)]
    root = ET.fromstring(to_svg(Drawing("wide", tuple(nodes), tuple(edges))))
    assert float(root.get("width", 0)) <= MAX_WIDTH
    boxes: dict[str, tuple[int, float, float, float, float]] = {}
    for g in root.iter(f"{SVG}g"):
        r = g.find(f"{SVG}rect")
        assert r is not None
        x, y, w, h = (float(r.get(k, 0)) for k in ("x", "y", "width", "height"))
        boxes[g.get("data-id", "")] = (int(g.get("data-level", 0)), x, y, x + w, y + h)
    assert len(boxes) == 43
    for level, left, top, right, _ in boxes.values():
        assert 0 <= left and right <= MAX_WIDTH
        for other, *_, bottom in boxes.values():
            if other > level:  # a higher level lies wholly above
                assert bottom < top
    items = list(boxes.values())
    for i, (_, x1, y1, x2, y2) in enumerate(items):  # no two boxes overlap
        for _, a1, b1, a2, b2 in items[i + 1 :]:
            assert x2 <= a1 or a2 <= x1 or y2 <= b1 or b2 <= y1
    rows = {round(b[2]) for b in boxes.values() if b[0] == 1}
    assert len(rows) >= 3  # the 30 attributes wrapped


def _geometry_script() -> str:
    return (
        "<script>const svg=[...document.querySelectorAll('svg')].find(s=>"
        "(s.getAttribute('aria-label')||'').startsWith('Hierarchical'));"
        "const out={viewport:document.documentElement.clientWidth,nodes:[...svg.querySelectorAll"
        "('g.node')].map(g=>{const r=g.querySelector('rect').getBoundingClientRect();"
        "return [Number(g.dataset.level),r.left,r.right,r.width];})};"
        "const pre=document.createElement('pre');pre.id='geometry';"
        "pre.textContent=JSON.stringify(out);document.body.appendChild(pre);</script>"
    )


def _browser_geometry(page: Path, shot: Path) -> dict[str, Any]:
    """The value map's node boxes as a headless browser lays them out at 1280 px, and a
    screenshot; skipped when no browser is installed (none is needed by the suite)."""
    url = page.resolve().as_uri()
    try:
        from playwright.sync_api import sync_playwright  # type: ignore[import-not-found]
    except ImportError:
        sync_playwright = None
    if sync_playwright is not None:
        with sync_playwright() as p:
            try:
                browser = p.chromium.launch()
            except Exception as exc:  # playwright without its browser build
                pytest.skip(f"playwright has no chromium: {exc}")
            view = browser.new_page(viewport={"width": VIEWPORT, "height": 900})
            view.goto(url)
            view.screenshot(path=str(shot), full_page=True)
            text = view.locator("#geometry").text_content() or "{}"
            browser.close()
            return json.loads(text)
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    binary = next((b for b in map(shutil.which, names) if b), None)
    if binary is None:
        pytest.skip("no headless browser (playwright or chromium) installed")
    flags = [binary, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={VIEWPORT},900"]
    subprocess.run([*flags, f"--screenshot={shot}", url], capture_output=True, timeout=120)
    dom = subprocess.run([*flags, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="geometry">(.*?)</pre>', dom.stdout, re.S)
    assert found, dom.stderr[-500:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_value_map_in_a_headless_browser_at_1280_px(sheet: Path, tmp_path: Path) -> None:
    html = report("--ladders", str(sheet), "--cutoff", "1", "-f", "html")
    page = tmp_path / "report.html"
    page.write_text(html.replace("</body>", _geometry_script() + "</body>"), encoding="utf-8")
    geometry = _browser_geometry(page, tmp_path / "report.png")
    assert geometry["viewport"] <= VIEWPORT
    values = [n for n in geometry["nodes"] if n[0] in VALUE_LEVELS]
    assert len(values) >= 15
    for level, left, right, width in geometry["nodes"]:
        assert 0 <= left and right <= geometry["viewport"], (level, left, right)
        assert width >= 40  # drawn at full size, not shrunk to fit
    assert (tmp_path / "report.png").exists()


# --------------------------------------------------------------------------------------------
# The implication matrix
# --------------------------------------------------------------------------------------------


def test_codes_at_cutoff_keeps_rows_and_columns_with_a_kept_cell() -> None:
    matrix = ladder_matrix([[["A1", "C1", "V"], ["A2", "C2"]], [["A1", "C1", "V"]]])
    rows, cols = codes_at_cutoff(matrix, 2)
    assert rows == ["A1", "C1"] and cols == ["C1", "V"]  # A2 -> C2 (1) is below it
    assert codes_at_cutoff(matrix, 1) == (["A1", "C1", "A2"], ["C1", "V", "C2"])


def _expected_window(sheet: Path) -> tuple[set[str], set[str], int, int]:
    section = json.loads(report("--ladders", str(sheet), "--json"))["methodologies"][0]
    cutoff = section["hvm"]["cutoff"]
    cells = section["implication_matrix"]["cells"]
    kept = [c for c in cells if c["direct"] + c["indirect"] >= cutoff]
    rows, cols = {c["source"] for c in kept}, {c["target"] for c in kept}
    every = {c["source"] for c in cells} | {c["target"] for c in cells}
    return rows, cols, len(every), cutoff


def test_matrix_shows_the_codes_at_the_cutoff_in_every_format(sheet: Path) -> None:
    rows, cols, codes, cutoff = _expected_window(sheet)
    hidden = codes - len(rows | cols)
    assert codes >= 60 and hidden >= 30  # a large matrix, mostly below the cut-off
    note = f"Showing {codes - hidden} of {codes} codes: {hidden} with no relation at or above"

    md = report("--ladders", str(sheet), "-f", "md")
    header = next(line for line in md.splitlines() if line.startswith("| from"))
    assert set(header.strip("| ").split(" | ")[1:]) == cols
    body = md[md.index(header) :].split("\n\n")[0].splitlines()[2:]
    assert {line.split()[1] for line in body} == rows
    assert note in md and f"cut-off ({cutoff}) are hidden; --full-matrix shows them" in md

    html = report("--ladders", str(sheet), "-f", "html")
    matrix = html[html.index('<table class="matrix">') :]
    matrix = matrix[: matrix.index("</table>")]
    assert set(re.findall(r'<th title="[^"]*">(\w+)</th>', matrix)) == cols
    assert note in html

    terminal = " ".join(report("--ladders", str(sheet)).split())
    assert note in terminal


def test_full_matrix_shows_every_code_on_demand(sheet: Path) -> None:
    _, _, codes, _ = _expected_window(sheet)
    md = report("--ladders", str(sheet), "-f", "md", "--full-matrix")
    header = next(line for line in md.splitlines() if line.startswith("| from"))
    body = md[md.index(header) :].split("\n\n")[0].splitlines()[2:]
    shown = set(header.strip("| ").split(" | ")[1:]) | {line.split()[1] for line in body}
    assert len(shown) == codes and "Showing" not in md
    html = report("--ladders", str(sheet), "-f", "html", "--full-matrix")
    assert "Showing" not in html
    terminal = report("--ladders", str(sheet), "--full-matrix")
    flat = " ".join(terminal.split())
    assert f"all {codes} codes; columns in" in flat and "cut to fit" not in flat
    columns = set(re.findall(r"columns (c\d+) to (c\d+)", flat))
    assert columns and "Showing" not in flat


def test_terminal_window_weighs_the_relations_at_the_cutoff() -> None:
    # A1 has many links of one each, A2 a single strong one: at cut-off 3, A2 is the pick.
    ladders = [[["A1", f"C{i}"]] for i in range(5)] + [[["A2", "C9"]]] * 3
    matrix = ladder_matrix(ladders)
    assert most_linked_codes(matrix, 1) == ["A1"]
    assert most_linked_codes(matrix, 2, min_total=3) == ["A2", "C9"]
