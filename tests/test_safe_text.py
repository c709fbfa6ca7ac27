"""safe_text: what may reach a terminal, an export or a prompt."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from interview_cli.safe_text import clean_strings, json_may_hold_controls, strip_controls


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_the_json_check_never_misses_what_cleaning_would_change(text: str) -> None:
    for ascii_only in (False, True):
        encoded = json.dumps({"answer": text}, ensure_ascii=ascii_only)
        if strip_controls(text) != text:
            assert json_may_hold_controls(encoded), repr(text)


def test_plain_session_text_is_not_walked() -> None:
    doc = {"answer": "Café ☕ 你好 — naïve\nsecond line\ttab", "n": [1, 2.5, None, True]}
    assert not json_may_hold_controls(json.dumps(doc, ensure_ascii=False, indent=1))


def test_clean_strings_cleans_keys_and_values_and_keeps_what_is_clean() -> None:
    doc = {"a\x1b[31m": ["x\x07y", {"k": "\u202eevil"}], "b": "fine", "c": 3}
    assert clean_strings(doc) == {"a": ["xy", {"k": "evil"}], "b": "fine", "c": 3}
    clean = {"a": ["x", {"k": "v"}], "n": 1.5}
    assert clean_strings(clean) is clean
