"""The garbage collector during a batch (simulation.collector)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.llm.factory import build_llm
from interview_cli.llm.protocol import PersonaRequest, TaskResult
from interview_cli.llm.settings import offline_settings
from interview_cli.simulation.batch import BatchSpec, run_batch
from interview_cli.simulation.collector import BATCH_GEN0_THRESHOLD, batch_collector
from interview_cli.simulation.respondents.respondent import SimulatedRespondent


@pytest.fixture
def default_collector() -> Any:
    """A collector as CPython starts it, put back after the test whatever it did."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.unfreeze()
    gc.enable()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


def test_within_the_block_live_objects_are_frozen_and_collections_rarer(
    default_collector: Any,
) -> None:
    with batch_collector():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (BATCH_GEN0_THRESHOLD, 10, 10)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (700, 10, 10)


def test_put_back_when_the_block_raises(default_collector: Any) -> None:
    with pytest.raises(RuntimeError), batch_collector():
        raise RuntimeError("an interrupted batch")
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_is_kept(default_collector: Any) -> None:
    gc.set_threshold(50_000, 10, 10)
    with batch_collector():
        assert gc.get_threshold()[0] == 50_000
    assert gc.get_threshold()[0] == 50_000


def test_a_disabled_collector_is_left_alone(default_collector: Any) -> None:
    gc.disable()
    with batch_collector():
        assert gc.get_threshold() == (700, 10, 10)
        assert gc.get_freeze_count() == 0
    assert not gc.isenabled() and gc.get_freeze_count() == 0


def test_what_the_entry_point_froze_stays_frozen(default_collector: Any) -> None:
    """The console script freezes what start-up made; the batch still gets its thresholds,
    and unfreezing afterwards would undo the entry point's freeze too."""
    gc.freeze()
    before = gc.get_freeze_count()
    made_since = [[n] for n in range(1000)]  # alive, not yet frozen
    with batch_collector():
        assert gc.get_threshold() == (BATCH_GEN0_THRESHOLD, 10, 10)
        assert gc.get_freeze_count() > before  # what was made since is frozen too
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() > before and made_since


class Watching(SimulatedRespondent):
    """The simulator, noting the collector's threshold while the interviews run."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[int] = set()

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        self.seen.add(gc.get_threshold()[0])
        return await super().answer(request)


def test_a_batch_runs_under_the_batch_collector(
    default_collector: Any, lib: Library, tmp_path: Path
) -> None:
    spec = BatchSpec(
        personas=[lib.persona("cooperative")],
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        out=tmp_path,
        max_turns=2,
    )
    respondent = Watching()
    result = asyncio.run(
        run_batch(spec, llm=build_llm(spec.settings), respondent=respondent, concurrency=2)
    )
    assert [o.status for o in result.outcomes] == ["completed"]
    assert respondent.seen == {BATCH_GEN0_THRESHOLD}
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
