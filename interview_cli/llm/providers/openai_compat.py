"""OpenAI-compatible providers: openai, kimi (Moonshot) and deepseek over ``AsyncOpenAI``.

Seed 001 runs kimi and deepseek as OpenAI-compatible base URLs; one class serves all three,
with a small per-provider profile for where they differ. Structured output is a forced
function call (``tools`` + ``tool_choice``), whose ``arguments`` arrive as a JSON *string*.
Some models refuse a forced ``tool_choice`` with a 400 (Kimi's thinking models do); then the
provider falls back, for the rest of its life, to ``response_format={"type": "json_object"}``
with the schema spelled out in the system prompt. Streaming reads ``stream=True`` chunks and
asks for a final usage chunk where the API supports ``stream_options``.

Tools are sent with ``"strict": true`` (the schemas of ``prompts.output_schemas`` are written
for strict mode); an API that refuses it gets plain tools from then on. Cached prompt tokens
(``prompt_tokens_details.cached_tokens``) are counted as cache reads, apart from the input.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from interview_cli.llm.protocol import OnToken
from interview_cli.llm.providers.base import (
    Provider,
    ProviderError,
    ProviderReply,
    ProviderRequest,
    classify_exception,
    malformed,
    shared_ssl_context,
    tool_description,
)
from interview_cli.llm.providers.text_json import json_object_in


@dataclass(frozen=True)
class CompatProfile:
    """Where an OpenAI-compatible API differs from OpenAI's."""

    max_tokens_param: str = "max_tokens"
    stream_usage: bool = True  # accepts stream_options={"include_usage": True}


PROFILES: dict[str, CompatProfile] = {
    # max_completion_tokens is what current OpenAI models take (max_tokens is deprecated).
    "openai": CompatProfile(max_tokens_param="max_completion_tokens"),
    "kimi": CompatProfile(),
    "deepseek": CompatProfile(),
    # Ollama, vLLM, LM Studio and most proxies take max_tokens and stream_options.
    "openai-compatible": CompatProfile(),
}


class OpenAICompatProvider(Provider):
    name = "openai"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name = self.settings.provider
        self.profile = PROFILES.get(self.settings.provider, CompatProfile())
        self.structured_mode = "tools"  # or "json_object" after the API refused tools
        self.strict_tools = True  # False after the API refused "strict": true

    def _make_client(self, api_key: str) -> Any:
        from openai import AsyncOpenAI, DefaultAsyncHttpxClient  # lazy: see providers.base

        kwargs: dict[str, Any] = {
            "api_key": api_key,
            "max_retries": 0,  # retry.py retries, with a capped Retry-After
            "timeout": self.settings.timeout_s,
            "http_client": DefaultAsyncHttpxClient(verify=shared_ssl_context()),
        }
        if self.settings.base_url:
            kwargs["base_url"] = self.settings.base_url
        return AsyncOpenAI(**kwargs)

    def _base_kwargs(self, request: ProviderRequest, system: str) -> dict[str, Any]:
        messages = [{"role": "system", "content": system}]
        messages += [{"role": m.role, "content": m.content} for m in request.messages]
        return {
            "model": self.settings.model,
            "messages": messages,
            "temperature": request.temperature,
            self.profile.max_tokens_param: request.max_tokens,
            "timeout": request.timeout_s,
        }

    async def _complete(self, request: ProviderRequest, on_token: OnToken | None) -> ProviderReply:
        if request.schema is not None:
            name = request.tool_name or "record_result"
            if self.structured_mode == "tools":
                refused: ProviderError | None = None
                try:
                    return await self._tool_call(request, name)
                except Exception as exc:  # noqa: BLE001 - only a refusal of tools is handled
                    error = classify_exception(exc)
                    if error is None or not (_refuses_tools(error) or _refuses_strict(error)):
                        raise
                    refused = error
                if refused is not None and self.strict_tools and _refuses_strict(refused):
                    # An API without strict mode: plain tools for this provider's lifetime.
                    self.strict_tools = False
                    return await self._complete(request, on_token)
                if refused is not None:
                    self.structured_mode = "json_object"
            return await self._json_call(request, name)
        if request.stream and on_token is not None:
            return await self._stream(request, on_token)
        completion = await self.client().chat.completions.create(
            **self._base_kwargs(request, request.system)
        )
        message, reply = _first_message(completion)
        reply.text = message.content if isinstance(message.content, str) else ""
        return reply

    async def _tool_call(self, request: ProviderRequest, name: str) -> ProviderReply:
        assert request.schema is not None
        kwargs = self._base_kwargs(request, request.system)
        function: dict[str, Any] = {
            "name": name,
            "description": tool_description(name),
            "parameters": request.schema,
        }
        if self.strict_tools:
            # The schemas are written for strict mode (output_schemas): the API then holds
            # the arguments to them instead of leaving it to validation and a retry.
            function["strict"] = True
        kwargs["tools"] = [{"type": "function", "function": function}]
        kwargs["tool_choice"] = {"type": "function", "function": {"name": name}}
        completion = await self.client().chat.completions.create(**kwargs)
        message, reply = _first_message(completion)
        reply.text = message.content if isinstance(message.content, str) else ""
        calls = [
            c
            for c in (getattr(message, "tool_calls", None) or [])
            if getattr(getattr(c, "function", None), "name", None)
        ]
        match = next((c for c in calls if c.function.name == name), None)
        if match is None:
            # A model that ignored the tool but wrote the JSON anyway is still usable.
            parsed = json_object_in(reply.text)
            if parsed is not None:
                reply.data = parsed
            else:
                reply.problem = (
                    f"you called {calls[0].function.name!r} instead of {name!r}"
                    if calls
                    else f"you answered in text instead of calling the tool {name!r}"
                )
            return reply
        return _parse_arguments(reply, match.function.arguments, name)

    async def _json_call(self, request: ProviderRequest, name: str) -> ProviderReply:
        system = (
            f"{request.system}\n\nAnswer with one JSON object only (the {name} result), "
            "no prose, matching this JSON schema:\n"
            f"{json.dumps(request.schema, ensure_ascii=False)}"
        )
        kwargs = self._base_kwargs(request, system)
        kwargs["response_format"] = {"type": "json_object"}
        completion = await self.client().chat.completions.create(**kwargs)
        message, reply = _first_message(completion)
        reply.text = message.content if isinstance(message.content, str) else ""
        return _parse_arguments(reply, reply.text, name)

    async def _stream(self, request: ProviderRequest, on_token: OnToken) -> ProviderReply:
        kwargs = self._base_kwargs(request, request.system)
        if self.profile.stream_usage:
            kwargs["stream_options"] = {"include_usage": True}
        stream = await self.client().chat.completions.create(**kwargs, stream=True)
        reply = ProviderReply()
        pieces: list[str] = []
        valid_chunks = 0
        try:
            async for chunk in stream:
                choices = getattr(chunk, "choices", None)
                if not isinstance(choices, list):
                    continue
                valid_chunks += 1
                usage = getattr(chunk, "usage", None)
                for choice in choices:
                    text = getattr(getattr(choice, "delta", None), "content", None)
                    if isinstance(text, str) and text:
                        pieces.append(text)
                        on_token(text)
                    if getattr(choice, "finish_reason", None):
                        reply.stop_reason = choice.finish_reason
                    # Moonshot reports usage on the final choice rather than the chunk.
                    usage = usage or getattr(choice, "usage", None)
                if usage is not None:
                    _read_usage(usage, reply)
        finally:
            await stream.close()
        if not valid_chunks:
            raise malformed("the stream carried no completion chunks")
        reply.text = "".join(pieces)
        return reply


