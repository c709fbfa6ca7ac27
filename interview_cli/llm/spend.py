"""Spending: a hard cap on what model calls may cost (``--max-cost``), and costs shown honestly.

**The cap.** One :class:`SpendCap` is shared by every client of a run or a batch. Before each
model call (``RemoteLLM``), the most that call can cost is reserved: its prompt tokens
estimated from the prompt's characters (:func:`prompt_token_bound`, generous on purpose) plus
the client's whole ``max_tokens`` of output, at the model's input and output prices (cache
discounts ignored). If what was spent, plus what calls in flight may still cost, plus this
bound would pass the cap, the call is not made: :class:`SpendCapReached` is raised, and from
then on the cap is *closed*: every later call is refused too, so a batch stops as a whole
instead of trickling on with the calls that happen to be small. When a call returns, its
reservation is replaced by what it really cost. The cap counts what was spent before this
process started (``already_spent``: a resumed session's, or a batch's recorded sessions'), so
running the same command again with the same cap does not spend it twice.

A cap needs prices: a model without one (``llm.pricing``) cannot be bounded, so
:func:`require_prices` refuses such settings before anything runs.

**Showing costs.** :func:`format_cost` writes a cost that may be partly or wholly unknown
(calls of unpriced models) as ``unknown`` or ``$0.0123 + unknown``, never as ``$0``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from interview_cli.errors import InterviewError, UsageError

if TYPE_CHECKING:
    from interview_cli.llm.client_settings import LLMSettings
    from interview_cli.llm.pricing import Price, PricingTable

# The exit code of a run or batch stopped by its spend cap (documented in the README).
SPEND_CAP_EXIT = 3
# Tokens a chat message costs beyond its text (role markers, separators), counted generously.
_MESSAGE_OVERHEAD = 8


class SpendCapReached(InterviewError):
    """A model call was not made because it could have passed ``--max-cost``."""

    exit_code = SPEND_CAP_EXIT

    def __init__(self, message: str, *, spent: float = 0.0, cap: float = 0.0) -> None:
        super().__init__(message)
        self.spent = spent
        self.cap = cap


def prompt_token_bound(*texts: str) -> int:
    """A generous estimate of the tokens of a prompt made of ``texts``: one token per three
    ASCII characters and two per other character (English runs at about four characters a
    token; Chinese or Japanese at one to two tokens a character), plus a few per message."""
    ascii_chars = sum(sum(1 for ch in t if ord(ch) < 128) for t in texts)
    other = sum(len(t) for t in texts) - ascii_chars
    return math.ceil(ascii_chars / 3) + 2 * other + _MESSAGE_OVERHEAD * len(texts)


def cost_bound(price: Price, input_tokens: int, max_output_tokens: int) -> float:
    """The most a call can cost: every input token at the full input price (no cache
    discount) and the whole output budget at the output price."""
    return (input_tokens * price.input + max_output_tokens * price.output) / 1_000_000


class SpendCap:
    """The budget of one process: ``cap_usd`` in all, ``already_spent`` of it gone before."""

    def __init__(self, cap_usd: float, *, already_spent: float = 0.0) -> None:
        if not math.isfinite(cap_usd) or cap_usd < 0:
            raise UsageError(f"--max-cost must be a dollar amount of 0 or more, got {cap_usd}")
        self.cap_usd = cap_usd
        self.spent_usd = max(0.0, already_spent)
        self.reserved_usd = 0.0
        self.closed = False
        self.stopped_by: str = ""  # the refused call, for the message
        self.stopped_reserved = 0.0  # what calls in flight held when it was refused

    @property
    def committed_usd(self) -> float:
        return self.spent_usd + self.reserved_usd

    def reserve(self, bound: float, *, what: str) -> None:
        """Reserve ``bound`` dollars for a call about to be made, or raise
        :class:`SpendCapReached` (and close the cap) when it could pass the cap."""
        if self.closed or self.committed_usd + bound > self.cap_usd + 1e-12:
            if not self.closed:
                self.closed = True
                self.stopped_by = f"{what}, up to ${bound:.4f}"
                self.stopped_reserved = self.reserved_usd
            raise SpendCapReached(self.describe(), spent=self.spent_usd, cap=self.cap_usd)
        self.reserved_usd += bound

    def settle(self, bound: float, cost: float | None) -> None:
        """The call reserved with ``bound`` is over and cost ``cost`` (None: unknown, counted
        at its bound, since it was bounded by a price)."""
        self.reserved_usd = max(0.0, self.reserved_usd - bound)
        self.spent_usd += bound if cost is None else cost

    def describe(self) -> str:
        """What stopped the calls, in numbers that add up: spent, plus what calls in flight
        had reserved then, plus the refused call's bound, passes the cap."""
        why = f" (the next call, {self.stopped_by}, could pass it)" if self.stopped_by else ""
        held = (
            f" and ${self.stopped_reserved:.4f} reserved for calls in flight,"
            if self.stopped_reserved > 0
            else ""
        )
        return (
            f"spend cap reached: ${self.spent_usd:.4f} spent{held} of the "
            f"${self.cap_usd:.4f} --max-cost{why}"
        )


def unpriced_models(
    settings: LLMSettings, clients: Iterable[str], table: PricingTable
) -> list[str]:
    """``provider:model`` of the given clients that have no price (offline is free)."""
    from interview_cli.llm.pricing import is_priced

    found = set()
    for name in clients:
        cs = settings.client(name)
        if not is_priced(cs.provider, cs.model, table=table):
            found.add(f"{cs.provider}:{cs.model}")
    return sorted(found)


def require_prices(settings: LLMSettings, clients: Iterable[str], table: PricingTable) -> None:
    """A ``UsageError`` when ``--max-cost`` meets a model without a price: its calls cannot
    be bounded, so the cap could not be kept."""
    missing = unpriced_models(settings, clients, table)
    if missing:
        raise UsageError(
            f"--max-cost needs a price for every model, and {', '.join(missing)} has none: "
            "add it under `prices:` in your INTERVIEW_LLM_CONFIG file (a local model that "
            "is free: {input: 0, output: 0}), or drop --max-cost"
        )


def format_cost(cost_usd: float | None, unpriced: Sequence[str] = (), *, digits: int = 4) -> str:
    """``$0.0123``; ``unknown`` when nothing priced was spent but unpriced models were called
    (or ``cost_usd`` is None); ``$0.0123 + unknown`` when both."""
    if cost_usd is None or (unpriced and not cost_usd):
        return "unknown"
    text = f"${cost_usd:.{digits}f}"
    return f"{text} + unknown" if unpriced else text
