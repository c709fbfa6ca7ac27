"""Coding sheets: ladders coded by hand, read, checked and counted like interviews."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.analysis.report.build import ReportOptions, build_report
from interview_cli.analysis.report.ladder_sheet import parse_ladder_sheet, read_ladder_sheet
from interview_cli.analysis.report.to_json import report_to_dict
from interview_cli.config.library import Library
from interview_cli.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "ladders" / "headphones_sample.csv"

# The seven ladders of test_ladder_counting, in words (A1 price, A2 battery, A3 fit; C1 focus,
# C2 relax; V1 freedom, V2 calm): R1's two ladders share "focus".
HAND = """respondent,ladder,position,code,level
R1,1,1,price,A
R1,1,2,focus,C
R1,1,3,freedom,V
R1,2,1,battery,A
R1,2,2,focus,C
R1,2,3,calm,V
R2,1,1,price,A
R2,1,2,focus,C
R2,1,3,freedom,V
R2,2,1,price,A
R2,2,2,relax,C
R2,2,3,freedom,V
R2,3,1,fit,A
R2,3,2,relax,C
R3,1,1,battery,A
R3,1,2,focus,C
R3,1,3,freedom,V
R3,2,1,price,A
R3,2,2,focus,C
R3,2,3,freedom,V
"""


@pytest.fixture(scope="module")
def mec():
    return Library.discover().methodology("means_end_chain").value


def _named_cells(report) -> dict[tuple[str, str], tuple[int, int]]:
    section = report.sections[0]
    name = section.code_name
    return {
        (name(c.source), name(c.target)): (c.direct, c.indirect)
        for c in section.ladder.matrix.cells()
    }


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            "ladder",
            {
                ("price", "focus"): (3, 0),
                ("price", "relax"): (1, 0),
                ("price", "freedom"): (0, 4),
                ("battery", "focus"): (2, 0),
                ("battery", "freedom"): (0, 1),
                ("battery", "calm"): (0, 1),
                ("fit", "relax"): (1, 0),
                ("focus", "freedom"): (4, 0),
                ("focus", "calm"): (1, 0),
                ("relax", "freedom"): (1, 0),
            },
        ),
        (
            "respondent",
            {
                ("price", "focus"): (3, 0),
                ("price", "relax"): (1, 0),
                ("price", "freedom"): (0, 3),
                ("battery", "focus"): (2, 0),
                ("battery", "freedom"): (0, 1),
                ("battery", "calm"): (0, 1),
                ("fit", "relax"): (1, 0),
                ("focus", "freedom"): (3, 0),
                ("focus", "calm"): (1, 0),
                ("relax", "freedom"): (1, 0),
            },
        ),
    ],
)
def test_a_sheet_counts_like_the_hand_computed_example(mec, rule: str, expected) -> None:
    sheet = parse_ladder_sheet(HAND, source="hand.csv", methodology=mec)
    assert sheet.ladder_count == 7 and list(sheet.respondents) == ["R1", "R2", "R3"]
    report = build_report([], ReportOptions(counting=rule), sheets=[sheet], sheet_methodology=mec)
    assert _named_cells(report) == expected
    data = report_to_dict(report)
    section = data["methodologies"][0]
    assert section["implication_matrix"]["counting"] == rule
    assert section["implication_matrix"]["ladders"] == 7
    assert section["coding_sheets"] == ["hand.csv: 3 respondents, 7 ladders"]
    assert data["sessions"] == [] and data["options"]["counting"] == rule


def test_the_sample_sheet_in_the_library_reads(mec) -> None:
    sheet = read_ladder_sheet(SAMPLE, mec)
    assert (len(sheet.respondents), sheet.ladder_count) == (3, 7)
    types = {r.node_type for lads in sheet.respondents.values() for lad in lads for r in lad}
    assert {"attribute", "functional_consequence", "terminal_value"} <= types


def test_columns_in_any_order_semicolons_a_bom_and_rows_out_of_order(mec) -> None:
    text = "\ufeffLevel;Code;Position;Ladder;Respondent;note\nV;freedom;2;1;R1;x\nA;price;1;1;R1;\n"
    sheet = parse_ladder_sheet(text, source="s.csv", methodology=mec)
    ladder = sheet.respondents["R1"][0]
    assert [r.code for r in ladder] == ["price", "freedom"]
    assert [r.row for r in ladder] == [3, 2]


def test_letters_compare_by_class_so_two_consequences_may_follow(mec) -> None:
    text = (
        "respondent,ladder,position,code,level\n"
        "R,1,1,a,attribute\nR,1,2,b,psychosocial_consequence\nR,1,3,c,C\nR,1,4,d,value\n"
    )
    ladder = parse_ladder_sheet(text, source="s.csv", methodology=mec).respondents["R"][0]
    assert [r.node_type for r in ladder] == [
        "attribute",
        "psychosocial_consequence",
        "functional_consequence",
        "instrumental_value",
    ]


HEAD = "respondent,ladder,position,code,level\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            HEAD + "R1,1,1,price,A\nR1,1,3,freedom,V\n",
            "row 3, column position: ladder '1' of respondent 'R1' jumps from position 1 to 3",
        ),
        (
            HEAD + "R1,1,1,price,A\nR1,1,1,cost,A\n",
            "row 3, column position: ladder '1' of respondent 'R1' has position 1 twice",
        ),
        (
            HEAD + "R1,1,1,freedom,V\nR1,1,2,price,A\n",
            "row 3, column level: ladder '1' of "
            "respondent 'R1' goes down from instrumental_value (position 1) to attribute",
        ),
        (
            HEAD + "R1,1,1,freedom,terminal_value\nR1,1,2,focus,functional_consequence\n",
            "row 3, column level: ladder '1' of respondent 'R1' goes down",
        ),
        (HEAD + "R1,1,1,price,A\nR1,1,2,focus,X\n", "row 3, column level: unknown level 'X'"),
        (HEAD + "R1,1,1,,A\n", "row 2, column code: empty"),
        (HEAD + "R1,1,1,--,A\n", "row 2, column code: '--' has no letter or digit"),
        (HEAD + "R1,1,first,price,A\n", "row 2, column position: 'first' is not a rung number"),
        (HEAD + "R1,1,0,price,A\n", "row 2, column position: '0' is not a rung number"),
        ("respondent,ladder,code,level\nR1,1,price,A\n", "row 1: missing column(s) position"),
        (HEAD, "no rungs below the header"),
        (HEAD + 'R1,1,1,"ab\x00c",A\n', "row 2, column code: not a short one-line value"),
        (HEAD + "R1,1,1," + "x" * 300 + ",A\n", "row 2, column code: not a short one-line"),
        (HEAD + 'R1,1,1,"' + "x" * 200_000 + '",A\n', "row 2: not readable as CSV"),
        ('respondent,ladder,position,code,"' + "l" * 200_000 + '"\n', "row 1: not readable as CSV"),
        ("", "row 1: missing column(s) respondent, ladder, position, code, level"),
    ],
)
def test_every_problem_is_one_line_naming_row_and_column(mec, text: str, expected: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_ladder_sheet(text, source="coded.csv", methodology=mec)
    message = str(info.value)
    assert message.startswith("coded.csv: ") and expected in message, message
    assert "\n" not in message and info.value.exit_code == 2


def test_an_unknown_level_lists_the_levels_to_use(mec) -> None:
    with pytest.raises(UsageError) as info:
        parse_ladder_sheet(HEAD + "R1,1,1,price,Q\n", source="c.csv", methodology=mec)
    assert "attribute" in str(info.value) and "A, C, V" in str(info.value)
