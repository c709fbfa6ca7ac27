"""The README: it opens with a contents list of its sections; its two set-up commands (the
first installs quietly: the first question, not screens of pip output; the second is exactly
what CI runs); it says how long the suite takes and with which command that was measured; its
links to docs/ lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)


def test_the_first_command_installs_quietly_then_interviews() -> None:
    first = _commands()[0]
    assert "pip install -q ." in first and "interview run" in first


def test_ci_runs_the_readmes_test_command() -> None:
    readme_test = _commands()[1].split("&&")[-1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == readme_test


def test_the_readme_says_how_long_the_suite_takes() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text[text.index("## Set up") : text.index("## A short tour")]
    assert re.search(r"\d+ (seconds|minutes?)", setup)


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_readme_opens_with_a_contents_list_of_its_sections() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    before = text[: text.index("## ")]
    contents = before[before.index("**Contents**") :]
    entries = re.findall(r"^- \[(.+?)\]\(#(.+?)\)$", contents, flags=re.M)
    assert [title for title, _ in entries] == headings
    assert [anchor for _, anchor in entries] == [_slug(h) for h in headings]


def test_the_figures_say_how_they_were_measured() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text[text.index("## Set up") : text.index("## Offline or a model")]
    assert "`time pytest" in setup  # the command behind the suite's figures
    assert re.search(r"\d[\d,]*\s+tests", setup)


def test_links_to_docs_lead_to_files() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[^)#]+)\)", text))
    assert linked, "the README links its longer pages"
    for path in linked:
        assert (ROOT / path).is_file(), path


def test_the_sample_screen_is_what_the_tool_prints(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from interview_cli.cli.app import app

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("```text\n", text.index("What an interview looks like")) + len("```text\n")
    sample = text[start : text.index("\n```", start)]
    typed = [
        "I love the noise cancelling because it lets me focus on the train",
        "Focusing on the train means I can get my work done, which makes me feel in control",
        "/why",
        "/quit",
    ]
    # The default sessions folder, as the README's reader has it: the resume command printed
    # then needs no --sessions-dir.
    result = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec"],
        input="".join(f"{line}\n" for line in typed),
        env={"COLUMNS": "80", "INTERVIEW_SESSIONS_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    shown = "\n".join(line.rstrip() for line in result.stdout.splitlines())
    session_id = re.compile(r"headphones_mec-\d{8}-\d{6}-[0-9a-f]{4}")
    assert session_id.sub("ID", shown) == session_id.sub("ID", sample)
