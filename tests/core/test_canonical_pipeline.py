"""Canonical slots through the pipeline (pipeline.runner): replay of a session with slots on
and off, one slot call per turn, slot discovery overlapping question generation, failed slot
calls, the report and replay views, the embedding tier, and the run/batch flags."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.canonical.slots import CanonicalState, SlotBatch
from interview_cli.core.turn import CoreState, TurnInput, advance
from interview_cli.errors import LLMError
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import SlotProposal, SlotProposals, SlotRequest
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.schema import SessionFile, slim_candidates

ROOT = Path(__file__).resolve().parents[2]


# ---- the pipeline: concurrency, recording, replay -------------------------------------------

ANSWERS = [
    # "noise cancellation" (turn 6) is "noise cancelling" (turn 1) said again: surface
    # de-duplication keeps them apart, the canonical tier maps the second into the first's slot.
    "I love the noise cancelling and the long battery life because I can focus on the train",
    "The noise cancelling blocks the noise so I can concentrate on the train",
    "Concentrating on the train means I feel in control of my time",
    "Feeling in control of my time matters because I value freedom",
    "The battery life, I never think about charging",
    "I also love the noise cancellation",
    "The battery life is long so I am not stressed before trips",
]


def library() -> Library:
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


def conduct(
    llm: Any, *, canonical: bool = True, answers: list[str] = ANSWERS, embedder: Any = None
) -> Interview:
    lib = library()
    concept = lib.concept("headphones_mec")
    session = new_session(
        session_id="dual-graph-test",
        concept=concept,
        methodology=lib.methodology(concept.value.methodology),
        settings=resolve_llm_settings("offline", env={}),
        max_turns=12,
        timestamps=False,
        canonical_slots=canonical,
        embeddings=embedder is not None,
    )
    interview = Interview(session, store=None, llm=llm, embedder=embedder)

    async def go() -> None:
        await interview.ensure_question()
        for answer in answers:
            result = await interview.submit(answer)
            if result.finished:
                break

    asyncio.run(go())
    return interview


def replay_with_slots(session: SessionFile) -> list[tuple[Any, CanonicalState | None]]:
    """The replay contract: advance() on the turn's recorded input, slot proposals included."""
    m = Methodology.model_validate(load_yaml(session.methodology.source))
    c = Concept.model_validate(load_yaml(session.concept.source))
    state = CoreState.initial(c, slots=session.settings.enable_canonical_slots)
    asked = [t.question.text for t in session.turns]
    out = []
    for index, turn in enumerate(session.completed_turns):
        assert turn.extraction is not None
        state, outcome = advance(
            state,
            TurnInput(
                methodology=m,
                concept=c,
                extraction=turn.extraction,
                assessment=turn.assessment,
                utterance_id=turn.answer.utterance_id,
                max_turns=session.settings.max_turns,
                recent_questions=tuple(asked[: index + 1][-6:]),
                slot_proposals=tuple(SlotBatch.model_validate(b) for b in turn.slot_proposals),
            ),
        )
        if state.canonical is not None:
            assert outcome.slot_discovery is not None
            assert outcome.slot_discovery.model_dump(mode="json") == turn.slot_discovery
        out.append((outcome, state.canonical))
    return out


def test_replay_reproduces_a_session_with_slots_on() -> None:
    interview = conduct(OfflineLLM(0))
    session = interview.session
    assert any(s.status == "active" for s in interview.canonical.slots)  # type: ignore[union-attr]
    assert any(m.via != "new" for m in interview.canonical.mappings)  # type: ignore[union-attr]
    replayed = replay_with_slots(session)
    for turn, (outcome, _) in zip(session.completed_turns, replayed, strict=True):
        d = outcome.decision
        assert (d.selected.strategy, d.selected.node_id) == (
            turn.decision.strategy,
            turn.decision.node_id,
        )  # type: ignore[union-attr]
        assert d.global_signals == turn.signals
        # The record keeps the candidates that explain the decision (session.slim_candidates).
        kept = slim_candidates([c.to_dict() for c in d.candidates])[0]
        assert kept == [c.model_dump(mode="json") for c in turn.candidates]
    assert replayed[-1][1].to_dict() == session.canonical  # type: ignore[union-attr]
    assert session.completed_turns[0].signals["graph.canonical_concept_count"] == 0
    calls = [c.task for t in session.turns for c in t.llm_calls]
    assert "propose_slots" in calls and session.usage.by_task["propose_slots"]["calls"] >= 1


