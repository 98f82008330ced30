"""Reading provider objects and their arguments: the two rules every reader shares.

* :func:`plain`: one level of an SDK object (pydantic model, dataclass, plain object) as a
  dict, so one reader handles SDK objects and their ``model_dump()`` dicts alike;
* :func:`read_arguments`: arguments as a dict; JSON text is parsed, and anything that is not
  a JSON object warns (:class:`MalformedArgumentsWarning`, naming the tool and quoting the
  text) and gives ``{}``: the call is kept, never dropped.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Mapping
from typing import Any

from scorekit.format import shorten

__all__ = [
    "MalformedArgumentsWarning",
    "action_input",
    "first_set",
    "get_field",
    "plain",
    "read_arguments",
]


class MalformedArgumentsWarning(UserWarning):
    """A tool call's arguments were not a JSON object; the call is kept with ``{}``."""


def get_field(obj: Any, name: str) -> Any:
    """A field of an SDK object or of its dict (None when missing)."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def first_set(d: Mapping[str, Any], *names: str) -> Any:
    """The value of the first of ``names`` that ``d`` holds and is not None (providers spell
    one field several ways); None when none is set."""
    for name in names:
        value = d.get(name)
        if value is not None:
            return value
    return None


def plain(obj: Any) -> Any:
    """One level of an SDK object as a dict (nested values converted when read)."""
    if obj is None or isinstance(obj, (Mapping, str, bytes, int, float, list, tuple)):
        return obj
    dump = getattr(obj, "model_dump", None)
    data = None
    if callable(dump):
        try:
            data = dump()
        except Exception:
            data = None
    if isinstance(data, Mapping):
        out = dict(data)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {f.name: getattr(obj, f.name, None) for f in dataclasses.fields(obj)}
    elif isinstance(attrs := getattr(obj, "__dict__", None), dict):
        out = {k: v for k, v in attrs.items() if not k.startswith("_")}
    else:
        return obj
    out.setdefault("__type__", type(obj).__name__)  # a dump may name its own type
    return out


def read_arguments(raw: Any, tool: str) -> dict[str, Any]:
    """Arguments as a dict: JSON text parsed, anything else warned about (and ``{}``)."""
    raw = plain(raw)
    if raw is None or raw == "":
        return {}
    if isinstance(raw, Mapping):
        return dict(raw)
    if isinstance(raw, (str, bytes)):
        parsed = _json_object(raw)
        if parsed is not None:
            return parsed
        what = "not a JSON object"
    else:
        what = f"a {type(raw).__name__}, not a dict"
    warnings.warn(
        f"toolscore: the arguments of the call to {tool!r} are {what}, so the call is kept "
        f"with no arguments. Raw arguments: {shorten(repr(raw), 200)}",
        MalformedArgumentsWarning,
        stacklevel=4,
    )
    return {}


def _json_object(text: str | bytes) -> dict[str, Any] | None:
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def action_input(raw: Any, tool: str) -> dict[str, Any]:
    """An agent action's input (LangChain ``tool_input``): a JSON object, or the one text
    input of a single-input tool, read as ``{"input": text}``."""
    if isinstance(raw, str):
        parsed = _json_object(raw)
        return parsed if parsed is not None else {"input": raw}
    return read_arguments(raw, tool)


MalformedArgumentsWarning.__module__ = "toolscore.integrations"  # its public home
