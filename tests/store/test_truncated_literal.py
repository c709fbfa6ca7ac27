"""A session file cut off inside a literal (``"value": f``) reads as truncated, like one cut
between tokens: the hint tells the user what happened to the file."""

from __future__ import annotations

import pytest

from interview_cli.errors import SessionFileError
from interview_cli.store import parse_session

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
