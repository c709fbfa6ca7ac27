"""``python -m tests.llm.fakeserver --dir DIR [--port N]``: the fake server as a relay, for
playing the model by hand through a folder (see :mod:`.relay`)."""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from .relay import SLOW_CLIENTS, Relay


def main(argv: list[str] | None = None) -> None:
    from .server import FakeLLMServer

    parser = argparse.ArgumentParser(description="the fake LLM server as a relay through a folder")
    parser.add_argument("--dir", type=Path, required=True, help="the folder of requests/replies")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    server = FakeLLMServer(relay=Relay(args.dir)).start(serve=False, port=args.port)
    server.serve()
    config = args.dir / "llm.yaml"
    config.write_text("clients:\n" + SLOW_CLIENTS, encoding="utf-8")
    print(f"relay on {server.url}, folder {args.dir}; run for example:")
    print(
        f"INTERVIEW_LLM_CONFIG={config} interview run -c headphones_mec "
        f"--provider openai-compatible --base-url {server.openai_base_url} --model relay",
        flush=True,
    )
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        assert server.relay is not None
        server.relay.stop()
        server.stop()


if __name__ == "__main__":
    main()
