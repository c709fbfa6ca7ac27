"""A provider's SDK clients in lanes (providers.lanes): one pool per few calls."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fakeserver import FakeLLMServer, Step

from interview_cli.llm.providers import ChatMessage, ProviderRequest, make_provider
from interview_cli.llm.providers.lanes import LANE_WIDTH, Lanes
from interview_cli.llm.settings import resolve_llm_settings


class Client:
    made = 0

    def __init__(self) -> None:
        Client.made += 1
        self.number = Client.made


def lanes(width: int = 2, limit: int = 3) -> Lanes:
    Client.made = 0
    return Lanes(Client, width=width, limit=limit)


def test_one_lane_while_it_has_room_then_the_least_busy() -> None:
    async def go() -> list[int]:
        pool = lanes()
        with pool.lane() as a, pool.lane() as b:
            assert a is b  # width 2: both calls on the first lane
            with pool.lane() as c:
                assert c is not a  # the first lane is full: a second one
                with pool.lane() as d:
                    assert d is c  # the second has room
            with pool.lane() as e:
                assert e is c  # back to the least busy
        with pool.lane() as f:
            assert f is a  # all idle: the first
        return [client.number for client in pool.clients]

    assert asyncio.run(go()) == [1, 2]


def test_no_more_lanes_than_the_limit() -> None:
    async def go() -> int:
        pool = lanes(width=1, limit=2)
        with pool.lane(), pool.lane(), pool.lane() as third, pool.lane():
            assert third in pool.clients
        return len(pool.clients)

    assert asyncio.run(go()) == 2


def test_a_call_that_fails_leaves_its_lane() -> None:
    async def go() -> Any:
        pool = lanes(width=1)
        with pytest.raises(RuntimeError), pool.lane():
            raise RuntimeError("the call failed")
        with pool.lane() as again:
            return again, pool.clients

    again, clients = asyncio.run(go())
    assert clients == [again]


def test_each_event_loop_gets_its_own_clients() -> None:
    pool = lanes()

    async def first() -> Any:
        return pool.first()

    one, two = asyncio.run(first()), asyncio.run(first())
    assert one is not two and pool.clients == [two]
    assert pool.take_all() == [two] and pool.clients == []


def test_a_provider_spreads_a_burst_over_lanes_and_an_interactive_run_keeps_one(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    settings = resolve_llm_settings(provider="openai", env=provider_env).extraction
    provider = make_provider(settings, env=provider_env)
    request = ProviderRequest("Be brief.", (ChatMessage("user", "Hi."),), 0.2, 32, 5.0)
    burst = 2 * LANE_WIDTH + 1

    async def go() -> tuple[int, int, int]:
        made = 0
        real_make = provider._make_client

        def counting(key: str) -> Any:
            nonlocal made
            made += 1
            return real_make(key)

        provider._make_client = counting  # type: ignore[method-assign]
        try:
            for _ in range(2):  # one after the other: one client
                await provider.complete(request)
            sequential = made
            fake_server.script(*(Step("ok", delay_s=0.1) for _ in range(burst)))
            replies = await asyncio.gather(*(provider.complete(request) for _ in range(burst)))
            assert all(r.text for r in replies)
            return sequential, made, len(provider._lanes.clients)
        finally:
            await provider.aclose()

    sequential, made, open_lanes = asyncio.run(go())
    assert sequential == 1
    assert made == open_lanes == 3  # 17 calls at once, 8 a lane
    assert provider._lanes.clients == []  # closed
