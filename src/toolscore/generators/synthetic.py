"""Generate gold test cases from function schemas (OpenAI-style tool definitions).

Each function yields ``count`` expected calls: typical values ("normal"), the smallest values
the schema allows ("boundary": ``minimum``, ``minLength``, ``minItems``) and the largest
("edge": ``maximum``, ``maxLength``, ``maxItems``). The first normal case sends only the
required arguments, with the schema's own examples or defaults; later ones send more arguments
with varied values. Every generated argument satisfies its schema (types, enums, ranges,
``multipleOf``, lengths, formats; local ``$ref``, ``allOf`` and ``anyOf`` are followed), except
where a ``pattern`` has no example to copy. Values come from a seeded random source, so the
same schema and seed give the same file. The values come from the generator the MCP
scorecard's scenarios use (:mod:`toolscore._engine.generate.schema_values`); none points at the
network (URIs are ``data:`` URIs, hosts are loopback).

Example:
    >>> fn = {"name": "get_weather", "parameters": {"type": "object",
    ...       "properties": {"city": {"type": "string"},
    ...                      "unit": {"type": "string", "enum": ["C", "F"]}},
    ...       "required": ["city"]}}
    >>> case = generate_cases(fn, count=1)[0]
    >>> case["tool"], sorted(case["args"])[0]
    ('get_weather', 'city')
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolscore._engine.generate.schema_values import SchemaValues, json_types

__all__ = [
    "VARIATIONS",
    "function_definitions",
    "generate_cases",
    "generate_from_openai_schema",
    "generate_value_from_schema",
    "primary_schema_type",
    "save_gold_standard",
    "schema_types",
]

VARIATIONS = ("normal", "boundary", "edge")

# What each variation asks the engine's generator for: the smallest or the largest value.
_EXTREME = {"normal": None, "boundary": "low", "edge": "high"}


def schema_types(param_schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a schema allows, in declared order (``"string"`` when none is declared).

    Example:
        >>> schema_types({"type": ["string", "null"]})
        ['string', 'null']
    """
    return json_types(dict(param_schema)) or ["string"]


def primary_schema_type(param_schema: Mapping[str, Any]) -> str:
    """The type to generate: the first allowed type other than ``null``.

    Example:
        >>> primary_schema_type({"type": ["null", "integer"]})
        'integer'
    """
    types = schema_types(param_schema)
    return next((t for t in types if t != "null"), types[0])


def generate_value_from_schema(
    param_name: str,
    param_schema: Mapping[str, Any],
    variation: str = "normal",
    rng: random.Random | None = None,
) -> Any:
    """A value for one parameter that satisfies its schema.

    Args:
        param_name: the parameter's name (it hints at realistic values: ``email``, ``city``).
        param_schema: its JSON schema.
        variation: ``"normal"`` (a typical value: the schema's own example or default, else
            one picked at random), ``"boundary"`` (the smallest allowed: ``minimum``,
            ``minLength``, ``minItems``, the first of an ``enum``) or ``"edge"`` (the largest).
        rng: the random source (default: a fresh one seeded with 0, so results repeat).

    Example:
        >>> generate_value_from_schema("limit", {"type": "integer", "minimum": 1}, "boundary")
        1
    """
    if variation not in VARIATIONS:
        raise ValueError(f"variation must be one of {', '.join(VARIATIONS)}, got {variation!r}")
    values = SchemaValues(dict(param_schema), rng or random.Random(0))
    return values.valid(dict(param_schema), 1, param_name, extreme=_EXTREME[variation])


def function_definitions(data: Any) -> list[dict[str, Any]]:
    """The function definitions in a schema file's content.

    Accepts one definition, a list of them, OpenAI tool entries
    (``{"type": "function", "function": {...}}``), and ``{"tools": [...]}`` or
    ``{"functions": [...]}`` wrappers.

    Raises:
        ValueError: no definition with a ``name`` was found (the message says what was).
    """
    if isinstance(data, Mapping):
        for key in ("tools", "functions"):
            if isinstance(data.get(key), list):
                return function_definitions(data[key])
        data = [data]
    if not isinstance(data, list):
        raise ValueError(f"expected a list of function definitions, got {type(data).__name__}")
    found: list[dict[str, Any]] = []
    for i, item in enumerate(data):
        fn = item.get("function") if isinstance(item, Mapping) and "function" in item else item
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise ValueError(
                f'definition [{i}] needs a \'name\' (like {{"name": "get_weather", '
                f'"parameters": {{...}}}}), got {str(item)[:80]}'
            )
        found.append(dict(fn))
    return found


def generate_cases(
    function: Mapping[str, Any],
    count: int = 10,
    include_edge_cases: bool = True,
    rng: random.Random | None = None,
) -> list[dict[str, Any]]:
    """``count`` expected calls for one function definition.

    With ``include_edge_cases``, about 60% are normal, 20% boundary and 20% edge cases.
    Each case is ``{"tool", "args", "metadata": {"description", "variation", "schema"}}``;
    ``schema`` is the function's parameter schema, which
    :func:`toolscore.validators.validate_argument_schema` checks calls against.
    """
    rng = rng or random.Random(0)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive whole number, got {count!r}")
    normal, boundary = (int(count * 0.6), int(count * 0.2)) if include_edge_cases else (count, 0)
    plan = ["normal"] * normal + ["boundary"] * boundary + ["edge"] * (count - normal - boundary)
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    name = str(function["name"])
    description = str(function.get("description") or f"Call {name}")
    values = SchemaValues(dict(parameters), rng)
    # The first normal case sends the required arguments with the schema's own examples;
    # later ones more arguments and varied values (see SchemaValues.valid's variants).
    return [
        {
            "tool": name,
            "args": values.arguments(
                dict(parameters), index, full=index > 0, extreme=_EXTREME[variation]
            ),
            "metadata": {"description": description, "variation": variation, "schema": parameters},
        }
        for index, variation in enumerate(plan)
    ]


def generate_from_openai_schema(
    schema_file: str | Path,
    count: int = 10,
    include_edge_cases: bool = True,
    *,
    seed: int | None = 0,
) -> list[dict[str, Any]]:
    """Gold test cases for every function defined in an OpenAI-style schema file.

    Args:
        schema_file: JSON file with function definitions (see :func:`function_definitions`).
        count: cases per function.
        include_edge_cases: also generate boundary and edge cases.
        seed: seed of the random values (``None``: different values on each call).

    Returns:
        The cases, function by function, ready for :func:`save_gold_standard`.

    Raises:
        FileNotFoundError: the file does not exist.
        ValueError: it is not JSON, or holds no usable definition (the message says why).
    """
    path = Path(schema_file)
    if not path.exists():
        raise FileNotFoundError(f"Schema file not found: {schema_file}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{schema_file}: not valid JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    rng = random.Random(seed)
    functions = function_definitions(data)
    return [case for fn in functions for case in generate_cases(fn, count, include_edge_cases, rng)]


def save_gold_standard(gold_calls: list[dict[str, Any]], output_file: str | Path) -> Path:
    """Write gold cases as a JSON file (folders created as needed); returns its path."""
    path = Path(output_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(gold_calls, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
