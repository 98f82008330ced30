"""Lint rules and token estimates, on tool definitions written by hand."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from toolscore.mcp import MCPToolDef, estimate_tokens, lint_tools, tool_definition_tokens

GOOD = MCPToolDef(
    "get_weather",
    "Forecast for a city over the next few days.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name, e.g. Paris."},
            "days": {"type": "integer", "description": "How many days, 1 to 7."},
        },
        "required": ["city"],
    },
)


def rules(tools: list[MCPToolDef]) -> list[tuple[str, str, str]]:
    return [(i.tool, i.severity, i.rule) for i in lint_tools(tools)]


def test_a_clean_tool_has_no_issues() -> None:
    assert lint_tools([GOOD]) == []


def test_each_schema_defect_is_named_once_with_its_severity() -> None:
    bad = MCPToolDef(
        "get_user",
        "Get user.",
        {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "fields": {},
                "tags": {"type": "array", "description": "Tags."},
                "anything": {
                    "type": ["string", "number", "integer", "boolean", "object", "array"],
                    "description": "Whatever.",
                },
            },
            "required": ["id", "expand"],
        },
    )
    assert rules([bad]) == [
        ("get_user", "warning", "description-short"),
        ("get_user", "warning", "param-undocumented"),  # id
        ("get_user", "error", "param-untyped"),  # fields
        ("get_user", "warning", "schema-loose"),  # tags without items
        ("get_user", "warning", "schema-loose"),  # anything
        ("get_user", "error", "required-unknown"),  # expand
    ]


def test_missing_invalid_and_open_schemas() -> None:
    tools = [
        MCPToolDef("no_schema", "A tool without an input schema.", {}),
        MCPToolDef(
            "broken", "A tool whose schema is not valid.", {"type": "object", "minProperties": -1}
        ),
        MCPToolDef("open", "A tool that accepts any object at all.", {"type": "object"}),
        MCPToolDef(
            "closed",
            "A tool that takes no arguments at all.",
            {"type": "object", "additionalProperties": False},
        ),
    ]
    assert rules(tools) == [
        ("no_schema", "error", "schema-missing"),
        ("broken", "error", "schema-invalid"),
        ("broken", "warning", "schema-loose"),
        ("open", "warning", "schema-loose"),
    ]


def test_names_duplicate_confusable_and_invalid() -> None:
    tools = [
        GOOD,
        MCPToolDef("getWeather", GOOD.description, GOOD.input_schema),
        MCPToolDef("get_weathr", GOOD.description, GOOD.input_schema),
        MCPToolDef("get weather!", GOOD.description, GOOD.input_schema),
        MCPToolDef("get_weather", GOOD.description, GOOD.input_schema),
    ]
    found = rules(tools)
    assert ("get weather!", "error", "name-invalid") in found
    assert ("get_weather", "error", "name-duplicate") in found
    assert ("getWeather, get_weather", "warning", "name-confusable") in found
    assert ("get_weather, get_weathr", "warning", "name-confusable") in found
    assert not [f for f in found if f[2] == "name-confusable" and "get weather!" in f[0]]


def test_a_bloated_definition_is_flagged_with_its_token_cost() -> None:
    text = " ".join(["Looks up the user record and returns every stored field."] * 40)
    tool = MCPToolDef("lookup", text, GOOD.input_schema)
    issues = [i for i in lint_tools([tool]) if i.rule == "tokens-large"]
    assert len(issues) == 1
    assert str(tool_definition_tokens(tool)) in issues[0].message


def test_token_estimates_grow_with_the_text_and_stay_near_four_characters_a_token() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a") == 1
    words = "The quick brown fox jumps over the lazy dog. " * 20
    assert estimate_tokens(words) == 20 * estimate_tokens(words[:45])
    payload = json.dumps(GOOD.to_dict(), separators=(",", ":"))
    ratio = len(payload) / tool_definition_tokens(GOOD)
    assert 2.5 <= ratio <= 5.0


@pytest.mark.parametrize(
    "name",
    [
        "toolscore.mcp",
        "toolscore.mcp.client",
        "toolscore.mcp.content",
        "toolscore.mcp.config",
        "toolscore.mcp.harness",
        "toolscore.mcp.lint_rules",
        "toolscore.mcp.recorder",
        "toolscore.mcp.scorecard",
        "toolscore.mcp._tokens",
    ],
)
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    outcome = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert outcome.failed == 0
