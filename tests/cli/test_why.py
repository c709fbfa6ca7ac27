"""`/why` in plain words: the reasons that decided the move, the runner-up, the close call,
on a 40-line screen; `/why full` keeps every candidate's score arithmetic."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.core.decide.moderation import TieBreak
from interview_cli.session.schema import (
    AnswerRecord,
    ContinuationRecord,
    DecisionRecord,
    QuestionRecord,
    TurnRecord,
)
from interview_cli.ui.interview import why_view

ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
]


def _interview(sessions: Path, lines: list[str]) -> str:
    result = CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), "-c", "headphones_mec", "-p", "offline"],
        input="".join(line + "\n" for line in lines),
        env={"COLUMNS": "120"},
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def _section(out: str, start: str, end: str) -> str:
    return out[out.index(start) : out.index(end, out.index(start))]


def test_why_names_the_reasons_in_plain_words_and_fits_a_screen(tmp_path: Path) -> None:
    out = _interview(tmp_path, [ANSWERS[0], ANSWERS[1], "/why", "/why full", "/quit"])
    short = _section(out, "Chosen:", "/why full:")
    assert "Because:" in short and "Runner-up:" in short and " behind" in short
    # No internal signal names, and not the contradictory catalogue line.
    assert "graph.node" not in short and "has_outgoing" not in short
    assert "at least one outgoing edge" not in short
    assert len(short.splitlines()) <= 12
    full = out[out.index("/why full:") :]
    assert "Top candidates" in full and "base" in full  # the arithmetic is one command away


def _turn(rationale: list[str]) -> TurnRecord:
    def cand(strategy: str, label: str, score: float, rank: int, **kw: object) -> dict:
        return {
            "strategy": strategy,
            "node_id": label[:2],
            "node_label": label,
            "signal_contributions": kw.pop("contributions", []),
            "base_score": score,
            "phase_multiplier": 1.0,
            "phase_bonus": 0.0,
            "final_score": score,
            "rank": rank,
            "selected": rank == 1,
            "vetoed_by": None,
            "stage": "joint",
            **kw,
        }

    frontier = {"key": "graph.node.has_outgoing.false", "value": False, "contribution": 1.0}
    recent = {"key": "graph.node.recency_score.high", "value": 1.0, "contribution": 0.5}
    penalty = {"key": "technique.node.probe_history.fruitless", "contribution": -0.9}
    return TurnRecord(
        turn_number=4,
        status="complete",
        question=QuestionRecord(text="Why does that matter?"),
        answer=AnswerRecord(utterance_id="u4", text="it just does"),
        candidates=[
            cand("deepen", "battery life", 2.0, 1, contributions=[frontier, recent]),
            cand("deepen", "sound quality", 1.9, 2, contributions=[frontier, penalty]),
            cand("deepen", "comfort", 1.8, 3, contributions=[frontier]),
            cand("clarify", "price", 2.6, 0, vetoed_by="fruitless_probe"),
        ],
        decision=DecisionRecord(
            strategy="deepen",
            node_id="ba",
            label="battery life",
            phase="mid",
            rationale=rationale,
            veto_reasons={"clarify@pr": "asked twice about 'price' without anything new"},
        ),
        continuation=ContinuationRecord(should_continue=True),
    )


def test_a_close_call_shows_how_it_was_settled_at_80_columns() -> None:
    tie = TieBreak("battery life", ("sound quality", "comfort"), 0.3, "more depth left to gain")
    turn = _turn(["deepen on 'battery life' scored 2.00", tie.describe()])
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(why_view(turn))
    shown = console.export_text()
    flat = " ".join(shown.split())
    assert "Close call: “battery life” and 2 others" in flat
    assert "more depth left to gain" in flat
    assert "the last question on it brought nothing new" in flat
    assert "Set aside: clarify on “price” would have scored more" in flat
    assert "asked twice about 'price'" in flat
    assert len(shown.splitlines()) <= 40


def test_why_full_never_quotes_a_description_against_its_qualifier(tmp_path: Path) -> None:
    # The catalogue describes a signal ("has at least one outgoing edge"); beside the
    # qualifier that fired (.false) that read as its opposite.
    out = _interview(tmp_path, [ANSWERS[0], ANSWERS[1], "/why full", "/quit"])
    full = out[out.index("Chosen:") :]
    assert "Top candidates" in full and "Because:" in full
    assert "at least one outgoing edge" not in full


def _why_after(out: str, command: str) -> str:
    """The /why shown after ``command``'s line: up to its footer."""
    start = out.index("you › /why", out.index(f"you › {command}"))
    return " ".join(out[start : out.index("/why full:", start)].split())


def test_why_after_alt_says_the_moderator_chose_and_what_the_tool_had(tmp_path: Path) -> None:
    out = _interview(tmp_path, [ANSWERS[0], "/alt", "/why", "/quit"])
    shown = _why_after(out, "/alt")
    assert "Chosen by the moderator (/alt): explore" in shown
    assert "the tool's next-best move (score 1.31, 1.03 behind its choice)" in shown
    assert "The tool had chosen: deepen on “focus on the train” score 2.34" in shown
    # Not the overruled decision's head, nor its runner-up presented as the alternative.
    assert "Chosen: " not in shown and "Runner-up" not in shown


def test_why_after_skip_and_ask_names_the_moderators_part(tmp_path: Path) -> None:
    out = _interview(tmp_path, [ANSWERS[0], "/skip", "/why", "/quit"])
    shown = _why_after(out, "/skip")
    assert "The moderator closed “focus on the train” (/skip); the tool then chose" in shown
    assert "The tool had chosen: deepen on “focus on the train”" in shown
    out = _interview(tmp_path / "ask", [ANSWERS[0], "/ask What else do you notice?", "/why"])
    shown = _why_after(out, "/ask")
    assert "Asked by the moderator (/ask)" in shown
    assert "The tool's move, kept: deepen on “focus on the train”" in shown


def test_why_on_the_last_turn_says_why_the_closing_waits(tmp_path: Path) -> None:
    # With one turn left, the closing question (the top score) is put off for one more
    # question: the rule that did it is recorded and must be the explanation.
    result = CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(tmp_path), "-c", "headphones_mec", "--max-turns", "3"],
        input="".join(line + "\n" for line in [ANSWERS[0], ANSWERS[1], "/why", "/quit"]),
        env={"COLUMNS": "120"},
        catch_exceptions=False,
    )
    shown = _why_after(result.stdout, ANSWERS[1])
    assert "Chosen: deepen on “feel in control”" in shown
    assert "Passed over: reflect at 3.36 (1.60 more), set aside by the rule below" in shown
    assert "Not closing yet: one turn is left" in shown
    assert "-1.60 behind" not in shown and "Runner-up: reflect" not in shown
