"""BFCL's single-call check: one model call against one schema and one possible answer.

Behind :mod:`toolscore.bfcl`, which re-exports the public names (the same objects).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from toolscore._engine.bfcl.values import (
    first_answer_type,
    normalise,
    python_type,
    show,
    show_alternatives,
)

__all__ = ["Finding", "call_name", "check_call"]

_STRING_NOTE = "strings are compared ignoring case, spaces and , . / - _ * ^"


@dataclass(frozen=True)
class Finding:
    """One problem with a call: BFCL's error type and a sentence for a person."""

    error_type: str
    message: str
    param: str | None = None


def call_name(schema: Mapping[str, Any], underscore_to_dot: bool) -> str:
    """The name a model must use for ``schema``: dots become underscores with
    ``underscore_to_dot`` (function-calling APIs that forbid dots), else the name as is."""
    name = str(schema.get("name", ""))
    return name.replace(".", "_") if underscore_to_dot and "." in name else name


def check_call(
    schema: Mapping[str, Any],
    call: Mapping[str, Any],
    answer: Mapping[str, list[Any]],
    underscore_to_dot: bool,
    position: int,
    first_only: bool = False,
) -> list[Finding]:
    """Check output call number ``position`` (from 0), a decoded ``{name: {param: value}}``,
    against ``answer``, the possible answer's ``{param: [alternatives]}``; ``[]`` means it
    passes. ``first_only`` stops at the first problem (what a verdict needs).

    Raises:
        SchemaError: a parameter the model passed has a type BFCL's Python checker does
            not know (for example a Java type).
    """
    label = f"Output call {position + 1} ({next(iter(call), '?')})"
    found = _findings(schema, call, answer, underscore_to_dot, label)
    return list(islice(found, 1) if first_only else found)


def _findings(
    schema: Mapping[str, Any],
    call: Mapping[str, Any],
    answer: Mapping[str, list[Any]],
    underscore_to_dot: bool,
    label: str,
) -> Iterator[Finding]:
    name = call_name(schema, underscore_to_dot)
    if name not in call:
        yield _wrong_name(schema, call, name, underscore_to_dot, label)
        return
    params = call[name]
    parameters = schema.get("parameters") or {}
    properties: Mapping[str, Any] = parameters.get("properties") or {}
    required = parameters.get("required") or ()
    for param in required:
        if param not in params:
            note = ""
            if "" in answer.get(param, ()):
                note = " (the answer marks it optional, but the schema requires it)"
            yield Finding(
                "simple_function_checker:missing_required",
                f"{label} leaves out {param!r}, a required parameter of {name}{note}.",
                param,
            )
    for param, value in params.items():
        if param not in properties or param not in answer:
            yield _unexpected(name, param, value, param in properties, label)
            continue
        where = f"{label}: {param}={show(value)}"
        finding = check_param(param, value, properties[param], answer[param], where, name)
        if finding is not None:
            yield finding
    for param, alternatives in answer.items():
        if param not in params and "" not in alternatives and param not in required:
            yield Finding(
                "simple_function_checker:missing_optional",
                f"{label} leaves out {param!r}; the answer needs "
                f"{show_alternatives(alternatives)}.",
                param,
            )


def _wrong_name(
    schema: Mapping[str, Any],
    call: Mapping[str, Any],
    name: str,
    underscore_to_dot: bool,
    label: str,
) -> Finding:
    got = next(iter(call), None)
    text = f"{label} is not the expected function {name!r}"
    original = str(schema.get("name", ""))
    if not underscore_to_dot and "." in original and got == original.replace(".", "_"):
        text += (
            "; with underscore_to_dot=True (function-calling models whose API forbids dots "
            "in names) this name is right"
        )
    elif underscore_to_dot and got == original:
        text += "; underscore_to_dot=True expects the dots replaced by underscores"
    elif isinstance(got, str) and got.lower() == name.lower():
        text += "; names are compared exactly, case included"
    return Finding("simple_function_checker:wrong_func_name", text + ".")


def _unexpected(name: str, param: str, value: Any, in_schema: bool, label: str) -> Finding:
    if in_schema:
        why = "the answer does not allow it (BFCL rejects any parameter its answer leaves out)"
    else:
        why = f"{name} has no such parameter"
    return Finding(
        "simple_function_checker:unexpected_param",
        f"{label} passes {param}={show(value)}, but {why}.",
        param,
    )


