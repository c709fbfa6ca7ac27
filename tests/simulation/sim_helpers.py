"""Helpers for the simulation tests: a small test persona and persona requests."""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import Methodology, Persona
from interview_cli.llm.protocol import Exchange, PersonaRequest


def persona(**overrides: Any) -> Persona:
    """A test persona with one 5-rung means-end ladder and one 3-rung ladder."""
    data: dict[str, Any] = {
        "id": "tester",
        "name": "Test Person",
        "profile": "Someone who answers for tests.",
        "traits": {
            "verbosity": 0.3,
            "openness": 1.0,
            "knowledge": 1.0,
            "patience": 30,
            "skepticism": 0.0,
        },
        "ladders": {
            "means_end_chain": [
                [
                    "noise cancelling",
                    "can focus on the train",
                    "feel in control of my time",
                    "being productive",
                    "self-respect",
                ],
                ["long battery", "don't have to charge every day", "feel relaxed"],
            ]
        },
        "aliases": {"noise cancelling": ["the ANC"], "being productive": ["getting things done"]},
    }
    traits = overrides.pop("traits", {})
    data["traits"] = {**data["traits"], **traits}
    data.update(overrides)
    return Persona.model_validate(data)


def ask(
    who: Persona,
    methodology: Methodology,
    *,
    strategy: str | None,
    focus: str | None = None,
    history: list[tuple[str, str]] = (),  # type: ignore[assignment]
    turn: int | None = None,
    seed: int = 0,
    question: str = "Why is that important to you?",
) -> PersonaRequest:
    exchanges = [Exchange(question=q, answer=a) for q, a in history]
    return PersonaRequest(
        persona=who,
        question=question,
        history=exchanges,
        methodology=methodology,
        strategy=strategy,
        focus_label=focus,
        turn_number=turn if turn is not None else len(exchanges) + 1,
        seed=seed,
    )
