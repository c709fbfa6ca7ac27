"""A local fake of the two provider HTTP APIs, scriptable per request (issue 4, item 9).

respx cannot intercept the installed SDK versions (they ship their own HTTP stack), so the
contract tests point the *real* ``AsyncAnthropic`` / ``AsyncOpenAI`` clients at this server on
127.0.0.1 and an ephemeral port. It speaks:

- anthropic ``POST /v1/messages``: forced tool use (``tool_use`` block with an ``input`` dict)
  and ``stream: true`` server-sent events (message_start ... message_stop);
- openai-compatible ``POST /v1/chat/completions``: ``tool_calls`` with JSON-string
  ``arguments``, ``response_format`` json_object, and ``stream: true`` chunks ending in
  ``[DONE]`` (with a usage chunk when ``stream_options.include_usage`` is set).

Each request takes the next scripted :class:`Step` (``ok`` when the script is empty, or a
seeded random fault when ``fault_rate`` is set). Every request is recorded (path, headers,
JSON body) so tests can assert what the SDK actually sent.

The package splits by responsibility: :mod:`.script` (the faults, :class:`Step`,
:class:`Recorded`), :mod:`.server` (:class:`FakeLLMServer` and its HTTP handler),
:mod:`.replies` (what a request gets, given its step) and :mod:`.payloads` (each API's
message, completion and stream bodies). Import from the package: ``from fakeserver import
...`` beside the LLM tests, ``from tests.llm.fakeserver import ...`` elsewhere.
"""

from __future__ import annotations

from .script import CUT_STREAM, FAULTS, OUTPUT_FAULTS, TRANSPORT_FAULTS, Recorded, Step
from .server import FakeLLMServer

__all__ = [
    "CUT_STREAM",
    "FAULTS",
    "OUTPUT_FAULTS",
    "TRANSPORT_FAULTS",
    "FakeLLMServer",
    "Recorded",
    "Step",
]
