"""A placeholder simulated respondent for the offline provider.

The offline half of ``respond_as_persona``: enough for a demo and for tests of the batch
plumbing, not a model of behaviour. It answers from the persona's hidden ladders (concrete
-> abstract) for this methodology: asked about a rung, it names the next one or two with a
"because"; asked an open question, it starts the next ladder not yet mentioned; at the top
of a ladder, or past what the persona knows, it says it doesn't know. The real seeded ladder
simulator is ``llm.offline.simulator``.
"""

from __future__ import annotations

import random

from rapidfuzz import fuzz

from interview_cli.config.schemas import Persona
from interview_cli.llm.protocol import PersonaRequest

MATCH_THRESHOLD = 80
_CLOSING_WORDS = (
    "anything else",
    "before we finish",
    "wrap up",
    "did i get that right",
    "is that accurate",
)


def _ladders(request: PersonaRequest) -> list[list[str]]:
    persona = request.persona
    if request.methodology is not None:
        return [[r.label for r in ladder] for ladder in persona.typed_ladders(request.methodology)]
    return [[r.label for r in ladder] for group in persona.ladders.values() for ladder in group]


def _names(persona: Persona, label: str) -> list[str]:
    return [label, *persona.aliases.get(label, [])]


def _locate(request: PersonaRequest, ladders: list[list[str]]) -> tuple[int, int] | None:
    """(ladder, rung) of the focus label, matched fuzzily against rungs and their aliases."""
    if not request.focus_label:
        return None
    best: tuple[float, int, int] | None = None
    for li, ladder in enumerate(ladders):
        for ri, rung in enumerate(ladder):
            score = max(
                fuzz.token_set_ratio(request.focus_label.lower(), n.lower())
                for n in _names(request.persona, rung)
            )
            if score >= MATCH_THRESHOLD and (best is None or score > best[0]):
                best = (score, li, ri)
    return (best[1], best[2]) if best else None


def _mentioned(request: PersonaRequest, label: str) -> bool:
    said = " ".join(e.answer.lower() for e in request.history)
    return label.lower() in said


def offline_persona_answer(request: PersonaRequest) -> str:
    persona = request.persona
    traits = persona.traits
    rng = random.Random(f"{request.seed}:{request.turn_number}:{persona.id}")
    question = request.question.lower()
    if any(w in question for w in _CLOSING_WORDS) and request.turn_number > 1:
        return "No, I think that covers it. Thanks for asking."
    ladders = _ladders(request)
    if not ladders:
        profile = persona.profile.strip().rstrip(".").lower()
        return f"Well, as {profile}, I don't have much more to say about it."
    reveal = 1 + (traits.openness >= 0.6) + (traits.verbosity >= 0.7)
    known = max(1, round(traits.knowledge * max(len(ladder) for ladder in ladders)))
    where = _locate(request, ladders)
    if where is None:
        fresh = [ladder for ladder in ladders if not _mentioned(request, ladder[0])] or ladders
        ladder = (
            fresh[rng.randrange(len(fresh))]
            if len(fresh) > 1 and request.turn_number > 1
            else fresh[0]
        )
        rungs = ladder[: 1 + reveal]
        return _sentence(rungs, opening=True)
    li, ri = where
    ladder = ladders[li]
    if ri + 1 >= len(ladder):
        return "It just matters to me, that's all there is to it. I don't know what more to say."
    if ri + 1 >= known:
        return "I don't know, I've never really thought about it."
    return _sentence(ladder[ri + 1 : ri + 1 + reveal], opening=False)


def _sentence(rungs: list[str], *, opening: bool) -> str:
    first = f"I'd say it's the {rungs[0]}" if opening else f"Because {rungs[0]}"
    rest = "".join(
        f", because {rung}" if i == 0 and opening else f", which means {rung}"
        for i, rung in enumerate(rungs[1:])
    )
    return first + rest + "."
