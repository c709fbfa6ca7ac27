"""A session file cut off inside a literal (``"value": f``) reads as truncated, like one cut
between tokens: the hint tells the user what happened to the file."""

from __future__ import annotations

import pytest

from interview_cli.errors import SessionFileError
from interview_cli.session.read import parse_session

WHOLE = '{"id": "s1", "turns": [], "flag": false, "other": null, "ok": true}'


@pytest.mark.parametrize("cut", ['"flag": f', '"flag": fal', '"other": n', '"ok": tr', '"ok": '])
def test_a_file_cut_inside_a_literal_looks_truncated(cut: str) -> None:
    text = WHOLE[: WHOLE.index(cut) + len(cut)]
    with pytest.raises(SessionFileError, match="looks truncated"):
        parse_session(text, source="s1.json")


def test_a_wrong_literal_mid_file_is_not_called_truncated() -> None:
    with pytest.raises(SessionFileError) as raised:
        parse_session('{"id": "s1", "turns": [], "flag": fals, "x": 1}', source="s1.json")
    assert "truncated" not in str(raised.value)


def test_a_file_cut_anywhere_looks_truncated() -> None:
    # numbers (1.5e-3, -2), escapes (\u00e9, \"), literals and nesting: every cut is a cut
    import json

    doc = {
        "id": "s1",
        "turns": [{"score": 1.5e-3, "delta": -2, "text": 'caf\u00e9 "quoted"\n', "ok": True}],
        "x": None,
    }
    text = json.dumps(doc, indent=1)  # ensure_ascii: escapes such as \u00e9 stay in the text
    for end in range(1, len(text) - 1):
        with pytest.raises(SessionFileError, match="looks truncated"):
            parse_session(text[:end], source="s1.json")
