"""Offline recognition of replies that are not answers (``llm/offline/reading/nonanswers.py``)
reads the model's own examples the same way. The replies and their kinds are phrase cases
kept as data (``tests/llm/data/readings/answer_kinds.yaml``, ``test_reading_cases.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

from interview_cli.llm.offline.reading.nonanswers import answer_kind

PROMPTS = Path(__file__).resolve().parents[3] / "interview_cli" / "llm" / "prompts"


def test_the_assessment_prompt_s_examples_read_the_same_offline() -> None:
    """Each quoted example of an answer kind in the model's assessment prompt is read as that
    kind by the offline path, so both providers take the same reply the same way."""
    prompt = (PROMPTS / "signals.md").read_text("utf-8")
    section = prompt.split("\nanswer_kind:")[1].split("\n\n")[0]
    checked = 0
    for line in section.splitlines()[1:]:
        kind = line.split("=")[0].strip()
        for example in re.findall(r'"([^"]+)"', line):
            if example == "again":
                continue  # a bare "again" names nothing offline: a don't-know, still no answer
            reply = example if example.endswith((".", "?", "!")) else example + "."
            assert answer_kind(reply) == kind, (kind, example)
            checked += 1
    assert checked >= 20  # the section was found and read
