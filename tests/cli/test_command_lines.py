"""Which typed lines are commands and which are answers: one rule (``run_commands.is_command``)
for the terminal loop and for an answer kept at an interruption."""

from __future__ import annotations

import pytest

from interview_cli.cli.run_commands import is_command


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("/quit", True),
        ("/why", True),
        ("/why full", True),  # a view with its argument: before, kept as an answer at Ctrl-C
        ("  /Why   FULL ", True),
        ("/pass", True),
        ("/ask What else matters?", True),
        ("/note keen on audio", True),
        ("The sound, it helps me focus", False),
        ("/ not a command, just a slash and words", False),
        ("", False),
    ],
)
def test_commands_and_answers(line: str, command: bool) -> None:
    assert is_command(line) is command
