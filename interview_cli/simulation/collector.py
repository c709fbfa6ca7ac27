"""The garbage collector while a batch runs.

A batch keeps dozens of interviews' graphs, sessions and SDK clients alive on one event loop
and allocates a great many short-lived objects per turn (requests, responses, validated
models). With CPython's default thresholds the collector then runs hundreds of young
collections and a few full ones, each full one walking every live object, the imported
modules included: at concurrency 64 on the SDK path that was about 15% of the batch's wall
time, with single pauses of 0.4-0.6 s during which no interview progressed.

:func:`batch_collector` freezes what is alive when the batch starts (modules, the library,
the methodology: never garbage, so a full collection need not walk it) and collects the
youngest generation after 20,000 new objects instead of 700. Cycles are still collected, a
little later. When the batch ends the thresholds are put back, and the freeze is undone
unless the process had frozen objects before (the entry point freezes what start-up made:
undoing that is not the batch's to do, and the batch's own frozen objects are as long-lived).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_GEN0_THRESHOLD = 20_000


@contextmanager
def batch_collector(gen0: int = BATCH_GEN0_THRESHOLD) -> Iterator[None]:
    """Within the block: objects alive now frozen, the youngest generation's threshold at
    least ``gen0``. A disabled collector is left alone. What was frozen before the block (the
    entry point freezes what start-up made) stays frozen after it, with what the block
    froze; otherwise the block's freeze is undone."""
    if not gc.isenabled():
        yield
        return
    thresholds = gc.get_threshold()
    frozen_before = gc.get_freeze_count() > 0
    gc.freeze()
    gc.set_threshold(max(gen0, thresholds[0]), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not frozen_before:
            gc.unfreeze()
