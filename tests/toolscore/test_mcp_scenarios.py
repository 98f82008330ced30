"""Scenario planning from JSON Schema: valid values validate, invalid ones do not, seeds repeat."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")
jsonschema = pytest.importorskip("jsonschema")

from toolscore._engine.generate.schema_values import SchemaValues  # noqa: E402
from toolscore.mcp import MCPToolDef, generate_scenarios  # noqa: E402

SCHEMAS: dict[str, dict[str, Any]] = {
    "bounds": {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 3, "maximum": 9},
            "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "step": {"type": "integer", "multipleOf": 5, "minimum": 1, "maximum": 30},
        },
        "required": ["n", "x", "step"],
    },
    "strings": {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{3}$"},
            "when": {"type": "string", "format": "date"},
            "mail": {"type": "string", "format": "email"},
            "short": {"type": "string", "minLength": 4, "maxLength": 6},
            "kind": {"type": "string", "enum": ["a", "b", "c"]},
        },
        "required": ["code", "when", "mail", "short", "kind"],
        "additionalProperties": False,
    },
    "nested": {
        "type": "object",
        "$defs": {
            "point": {
                "type": "object",
                "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                "required": ["lat", "lon"],
            }
        },
        "properties": {
            "where": {"$ref": "#/$defs/point"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "maybe": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 10}]},
            "both": {"allOf": [{"type": "string"}, {"minLength": 2}]},
        },
        "required": ["where", "tags", "maybe", "both"],
    },
}


def _tool(name: str) -> MCPToolDef:
    return MCPToolDef(name, f"The {name} tool for tests.", SCHEMAS[name])


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_happy_path_validates_against_its_schema(name: str) -> None:
    schema = SCHEMAS[name]
    happy = [s for s in generate_scenarios([_tool(name)], 5, seed=7) if s.kind == "happy"]
    assert len(happy) == 5
    for scenario in happy:
        jsonschema.validate(scenario.arguments, schema)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_edge_cases_that_break_the_schema_are_rejected_by_it(name: str) -> None:
    schema = SCHEMAS[name]
    edges = [s for s in generate_scenarios([_tool(name)], 1, seed=3) if s.kind == "edge"]
    assert edges
    breaking = [
        s
        for s in edges
        if any(
            w in s.description
            for w in (
                "missing",
                "wrong type",
                "below",
                "above",
                "enum",
                "longer",
                "shorter",
                "null",
                "not allow",
                "fewer",
            )
        )
    ]
    assert breaking
    for scenario in breaking:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(scenario.arguments, schema)


def test_the_same_seed_plans_the_same_calls_and_another_seed_varies_them() -> None:
    tools = [_tool(name) for name in sorted(SCHEMAS)]
    first = [(s.tool, s.kind, s.arguments) for s in generate_scenarios(tools, 4, seed=11)]
    again = [(s.tool, s.kind, s.arguments) for s in generate_scenarios(tools, 4, seed=11)]
    other = [(s.tool, s.kind, s.arguments) for s in generate_scenarios(tools, 4, seed=12)]
    assert first == again
    assert first != other


def test_the_first_happy_path_sends_the_required_arguments_with_the_authors_values() -> None:
    tool = MCPToolDef(
        "search",
        "Search the catalogue.",
        {
            "type": "object",
            "properties": {
                "q": {"type": "string", "examples": ["red shoes"]},
                "page": {"type": "integer", "default": 2},
                "sort": {"type": "string", "enum": ["price", "name"]},
            },
            "required": ["q", "sort"],
        },
    )
    first = generate_scenarios([tool], 1, include_edge_cases=False)[0]
    assert first.arguments == {"q": "red shoes", "sort": "price"}


def test_edge_cases_cover_empty_long_and_unicode_strings() -> None:
    tool = MCPToolDef(
        "echo",
        "Echo a message.",
        {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    )
    by_description = {
        s.description: s.arguments for s in generate_scenarios([tool], 1) if s.kind == "edge"
    }
    assert by_description["empty string for 'message'"] == {"message": ""}
    assert len(by_description["10,000-character 'message'"]["message"]) == 10_000
    text = by_description["unicode text for 'message'"]["message"]
    assert any(ord(ch) > 0xFFFF for ch in text) and any("\u0600" <= ch <= "\u06ff" for ch in text)
    assert by_description["missing required argument 'message'"] == {}


def test_no_value_points_the_server_at_the_network() -> None:
    schema = {
        "type": "object",
        "properties": {
            "source": {"type": "string", "format": "uri", "default": "https://example.com/x"},
            "homepage": {"type": "string", "examples": ["http://example.org"]},
        },
    }
    tool = MCPToolDef("fetch", "Fetch a document.", schema)
    for scenario in generate_scenarios([tool], 3):
        for value in scenario.arguments.values():
            assert not str(value).startswith(("http://", "https://")), scenario
    # the URL default is replaced, not left to the server, even on the required-only path
    first = generate_scenarios([tool], 1, include_edge_cases=False)[0]
    assert first.arguments["source"].startswith("data:")


def test_a_tool_that_runs_only_as_a_task_is_skipped_and_an_unreadable_schema_called_bare() -> None:
    task = MCPToolDef("research", "Deep research.", {"type": "object"}, task_support="required")
    bare = MCPToolDef("legacy", "Old tool.", {"type": "string"})
    plan = generate_scenarios([task, bare])
    assert [(s.tool, s.kind, s.arguments) for s in plan] == [
        ("research", "skipped", {}),
        ("legacy", "happy", {}),
    ]


def test_out_of_range_values_sit_just_outside_the_bounds() -> None:
    values = SchemaValues({}, random.Random(0))
    got = dict(
        (what, value)
        for value, what in values.out_of_range({"type": "integer", "minimum": 1, "maximum": 10})
    )
    assert got == {"below the minimum 1": 0, "above the maximum 10": 11}


def test_bad_arguments_are_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="cases_per_tool"):
        generate_scenarios([], -1)
