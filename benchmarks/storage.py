"""Session storage cost: does saving a turn cost the same at turn 100 as at turn 10?

Runs one long offline interview (offline interviewer, offline persona respondent, the real
pipeline and the real store) in a temporary sessions directory and measures every save the
store makes: bytes written (the process's write-syscall byte counter, /proc/self/io
``wchar``, so whatever the store writes - snapshot, journal, temporary files - is counted)
and wall time. It prints, per turn, the bytes written and the save time at turns 10, 50 and
100, then the total bytes written over the session divided by the session's final size on
disk (goal: at most 5; a store that rewrites the whole file on every save grows it with the
square of the session's length). It also prints the size of a typical turn record.

    python benchmarks/storage.py                     # 100 turns
    python benchmarks/storage.py --turns 60 --at 10,30,60

Linux only (/proc/self/io). The figures are per turn: every save between one answer and the
next (the answer's own save, the processed turn's save) is charged to that turn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from interview_cli.config.library import Library  # noqa: E402
from interview_cli.llm.settings import offline_settings  # noqa: E402
from interview_cli.session.store import SessionStore  # noqa: E402
from interview_cli.simulation.batch import (  # noqa: E402
    BatchSpec,
    conduct_simulated,
    new_simulated_session,
    plan_batch,
)
from interview_cli.simulation.respondents.respondent import make_respondent  # noqa: E402


def written_bytes() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise SystemExit("no wchar in /proc/self/io (this benchmark needs Linux)")


class MeteredStore(SessionStore):
    """The real store, with every save's bytes and seconds charged to the current turn."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.per_turn: dict[int, list[float]] = {}  # turn -> [bytes, seconds]
        self.total_bytes = 0

    def save(self, session: Any) -> Path:  # type: ignore[override]
        # Saves after the last turn (the closing answer, completion) are the close's: 0.
        closed = session.status != "active" or session.closing is not None
        turn = 0 if closed else max(len(session.turns), 1)
        before, start = written_bytes(), time.perf_counter()
        path = super().save(session)
        seconds, count = time.perf_counter() - start, written_bytes() - before
        slot = self.per_turn.setdefault(turn, [0.0, 0.0])
        slot[0] += count
        slot[1] += seconds
        self.total_bytes += count
        return path


def keep_going(methodology: Any) -> None:
    """Switch off the saturation stops and the closing strategy: an offline persona runs out of
    new things to say long before turn 100, and what is measured here is a session of that
    length (the closing strategy is still scored, it just asks an ordinary question)."""
    from interview_cli.core.decide import continuation

    continuation.saturation_reason = lambda **_: None  # type: ignore[assignment]
    for strategy in methodology.strategies:
        object.__setattr__(strategy, "generates_closing_question", False)


def run_session(turns: int, persona: str) -> tuple[MeteredStore, Path, int]:
    lib = Library.discover()
    with tempfile.TemporaryDirectory() as out:
        spec = BatchSpec(
            personas=[lib.persona(persona)],
            concept=lib.concept("headphones_mec"),
            methodology=lib.methodology("means_end_chain"),
            settings=offline_settings(),
            out=Path(out),
            runs=1,
            max_turns=turns,
        )
        keep_going(spec.methodology.value)
        planned = plan_batch(spec)[0]
        from interview_cli.llm.factory import build_llm

        llm = build_llm(spec.settings, seed=spec.seed)
        respondent = make_respondent(spec.settings, llm)
        store = MeteredStore(Path(out))
        session = new_simulated_session(spec, planned, respondent.label)

        async def go() -> None:
            with store.lock(session.id):
                store.save(session)
                await conduct_simulated(
                    session,
                    store=store,
                    llm=llm,
                    respondent=respondent,
                    persona=planned.persona.value,
                    methodology=spec.methodology.value,
                    concept=spec.concept.value,
                )

        asyncio.run(go())
        on_disk = sum(p.stat().st_size for p in Path(out).iterdir() if p.is_file())
        record = statistics.median(  # compact JSON, as the journal writes a turn
            len(json.dumps(t.model_dump(mode="json"), separators=(",", ":")).encode())
            for t in session.turns
        )
        reason = session.termination_reason or session.status
        return store, on_disk, int(record), len(session.turns), reason  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--at", default="10,50,100", help="turns to report")
    parser.add_argument("--persona", default="cooperative")
    parser.add_argument("--goal", type=float, default=5.0, help="exit 1 above this ratio")
    args = parser.parse_args(argv)

    store, on_disk, record, done, reason = run_session(args.turns, args.persona)  # type: ignore[misc]
    print(f"{done} turns (max {args.turns}, ended: {reason}), persona {args.persona}, offline")
    for turn in (int(t) for t in args.at.split(",")):
        if turn in store.per_turn:
            count, seconds = store.per_turn[turn]
            # The median of the ten turns up to this one: one turn's time is noisy (a shared
            # disk's fsync), and one turn in a while also rewrites the snapshot.
            window = [store.per_turn[t] for t in range(turn - 9, turn + 1) if t in store.per_turn]
            mid_kb = statistics.median(w[0] for w in window) / 1024
            mid_ms = statistics.median(w[1] for w in window) * 1e3
            print(
                f"turn {turn:4d}: {count / 1024:8.1f} KB written, save time "
                f"{seconds * 1e3:7.2f} ms   (median of turns {turn - 9}-{turn}: "
                f"{mid_kb:6.1f} KB, {mid_ms:6.2f} ms)"
            )
    if 0 in store.per_turn:
        count, seconds = store.per_turn[0]
        print(f"closing the session: {count / 1024:8.1f} KB written, {seconds * 1e3:7.2f} ms")
    ratio = store.total_bytes / on_disk if on_disk else float("inf")
    print(f"typical turn record (median JSON): {record / 1024:.1f} KB")
    print(
        f"written over the session: {store.total_bytes / 1e6:.2f} MB; final size on disk "
        f"{on_disk / 1e6:.2f} MB; ratio {ratio:.1f} (goal <= {args.goal:g})"
    )
    return 0 if ratio <= args.goal else 1


if __name__ == "__main__":
    raise SystemExit(main())
