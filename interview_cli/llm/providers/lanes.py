"""A provider's SDK clients, in lanes: one connection pool per few calls in flight.

httpx's pool looks at every idle connection it holds on each request and on each response
(``has_expired``: a poll of the socket and a few more system calls through anyio), so what a
request costs grows with the pool. A batch at concurrency 64 keeps about a hundred
connections to its provider, half of them idle at any moment (extraction and scoring run side
by side, then only the question): those checks took 15% of the batch's CPU.

So a provider spreads its calls over lanes, each an SDK client with a pool of its own: a call
takes the lane with the fewest calls in flight, and a lane is added only when every lane has
``LANE_WIDTH`` calls in flight (at most ``MAX_LANES``). An interactive run, two calls at a
time at most, keeps one client and one pool as before; a batch of 64 uses about 16, each of
about eight connections. Clients are per event loop: an httpx pool belongs to the loop it was
opened on, so a CLI or test that runs several loops gets fresh lanes on each.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

LANE_WIDTH = 8
MAX_LANES = 32


class Lanes:
    """The SDK clients of one provider; ``make`` builds one (and imports the SDK the first
    time)."""

    def __init__(
        self, make: Callable[[], Any], *, width: int = LANE_WIDTH, limit: int = MAX_LANES
    ) -> None:
        self._make = make
        self.width = width
        self.limit = limit
        self.clients: list[Any] = []
        self._busy: list[int] = []  # calls in flight, per lane
        self._loop: asyncio.AbstractEventLoop | None = None

    def _on_this_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self.clients, self._busy, self._loop = [], [], loop

    def _add(self) -> int:
        self.clients.append(self._make())
        self._busy.append(0)
        return len(self.clients) - 1

    def first(self) -> Any:
        """The first lane's client, for a caller outside :meth:`lane`."""
        self._on_this_loop()
        return self.clients[0] if self.clients else self.clients[self._add()]

    @contextmanager
    def lane(self) -> Iterator[Any]:
        """The client for one call: the least busy lane's, or a new lane's when every lane
        is full. The call counts as in flight until the block ends, however it ends."""
        self._on_this_loop()
        busy = self._busy
        index = min(range(len(busy)), key=busy.__getitem__) if busy else None
        if index is None or (busy[index] >= self.width and len(busy) < self.limit):
            index = self._add()
        busy[index] += 1
        try:
            yield self.clients[index]
        finally:
            busy[index] -= 1

    def take_all(self) -> list[Any]:
        """Every client, forgotten here (to be closed by the caller)."""
        clients, self.clients, self._busy, self._loop = self.clients, [], [], None
        return clients
