"""The JSON-Schema value generator behind `toolscore generate` and the MCP scenarios: the
schema shapes the generator and scenario tests do not reach (values worked out from the
schema by hand)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from toolscore._engine.generate.schema_values import SchemaValues


def _values(root: dict[str, Any] | None = None) -> SchemaValues:
    return SchemaValues(root or {}, random.Random(0))


def test_all_of_merges_properties_and_required_of_every_part() -> None:
    root = {
        "$defs": {"paged": {"properties": {"page": {"type": "integer", "minimum": 1}},
                            "required": ["page"]}},
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "allOf": [{"$ref": "#/$defs/paged"}, {"properties": {"size": {"type": "integer"}}}],
    }  # fmt: skip
    gen = _values(root)
    merged = gen.resolve(root)
    assert set(merged["properties"]) == {"q", "page", "size"}
    assert merged["required"] == ["q", "page"]
    # the plainest call: the required arguments only (a query-like name gets a query), the
    # smallest page
    assert gen.arguments(root, full=False) == {"q": "weather in Paris", "page": 1}


def test_a_ref_cycle_and_a_dangling_ref_resolve_to_an_empty_schema() -> None:
    root = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}
    gen = _values(root)
    assert gen.resolve({"$ref": "#/$defs/a"}) == {}
    assert gen.resolve({"$ref": "#/$defs/missing"}) == {}
    # untyped and unresolvable: a string is the usual guess
    assert gen.valid({"$ref": "#/$defs/a"}) == "hello world"


@pytest.mark.parametrize(
    ("schema", "kind"),
    [
        ({"enum": [3, 4]}, "integer"),
        ({"enum": [0.5]}, "number"),
        ({"enum": [["a"]]}, "array"),
        ({"enum": [{"a": 1}]}, "object"),
        ({"enum": [True]}, "boolean"),
        ({"const": None}, "null"),
        ({"const": "x"}, "string"),
        ({"properties": {"a": {}}}, "object"),
        ({"items": {"type": "string"}}, "array"),
        ({}, None),
    ],
)
def test_the_kind_of_an_untyped_schema_comes_from_its_values_or_its_keywords(
    schema: dict[str, Any], kind: str | None
) -> None:
    assert _values().kind(schema) == kind


def test_const_wins_and_deep_nesting_stops() -> None:
    gen = _values()
    assert gen.valid({"type": "string", "const": "fixed"}) == "fixed"
    nested: dict[str, Any] = {"type": "string"}
    for _ in range(12):
        nested = {"type": "array", "items": nested, "minItems": 1}
    # nine levels of arrays, then the depth guard gives None instead of recursing further
    value: Any = gen.valid(nested)
    depth = 0
    while isinstance(value, list):
        (value,) = value
        depth += 1
    assert (depth, value) == (9, None)


def test_a_single_example_is_used_and_a_short_word_is_padded_to_min_length() -> None:
    gen = _values()
    assert gen.valid({"type": "string", "example": "hello"}) == "hello"
    # the first plain string, "hello world" (11), repeated with a space and cut at 14
    assert gen.valid({"type": "string", "minLength": 14}) == "hello world he"


def test_a_pattern_that_does_not_compile_leaves_the_usual_words() -> None:
    assert _values().valid({"type": "string", "pattern": "(unclosed"}) == "hello world"


def test_multiple_of_rounds_down_again_when_rounding_up_passes_the_maximum() -> None:
    gen = _values()
    # the largest value is the maximum 10; 10 rounded up to a multiple of 4 is 12 > 10 -> 8
    assert gen.valid({"type": "integer", "maximum": 10, "multipleOf": 4}, extreme="high") == 8
    # draft-4 style exclusive bounds move one step inwards
    schema = {"type": "integer", "minimum": 0, "maximum": 5,
              "exclusiveMinimum": True, "exclusiveMaximum": True}  # fmt: skip
    assert gen.valid(schema, extreme="low") == 1
    assert gen.valid(schema, extreme="high") == 4
