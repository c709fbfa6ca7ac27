"""Whether a batch may reuse the session files already in its output directory.

A finished interview is skipped, and an unfinished one continued, only when it was started
exactly as this batch would start it; otherwise its figures would be reported as the new
batch's (an offline result shown for an Anthropic batch, 19 turns for ``--max-turns 5``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interview_cli.errors import SessionFileError, UsageError
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore

# ``spec`` is a ``simulation.batch.BatchSpec`` and ``planned`` a ``PlannedInterview``;
# they are not imported, because ``run_batch`` calls in here (no import cycle).
BatchSpec = Any
PlannedInterview = Any

CLIENTS = ("extraction", "scoring", "generation", "respondent")


def stale_reasons(spec: BatchSpec, planned: PlannedInterview, session: SessionFile) -> list[str]:
    """What differs between ``session`` (already in the output directory) and what this batch
    would start: providers, models, settings, the methodology, concept and persona files,
    seed and policy. Empty when the session may be skipped or resumed as it is."""
    recorded = session.settings
    wanted: list[tuple[str, object, object]] = []
    for name in CLIENTS:
        old = recorded.clients.get(name)
        new = spec.settings.client(name)
        wanted.append(
            (
                f"{name} model",
                f"{old.provider}/{old.model}" if old else "unknown",
                f"{new.provider}/{new.model}",
            )
        )
    persona_sha = ((session.simulation or {}).get("persona") or {}).get("sha256")
    wanted += [
        ("max turns", recorded.max_turns, spec.max_turns),
        ("seed", recorded.seed, planned.seed),
        ("policy", recorded.policy, spec.policy),
        ("canonical slots", recorded.enable_canonical_slots, spec.canonical_slots),
        ("discourse hints", recorded.enable_discourse_hints, spec.discourse_hints),
        ("embeddings", recorded.enable_embeddings, spec.embeddings),
        ("methodology file", session.methodology.sha256[:8], spec.methodology.sha256[:8]),
        ("concept file", session.concept.sha256[:8], spec.concept.sha256[:8]),
        ("persona file", (persona_sha or "unknown")[:8], planned.persona.sha256[:8]),
    ]
    return [f"{what} {old} -> {new}" for what, old, new in wanted if old != new]


def stale_sessions(
    spec: BatchSpec, plan: Sequence[PlannedInterview]
) -> tuple[list[tuple[str, list[str]]], float]:
    """The planned interviews whose session file exists but was started differently, each
    with what differs (unreadable files are left to the run, which reports them); and what
    the recorded ones cost so far, read in the same pass."""
    store = SessionStore(spec.out)
    stale = []
    spent = 0.0
    for planned in plan:
        if not store.path_for(planned.session_id).exists():
            continue
        try:
            session = store.load(planned.session_id)
        except SessionFileError:
            continue
        spent += session.usage.priced_cost_usd
        reasons = stale_reasons(spec, planned, session)
        if reasons:
            stale.append((planned.session_id, reasons))
    return stale, spent


def refuse_stale(spec: BatchSpec, plan: Sequence[PlannedInterview]) -> float:
    """Raise a usage error when reusing the output directory would report, or continue,
    interviews that ran with other providers, models, settings or files. Otherwise, what
    the interviews already recorded there cost (``--max-cost`` counts it: re-running with
    the same cap does not spend it twice)."""
    stale, spent = stale_sessions(spec, plan)
    if not stale:
        return spent
    raise UsageError(
        f"{stale_text(spec, stale)}; use another --out (e.g. --out {_free_dir(spec.out)}) "
        "or move those session files away"
    )


def stale_text(spec: BatchSpec, stale: Sequence[tuple[str, list[str]]]) -> str:
    """Which interviews in the output directory ran with other settings, and what differs."""
    sid, reasons = stale[0]
    count = len(stale)
    which = sid if count == 1 else f"{count} interviews (e.g. {sid})"
    return f"{spec.out}: {which} already ran there with different settings ({'; '.join(reasons)})"


def free_dir_hint(spec: BatchSpec) -> str:
    """An output directory beside ``spec.out`` that does not exist yet, as an option."""
    return f"--out {_free_dir(spec.out)}"


def _free_dir(out: Path) -> Path:
    n = 2
    while out.with_name(f"{out.name}-{n}").exists():
        n += 1
    return out.with_name(f"{out.name}-{n}")