def check_param(  # noqa: C901 (BFCL's own type rules, branch for branch as the leaderboard checks them)
    param: str,
    value: Any,
    spec: Mapping[str, Any],
    alternatives: list[Any],
    where: str,
    function: str = "",
) -> Finding | None:
    """BFCL's type and value rules for one supplied parameter (``None`` when it passes)."""
    schema_type = spec.get("type")
    expected = python_type(schema_type, f"parameter {param!r} of {function or 'the function'}")
    item_type: type | None = None
    if schema_type in ("array", "tuple"):
        items = spec.get("items")
        item_name = items.get("type") if isinstance(items, Mapping) else None
        item_type = python_type(item_name, f"the items of parameter {param!r} of {function}")
    if schema_type == "tuple" and type(value) is tuple:
        value = list(value)
    if schema_type == "float" and type(value) is int:
        value = float(value)
    answer_type = first_answer_type(alternatives)
    variable = answer_type is not None and answer_type is not expected
    if _exactly(value, expected):
        if item_type is not None:
            bad = _nested_failure(value, alternatives, item_type)
            if bad is not None:
                if answer_type is not None and _exactly(value, answer_type):
                    return _nested(param, where, bad, item_type, spec)
                return _type_error(param, where, value, schema_type, answer_type)
    elif answer_type is not None and _exactly(value, answer_type):
        variable = True
    else:
        return _type_error(param, where, value, schema_type, answer_type)
    if variable:
        if value in alternatives:
            return None
        return Finding(
            "value_error:others",
            f"{where} is not one of the answer's values {show_alternatives(alternatives)} "
            "(compared exactly, as written).",
            param,
        )
    if expected is dict:
        return check_dict(param, value, alternatives, where)
    if expected is list and item_type is dict:
        return _check_list_of_dicts(param, value, alternatives, where)
    if expected is str:
        wanted = [normalise(a) for a in alternatives if type(a) is str]
        if normalise(value) in wanted:
            return None
        return Finding(
            "value_error:string",
            f"{where} is not an allowed value; allowed: {show_alternatives(alternatives)} "
            f"({_STRING_NOTE}).",
            param,
        )
    if expected is list:
        if _normalised_list(value) in [_normalised_list(a) for a in alternatives]:
            return None
        return Finding(
            "value_error:list/tuple",
            f"{where} is not an allowed list; allowed: {_show_lists(alternatives)} "
            f"(the order of the items counts; {_STRING_NOTE}).",
            param,
        )
    if value in alternatives:
        return None
    return Finding(
        "value_error:others",
        f"{where} is not an allowed value; allowed: {show_alternatives(alternatives)} "
        "(numbers and booleans must match exactly, without tolerance).",
        param,
    )


def _exactly(value: Any, kind: type) -> bool:
    """``type(value) is kind``: BFCL compares types exactly (``True`` is no ``int``)."""
    return type(value) is kind


def _nested_failure(value: list[Any], alternatives: list[Any], item_type: type) -> Any:
    """``None`` when some alternative accepts the item types, else a failing item.

    An alternative that is not a list accepts at once; a list alternative accepts when every
    item has the item type or the type of the alternative's own first non-"" element.
    """
    failing: Any = None
    for alternative in alternatives:
        if type(alternative) is not list:
            return None
        own = first_answer_type(alternative)
        for position, item in enumerate(value):
            if type(item) is not item_type and (own is None or type(item) is not own):
                failing = (position, item)
                break
        else:
            return None
    return failing if failing is not None else (None, None)


def _nested(
    param: str, where: str, bad: tuple[Any, Any], item_type: type, spec: Mapping[str, Any]
) -> Finding:
    position, item = bad
    text = f"{where}: every item must be {item_type.__name__} ({spec.get('items')!r})"
    if position is not None:
        text += f", but item {position} ({show(item, 40)}) is {type(item).__name__}"
        if item_type is float and type(item) is int:
            text += " (BFCL turns int into float only at the top level, never inside a list)"
        elif item_type is int and type(item) is bool:
            text += " (a bool is not an integer)"
    return Finding("type_error:nested", text + ".", param)


