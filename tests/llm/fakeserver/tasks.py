"""Which task of the interview a request to the fake server is: the tool it forces names a
structured task, and the system prompt's opening line names a text task. The relay names its
files after it, and a test can script one task's replies (``FakeLLMServer.script_task``)
whatever order the pipeline sends its requests in (extraction and assessment go together)."""

from __future__ import annotations

import json
from typing import Any

TOOL_TASKS: dict[str, str] = {
    "record_extraction": "extract",
    "record_assessment": "assess",
    "propose_slots": "propose_slots",
}
# The first words of each text task's system prompt (llm/prompts/*.system.md).
TEXT_TASKS: dict[str, str] = {
    "You write the interviewer's next line": "generate_question",
    "opening a one-to-one interview": "generate_opening",
    "role-playing a participant": "respond_as_persona",
}


def system_text(body: dict[str, Any]) -> str:
    """The system prompt of either API's request body."""
    system = body.get("system")
    if isinstance(system, list):
        return "\n".join(str(b.get("text", "")) for b in system if isinstance(b, dict))
    if isinstance(system, str):
        return system
    for message in body.get("messages") or []:
        if isinstance(message, dict) and message.get("role") == "system":
            return str(message.get("content") or "")
    return ""


def tool_name(api: str, body: dict[str, Any]) -> str | None:
    """The tool a request forces (or offers first), None for a text request."""
    choice = body.get("tool_choice")
    if api == "anthropic":
        if isinstance(choice, dict) and choice.get("type") == "tool":
            return str(choice.get("name"))
    elif isinstance(choice, dict):
        return str(choice.get("function", {}).get("name"))
    tools = body.get("tools") or []
    if tools:
        first = tools[0]
        return str(first.get("name") or first.get("function", {}).get("name"))
    return None


def task_of(api: str, body: dict[str, Any]) -> str:
    """extract, assess, propose_slots, generate_question, generate_opening,
    respond_as_persona, or "" when the request is none of them."""
    tool = tool_name(api, body)
    if tool in TOOL_TASKS:
        return TOOL_TASKS[tool]
    system = system_text(body)
    if (body.get("response_format") or {}).get("type") == "json_object":
        # json_object mode sends no tool: the system prompt names the result it wants.
        found = next((task for name, task in TOOL_TASKS.items() if name in system), None)
        if found:
            return found
    for opening, task in TEXT_TASKS.items():
        if opening in system:
            return task
    return ""


def wants_structured(api: str, body: dict[str, Any]) -> bool:
    return task_of(api, body) in TOOL_TASKS.values()


def schema_of(api: str, body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema of the forced tool (None for a text request)."""
    for tool in body.get("tools") or []:
        if api == "anthropic" and isinstance(tool.get("input_schema"), dict):
            return dict(tool["input_schema"])
        function = tool.get("function") or {}
        if isinstance(function.get("parameters"), dict):
            return dict(function["parameters"])
    system = system_text(body)
    marker = "matching this JSON schema:\n"
    if marker in system:
        try:
            value = json.loads(system.split(marker, 1)[1])
        except json.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None
    return None