def _usage_field(usage: Any, name: str) -> int:
    value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, 0)
    return int(value or 0)


def _refuses_strict(error: ProviderError) -> bool:
    return error.kind == "bad_request" and "strict" in error.detail.lower()


def _refuses_tools(error: ProviderError) -> bool:
    detail = error.detail.lower()
    return error.kind == "bad_request" and ("tool" in detail or "function" in detail)


def _first_message(completion: Any) -> tuple[Any, ProviderReply]:
    from openai.types.chat import ChatCompletion

    choices = getattr(completion, "choices", None)
    if not isinstance(completion, ChatCompletion) or not isinstance(choices, list) or not choices:
        got = (
            type(completion).__name__
            if not isinstance(completion, ChatCompletion)
            else "no choices"
        )
        raise malformed(f"expected a chat completion, got {got}")
    message = getattr(choices[0], "message", None)
    if message is None:
        raise malformed("the completion has no message")
    reply = ProviderReply(stop_reason=getattr(choices[0], "finish_reason", None))
    _read_usage(getattr(completion, "usage", None), reply)
    return message, reply


def _read_usage(usage: Any, reply: ProviderReply) -> None:
    """Prompt tokens, less the cached ones (``prompt_tokens_details.cached_tokens``), which
    are counted and priced as cache reads."""
    if usage is None:
        return
    details = (
        usage.get("prompt_tokens_details")
        if isinstance(usage, dict)
        else getattr(usage, "prompt_tokens_details", None)
    )
    cached = _usage_field(details, "cached_tokens") if details is not None else 0
    reply.input_tokens = max(0, _usage_field(usage, "prompt_tokens") - cached)
    reply.cache_read_tokens = cached
    reply.output_tokens = _usage_field(usage, "completion_tokens")


def _parse_arguments(reply: ProviderReply, arguments: Any, name: str) -> ProviderReply:
    if isinstance(arguments, dict):
        reply.data = arguments
        return reply
    if not isinstance(arguments, str) or not arguments.strip():
        reply.problem = f"the {name!r} arguments were empty"
        return reply
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError as exc:
        parsed = json_object_in(arguments)
        if parsed is None:
            reply.problem = f"the {name!r} arguments are not valid JSON ({exc.msg})"
            # Kept so the corrective round shows the model what it sent, not nothing.
            reply.text = reply.text or arguments
            return reply
        value = parsed
    if not isinstance(value, dict):
        reply.problem = f"the {name!r} arguments must be a JSON object"
        reply.text = reply.text or arguments
        return reply
    reply.data = value
    return reply
