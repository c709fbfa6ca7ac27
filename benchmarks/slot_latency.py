"""Time from a question shown to the respondent's prompt, with a slow slot-discovery call.

Runs interviews through the real conversation loop (``pipeline.conversation.converse`` over
``pipeline.runner.Interview``, as ``interview run`` does) with the shipped scripted model
(``llm.fakes.ScriptedLLM``): every task answers like the offline provider, and each
``propose_slots`` call first takes ``--slot-delay`` seconds (a slow model). The question is
"shown" when ``generate_question`` returns its text (the screen has streamed it whole); the
prompt is "ready" when the loop asks the respondent for the next answer. A slot call on the
respondent's path makes that gap as long as the slot call; off it, the gap is the turn's
bookkeeping (a save) only.

    python benchmarks/slot_latency.py [--slot-delay 2.0] [--turns 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import OnToken, QuestionRequest, SlotRequest, TaskResult
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.conversation import Reply, Stop, converse
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing means I can get my work done, which makes me feel in control",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
    "The fit is comfortable so I can wear them for hours",
    "Wearing them for hours helps me concentrate",
]


class Timed(ScriptedLLM):
    """The scripted model, noting when each question's text was complete."""

    def __init__(self, slot_delay: float) -> None:
        self.offline = OfflineLLM(seed=0)
        super().__init__(fallback=self.offline, model="offline-with-slow-slots")
        self.slot_delay = slot_delay
        self.shown: list[float] = []

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        result = await super().generate_question(request, on_token)
        self.shown.append(time.perf_counter())
        return result

    async def propose_slots(self, request: SlotRequest) -> TaskResult[Any]:
        async def slow(req: SlotRequest) -> Any:
            await asyncio.sleep(self.slot_delay)
            return (await self.offline.propose_slots(req)).value

        self.enqueue("propose_slots", [slow])
        return await super().propose_slots(request)


class Respondent:
    """Answers from a list, noting when each prompt was ready."""

    def __init__(self, turns: int) -> None:
        self.answers = list(ANSWERS[:turns])
        self.ready: list[float] = []

    async def reply(self, interview: Interview, question: Any) -> Reply | Stop:
        self.ready.append(time.perf_counter())
        return Reply(self.answers.pop(0)) if self.answers else Stop("pause")

    def answered(self, result: Any) -> None:
        return None


async def one_interview(slot_delay: float, turns: int) -> list[float]:
    lib = Library.discover(cwd=ROOT)
    concept = lib.concept("headphones_mec")
    session = new_session(
        session_id="bench",
        concept=concept,
        methodology=lib.methodology(concept.value.methodology),
        settings=offline_settings(),
        max_turns=turns + 5,
        canonical_slots=True,
    )
    llm = Timed(slot_delay)
    respondent = Respondent(turns)
    await converse(Interview(session, store=None, llm=llm), respondent)
    # ready[0] is the opening's prompt; ready[i] follows the question written after answer i.
    return [ready - shown for shown, ready in zip(llm.shown, respondent.ready[1:], strict=False)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--slot-delay", type=float, default=2.0, help="seconds per slot call")
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    gaps = asyncio.run(one_interview(args.slot_delay, args.turns))
    print(f"slot call {args.slot_delay * 1000:.0f} ms; {len(gaps)} questions")
    print(
        f"question shown -> prompt ready: median {statistics.median(gaps) * 1000:.0f} ms, "
        f"max {max(gaps) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
