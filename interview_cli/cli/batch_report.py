"""What a finished `interview batch` prints: the summary per persona, the failures, the cap.

``summary_record`` is the ``--json`` document; ``report`` draws it as tables (or prints the
JSON), lists the failed interviews on stderr and exits 1 when any failed, or with the spend
cap's exit code when ``--max-cost`` stopped the batch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from interview_cli.cli.common import print_json, print_warning, stderr_console, stdout_console

if TYPE_CHECKING:
    from interview_cli.simulation.batch import BatchResult, BatchSpec


def question_cards(result: BatchResult) -> dict[str, Any]:
    """The question report card per persona and over all, from the interviews' session
    files (the failed and the unstarted aside)."""
    from interview_cli.analysis.report.question_card import card_legend, combine, question_card
    from interview_cli.analysis.sources import read_session
    from interview_cli.errors import SessionFileError

    by_persona: dict[str, list[Any]] = {}
    for outcome in result.outcomes:
        if outcome.status == "failed" or outcome.path is None:
            continue
        try:
            card = question_card(read_session(outcome.path))
        except SessionFileError:
            continue  # listed with the failures already, or moved away since
        by_persona.setdefault(outcome.persona_id, []).append(card)
    everything = [card for cards in by_persona.values() for card in cards]
    return {
        "personas": [
            {"name": pid, **combine(cards).to_dict(flagged=False)}
            for pid, cards in by_persona.items()
        ],
        "overall": {"name": "all", **combine(everything).to_dict(flagged=False)},
        "legend": card_legend(),
    }


def summary_record(spec: BatchSpec, result: BatchResult, budget: Any = None) -> dict[str, Any]:
    """What `--json` prints: every interview, the summary per persona and overall, and the
    question report card."""
    from interview_cli.simulation.evaluation import summarise

    by_persona: dict[str, list[dict[str, Any]]] = {}
    failed: dict[str, int] = {}
    for outcome in result.outcomes:
        if outcome.status == "failed":
            failed[outcome.persona_id] = failed.get(outcome.persona_id, 0) + 1
            by_persona.setdefault(outcome.persona_id, [])
        elif outcome.evaluation is not None:
            by_persona.setdefault(outcome.persona_id, []).append(outcome.evaluation)
    rows = [summarise(pid, evals, failed.get(pid, 0)) for pid, evals in by_persona.items()]
    everything = [e for evals in by_persona.values() for e in evals]
    overall = summarise("all", everything, sum(failed.values()))
    return {
        "out": str(spec.out),
        "concept": spec.concept.value.id,
        "methodology": spec.methodology.value.name,
        "policy": spec.policy,
        "seed": spec.seed,
        "max_turns": spec.max_turns,
        "interviews": [
            {
                "id": o.session_id,
                "persona": o.persona_id,
                "run": o.run,
                "status": o.status,
                "reason": o.reason or None,
                "resumed": o.resumed,
                "path": str(o.path) if o.path else None,
                "evaluation": {k: v for k, v in (o.evaluation or {}).items() if k != "ladders"},
            }
            for o in result.outcomes
        ],
        "summary": {"personas": [r.to_dict() for r in rows], "overall": overall.to_dict()},
        "questions": question_cards(result),
        "failures": [{"id": o.session_id, "reason": o.reason} for o in result.failures],
        **(
            {
                "max_cost": {
                    "cap_usd": budget.cap_usd,
                    "spent_usd": round(budget.spent_usd, 6),
                    "reached": bool(result.stopped),
                }
            }
            if budget is not None
            else {}
        ),
    }


def report(spec: BatchSpec, result: BatchResult, *, as_json: bool, budget: Any = None) -> None:
    from interview_cli.config.plurals import plural
    from interview_cli.simulation.evaluation import SummaryRow
    from interview_cli.ui.batch import (
        asking_table,
        questions_table,
        read_back_table,
        strategy_mix_table,
        summary_table,
    )

    record = summary_record(spec, result, budget)
    if as_json:
        print_json(record)
    else:
        rows = [SummaryRow(**r) for r in record["summary"]["personas"]]
        rows.append(SummaryRow(**record["summary"]["overall"]))
        console = stdout_console()
        console.print(summary_table(rows))
        console.print(asking_table(rows))
        if rows[-1].summary_concepts:
            console.print(read_back_table(rows))
        console.print(questions_table(record["questions"]))
        console.print(strategy_mix_table(rows))
    if result.failures:
        err = stderr_console()
        err.print(
            f"{len(result.failures)} of {plural(len(result.outcomes), 'interview')} failed "
            "(re-running the same command resumes them; a session file that cannot be read "
            "must be moved away first, and its interview then starts anew):",
            highlight=False,
            markup=False,
        )
        for failure in result.failures:
            err.print(
                f"  {failure.session_id}: {failure.reason}",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
    if result.stopped:
        report_cap(result, budget)
    if result.failures:
        raise typer.Exit(1)


def report_cap(result: BatchResult, budget: Any) -> None:
    """The batch stopped at its --max-cost: what was spent, what is left, how to go on."""
    from interview_cli.cli.spending import cap_hint
    from interview_cli.config.plurals import plural
    from interview_cli.llm.spend import SPEND_CAP_EXIT

    paused = sum(1 for o in result.stopped if o.path is not None)
    waiting = len(result.stopped) - paused
    print_warning(
        f"{budget.describe() if budget is not None else 'spend cap reached'}: "
        f"{plural(paused, 'interview')} paused, {waiting} not started; re-running the same "
        f"command resumes them ({cap_hint(budget.cap_usd) if budget is not None else ''})"
    )
    raise typer.Exit(SPEND_CAP_EXIT)
