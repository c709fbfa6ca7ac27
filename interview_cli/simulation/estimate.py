"""`interview batch --dry-run`: how many model calls, tokens and dollars a batch would take.

Per interview (``llm.pricing.calls_per_session``, the pipeline's shape, ARCHITECTURE "The
turn"): one opening question, then per turn one extraction, one assessment and one question,
a simulated answer to every question (the closing one included), and with canonical slots on
one ``propose_slots`` batch per turn (a turn's new concepts of one node type; the offline runs
measured about 0.2-0.3 per turn, so this is generous). Turns are counted
at ``--max-turns`` (an interview that stops early costs less, so this is an upper bound), token
counts are the pricing table's ``typical_tokens`` per task and prices come from
``llm.pricing`` (``INTERVIEW_PRICING`` overrides). Retries are not included. Interviews already
finished in the output directory are not counted: re-running skips them.
"""

from __future__ import annotations

from typing import Any

from interview_cli.llm.pricing import PricingTable, TokenShape, estimate_cost, load_pricing
from interview_cli.llm.settings import LLMSettings

# propose_slots calls per turn when canonical slots are on: the pipeline makes at most one.
SLOT_CALLS_PER_TURN = 1


def estimate_batch(
    settings: LLMSettings,
    *,
    to_run: int,
    skipped: int,
    max_turns: int,
    canonical_slots: bool = True,
    table: PricingTable | None = None,
) -> dict[str, Any]:
    """The dry-run record (what ``--json`` prints and the table shows)."""
    pricing = table or load_pricing()
    slot_rate = SLOT_CALLS_PER_TURN if canonical_slots else 0
    # One table of calls per interview (``pricing.calls_per_session``) for calls and costs.
    cost = estimate_cost(
        settings, turns=max_turns, sessions=to_run, slot_calls_per_turn=slot_rate, table=pricing
    )
    tasks: list[dict[str, Any]] = []
    for task, count in cost.calls_per_session.items():
        client = settings.for_task(task)
        shape = pricing.typical_tokens.get(task, TokenShape(input=0, output=0))
        calls = count * to_run
        tasks.append(
            {
                "task": task,
                "client": client.label,
                "calls": calls,
                "input_tokens": calls * shape.input,
                "output_tokens": calls * shape.output,
                "cost_usd": cost.per_task_usd[task],
            }
        )
    total: dict[str, Any] = {
        key: sum(t[key] for t in tasks) for key in ("calls", "input_tokens", "output_tokens")
    }
    total["cost_usd"] = round(sum(t["cost_usd"] for t in tasks), 6)
    return {
        "to_run": to_run,
        "skipped": skipped,
        "max_turns": max_turns,
        "tasks": tasks,
        "total": total,
        "unpriced": cost.unpriced,
    }
