"""What a new user's first run met: a file given as the sessions folder, the count of files
with errors when the files named do not exist, and a prompt left without its newline."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from interview_cli.cli.replay import page_turns
from interview_cli.session.read import read_session_file
from tests.cli_run import cli


def test_a_file_as_the_sessions_folder_is_an_error_not_no_sessions(tmp_path: Path) -> None:
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    result = cli("sessions", "--sessions-dir", str(passwd))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith(f"error: {passwd}: is a file, not a folder of sessions")
    assert "No sessions" not in result.stdout


def test_missing_files_count_as_files_with_errors(tmp_path: Path) -> None:
    result = cli("validate", str(tmp_path / "one.yaml"), str(tmp_path / "two.yaml"))
    assert result.exit_code == 2
    assert "2 problems; checked 0 methodologies, 0 concepts, 0 personas; 2 files with errors" in (
        result.stderr
    ), result.stderr


def test_leaving_the_replay_pager_ends_its_line(tmp_path: Path) -> None:
    text = "I love the noise cancelling because it lets me focus\nThe battery lasts all day\n"
    run = cli(
        "run",
        "-c",
        "headphones_mec",
        "-p",
        "offline",
        "--sessions-dir",
        str(tmp_path),
        stdin=text + "/quit\n",
    )
    assert run.exit_code == 0, run.output
    (path,) = tmp_path.glob("*.json")
    turns = read_session_file(path).turns
    for leave in (EOFError, KeyboardInterrupt):
        screen = io.StringIO()
        console = Console(file=screen, width=100, force_terminal=False)

        def read(
            prompt: str, leave: type[BaseException] = leave, console: Console = console
        ) -> str:
            console.print(prompt, end="")  # what console.input shows before it reads
            raise leave

        page_turns(console, turns, read)
        assert screen.getvalue().endswith("\n"), repr(screen.getvalue()[-80:])
