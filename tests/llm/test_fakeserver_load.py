"""The fake provider server keeps up with a batch's burst of connections.

A batch at concurrency 64 opens its connections all at once. With socketserver's default
listen backlog of 5, the kernel drops the SYNs that do not fit and the client sends them
again a second later: the SDK benchmark then timed the fake's accept queue, not the client.

What is checked is that property itself, not how long the burst took (which a loaded machine
stretches): with the server accepting nothing yet, every one of the burst's handshakes
completes, so the listen queue holds them all; then the server holds all the requests at
once (each waits for the others, as slow model calls would overlap), answers every one, and
no client socket sent anything twice (no SYN or data retransmitted, on Linux where TCP_INFO
says so).
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time

from fakeserver import FakeLLMServer, Step

BURST = 64
REQUEST = (
    b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
    b"content-length: 2\r\nconnection: close\r\n\r\n{}"
)
# Only for a failure: a connection left out of a full listen queue never completes while the
# server accepts nothing (its SYN is dropped each time it is sent again), and a server that
# took requests one at a time would never hold them all.
DEADLINE_S = 20


def _retransmitted(sock: socket.socket) -> int:
    """Segments this socket sent again (SYNs included): ``tcpi_total_retrans`` of Linux's
    ``struct tcp_info``; 0 where the platform does not say."""
    if not hasattr(socket, "TCP_INFO"):
        return 0
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return int(struct.unpack_from("I", info, 100)[0])


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(REQUEST)
    await writer.drain()
    return reader, writer


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> tuple[bytes, int]:
    status = await reader.readline()
    await reader.read()
    retransmitted = _retransmitted(writer.get_extra_info("socket"))
    writer.close()
    await writer.wait_closed()
    return status, retransmitted


async def _burst(server: FakeLLMServer, gate: threading.Event) -> list[tuple[bytes, int]]:
    port = int(server.url.rsplit(":", 1)[1])
    connecting = [asyncio.create_task(_connect(port)) for _ in range(BURST)]
    _, pending = await asyncio.wait(connecting, timeout=DEADLINE_S)
    for task in pending:
        task.cancel()
    left_out = len(pending)
    assert left_out == 0, f"{left_out} of {BURST} connections left out of the listen queue"
    server.serve()
    answering = [asyncio.create_task(_answer(*task.result())) for task in connecting]
    deadline = time.monotonic() + DEADLINE_S
    while len(server.requests) < BURST:  # every request in the server's hands at once
        assert time.monotonic() < deadline, f"{len(server.requests)} of {BURST} requests held"
        await asyncio.sleep(0.01)
    gate.set()
    return await asyncio.gather(*answering)


def test_a_burst_of_connections_is_queued_whole_and_answered_without_a_retry() -> None:
    server = FakeLLMServer().start(serve=False)  # listening, accepting nothing yet
    gate = threading.Event()
    try:
        server.script(*(Step("ok", hold=gate) for _ in range(BURST)))
        answers = asyncio.run(_burst(server, gate))
    finally:
        gate.set()
        server.stop()
    assert len(server.requests) == BURST
    assert all(status.startswith(b"HTTP/1.1 200") for status, _ in answers), answers
    assert [sent_again for _, sent_again in answers] == [0] * BURST
