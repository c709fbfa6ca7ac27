"""What the offline respondent remembers of being asked: re-asks, complaints, redirections.

A real respondent notices being asked the same thing twice. The simulator (``simulator``)
asks this module, from the conversation so far (``PersonaRequest.history``, whose exchanges
carry the interviewer's strategy and focus):

- **re-asked**: the same focus (the same rung, or the same label) with the same strategy as
  an earlier question, and no rung said for the first time in any answer since that question.
  The persona then says so and adds nothing (``phrasing.complaint``);
- **irritation**: how many times it already complained. Each complaint costs a persona
  with little ``repetition_tolerance`` some patience: its answers tire sooner;
- **stuck**: an earlier plain question on this rung (not a redirection) brought nothing new
  - a vague answer or a don't-know. A redirection (``REDIRECTIONS``) on such a rung gets
  past it more often than the plain "why" did, and may reach one rung past what the persona
  would say unprompted (``knowledge``), never past the ladder's end.

Everything here is a pure function of its arguments, like the simulator.
"""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.core.text import normalise
from interview_cli.llm.protocol import Exchange
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents.matching import PersonaBeliefs

Rung = tuple[int, int]

# Node-bound redirections of a stuck "why" (what would you miss without it, why might someone
# like you care, think of the last time), and the node-less breadth check ("what else matters
# to you about ...?"), which is answered like any open question.
REDIRECTIONS = frozenset({"negative_ladder", "third_person", "situational"})
OPEN_STRATEGIES = frozenset({"breadth_check"})
# A redirection on a stuck rung removes this share of the persona's resistance to say more:
# openness 0.3 -> 0.65, 0.8 -> 0.9 ...
REDIRECT_LIFT = 0.5
# ... and past what the persona says unprompted (one rung at most) half as often.
BEYOND_KNOWLEDGE_SHARE = 0.5
# Turns of patience one complaint costs a persona with no tolerance for repetition.
IRRITATION_TURNS = 3.0
_COMPLAINTS = frozenset(say.COMPLAIN_MILD + say.COMPLAIN_SHARP)


def first_said(mentioned: Sequence[set[Rung]]) -> list[set[Rung]]:
    """Per answer, the rungs it said for the first time (from the rungs each one mentions)."""
    seen: set[Rung] = set()
    out = []
    for rungs in mentioned:
        out.append(rungs - seen)
        seen |= rungs
    return out


def focus_key(beliefs: PersonaBeliefs, label: str | None) -> Rung | str | None:
    """What a focus label points at: the persona's rung when it names one, else the label."""
    if not label:
        return None
    found = beliefs.locate(label, misspoken=True)
    return (found[0].ladder, found[0].index) if found else normalise(label)


def reasked(
    beliefs: PersonaBeliefs,
    history: Sequence[Exchange],
    mentioned: Sequence[set[Rung]],
    *,
    strategy: str | None,
    focus_label: str | None,
) -> bool:
    """Whether this question repeats an earlier one (same focus, same strategy) with nothing
    new said since it was asked."""
    target = focus_key(beliefs, focus_label)
    if target is None or not strategy:
        return False
    fresh = first_said(mentioned)
    for j in range(len(history) - 1, -1, -1):
        exchange = history[j]
        if exchange.strategy == strategy and focus_key(beliefs, exchange.focus_label) == target:
            return not any(fresh[j:])
    return False


def complaints(history: Sequence[Exchange]) -> int:
    """How often the persona already said it was asked that before."""
    return sum(1 for exchange in history if exchange.answer.strip() in _COMPLAINTS)


def irritation_turns(count: int, tolerance: float) -> int:
    """Turns of patience ``count`` complaints have cost a persona of this tolerance."""
    return int(count * (1.0 - tolerance) * IRRITATION_TURNS)


def stuck_on(
    beliefs: PersonaBeliefs,
    history: Sequence[Exchange],
    mentioned: Sequence[set[Rung]],
    rung: Rung,
) -> bool:
    """Whether a plain question (not a redirection) on ``rung`` already got nothing new."""
    fresh = first_said(mentioned)
    for j, exchange in enumerate(history):
        if exchange.strategy in REDIRECTIONS or exchange.strategy in OPEN_STRATEGIES:
            continue
        if focus_key(beliefs, exchange.focus_label) == rung and not fresh[j]:
            return True
    return False
