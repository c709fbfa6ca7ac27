"""How a provider call failed, classified: the vocabulary shared by the providers (which raise
a :class:`ProviderError`) and the retry loop (which decides from it whether to try again).

It sits below both so neither imports the other to name it.
"""

from __future__ import annotations

from typing import Literal

from interview_cli.safe_text import redact_secrets

FailureKind = Literal[
    "rate_limit",
    "overloaded",
    "server",
    "timeout",
    "connection",
    "malformed",
    "auth",
    "permission",
    "not_found",
    "bad_request",
    "other",
]
RETRYABLE_KINDS: frozenset[str] = frozenset(
    {"rate_limit", "overloaded", "server", "timeout", "connection", "malformed"}
)


class ProviderError(Exception):
    """A failed HTTP exchange, classified. Holds strings only: never the SDK exception, whose
    request object carries the key in its headers."""

    def __init__(
        self,
        kind: FailureKind,
        detail: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.kind = kind
        self.detail = detail
        self.status = status
        self.retry_after = retry_after
        super().__init__(self.describe())

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE_KINDS

    def describe(self) -> str:
        what = {
            "rate_limit": "rate limited",
            "overloaded": "provider overloaded",
            "server": "server error",
            "timeout": "timed out",
            "connection": "connection failed",
            "malformed": "malformed response",
            "auth": "authentication failed",
            "permission": "permission denied",
            "not_found": "model or endpoint not found",
            "bad_request": "request rejected",
            "other": "unexpected failure",
        }[self.kind]
        status = f" ({self.status})" if self.status else ""
        # A provider's message may quote the URL called, with the key it carried.
        detail = f": {redact_secrets(self.detail)}" if self.detail else ""
        return f"{what}{status}{detail}"


__all__ = ["RETRYABLE_KINDS", "FailureKind", "ProviderError"]
