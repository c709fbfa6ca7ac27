"""Creating a new session file from library items and resolved LLM settings."""

from __future__ import annotations

from interview_cli import __version__
from interview_cli.config.loader import Loaded
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.llm.client_settings import LLMSettings
from interview_cli.session.clock import now_iso
from interview_cli.session.schema import (
    ClientChoice,
    ConceptSnapshot,
    MethodologySnapshot,
    SessionFile,
    SessionSettings,
)


def new_session(
    *,
    session_id: str,
    concept: Loaded[Concept],
    methodology: Loaded[Methodology],
    settings: LLMSettings,
    max_turns: int,
    language: str | None = None,
    seed: int = 0,
    ask_rating: bool = True,
    policy: str = "adaptive",
    timestamps: bool = True,
    canonical_slots: bool = True,
    discourse_hints: bool = False,
    embeddings: bool = False,
) -> SessionFile:
    """A fresh ``active`` session. ``concept``/``methodology`` are library ``Loaded`` items:
    their exact YAML text is snapshotted so that resume and replay use what ran."""
    c: Concept = concept.value
    m: Methodology = methodology.value
    stamp = now_iso() if timestamps else ""
    return SessionFile(
        id=session_id,
        tool_version=__version__,
        status="active",
        created_at=stamp,
        updated_at=stamp,
        concept=ConceptSnapshot(
            id=c.id,
            name=c.name,
            objective=c.objective,
            methodology=m.name,
            sha256=concept.sha256,
            source=concept.text,
        ),
        methodology=MethodologySnapshot(
            name=m.name,
            version=m.method.version,
            sha256=methodology.sha256,
            path=str(methodology.path),
            source=methodology.text,
            tuning=m.tuning.model_dump(mode="json"),
        ),
        settings=SessionSettings(
            max_turns=max_turns,
            language=language,
            seed=seed,
            clients={
                name: ClientChoice(provider=cs.provider, model=cs.model)
                for name in ("extraction", "scoring", "generation", "respondent")
                for cs in (settings.client(name),)
            },
            provider_label=settings.describe(),
            ask_summary_rating=ask_rating,
            policy=policy,
            enable_canonical_slots=canonical_slots,
            enable_discourse_hints=discourse_hints,
            enable_embeddings=embeddings,
        ),
    )
