"""Focus choices a capable model's readings make visible (over the real SDK against the fake
server): after the opening answer, the first follow-up goes to what the respondent led with,
not to the aside after it; and the screen that explains a decision says what a signal's value
means, never the catalogue's sentence about the other value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from capable_model import capable_defaults, extraction, interview_on, node, remote_llm, run_closed
from fakeserver import FakeLLMServer, Step
from typer.testing import CliRunner

from interview_cli.cli.app import app


def test_the_first_follow_up_goes_to_what_the_respondent_led_with(
    fake_server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    capable_defaults(fake_server)
    fake_server.script_task(
        "extract",
        Step(
            tool_input=extraction(
                [
                    node("get warm on the ears", "attribute", "get warm on the ears", -1),
                    node("noise cancelling", "attribute", "the noise cancelling"),
                ]
            )
        ),
    )
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path)

    async def go() -> Any:
        await interview.ensure_question()
        return await interview.submit(
            "I love the noise cancelling on my commute, though they get warm on the ears"
        )

    result = run_closed(llm, go())
    assert result.next_question.focus_label == "noise cancelling"
    assert result.turn.decision.strategy == "deepen"
    # The extraction listed the aside first: the graph takes them as they were said.
    assert [n.label for n in result.turn.extraction.nodes] == [
        "noise cancelling",
        "get warm on the ears",
    ]


def test_the_replay_screen_says_what_a_signal_value_means(
    fake_server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    capable_defaults(fake_server)
    fake_server.script_task(
        "extract",
        Step(tool_input=extraction([node("noise cancelling", "attribute", "noise cancelling")])),
    )
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path)

    async def go() -> Any:
        await interview.ensure_question()
        return await interview.submit("The noise cancelling, mostly")

    result = run_closed(llm, go())
    recorded = result.turn.decision.rationale
    assert any("has_outgoing.false (value false): The node has at least" in x for x in recorded)
    shown = CliRunner().invoke(
        app, ["replay", interview.session.id, "--sessions-dir", str(tmp_path)], env=provider_env
    )
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "+1.00 nothing leads on from it yet: its 'why' is still open" in text
    assert "has at least one outgoing edge" not in text
