"""Check a call's arguments against a schema: types, required arguments, ranges, patterns.

Behind :mod:`toolscore.validators.schema`, which re-exports it (the same objects).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.read.inputs import as_call

__all__ = [
    "SchemaValidationError",
    "calculate_schema_validation_metrics",
    "validate_argument_schema",
]

_TYPES: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    # JSON Schema counts 3.0 as an integer; booleans are never numbers.
    "integer": lambda v: (
        not isinstance(v, bool)
        and (isinstance(v, int) or (isinstance(v, float) and v.is_integer()))
    ),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),
    "object": lambda v: isinstance(v, Mapping),
    "null": lambda v: v is None,
}


class SchemaValidationError(ValueError):
    """The schema itself cannot be used (not a mapping, an unknown type name, a bad pattern)."""


def _arguments(schema: Any) -> list[tuple[str, Mapping[str, Any], bool]]:
    """``(name, rules, required)`` per argument, from either accepted schema shape."""
    if not isinstance(schema, Mapping):
        raise SchemaValidationError(
            f"an argument schema must be a dict of argument rules, got {type(schema).__name__}"
        )
    if schema.get("type") == "object" and isinstance(schema.get("properties"), Mapping):
        required = schema.get("required") or ()
        return [(name, rules, name in required) for name, rules in schema["properties"].items()]
    out = []
    for name, rules in schema.items():
        if not isinstance(rules, Mapping):
            raise SchemaValidationError(
                f"the schema of argument {name!r} must be a dict of rules "
                f'(like {{"type": "string"}}), got {rules!r}'
            )
        flag = rules.get("required", True)
        out.append((name, rules, flag if isinstance(flag, bool) else True))
    return out


def _type_names(rules: Mapping[str, Any], path: str) -> list[str]:
    declared = rules.get("type")
    if declared is None:
        return []
    names = list(declared) if isinstance(declared, (list, tuple)) else [declared]
    for name in names:
        if name not in _TYPES:
            raise SchemaValidationError(
                f"the schema of argument {path!r} has an unknown type {name!r}; "
                f"use one of {', '.join(_TYPES)}"
            )
    return names


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    try:
        return bool(a == b)
    except Exception:
        return False


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check(value: Any, rules: Mapping[str, Any], path: str) -> list[str]:
    names = _type_names(rules, path)
    if names and not any(_TYPES[n](value) for n in names):
        expected = names[0] if len(names) == 1 else " or ".join(names)
        return [
            f"Argument '{path}' has wrong type: expected {expected}, got {type(value).__name__}"
        ]
    errors: list[str] = []
    if "enum" in rules and not any(_same(value, option) for option in rules["enum"]):
        errors.append(f"Argument '{path}' has invalid value: {value!r} not in {rules['enum']!r}")
    if "const" in rules and not _same(value, rules["const"]):
        errors.append(f"Argument '{path}' must be {rules['const']!r}, got {value!r}")
    if _number(value):  # a bound that is no number is ignored
        numbers = {key: bound for key, bound in rules.items() if _number(bound)}
        errors.extend(_limits(value, numbers, path, _NUMBER_LIMITS))
    if isinstance(value, str):
        errors.extend(_text(value, rules, path))
    if isinstance(value, (list, tuple)):
        errors.extend(_items(value, rules, path))
    if isinstance(value, Mapping):
        errors.extend(_object(value, rules, path))
    return errors


# Bounds per kind of value: (keyword, broken(measure, bound), message). The measure is the
# number itself, a string's length or a list's item count.
_NUMBER_LIMITS = (
    ("minimum", operator.lt, "is below minimum: {} < {}"),
    ("maximum", operator.gt, "exceeds maximum: {} > {}"),
    ("exclusiveMinimum", operator.le, "is not above the exclusive minimum: {} <= {}"),
    ("exclusiveMaximum", operator.ge, "is not below the exclusive maximum: {} >= {}"),
)
_LENGTH_LIMITS = (
    ("minLength", operator.lt, "is too short: {} < {}"),
    ("maxLength", operator.gt, "is too long: {} > {}"),
)
_ITEM_LIMITS = (
    ("minItems", operator.lt, "has too few items: {} < {}"),
    ("maxItems", operator.gt, "has too many items: {} > {}"),
)


def _limits(
    measure: float, rules: Mapping[str, Any], path: str, limits: tuple[tuple[str, Any, str], ...]
) -> list[str]:
    return [
        f"Argument '{path}' {text.format(measure, rules[key])}"
        for key, broken, text in limits
        if key in rules and broken(measure, rules[key])
    ]


def _text(value: str, rules: Mapping[str, Any], path: str) -> list[str]:
    errors = _limits(len(value), rules, path, _LENGTH_LIMITS)
    if "pattern" in rules:
        try:
            found = re.search(rules["pattern"], value)
        except (re.error, TypeError) as exc:
            raise SchemaValidationError(
                f"the schema of argument {path!r} has an invalid pattern "
                f"{rules['pattern']!r} ({exc})"
            ) from None
        if found is None:
            errors.append(f"Argument '{path}' doesn't match pattern: {rules['pattern']}")
    return errors


def _items(value: Sequence[Any], rules: Mapping[str, Any], path: str) -> list[str]:
    errors = _limits(len(value), rules, path, _ITEM_LIMITS)
    item_rules = rules.get("items")
    if isinstance(item_rules, Mapping):
        for i, item in enumerate(value):
            errors.extend(_check(item, item_rules, f"{path}[{i}]"))
    return errors


def _object(value: Mapping[str, Any], rules: Mapping[str, Any], path: str) -> list[str]:
    properties = rules.get("properties")
    if not isinstance(properties, Mapping):
        return []
    required = rules.get("required")
    errors = [
        f"Missing required argument: {path}.{name}"
        for name in (required if isinstance(required, (list, tuple)) else ())
        if name not in value
    ]
    for name, sub in properties.items():
        if name in value and isinstance(sub, Mapping):
            errors.extend(_check(value[name], sub, f"{path}.{name}"))
    if rules.get("additionalProperties") is False:
        errors.extend(
            f"Argument '{path}.{name}' is not allowed (additionalProperties is false)"
            for name in value
            if name not in properties
        )
    return errors


def validate_argument_schema(call: Any, schema: Mapping[str, Any]) -> tuple[bool, list[str]]:
    """Check the arguments of ``call`` against ``schema``.

    Args:
        call: a :class:`~toolscore.adapters.base.ToolCall` or a ``{"tool", "args"}`` dict.
        schema: the flat per-argument form or a JSON Schema object (see the module docs).

    Returns:
        ``(True, [])`` when every rule holds, else ``(False, errors)`` with one sentence per
        broken rule, naming the argument (``filters.max_price``, ``tags[2]``).

    Raises:
        SchemaValidationError: the schema is not usable (the message says which rule).

    Example:
        >>> from toolscore._engine.read.tool_call import ToolCall
        >>> schema = {"query": {"type": "string", "minLength": 1},
        ...           "limit": {"type": "integer", "maximum": 100, "required": False}}
        >>> validate_argument_schema(ToolCall("search", {"query": "x", "limit": 500}), schema)
        (False, ["Argument 'limit' exceeds maximum: 500 > 100"])
    """
    args = as_call(call).args or {}
    errors: list[str] = []
    for name, rules, required in _arguments(schema):
        if name not in args:
            if required:
                errors.append(f"Missing required argument: {name}")
            continue
        errors.extend(_check(args[name], rules, name))
    return not errors, errors


def calculate_schema_validation_metrics(
    gold_calls: Sequence[Any], trace_calls: Sequence[Any]
) -> dict[str, Any]:
    """Check every actual call whose tool has a schema in the gold calls' ``metadata``.

    Args:
        gold_calls: expected calls (``ToolCall`` or dicts); ``metadata["schema"]`` holds a
            tool's schema (``toolscore generate`` writes one per call).
        trace_calls: the calls the agent made.

    Returns:
        ``schema_compliance_rate`` (share of checked calls without an error; 1.0 when none was
        checked), ``total_validated``, ``total_errors``, ``failed_count``, ``failed_calls``
        (``{"tool", "args", "errors"}``) and ``error_details`` (``"tool: error"`` lines).

    Example:
        >>> gold = [{"tool": "search", "args": {"q": "x"},
        ...          "metadata": {"schema": {"q": {"type": "string", "minLength": 1}}}}]
        >>> calculate_schema_validation_metrics(gold, [{"tool": "search", "args": {"q": ""}}])[
        ...     "schema_compliance_rate"]
        0.0
    """
    schemas: dict[str, Mapping[str, Any]] = {}
    for gold in gold_calls:
        schema = (as_call(gold).metadata or {}).get("schema")
        if schema:
            schemas[as_call(gold).tool] = schema
    validated = 0
    failed: list[dict[str, Any]] = []
    details: list[str] = []
    for item in trace_calls:
        call = as_call(item)
        schema = schemas.get(call.tool)
        if not schema:
            continue
        validated += 1
        ok, errors = validate_argument_schema(call, schema)
        if not ok:
            failed.append({"tool": call.tool, "args": call.args, "errors": errors})
            details.extend(f"{call.tool}: {e}" for e in errors)
    return {
        "schema_compliance_rate": (validated - len(failed)) / validated if validated else 1.0,
        "total_validated": validated,
        "total_errors": len(details),
        "failed_count": len(failed),
        "failed_calls": failed,
        "error_details": details,
    }
