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

A test can also script one task's replies (``script_task("extract", Step(...))``): the task
is read from the request (:mod:`.tasks`), so a scripted model answers extraction and assessment
right whatever order they arrive in. With a :class:`Relay` the server writes each request to a
folder and answers with the reply file put beside it: a person or an outside model plays the
LLM for a whole interview (``python -m tests.llm.fakeserver --dir DIR``; see
:mod:`.relay`).

The package splits by responsibility: :mod:`.script` (the faults, :class:`Step`,
:class:`Recorded`), :mod:`.server` (:class:`FakeLLMServer` and its HTTP handler),
:mod:`.replies` (what a request gets, given its step), :mod:`.payloads` (each API's
message, completion and stream bodies), :mod:`.tasks` (which task a request is) and
:mod:`.relay`. Import from the package: ``from fakeserver import
...`` beside the LLM tests, ``from tests.llm.fakeserver import ...`` elsewhere.
"""

from __future__ import annotations

from .relay import Relay
from .script import CUT_STREAM, FAULTS, OUTPUT_FAULTS, TRANSPORT_FAULTS, Recorded, Step
from .server import FakeLLMServer
from .tasks import task_of

__all__ = [
    "CUT_STREAM",
    "FAULTS",
    "OUTPUT_FAULTS",
    "TRANSPORT_FAULTS",
    "FakeLLMServer",
    "Recorded",
    "Relay",
    "Step",
    "task_of",
]
