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

Two figures, with their assumptions in the record (``assumptions``) and under the table:

- **low**: every call at the typical tokens of its task;
- **high**: every call writes its client's whole ``max_tokens`` (a reasoning model may spend
  all of it thinking, and the limit is the most a call can be billed for) and reads
  ``HIGH_INPUT_FACTOR`` times the typical prompt (prompts grow with the graph; a corrective
  retry sends the prompt again).

A model without a price has no cost figure (None, shown as unknown), never $0.
"""

from __future__ import annotations

import math
from typing import Any

from interview_cli.llm.client_settings import LLMSettings
from interview_cli.llm.pricing import (
    PricingTable,
    TokenShape,
    call_cost,
    estimate_cost,
    load_pricing,
)

# propose_slots calls per turn when canonical slots are on: the pipeline makes at most one.
SLOT_CALLS_PER_TURN = 1
# The high estimate's prompts, against the typical ones.
HIGH_INPUT_FACTOR = 1.5


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
        high_in = math.ceil(calls * shape.input * HIGH_INPUT_FACTOR)
        high_out = calls * client.max_tokens
        # None: the model has no price, so the cost is unknown (not free)
        high = call_cost(client.provider, client.model, high_in, high_out, table=pricing)

        tasks.append(
            {
                "task": task,
                "client": client.label,
                "calls": calls,
                "input_tokens": calls * shape.input,
                "output_tokens": calls * shape.output,
                # the low estimate (None: the model has no price, so the cost is unknown)
                "cost_usd": None if high is None else cost.per_task_usd[task],
                "input_tokens_high": high_in,
                "output_tokens_high": high_out,
                "cost_high_usd": None if high is None else round(high, 6),
            }
        )
    total: dict[str, Any] = {
        key: sum(t[key] for t in tasks)
        for key in (
            "calls",
            "input_tokens",
            "output_tokens",
            "input_tokens_high",
            "output_tokens_high",
        )
    }
    known = all(t["cost_usd"] is not None for t in tasks)
    total["cost_usd"] = round(sum(t["cost_usd"] for t in tasks), 6) if known else None
    total["cost_high_usd"] = round(sum(t["cost_high_usd"] for t in tasks), 6) if known else None
    return {
        "to_run": to_run,
        "skipped": skipped,
        "max_turns": max_turns,
        "tasks": tasks,
        "total": total,
        "unpriced": cost.unpriced,
        "assumptions": assumptions(),
    }


def assumptions() -> list[str]:
    """What the low and high figures assume, in words (printed with the estimate)."""
    return [
        "every interview runs to --max-turns (one that ends earlier costs less); "
        "retries are not counted",
        "low: each call at the typical tokens of its task, measured on the shipped prompts",
        f"high: prompts {HIGH_INPUT_FACTOR:g}x typical (they grow with the graph) and every "
        "call writing its client's whole max_tokens: reasoning models can use far more "
        "output tokens than typical, up to that limit",
    ]
