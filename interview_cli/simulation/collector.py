"""The garbage collector while a batch runs (issue 17).

A batch keeps dozens of interviews' graphs, sessions and SDK clients alive on one event loop
and allocates a great many short-lived objects per turn (requests, responses, validated
models). With CPython's default thresholds the collector then runs hundreds of young
collections and a few full ones, each full one walking every live object, the imported
modules included: at concurrency 64 on the SDK path that was about 15% of the batch's wall
time, with single pauses of 0.4-0.6 s during which no interview progressed.

:func:`batch_collector` freezes what is alive when the batch starts (modules, the library,
the methodology: never garbage, so a full collection need not walk it) and collects the
youngest generation after 20,000 new objects instead of 700. Cycles are still collected, a
little later; everything is put back as it was when the batch ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_GEN0_THRESHOLD = 20_000


@contextmanager
def batch_collector(gen0: int = BATCH_GEN0_THRESHOLD) -> Iterator[None]:
    """Within the block: objects alive now frozen, the youngest generation's threshold at
    least ``gen0``. A collector that is disabled or already frozen is left alone."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(gen0, thresholds[0]), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
