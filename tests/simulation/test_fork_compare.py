"""The paired comparison of an interview with its forks (``simulation.fork_compare``): figures
read from evaluations, paired changes, the spread over runs, and what counts as a fork that
went wrong."""

from __future__ import annotations

from typing import Any

import pytest

from interview_cli.simulation.fork_compare import (
    FIGURES,
    FigureComparison,
    ForkComparison,
    ForkRun,
    Spread,
    figure,
)


def evaluation(rungs: int, terminal: bool | None, turns: int, complaints: int) -> dict[str, Any]:
    return {
        "rungs_elicited": rungs,
        "rung_recall": round(rungs / 10, 4),
        "ladders_completed": rungs // 5,
        "terminal_reached": terminal,
        "turns": turns,
        "complaints": [{"turn": i + 1, "answer": "like I said"} for i in range(complaints)],
    }


def test_figures_are_numbers_counts_and_shares() -> None:
    e = evaluation(6, True, 9, 2)
    assert [figure(e, name) for name in FIGURES] == [6.0, 0.6, 1.0, 1.0, 9.0, 2.0]
    assert figure(evaluation(6, None, 9, 0), "terminal_reached") is None  # no full ladder
    assert figure(evaluation(6, False, 9, 0), "terminal_reached") == 0.0
    assert figure(None, "turns") is None and figure({}, "turns") is None


def test_the_change_is_paired_and_spread_over_runs() -> None:
    f = FigureComparison("rungs_elicited", 6.0, (8.0, 5.0, 8.0))
    assert f.changes == (2.0, -1.0, 2.0)
    assert f.change == Spread(mean=1.0, sd=1.7321, low=-1.0, high=2.0)
    assert f.spread == Spread(mean=7.0, sd=1.7321, low=5.0, high=8.0)
    one = FigureComparison("turns", 9.0, (9.0,))
    assert one.change == Spread(mean=0.0, sd=None, low=0.0, high=0.0)  # one run: no sd
    unknown = FigureComparison("terminal_reached", None, (1.0,))
    assert unknown.changes == (None,) and unknown.change is None


def comparison(*runs: ForkRun) -> ForkComparison:
    return ForkComparison(
        origin="o",
        at=4,
        policy="breadth_first",
        origin_policy="adaptive",
        methodology="means_end_chain 3.0",
        persona="p",
        original=evaluation(6, False, 9, 1),
        runs=list(runs),
    )


def run(n: int, e: dict[str, Any] | None, **kw: Any) -> ForkRun:
    base: dict[str, Any] = {"repeats_origin": True, "verified": True, "diverged_at": 6}
    base.update(kw)
    return ForkRun(
        run=n, session_id=f"o-r{n}", status="completed", seed=n - 1, evaluation=e, **base
    )


def test_the_json_pairs_every_figure_and_lists_every_fork() -> None:
    c = comparison(run(1, evaluation(8, True, 10, 0)), run(2, evaluation(7, False, 10, 2)))
    doc = c.to_dict()
    assert doc["original"]["rungs_elicited"] == 6.0 and doc["original"]["complaints"] == 1.0
    rungs = doc["figures"]["rungs_elicited"]
    assert rungs["forks"] == [8.0, 7.0] and rungs["changes"] == [2.0, 1.0]
    assert rungs["change_spread"] == {"mean": 1.5, "sd": 0.7071, "min": 1.0, "max": 2.0}
    assert doc["figures"]["terminal_reached"]["fork_spread"]["mean"] == 0.5
    assert [f["figures"]["turns"] for f in doc["forks"]] == [10.0, 10.0]
    assert doc["forks"][0]["repeats_origin"] is True and c.ok


@pytest.mark.parametrize(
    "bad",
    [
        {"e": None},  # failed: no evaluation
        {"repeats_origin": False},
        {"verified": False},
    ],
)
def test_a_fork_that_failed_strayed_or_does_not_verify_is_not_ok(bad: dict[str, Any]) -> None:
    e = bad.pop("e", evaluation(8, True, 10, 0))
    c = comparison(run(1, evaluation(8, True, 10, 0)), run(2, e, **bad))
    assert not c.ok
    if e is None:  # a failed run is left out of the figures, not counted as zero
        assert c.figures[0].runs == (8.0,)