def _type_error(
    param: str, where: str, value: Any, schema_type: Any, answer_type: type | None
) -> Finding:
    text = f"{where} is {type(value).__name__}, but the schema says {schema_type}"
    if answer_type is not None and answer_type is not python_type(schema_type, param):
        text += f" (and the answer's values are {answer_type.__name__})"
    if schema_type == "integer" and type(value) is float:
        text += "; BFCL never turns a float into an integer"
    elif schema_type in ("integer", "float") and type(value) is bool:
        text += "; a bool is not a number"
    elif schema_type == "array" and type(value) is tuple:
        text += "; a tuple is accepted only where the schema says tuple"
    return Finding("type_error:simple", text + ".", param)


def _normalised_list(value: Any) -> list[Any] | None:
    """The list with its top-level strings normalised (``""`` is the empty list)."""
    if not isinstance(value, (list, tuple, str)):
        return None
    return [normalise(item) if type(item) is str else item for item in value]


def _show_lists(alternatives: list[Any]) -> str:
    lists = [show(a, 60) for a in alternatives if a != ""]
    if "" in alternatives:
        lists.append("[] (or leave it out)")
    return " or ".join(lists) if lists else "none"


def check_dict(param: str, value: Any, alternatives: list[Any], where: str) -> Finding | None:
    """BFCL's dict rule: some alternative dict takes every key the model gave (values
    normalised like strings, others by ``==``), and every key it has that the model left out
    allows ``""``."""
    finding: Finding | None = Finding(
        "dict_checker:unclear",
        f"{where} is given, but the answer allows no dict here "
        f"({show_alternatives(alternatives)}).",
        param,
    )
    for alternative in alternatives:
        if alternative == "":
            continue
        if not isinstance(value, Mapping):
            return Finding("value_error:dict_value", f"{where} is not a dict.", param)
        finding = _against_dict(param, value, alternative, where)
        if finding is None:
            return None
    return finding


def _options(options: Any) -> list[Any]:
    """A key's alternatives inside a dict answer (a lone value counts as the only one)."""
    return list(options) if isinstance(options, (list, tuple, str)) else [options]


def _against_dict(
    param: str, value: Mapping[Any, Any], alternative: Any, where: str
) -> Finding | None:
    if not isinstance(alternative, Mapping):
        return Finding(
            "value_error:dict_value",
            f"{where} is a dict, but the answer's alternative is {show(alternative)}.",
            param,
        )
    # A key the model left out is reported before a key or value it gave.
    for key, options in alternative.items():
        if key not in value and "" not in _options(options):
            return Finding(
                "value_error:dict_key",
                f"{where} has no key {key!r}; the answer needs "
                f"{show_alternatives(_options(options))}.",
                param,
            )
    for key, item in value.items():
        if key not in alternative:
            allowed = ", ".join(repr(k) for k in alternative) or "none"
            return Finding(
                "value_error:dict_key",
                f"{where} has the key {key!r}, which the answer does not allow "
                f"(allowed keys: {allowed}).",
                param,
            )
        options = _options(alternative[key])
        normalised = normalise(item) if type(item) is str else item
        wanted = [normalise(o) if type(o) is str else o for o in options]
        if normalised not in wanted:
            return Finding(
                "value_error:dict_value",
                f"{where}: the value of {key!r} is {show(item, 40)}; allowed: "
                f"{show_alternatives(options)} ({_STRING_NOTE}).",
                param,
            )
    return None


def _check_list_of_dicts(
    param: str, value: list[Any], alternatives: list[Any], where: str
) -> Finding | None:
    """BFCL's list-of-dicts rule: an alternative list of the same length (``""`` counts as
    empty) whose k-th dict accepts the model's k-th dict."""
    finding: Finding | None = Finding(
        "list_dict_checker:unclear", f"{where}: the answer allows no list here.", param
    )
    for alternative in alternatives:
        size = len(alternative) if isinstance(alternative, (list, tuple, str)) else None
        if size != len(value):
            sizes = sorted({len(a) for a in alternatives if isinstance(a, (list, tuple, str))})
            allowed = " or ".join(str(n) for n in sizes) or "no list of"
            finding = Finding(
                "value_error:list_dict_count",
                f"{where} holds {len(value)} dicts; the answer allows {allowed} dicts "
                f"({_show_lists(alternatives)}).",
                param,
            )
            continue
        for position, item in enumerate(value):
            finding = check_dict(param, item, [alternative[position]], f"{where}, item {position}")
            if finding is not None:
                break
        else:
            return None
    return finding
