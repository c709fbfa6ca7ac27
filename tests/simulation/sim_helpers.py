"""Helpers for the simulation tests: a small test persona and persona requests."""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.llm.protocol import Exchange, PersonaRequest

TOPIC = Concept(
    id="headphones_mec",
    name="Wireless headphones",
    methodology="means_end_chain",
    objective="Why people choose the wireless headphones they use.",
)


def persona(**overrides: Any) -> Persona:
    """A test persona with one 5-rung means-end ladder and one 3-rung ladder about
    headphones (``TOPIC``); two rungs have sayings (said instead of their code)."""
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
        "beliefs": {
            "headphones_mec": [
                [
                    {"code": "noise cancelling", "says": ["the ANC"]},
                    "can focus on the train",
                    "feel in control of my time",
                    {"code": "being productive", "says": ["getting things done"]},
                    "self-respect",
                ],
                ["long battery", "don't have to charge every day", "feel relaxed"],
            ]
        },
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
        concept=TOPIC,
        methodology=methodology,
        strategy=strategy,
        focus_label=focus,
        turn_number=turn if turn is not None else len(exchanges) + 1,
        seed=seed,
    )


def talker(**overrides: Any) -> Persona:
    """A test persona that talks like people: a voice, three sayings per rung of its first
    ladder (none of them its code's words), a misspoken first rung on the second ladder."""
    data: dict[str, Any] = {
        "id": "talker",
        "name": "Tess Talker",
        "profile": "Someone who talks like a person, for tests.",
        "traits": {
            "verbosity": 0.6,
            "openness": 1.0,
            "knowledge": 1.0,
            "patience": 30,
            "skepticism": 0.0,
        },
        "voice": {
            "hedges": ["to be honest"],
            "fillers": ["like"],
            "address": ["love"],
            "backstory": ["I had the old pair for nine years"],
            "asides": ["my sister says I'm obsessed"],
            "jokes": ["ha, I sound like an advert"],
            "ceiling": ["that's as deep as I go, love"],
            "typo_rate": 0.0,
        },
        "beliefs": {
            "headphones_mec": [
                [
                    {
                        "code": "noise cancelling",
                        "says": ["the ANC", "they shut the world out", "the hush button"],
                    },
                    {
                        "code": "can focus on the train",
                        "says": [
                            "I get my reading done on the commute",
                            "I can think on the way in",
                            "the carriage stops being a distraction",
                        ],
                    },
                    {
                        "code": "feel in control of my time",
                        "says": ["my mornings are mine", "the journey isn't wasted", "I'm ahead"],
                    },
                    {"code": "being productive", "says": ["getting things done", "on top of it"]},
                    {"code": "self-respect", "says": ["I respect myself", "proud of my days"]},
                ],
                [
                    {
                        "code": "long battery",
                        "says": ["it lasts all week", "thirty hours a charge"],
                        "misspoken": "it charges in ten minutes",
                    },
                    {
                        "code": "don't have to charge every day",
                        "says": ["no cable hunting", "I forget the charger exists"],
                    },
                    {"code": "feel relaxed", "says": ["I'm calmer", "one less thing"]},
                ],
            ]
        },
    }
    data.update(overrides)
    return Persona.model_validate(data)
