"""Generate gold test cases from function schemas (OpenAI-style tool definitions).

Each function yields ``count`` expected calls: typical values ("normal"), the smallest values
the schema allows ("boundary": ``minimum``, ``minLength``, ``minItems``) and the largest
("edge": ``maximum``, ``maxLength``, ``maxItems``). Every generated argument satisfies its
schema (types, enums, ranges, lengths, formats), except where a ``pattern`` has no example to
copy. Values come from a seeded random source, so the same schema and seed give the same file.

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

_FORMATS = {
    "date": "2025-01-15",
    "date-time": "2025-01-15T09:30:00Z",
    "time": "09:30:00",
    "email": "ada@example.org",
    "uri": "https://example.org/page",
    "url": "https://example.org/page",
    "uuid": "6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f",
    "ipv4": "198.51.100.7",
    "ipv6": "2001:db8::7",
    "hostname": "api.example.org",
}
# Argument names that suggest a kind of value (checked as substrings of the lowercased name).
_NAMED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("email", ("ada@example.org", "grace@example.net", "linus@example.com")),
    ("url", ("https://example.org/page", "https://example.net/docs", "https://example.com/a")),
    ("date", ("2025-01-15", "2025-06-30", "2026-02-01")),
    ("city", ("Lisbon", "Osaka", "Toronto")),
    ("country", ("PT", "JP", "CA")),
    ("path", ("reports/summary.txt", "data/input.csv", "notes/todo.md")),
    ("file", ("summary.txt", "input.csv", "todo.md")),
    ("query", ("noise cancelling headphones", "vegan ramen near me", "python dataclasses")),
    ("name", ("Ada Lovelace", "Grace Hopper", "Alan Turing")),
    ("message", ("Your order has shipped.", "Meeting moved to 3pm.", "Thanks for the report.")),
    ("id", ("A-1001", "B-2002", "C-3003")),
)


def schema_types(param_schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a schema allows, in declared order (``"string"`` when none is declared).

    Example:
        >>> schema_types({"type": ["string", "null"]})
        ['string', 'null']
    """
    declared = param_schema.get("type", "string")
    names = declared if isinstance(declared, list) else [declared]
    found = [n for n in names if isinstance(n, str)]
    return found or ["string"]


def primary_schema_type(param_schema: Mapping[str, Any]) -> str:
    """The type to generate: the first allowed type other than ``null``.

    Example:
        >>> primary_schema_type({"type": ["null", "integer"]})
        'integer'
    """
    types = schema_types(param_schema)
    return next((t for t in types if t != "null"), types[0])


def _string(name: str, schema: Mapping[str, Any], variation: str, rng: random.Random) -> str:
    low = int(schema.get("minLength", 0) or 0)
    high = schema.get("maxLength")
    if str(schema.get("format")) in _FORMATS:  # a well-formed value is both smallest and largest
        return _FORMATS[str(schema["format"])]
    if variation == "boundary":
        return "x" * low if low or high == 0 else "x"
    if variation == "edge" and high is not None:
        return "x" * int(high)
    options = next((vals for key, vals in _NAMED if key in name.lower()), None)
    value = rng.choice(options) if options else f"{name}-{rng.randint(1, 999)}"
    if len(value) < low:
        value = value + "x" * (low - len(value))
    return value if high is None else value[: int(high)]


def _number(schema: Mapping[str, Any], variation: str, rng: random.Random, whole: bool) -> float:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    step = 1 if whole else 0.01
    if "exclusiveMinimum" in schema and "minimum" not in schema and low is not None:
        low = low + step
    if "exclusiveMaximum" in schema and "maximum" not in schema and high is not None:
        high = high - step
    low = 0 if low is None else low
    high = low + 100 if high is None else high
    if variation == "boundary":
        value: float = low
    elif variation == "edge":
        value = high
    elif whole:
        value = rng.randint(int(low), int(min(high, low + 50)))
    else:
        value = round(rng.uniform(low, min(high, low + 50)), 2)
    return int(value) if whole else float(value)


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
        variation: ``"normal"``, ``"boundary"`` (smallest allowed) or ``"edge"`` (largest).
        rng: the random source (default: a fresh one seeded with 0, so results repeat).

    Example:
        >>> generate_value_from_schema("limit", {"type": "integer", "minimum": 1}, "boundary")
        1
    """
    if variation not in VARIATIONS:
        raise ValueError(f"variation must be one of {', '.join(VARIATIONS)}, got {variation!r}")
    rng = rng or random.Random(0)
    if "const" in param_schema:
        return param_schema["const"]
    enum = param_schema.get("enum")
    if isinstance(enum, list) and enum:
        return {"boundary": enum[0], "edge": enum[-1]}.get(variation, rng.choice(enum))
    if variation == "normal":
        examples = param_schema.get("examples")
        if isinstance(examples, list) and examples:
            return rng.choice(examples)
        if param_schema.get("default") is not None:
            return param_schema["default"]
    kind = primary_schema_type(param_schema)
    if kind == "string":
        return _string(param_name, param_schema, variation, rng)
    if kind in ("integer", "number"):
        return _number(param_schema, variation, rng, whole=kind == "integer")
    if kind == "boolean":
        return {"boundary": False, "edge": True}.get(variation, rng.choice([True, False]))
    if kind == "array":
        low = int(param_schema.get("minItems", 1 if variation == "normal" else 0))
        high = int(param_schema.get("maxItems", max(low, 3)))
        size = {"boundary": low, "edge": high}.get(variation, rng.randint(low, max(low, high)))
        items = param_schema.get("items") or {"type": "string"}
        return [generate_value_from_schema(param_name, items, "normal", rng) for _ in range(size)]
    if kind == "object":
        return _object(param_schema, variation, rng)
    return None


def _object(schema: Mapping[str, Any], variation: str, rng: random.Random) -> dict[str, Any]:
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    out: dict[str, Any] = {}
    for name, sub in properties.items():
        # Typical calls leave some optional arguments out; boundary and edge cases pass all.
        if variation == "normal" and name not in required and rng.random() < 0.5:
            continue
        out[name] = generate_value_from_schema(name, sub, variation, rng)
    return out


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
    if include_edge_cases:
        normal, boundary = int(count * 0.6), int(count * 0.2)
        plan = ["normal"] * normal + ["boundary"] * boundary
        plan += ["edge"] * (count - normal - boundary)
    else:
        plan = ["normal"] * count
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    name = str(function["name"])
    description = str(function.get("description") or f"Call {name}")
    return [
        {
            "tool": name,
            "args": _object(parameters, variation, rng),
            "metadata": {
                "description": description,
                "variation": variation,
                "schema": parameters,
            },
        }
        for variation in plan
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
    cases: list[dict[str, Any]] = []
    for function in function_definitions(data):
        cases.extend(generate_cases(function, count, include_edge_cases, rng))
    return cases


def save_gold_standard(gold_calls: list[dict[str, Any]], output_file: str | Path) -> Path:
    """Write gold cases as a JSON file (folders created as needed); returns its path."""
    path = Path(output_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(gold_calls, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
