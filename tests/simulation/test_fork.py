"""Forks of a recorded interview (``simulation.fork``): the first K turns are the origin's,
the state after them is the replayed one, the fork's own rules decide from turn K+1 and
the fork verifies; with the origin's rules and seed it is the origin again."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.config.library import Library
from interview_cli.config.loader import Loaded
from interview_cli.config.schemas import Methodology
from interview_cli.errors import UsageError
from interview_cli.llm.factory import build_llm
from interview_cli.llm.settings import offline_settings
from interview_cli.session.schema import RulesRecord, SessionFile
from interview_cli.session.store import SessionStore
from interview_cli.simulation.batch import BatchResult, BatchSpec, run_batch
from interview_cli.simulation.fork import (
    ForkSpec,
    fork_question,
    forkable_turns,
    methodology_of,
    origin_rules,
    run_forks,
)
from interview_cli.simulation.fork_compare import diverged_at, repeats_origin
from interview_cli.simulation.respondents.respondent import SimulatedRespondent

MAX_TURNS = 8
AT = 4


@pytest.fixture(scope="module")
def origin(lib: Library, tmp_path_factory: pytest.TempPathFactory) -> SessionFile:
    """A finished batch interview of the sceptical persona, the one every fork starts from."""
    out = tmp_path_factory.mktemp("batch")
    spec = BatchSpec(
        personas=[lib.persona("sceptical")],
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        out=out,
        max_turns=MAX_TURNS,
    )
    result = asyncio.run(
        run_batch(spec, llm=build_llm(spec.settings, seed=0), respondent=SimulatedRespondent())
    )
    assert result.outcomes[0].status == "completed"
    return SessionStore(out).load(result.outcomes[0].session_id)


def fork_spec(lib: Library, origin: SessionFile, out: Path, **kw: object) -> ForkSpec:
    base = ForkSpec(
        origin=origin,
        at=AT,
        persona=lib.persona("sceptical"),
        methodology=methodology_of(origin),
        policy="breadth_first",
        settings=offline_settings(),
        out=out,
        runs=2,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def forked(spec: ForkSpec) -> tuple[BatchResult, list[SessionFile]]:
    llm = build_llm(spec.settings, seed=0)
    plan, result = asyncio.run(run_forks(spec, llm=llm, respondent=SimulatedRespondent()))
    store = SessionStore(spec.out)
    return result, [store.load(p.session_id) for p in plan]


@pytest.fixture(scope="module")
def breadth(lib: Library, origin: SessionFile, tmp_path_factory: pytest.TempPathFactory):
    return forked(fork_spec(lib, origin, tmp_path_factory.mktemp("forks")))


def test_each_fork_repeats_the_first_turns_then_breadth_first_decides(
    origin: SessionFile, breadth: tuple[BatchResult, list[SessionFile]]
) -> None:
    result, forks = breadth
    assert [o.status for o in result.outcomes] == ["completed", "completed"]
    for fork in forks:
        assert repeats_origin(origin, fork, AT)
        assert fork.turns[AT].question == origin.turns[AT].question  # turn K chose it
        assert len(fork.turns) > AT + 1 and fork.status == "completed"
        assert fork.fork is not None
        assert (fork.fork.session_id, fork.fork.turn) == (origin.id, AT)
        assert [(r.until_turn, r.policy) for r in fork.fork.earlier] == [(AT, "adaptive")]
        assert fork.settings.policy == "breadth_first"
        own = [t.decision.rationale[0] for t in fork.turns[AT:] if t.decision]
        assert own and all(line.startswith("breadth_first baseline") for line in own)
        assert not any("baseline" in t.decision.rationale[0] for t in fork.turns[:AT])
        assert verify_session(fork).ok, verify_session(fork).to_dict()


def test_the_runs_answer_with_their_own_seeds_and_are_evaluated(
    origin: SessionFile, breadth: tuple[BatchResult, list[SessionFile]]
) -> None:
    result, forks = breadth
    assert [f.settings.seed for f in forks] == [origin.settings.seed, origin.settings.seed + 1]
    assert [f.fork.run for f in forks if f.fork] == [1, 2]
    for outcome, fork in zip(result.outcomes, forks, strict=True):
        assert outcome.evaluation == fork.simulation["evaluation"]  # type: ignore[index]
        assert fork.simulation["persona"]["id"] == "sceptical"  # type: ignore[index]


def test_a_fork_keeping_the_origins_rules_and_seed_is_the_origin_again(
    lib: Library, origin: SessionFile, tmp_path: Path
) -> None:
    spec = fork_spec(lib, origin, tmp_path, policy="adaptive", runs=1)
    _, (fork,) = forked(spec)
    assert [t.question.text for t in fork.turns] == [t.question.text for t in origin.turns]
    assert [t.answer.text for t in fork.turns] == [t.answer.text for t in origin.turns]
    assert fork.graph == origin.graph and diverged_at(origin, fork) is None
    assert fork.usage == origin.usage  # the first turns' calls are counted as the origin did
    assert fork.closing is not None and origin.closing is not None
    assert fork.closing.question == origin.closing.question


def test_without_the_origins_rules_the_first_turns_do_not_replay(
    breadth: tuple[BatchResult, list[SessionFile]],
) -> None:
    # The first turns were decided by the origin's adaptive policy: replayed with the fork's
    # breadth_first they come out otherwise, so the fork must record who decided them.
    fork = breadth[1][0].model_copy(deep=True)
    assert fork.fork is not None
    fork.fork.earlier = []
    result = verify_session(fork)
    assert not result.ok and result.first_turn is not None and result.first_turn <= AT


def variant(lib: Library, tmp_path: Path) -> Loaded[Methodology]:
    """means_end_chain with another weight on climbing from the top of a chain."""
    text = lib.methodology("means_end_chain").text
    old = "      graph.node.has_outgoing.false: 1.0\n"
    assert old in text
    path = tmp_path / "tuned_mec.yaml"
    path.write_text(text.replace(old, "      graph.node.has_outgoing.false: 0.2\n", 1))
    return lib.methodology(str(path))


def test_a_fork_under_another_methodology_keeps_the_origins_for_its_first_turns(
    lib: Library, origin: SessionFile, tmp_path: Path
) -> None:
    tuned = variant(lib, tmp_path)
    spec = fork_spec(lib, origin, tmp_path / "m", policy="adaptive", methodology=tuned, runs=1)
    assert spec.label.startswith("adaptive-means_end_chain-")
    _, (fork,) = forked(spec)
    assert fork.methodology.sha256 == tuned.sha256 and repeats_origin(origin, fork, AT)
    assert fork.fork is not None
    (rules,) = fork.fork.earlier
    assert rules.methodology is not None
    assert rules.methodology.sha256 == origin.methodology.sha256
    assert verify_session(fork).ok
    # Which methodology decided the first turns is checked like the session's own snapshot.
    rules.methodology.source += "\n# edited\n"
    assert any(m.check == "snapshot" for m in verify_session(fork).mismatches)


def test_a_fork_can_be_forked_again_and_keeps_who_decided_what(
    lib: Library,
    origin: SessionFile,
    breadth: tuple[BatchResult, list[SessionFile]],
    tmp_path: Path,
) -> None:
    parent = breadth[1][0]
    spec = fork_spec(lib, parent, tmp_path, at=AT + 2, policy="deepen_recent", runs=1)
    _, (child,) = forked(spec)
    assert child.fork is not None
    assert [(r.until_turn, r.policy) for r in child.fork.earlier] == [
        (AT, "adaptive"),
        (AT + 2, "breadth_first"),
    ]
    assert repeats_origin(parent, child, AT + 2) and verify_session(child).ok
    # Forked again before the parent's own turns: only the grandparent's stretch is left.
    rules = origin_rules(parent, 2, parent.methodology)
    assert [(r.until_turn, r.policy) for r in rules] == [(2, "adaptive")]


def test_re_running_skips_finished_forks(
    lib: Library, origin: SessionFile, breadth: tuple[BatchResult, list[SessionFile]]
) -> None:
    folder = {o.path.parent for o in breadth[0].outcomes if o.path is not None}.pop()
    result, forks = forked(fork_spec(lib, origin, folder))
    assert [o.status for o in result.outcomes] == ["skipped", "skipped"]
    assert forks == breadth[1]


def test_only_a_turn_followed_by_another_question_can_be_forked(origin: SessionFile) -> None:
    turns = forkable_turns(origin)
    assert turns == list(range(1, origin.turn_count))  # the last one chose the closing
    assert fork_question(origin, 1) is origin.turns[1].question
    last = origin.turn_count - 1
    expected = rf"--at 0: .* {origin.turn_count} complete turns\); use 1 to {last}"
    assert origin.turn_count >= 3  # a fork needs turns to start from and to diverge at
    with pytest.raises(UsageError, match=expected):
        fork_question(origin, 0)
    closing = f"turn {origin.turn_count} was followed by the closing question"
    with pytest.raises(UsageError, match=closing):
        fork_question(origin, origin.turn_count)


def test_the_rules_of_the_origin_name_a_methodology_only_when_it_differs(
    origin: SessionFile,
) -> None:
    same = origin_rules(origin, 3, origin.methodology)
    assert same == [RulesRecord(until_turn=3, policy="adaptive", methodology=None)]
    another = origin.methodology.model_copy(update={"sha256": "another"})
    other = origin_rules(origin, 3, another)
    assert other[0].methodology == origin.methodology
    # the same YAML, but the origin was recorded before a habit: its rules are recorded
    before = origin.methodology.model_copy(
        update={"tuning": {**origin.methodology.tuning, "ran_without": ["answered_why"]}}
    )
    older = origin.model_copy(update={"methodology": before})
    recorded = origin_rules(older, 3, origin.methodology)[0].methodology
    assert recorded is not None and recorded.tuning["ran_without"] == ["answered_why"]


def test_a_fork_keeps_the_stimulus_its_origin_showed(
    lib: Library, origin: SessionFile, tmp_path: Path
) -> None:
    from interview_cli.session.schema import StimulusRecord
    from interview_cli.simulation.fork import fork_session, plan_forks, state_at

    shown = origin.model_copy(update={"stimulus": StimulusRecord(text="Latchwise.")})
    spec = fork_spec(lib, shown, tmp_path, runs=1)
    batch, plan = plan_forks(spec)
    fork = fork_session(spec, batch, plan[0], state_at(shown, AT), "offline")
    assert fork.stimulus == shown.stimulus and fork.stimulus is not shown.stimulus
