"""A BFCL possible answer as ``evaluate()`` / ``assert_tools()`` expectations.

Each answered call becomes ``{"tool": name, "args": {...}}``; each parameter's alternatives
become one value or a :class:`~toolscore.matchers.OneOf`: strings as :class:`BFCLString`,
dicts as :class:`BFCLDict`, lists item by item (strings in them as :class:`BFCLString`),
numbers and booleans as they are. Parameters BFCL lets the model leave out (``""`` among
the alternatives, not required by the schema) are left out of the expectation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.bfcl.matchers import BFCLDict, BFCLString
from toolscore._engine.bfcl.rules import call_name
from toolscore._engine.bfcl.values import first_answer_type, python_type
from toolscore.bfcl._verdict import read_answer, read_schemas, schema_named
from toolscore.matchers import OneOf

__all__ = ["to_expected"]

_OPTIONAL = ("omit", "expect")


def to_expected(
    ground_truth: Sequence[Mapping[str, Any]],
    functions: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    *,
    underscore_to_dot: bool = False,
    optional: str = "omit",
) -> list[dict[str, Any]]:
    """The possible answer as expected calls for :func:`toolscore.evaluate` and friends.

    Args:
        ground_truth: the answer record's ``ground_truth``.
        functions: the question's ``function`` list (for types, required parameters and the
            name to call).
        underscore_to_dot: expect ``a_b`` for a function named ``a.b`` (function-calling
            models whose API forbids dots).
        optional: ``"omit"`` (default): parameters the model may leave out are not in the
            expectation, so leaving them out costs nothing; passing one counts as an extra
            argument. ``"expect"``: expect them with the answer's values (then leaving one out
            costs recall).

    Returns:
        ``[{"tool": name, "args": {param: value or matcher}}]`` in the answer's order.

    Raises:
        TypeError: the arguments are not BFCL's shapes.
        ValueError: an answered function is not among ``functions``, or ``optional`` is
            neither ``"omit"`` nor ``"expect"``.

    Example:
        >>> fn = {"name": "area", "parameters": {"type": "dict", "properties": {
        ...     "base": {"type": "integer"}, "unit": {"type": "string"}},
        ...     "required": ["base"]}}
        >>> to_expected([{"area": {"base": [10], "unit": ["cm", "centimeters", ""]}}], [fn])
        [{'tool': 'area', 'args': {'base': 10}}]
        >>> to_expected([{"area": {"base": [10], "unit": ["cm", "centimeters", ""]}}], [fn],
        ...             optional="expect")
        [{'tool': 'area', 'args': {'base': 10, 'unit': OneOf(BFCLString('cm'), BFCLString('centimeters'), BFCLString(''))}}]
    """  # noqa: E501
    if optional not in _OPTIONAL:
        raise ValueError(f"optional must be 'omit' or 'expect', got {optional!r}")
    answer = read_answer(ground_truth)
    schemas = read_schemas(functions)
    out: list[dict[str, Any]] = []
    for call in answer:
        name, params = next(iter(call.items()))
        schema = schema_named(schemas, name)
        parameters = schema.get("parameters") or {}
        properties = parameters.get("properties") or {}
        required = set(parameters.get("required") or ())
        args: dict[str, Any] = {}
        for param, alternatives in params.items():
            if param not in properties:
                continue  # BFCL rejects it whenever it is passed
            may_omit = "" in alternatives and param not in required
            if may_omit and optional == "omit":
                continue
            candidates = _candidates(param, alternatives, properties[param], name)
            if candidates:
                args[param] = candidates[0] if len(candidates) == 1 else OneOf(*candidates)
        out.append({"tool": call_name(schema, underscore_to_dot), "args": args})
    return out


def _candidates(
    param: str, alternatives: list[Any], spec: Mapping[str, Any], function: str
) -> list[Any]:
    schema_type = spec.get("type")
    expected = python_type(schema_type, f"parameter {param!r} of {function}")
    answer_type = first_answer_type(alternatives)
    real = [a for a in alternatives if a != ""]
    if answer_type is not None and answer_type is not expected:
        return real  # BFCL's "variable" slot: the values as written, compared by ==
    items = spec.get("items") if schema_type in ("array", "tuple") else None
    dict_items = isinstance(items, Mapping) and items.get("type") == "dict"
    out: list[Any] = []
    for value in real:
        if isinstance(value, str):
            out.append(BFCLString(value))
        elif isinstance(value, dict):
            out.append(BFCLDict(value))
        elif isinstance(value, list):
            out.append([_item(v, dict_items) for v in value])
        else:
            out.append(value)
    if "" in alternatives:
        # BFCL also accepts an empty value here: "" for a string, [] for a list.
        if expected is str:
            out.append(BFCLString(""))
        elif expected is list:
            out.append([])
    return out


def _item(value: Any, dict_items: bool) -> Any:
    if dict_items and isinstance(value, dict):
        return BFCLDict(value)
    if isinstance(value, str) and not dict_items:
        return BFCLString(value)
    return value
