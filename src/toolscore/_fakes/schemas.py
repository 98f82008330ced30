"""JSON schemas of fake tools: given with ``add(..., schema=...)`` or derived from the
registrations' arguments, and the Chat Completions ``tools`` list built on them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolscore._engine.compare.matchers import Approx, IsType, Matcher, OneOf, Regex

if TYPE_CHECKING:
    from toolscore._fakes.registration import Registration

__all__ = ["openai_tools", "tool_schemas"]

_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),  # before int: bool is an int
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (tuple, "array"),
    (dict, "object"),
    (type(None), "null"),
)


def _json_type(kind: type) -> str | None:
    return next((name for k, name in _JSON_TYPES if issubclass(kind, k)), None)


def _value_schema(value: Any) -> dict[str, Any]:
    """What a registered argument value says about the argument's type (``{}``: nothing)."""
    if isinstance(value, Regex):
        return {"type": "string"}
    if isinstance(value, Approx):
        return {"type": "number"}
    if isinstance(value, IsType):
        names = sorted({n for t in value.types if (n := _json_type(t)) is not None})
        return {"type": names[0] if len(names) == 1 else names} if names else {}
    if isinstance(value, OneOf):
        return {"enum": list(value.values)}
    if isinstance(value, Matcher):
        return {}
    name = _json_type(type(value))
    return {"type": name} if name else {}


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """One property's schema from two registrations: agreement kept, disagreement dropped."""
    if a == b:
        return a
    if "type" in a and "type" in b and a["type"] != b["type"]:
        return {}
    return {k: v for k, v in a.items() if b.get(k) == v}


def _derived(registrations: list[Registration]) -> dict[str, Any]:
    properties: dict[str, dict[str, Any]] = {}
    required: set[str] | None = None
    open_ended = False
    for registration in registrations:
        args = registration.args
        if not isinstance(args, dict):
            open_ended = True  # any arguments, or a matcher of the whole dict
            continue
        for key, value in args.items():
            schema = _value_schema(value)
            properties[key] = _merge(properties[key], schema) if key in properties else schema
        keys = set(args)
        required = keys if required is None else required & keys
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required and not open_ended:
        out["required"] = sorted(required)
    return out


def tool_schemas(registrations: list[Registration]) -> dict[str, dict[str, Any]]:
    """Each registered tool's argument schema, in the order tools were first registered."""
    by_tool: dict[str, list[Registration]] = {}
    for registration in registrations:
        by_tool.setdefault(registration.tool, []).append(registration)
    out: dict[str, dict[str, Any]] = {}
    for tool, regs in by_tool.items():
        given = next((r.schema for r in regs if r.schema is not None), None)
        out[tool] = dict(given) if given is not None else _derived(regs)
    return out


def description(tool: str) -> str:
    return f"Fake tool {tool!r} (toolscore test double)."


def openai_tools(registrations: list[Registration]) -> list[dict[str, Any]]:
    """The Chat Completions ``tools`` list of the registered tools."""
    return [
        {
            "type": "function",
            "function": {"name": tool, "description": description(tool), "parameters": schema},
        }
        for tool, schema in tool_schemas(registrations).items()
    ]
