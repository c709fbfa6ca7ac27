"""What the fake server answers to one request, given its step: an error status, a broken
or cut stream, a malformed body, or a good answer (a tool call, JSON or text, streamed or
not) built by :mod:`.payloads`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .payloads import anthropic_message, anthropic_stream, openai_completion, openai_stream, sse
from .script import Step
from .tasks import tool_name

if TYPE_CHECKING:
    from .server import FakeLLMServer, RequestHandler


def _named_in_prompt(fake: FakeLLMServer, body: dict[str, Any]) -> str:
    """json_object mode sends no tool: find which scripted tool the prompt talks about."""
    text = json.dumps(body.get("messages", []))
    return next((name for name in fake.tool_inputs if name in text), "")


def _error_body(api: str, status: int, message: str) -> dict[str, Any]:
    if api == "anthropic":
        kind = {
            429: "rate_limit_error",
            529: "overloaded_error",
            401: "authentication_error",
            400: "invalid_request_error",
            404: "not_found_error",
        }.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "server_error", "code": str(status)}}


def respond(h: RequestHandler, api: str, body: dict[str, Any], step: Step) -> None:
    fake = h.fake
    kind = step.kind
    if kind in ("rate_limit", "server_error", "overloaded", "status"):
        status = {"rate_limit": 429, "server_error": 500, "overloaded": 529}.get(kind, step.status)
        assert status is not None
        headers = {}
        if kind == "rate_limit" or step.retry_after is not None:
            headers["retry-after"] = step.retry_after if step.retry_after is not None else "1"
        message = step.message or f"fake {status}"
        if fake.echo_key:
            sent = h.headers.get("x-api-key") or h.headers.get("authorization", "")
            message += f" (request made with key {sent.removeprefix('Bearer ')})"
        h._send(status, _error_body(api, status, message), headers=headers)
        return
    if kind == "cut_stream":
        events = (
            anthropic_stream
            if api == "anthropic"
            else lambda m, t: openai_stream(m, t, include_usage=False)
        )(str(body.get("model")), fake.text_reply)
        h._send_sse(events[: len(events) // 2], cut=True)
        return
    if kind == "slow":
        fake.wait(step.delay_s or fake.slow_s)
        kind = "ok"  # if the client is still listening, it gets a good answer
    stream = bool(body.get("stream"))
    if kind == "invalid_json":
        if stream:
            h._send_sse([sse("message_start" if api == "anthropic" else None, '{"type": "mess')])
        else:
            h._send(200, b'{"id": "msg_1", "content": [', content_type="application/json")
        return
    if kind == "text_plain":
        h._send(200, b"upstream proxy says hello", content_type="text/plain")
        return
    if kind == "wrong_shape":
        if stream:
            h._send_sse([sse("surprise" if api == "anthropic" else None, {"unexpected": 1})])
        else:
            h._send(200, {"unexpected": ["shape"], "status": "fine"})
        return

    tool = tool_name(api, body)
    wants_json = (body.get("response_format") or {}).get("type") == "json_object"
    text = step.text if step.text is not None else fake.text_reply
    tool_input: Any = None
    if (tool or wants_json) and kind != "no_tool":
        if kind == "bad_args":
            tool_input = fake.bad_args
        elif step.tool_input is not None:
            tool_input = step.tool_input
        else:
            tool_input = fake.tool_inputs.get(tool or _named_in_prompt(fake, body), {})
    if kind == "no_tool" and tool:
        text = step.text if step.text is not None else "I would rather just talk about it."
    if step.content is not None:
        tool_input, text, wants_json = None, step.content, False
    if kind == "bad_args" and not (tool or wants_json):
        text = ""  # the text tasks' schema violation: an empty answer
    model = str(body.get("model", "fake-model"))
    write, read = fake.cache_tokens
    if api == "anthropic":
        cache = {"cache_creation_input_tokens": write, "cache_read_input_tokens": read}
        if stream:
            events = anthropic_stream(model, text)
            start = json.loads(events[0].decode().split("data: ", 1)[1])
            start["message"]["usage"].update(cache)
            events[0] = sse("message_start", start)
            h._send_sse(events)
        else:
            payload = anthropic_message(model, tool, tool_input, text)
            payload["usage"].update(cache)
            h._send(200, payload)
    else:
        if stream:
            h._send_sse(
                openai_stream(
                    model,
                    text,
                    include_usage=bool((body.get("stream_options") or {}).get("include_usage")),
                )
            )
        else:
            payload = openai_completion(model, tool, tool_input, text, wants_json)
            if read:
                payload["usage"]["prompt_tokens"] += read
                payload["usage"]["prompt_tokens_details"] = {"cached_tokens": read}
            if step.raw_arguments is not None and tool:
                payload["choices"][0]["message"]["tool_calls"] = [
                    {
                        "id": "call_fake1",
                        "type": "function",
                        "function": {"name": tool, "arguments": step.raw_arguments},
                    }
                ]
            h._send(200, payload)
