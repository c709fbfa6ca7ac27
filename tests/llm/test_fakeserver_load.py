"""The fake provider server keeps up with a batch's burst of connections.

A batch at concurrency 64 opens its connections all at once. With socketserver's default
listen backlog of 5, the kernel drops the SYNs that do not fit and the client sends them
again a second later: the SDK benchmark then timed the fake's accept queue, not the client.
"""

from __future__ import annotations

import asyncio
import time

from fakeserver import FakeLLMServer, Step

BURST = 64


async def _one_request(port: int) -> float:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 2\r\nconnection: close\r\n\r\n{}"
    )
    await writer.drain()
    status = await reader.readline()
    await reader.read()
    writer.close()
    assert status.startswith(b"HTTP/1.1 200"), status
    return time.perf_counter() - started


async def _burst(port: int) -> list[float]:
    return await asyncio.gather(*(_one_request(port) for _ in range(BURST)))


def test_a_burst_of_connections_is_accepted_at_once() -> None:
    server = FakeLLMServer().start()
    try:
        server.script(*(Step("ok", delay_s=0.2) for _ in range(BURST)))
        port = int(server.url.rsplit(":", 1)[1])
        took = asyncio.run(_burst(port))
    finally:
        server.stop()
    assert len(server.requests) == BURST
    # A dropped SYN is sent again after a second: every answer well before that.
    assert max(took) < 0.9, sorted(took)[-5:]
