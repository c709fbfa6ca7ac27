"""The anthropic provider: Claude over ``AsyncAnthropic`` (seed 001 "Supported Providers").

No sampling parameters (the SDK has none); ``effort`` from the client settings goes in
``output_config`` and is dropped for good if the model refuses it. Structured output by
forced tool use: one tool whose ``input_schema`` is the task's JSON
schema and ``tool_choice={"type": "tool", "name": ...}``; the SDK hands the tool ``input`` back
as a dict. Text tasks stream with ``stream=True`` when asked (``on_token`` per text delta) and
otherwise read the text blocks. The base URL is the host without ``/v1``: the SDK adds it.

Prompt caching: the system block and the tool carry ``cache_control`` (the prompts put
everything that is the same every turn there); usage reports cache writes and reads apart
from ``input_tokens``, and they are priced apart (``pricing.cost_usd``).
"""

from __future__ import annotations

from typing import Any

from interview_cli.llm.protocol import OnToken
from interview_cli.llm.providers.base import (
    Provider,
    ProviderReply,
    ProviderRequest,
    classify_exception,
    malformed,
    shared_ssl_context,
    tool_description,
)
from interview_cli.llm.providers.text_json import json_object_in

# Prompt caching of the static blocks (system, tool): an ephemeral (5-minute) breakpoint.
CACHE: dict[str, str] = {"type": "ephemeral"}


class AnthropicProvider(Provider):
    name = "anthropic"

    def _make_client(self, api_key: str) -> Any:
        from anthropic import AsyncAnthropic, DefaultAsyncHttpxClient  # lazy: see providers.base

        kwargs: dict[str, Any] = {
            "api_key": api_key,
            "max_retries": 0,  # retry.py retries, with a capped Retry-After
            "timeout": self.settings.timeout_s,
            "http_client": DefaultAsyncHttpxClient(verify=shared_ssl_context()),
        }
        if self.settings.base_url:
            kwargs["base_url"] = self.settings.base_url
        return AsyncAnthropic(**kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.send_effort = self.settings.effort is not None

    def _base_kwargs(self, request: ProviderRequest) -> dict[str, Any]:
        # No temperature: the installed SDK (2.x) takes no sampling parameters; effort is the
        # knob seed 001 uses for Sonnet 4.6 (medium for extraction, low for generation).
        kwargs: dict[str, Any] = {
            "model": self.settings.model,
            "max_tokens": request.max_tokens,
            # The system part is the same every turn of a task (ontology, rubrics, craft
            # rules): cached, later turns read it at a tenth of the input price.
            "system": [{"type": "text", "text": request.system, "cache_control": CACHE}],
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "timeout": request.timeout_s,
        }
        if self.send_effort and self.settings.effort:
            kwargs["output_config"] = {"effort": self.settings.effort}
        return kwargs

    async def _complete(self, request: ProviderRequest, on_token: OnToken | None) -> ProviderReply:
        if not self.send_effort:
            return await self._complete_once(request, on_token)
        refused = False
        try:
            return await self._complete_once(request, on_token)
        except Exception as exc:  # noqa: BLE001 - only a refusal of effort is handled here
            error = classify_exception(exc)
            if (
                error is None
                or error.kind != "bad_request"
                or not any(word in error.detail.lower() for word in ("effort", "output_config"))
            ):
                raise
            refused = True
        if refused:
            # A model without effort support: drop it for this provider's lifetime.
            self.send_effort = False
        return await self._complete_once(request, on_token)

    async def _complete_once(
        self, request: ProviderRequest, on_token: OnToken | None
    ) -> ProviderReply:
        kwargs = self._base_kwargs(request)
        if request.schema is not None:
            name = request.tool_name or "record_result"
            kwargs["tools"] = [
                {
                    "name": name,
                    "description": tool_description(name),
                    "input_schema": request.schema,
                    "cache_control": CACHE,
                }
            ]
            kwargs["tool_choice"] = {"type": "tool", "name": name}
            return _tool_reply(await self.client().messages.create(**kwargs), name)
        if request.stream and on_token is not None:
            return await self._stream(kwargs, on_token)
        return _text_reply(await self.client().messages.create(**kwargs))

    async def _stream(self, kwargs: dict[str, Any], on_token: OnToken) -> ProviderReply:
        stream = await self.client().messages.create(**kwargs, stream=True)
        reply = ProviderReply()
        pieces: list[str] = []
        started = False
        try:
            async for event in stream:
                kind = getattr(event, "type", None)
                if kind == "message_start":
                    started = True
                    _read_usage(getattr(getattr(event, "message", None), "usage", None), reply)
                elif kind == "content_block_delta":
                    delta = getattr(event, "delta", None)
                    text = getattr(delta, "text", None)
                    if getattr(delta, "type", None) == "text_delta" and isinstance(text, str):
                        pieces.append(text)
                        on_token(text)
                elif kind == "message_delta":
                    usage = getattr(event, "usage", None)
                    reply.output_tokens = int(getattr(usage, "output_tokens", 0) or 0)
                    reply.stop_reason = getattr(getattr(event, "delta", None), "stop_reason", None)
        finally:
            await stream.close()
        if not started:
            # text/plain, an empty body or unknown events: the SDK yields nothing and says
            # nothing, so an empty question would pass for an answer.
            raise malformed("the stream carried no message")
        reply.text = "".join(pieces)
        return reply


def _check_message(message: Any) -> list[Any]:
    from anthropic.types import Message

    content = getattr(message, "content", None)
    if not isinstance(message, Message) or not isinstance(content, list):
        got = type(message).__name__ if not isinstance(message, Message) else "no content"
        raise malformed(f"expected a message, got {got}")
    return content


def _read_usage(usage: Any, reply: ProviderReply) -> None:
    """Input tokens at full price, and apart from them the cache writes and reads."""
    reply.input_tokens = int(getattr(usage, "input_tokens", 0) or 0)
    reply.cache_write_tokens = int(getattr(usage, "cache_creation_input_tokens", 0) or 0)
    reply.cache_read_tokens = int(getattr(usage, "cache_read_input_tokens", 0) or 0)


def _usage(message: Any, reply: ProviderReply) -> ProviderReply:
    usage = getattr(message, "usage", None)
    _read_usage(usage, reply)
    reply.output_tokens = int(getattr(usage, "output_tokens", 0) or 0)
    reply.stop_reason = getattr(message, "stop_reason", None)
    return reply


def _text_of(content: list[Any]) -> str:
    return "".join(
        getattr(b, "text", "") or "" for b in content if getattr(b, "type", None) == "text"
    )


def _text_reply(message: Any) -> ProviderReply:
    content = _check_message(message)
    return _usage(message, ProviderReply(text=_text_of(content)))


def _tool_reply(message: Any, name: str) -> ProviderReply:
    content = _check_message(message)
    reply = _usage(message, ProviderReply(text=_text_of(content)))
    calls = [b for b in content if getattr(b, "type", None) == "tool_use"]
    match = next((b for b in calls if getattr(b, "name", None) == name), None)
    if match is None:
        # A model that ignored the tool but wrote the JSON anyway is still usable.
        written = json_object_in(reply.text)
        if written is not None:
            reply.data = written
            return reply
        reply.problem = (
            f"you called {calls[0].name!r} instead of {name!r}"
            if calls
            else f"you answered in text instead of calling the tool {name!r}"
        )
        return reply
    data = getattr(match, "input", None)
    if not isinstance(data, dict):
        reply.problem = f"the {name!r} tool input must be a JSON object"
        return reply
    reply.data = data
    return reply
