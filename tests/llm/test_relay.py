"""The relay: each request becomes a file a person (or an outside model) reads, and the reply
file put beside it is what the SDK receives, for structured and text tasks alike."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from capable_model import extraction, node, remote_llm, run_closed
from conftest import FAKE_KEYS, TaskKit
from fakeserver import FakeLLMServer, Relay

from interview_cli.llm.protocol import ExtractRequest


class Player:
    """Answers each request file with a reply chosen by task, as a person at the folder."""

    def __init__(self, folder: Path, replies: dict[str, str]) -> None:
        self.folder, self.replies = folder, replies
        self.read: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, daemon=True)
        self._thread.start()

    def _play(self) -> None:
        while not self._stop.wait(0.02):
            for request in sorted(self.folder.glob("*.request.md")):
                stem = request.name.removesuffix(".request.md")
                reply = self.folder / f"{stem}.reply"
                if reply.exists() or stem in self.read:
                    continue
                self.read.append(stem)
                task = stem.split("-", 1)[1]
                temporary = self.folder / f"{stem}.tmp"
                temporary.write_text(self.replies[task], encoding="utf-8")
                temporary.rename(reply)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


@pytest.fixture
def relay_server(tmp_path: Path) -> Iterator[tuple[FakeLLMServer, Path]]:
    folder = tmp_path / "relay"
    server = FakeLLMServer(relay=Relay(folder)).start()
    try:
        yield server, folder
    finally:
        assert server.relay is not None
        server.relay.stop()
        server.stop()


def test_a_whole_exchange_goes_through_the_folder(
    relay_server: tuple[FakeLLMServer, Path], kit: TaskKit
) -> None:
    server, folder = relay_server
    answer = kit.requests["extract"].answer
    replies = {
        # The extraction as a model that writes its JSON in a fence instead of the tool.
        "extract": "```json\n"
        + json.dumps(extraction([node("creamy texture", "attribute", "the creamy texture")]))
        + "\n```",
        "generate_question": "Thanks.\n\nWhat does the creamy texture give you?",
    }
    player = Player(folder, replies)
    env = {**FAKE_KEYS, "OPENAI_BASE_URL": server.openai_base_url}
    llm = remote_llm(env)

    async def go() -> tuple[object, object]:
        request = kit.requests["extract"]
        assert isinstance(request, ExtractRequest) and answer
        extracted = await llm.extract(request)
        asked = await llm.generate_question(kit.requests["generate_question"])
        return extracted, asked

    try:
        extracted, asked = run_closed(llm, go())
    finally:
        player.stop()
    assert [n.label for n in extracted.value.nodes] == ["creamy texture"]  # type: ignore[attr-defined]
    assert asked.value == "Thanks. What does the creamy texture give you?"  # type: ignore[attr-defined]
    assert player.read == ["0001-extract", "0002-generate_question"]
    shown = (folder / "0001-extract.request.md").read_text(encoding="utf-8")
    assert "## system" in shown and "## user" in shown and answer in shown
    assert "tool record_extraction: its arguments must match this schema" in shown
    assert "0001-extract.reply" in shown
    body = json.loads((folder / "0001-extract.request.json").read_text(encoding="utf-8"))
    assert body["tool_choice"]["function"]["name"] == "record_extraction"