def test_flag_off_records_no_slots_and_replays_on_the_surface_core() -> None:
    interview = conduct(OfflineLLM(0), canonical=False)
    session = interview.session
    assert interview.canonical is None and session.canonical == {}
    assert all(not t.slot_proposals and not t.slot_discovery for t in session.turns)
    assert "propose_slots" not in {c.task for t in session.turns for c in t.llm_calls}
    for turn, (outcome, slots) in zip(
        session.completed_turns, replay_with_slots(session), strict=True
    ):
        assert slots is None
        assert outcome.decision.selected.strategy == turn.decision.strategy  # type: ignore[union-attr]
        assert outcome.decision.global_signals == turn.signals


class Rendezvous(OfflineLLM):
    """Question generation and slot proposals each wait for the other to have started: only
    concurrent execution completes a turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.question_started = asyncio.Event()
        self.slots_started = asyncio.Event()

    async def generate_question(self, request: Any, on_token: Any = None) -> Any:
        self.question_started.set()
        await asyncio.wait_for(self.slots_started.wait(), 2)
        self.slots_started.clear()
        return await super().generate_question(request, on_token)

    async def propose_slots(self, request: Any) -> Any:
        self.slots_started.set()
        await asyncio.wait_for(self.question_started.wait(), 2)
        self.question_started.clear()
        return await super().propose_slots(request)


def test_one_slot_call_per_turn_whatever_the_node_types() -> None:
    session = conduct(OfflineLLM(0)).session
    several = [t for t in session.turns if len({b["node_type"] for b in t.slot_proposals}) > 1]
    assert several, "the scripted interview must leave several node types pending in a turn"
    for turn in session.turns:
        assert sum(c.task == "propose_slots" for c in turn.llm_calls) <= 1
    # The one call's proposals reach every batch, not only the first node type's.
    for turn in several:
        assert all(b["proposals"] for b in turn.slot_proposals)


def test_slot_discovery_overlaps_question_generation() -> None:
    interview = conduct(Rendezvous(), answers=ANSWERS[:1])
    (turn,) = interview.session.turns
    assert turn.status == "complete" and turn.slot_proposals and not turn.failures
    assert interview.session.pending_question is not None


def every_label_in_slot_x(request: SlotRequest) -> SlotProposals:
    return SlotProposals(
        proposals=[
            SlotProposal(slot_name="x", node_type=group.node_type, surface_labels=[label])
            for group in request.all_groups()
            for label in group.labels
        ]
    )


def flaky_slots() -> ScriptedLLM:
    """The offline model, but propose_slots raises on turn 1 and answers what is no JSON on
    turn 2, then puts every label in a slot."""
    llm = ScriptedLLM(fallback=OfflineLLM(0))
    down = LLMError("slots down (test)", provider="offline", task="propose_slots")
    return llm.enqueue("propose_slots", [down, "bad json", *[every_label_in_slot_x] * 4])


def test_failed_slot_calls_never_fail_the_turn_and_are_asked_again() -> None:
    interview = conduct(flaky_slots(), answers=ANSWERS[:3])
    t1, t2, t3 = interview.session.turns
    assert all(t.status == "complete" for t in (t1, t2, t3))
    assert t1.slot_discovery["unmapped"] and "slots down" in t1.failures[-1]
    first_batch = t1.slot_proposals[0]
    assert first_batch["failed"] and "slots down" in first_batch["error"]
    assert t2.slot_proposals[0]["failed"]
    assert "not valid JSON" in t2.slot_proposals[0]["error"]
    asked_again = set(t3.slot_proposals[0]["node_ids"])
    assert set(first_batch["node_ids"]) <= asked_again
    assert not interview.canonical.slot_of().keys() ^ set(interview.core.graph.node_ids())  # type: ignore[union-attr]


# ---- observability ------------------------------------------------------------------------


def test_replay_and_report_views_show_slots_mappings_and_the_comparison() -> None:
    from rich.console import Console

    from interview_cli.analysis.report.build import dual_graph_rows
    from interview_cli.analysis.sources import SessionSource
    from interview_cli.ui.interview import dual_graph_table, slot_discovery_view

    session = conduct(OfflineLLM(0)).session
    lines = [slot_discovery_view(t.slot_discovery) for t in session.turns]
    text = "\n".join(str(line) for line in lines if line is not None)
    assert "+ s1 " in text and "active (support 2)" in text and "→ s" in text
    assert slot_discovery_view({}) is None

    (row,) = dual_graph_rows([SessionSource(path=Path("x.json"), session=session)])
    assert row["id"] == session.id and row["unmapped"] == 0
    assert row["surface_nodes"] == len(session.graph["nodes"])
    assert row["canonical_slots"] == len(session.canonical["slots"])
    console = Console(width=100, record=True)
    console.print(dual_graph_table([row]))
    assert "Surface vs canonical graph" in console.export_text()


def test_a_session_with_the_embedding_tier_replays_with_it() -> None:
    from interview_cli.analysis.replay.engine import replay

    class Toy:
        """Every pair of labels about the train is close; nothing else is."""

        def similarity(self, a: str, b: str) -> float:
            return 0.9 if "train" in a and "train" in b else 0.0

    session = conduct(OfflineLLM(0), embedder=Toy()).session
    assert session.settings.enable_embeddings
    tiers = [m.tier for t in session.turns for m in t.graph_delta.nodes_merged]
    assert "embedding" in tiers  # "can concentrate on the train" folded into "can focus on ..."
    steps = list(replay(session, embedder=Toy()))
    assert [s.outcome.decision.global_signals for s in steps] == [
        t.signals for t in session.completed_turns
    ]
    assert steps[-1].after.canonical.to_dict() == session.canonical
    fuzzy_only = list(
        replay(
            session.model_copy(
                update={
                    "settings": session.settings.model_copy(update={"enable_embeddings": False})
                }
            )
        )
    )
    assert fuzzy_only[-1].after.to_dict()["graph"] != session.graph  # the tier mattered


def test_run_and_batch_flags_switch_the_dual_graph(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from interview_cli.cli.app import app

    runner = CliRunner()
    base = ["--library", str(ROOT), "--sessions-dir", str(tmp_path / "s")]
    args = ["run", "-c", "headphones_mec", "--provider", "offline", *base]
    for flags, slots, hints in (
        ([], True, False),
        (["--no-canonical-slots", "--discourse-hints"], False, True),
    ):
        result = runner.invoke(
            app, [*args, *flags], input="I like the sound because it is clear\n/quit\n"
        )
        assert result.exit_code == 0, result.output
        newest = max((tmp_path / "s").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        data = json.loads(newest.read_text())
        assert (data["settings"]["enable_canonical_slots"], bool(data["canonical"])) == (
            slots,
            slots,
        )
        assert bool(data["turns"][0]["discourse_hints"]) is hints
    out = tmp_path / "batch"
    result = runner.invoke(
        app,
        [
            "batch",
            "cooperative",
            "-c",
            "headphones_mec",
            "--runs",
            "1",
            "--max-turns",
            "3",
            "--no-canonical-slots",
            "--out",
            str(out),
            "--library",
            str(ROOT),
        ],
    )
    assert result.exit_code == 0, result.output
    (session,) = [json.loads(p.read_text()) for p in out.glob("*-r1.json")]
    assert session["settings"]["enable_canonical_slots"] is False and session["canonical"] == {}
