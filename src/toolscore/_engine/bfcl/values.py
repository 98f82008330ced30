"""BFCL's type table and string normalisation, and how values are shown in messages.

Behind :mod:`toolscore.bfcl`, which re-exports the public names (the same objects).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "PYTHON_TYPES",
    "SchemaError",
    "describe_answer",
    "describe_call",
    "first_answer_type",
    "normalise",
    "python_type",
    "show",
    "show_alternatives",
]

#: Schema type name -> the one Python type BFCL's Python checker accepts for it.
PYTHON_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "any": str,
}

# Java and JavaScript schemas use these names; they mean the record is not a Python one.
_FOREIGN_TYPES = {
    "String",
    "Boolean",
    "HashMap",
    "ArrayList",
    "Array",
    "long",
    "double",
    "char",
    "short",
    "byte",
    "int",
    "Integer",
    "Long",
    "Double",
    "Float",
    "Map",
    "List",
    "Set",
    "Object",
    "Hashtable",
    "Stack",
    "Queue",
    "object",
    "Date",
    "Number",
}

_DELETED = str.maketrans("", "", " ,./-_*^")


class SchemaError(ValueError):
    """A function schema or a possible answer that BFCL's Python checker cannot apply."""


def normalise(text: str) -> str:
    """BFCL's string normalisation: delete ASCII spaces and ``, . / - _ * ^``, lower the
    case, then turn ``'`` into ``"``.

    Only those eight characters go: tabs, non-breaking spaces, ``:`` ``;`` ``(`` ``)`` and
    the like stay.

    Example:
        >>> normalise("New York, NY")
        'newyorkny'
        >>> normalise("it's") == normalise('IT"S')
        True
        >>> normalise("a:b")
        'a:b'
    """
    return text.translate(_DELETED).lower().replace("'", '"')


def python_type(schema_type: object, where: str) -> type:
    """The Python type BFCL checks for a schema type name.

    Raises:
        SchemaError: the name is not one of BFCL's Python types (Java and JavaScript type
            names say so: those categories are out of scope).
    """
    if isinstance(schema_type, str):
        found = PYTHON_TYPES.get(schema_type)
        if found is not None:
            return found
    known = ", ".join(PYTHON_TYPES)
    if schema_type in _FOREIGN_TYPES:
        raise SchemaError(
            f"{where} has type {schema_type!r}, a Java/JavaScript type: toolscore applies "
            "BFCL's Python rules only (the simple_java and simple_javascript categories are "
            f"out of scope). Python schemas use {known}."
        )
    raise SchemaError(
        f"{where} has type {schema_type!r}, which BFCL's Python checker does not know "
        f"(it knows {known})."
    )


def first_answer_type(alternatives: list[Any]) -> type | None:
    """The type of the first alternative that is not ``""`` (BFCL's "variable" type)."""
    return next((type(alternative) for alternative in alternatives if alternative != ""), None)


def show(value: Any, limit: int = 80) -> str:
    """A value as Python writes it, shortened for a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_alternatives(alternatives: list[Any], limit: int = 160) -> str:
    """``'a' or 'b'``, with ``""`` shown as leaving the parameter out.

    Example:
        >>> show_alternatives(["units", ""])
        "'units' (or leave it out)"
    """
    shown = [show(a) for a in alternatives if a != ""]
    if not shown:
        text = "nothing (leave it out)"
    elif len(shown) == 1:
        text = shown[0]
    else:
        text = ", ".join(shown[:-1]) + " or " + shown[-1]
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    if shown and "" in alternatives:
        text += " (or leave it out)"
    return text


def describe_answer(name: str, params: Mapping[str, list[Any]]) -> str:
    """An answered call written compactly: ``f(a=1|2, unit='cm'|omitted)``.

    Example:
        >>> describe_answer("area", {"base": [10], "unit": ["units", ""]})
        "area(base=10, unit='units'|omitted)"
    """
    parts = []
    for param, alternatives in params.items():
        shown = [show(a, 40) for a in alternatives if a != ""]
        if "" in alternatives:
            shown.append("omitted")
        parts.append(f"{param}={'|'.join(shown)}")
    return f"{name}({', '.join(parts)})"


def describe_call(call: Any) -> str:
    """A decoded output call written like Python: ``f(a=1, b='x')``."""
    if isinstance(call, Mapping) and len(call) == 1:
        name, args = next(iter(call.items()))
        if isinstance(args, Mapping):
            inner = ", ".join(f"{k}={show(v, 40)}" for k, v in args.items())
            return f"{name}({inner})"
    return show(call)
