"""Turn what a model produced into BFCL's checker input, ``[{name: {param: value}}, ...]``.

Accepted, in this order:

* ``None``: no output (BFCL: the decoder fails);
* text: a prompt-mode answer in Python call syntax, ``[f(a=1), g(b='x')]``;
* a list of calls, each one of: BFCL's ``{name: {param: value}}``; a function-calling
  model's ``{name: "<JSON arguments>"}`` as BFCL's result files store it; Cohere's
  ``{"tool_name", "parameters"}``; toolscore's ``{"tool", "args"}`` or a ``ToolCall``; or one
  provider tool-call object (an OpenAI ``tool_calls`` item, an Anthropic ``tool_use`` block, ...);
* any provider response :func:`toolscore.auto_extract` reads (OpenAI, Anthropic, Gemini,
  LangChain, ...), or a single ``{name: {param: value}}``.

A model output that does not decode is a failed verdict (``ast_decoder:decoder_failed``,
``ast_decoder:decoder_wrong_output_format``), as on the leaderboard; a Python object that is
no model output at all is a ``TypeError``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from typing import Any

from toolscore._engine.bfcl.values import show
from toolscore.adapters.base import ToolCall
from toolscore.bfcl._python_calls import PythonCallsError, read_python_calls

__all__ = ["DecodeFailure", "is_call_format", "not_calls_message", "read_output", "to_calls"]

DECODER_FAILED = "ast_decoder:decoder_failed"
WRONG_FORMAT = "ast_decoder:decoder_wrong_output_format"
_TOOLSCORE_KEYS = {"tool", "args", "result", "timestamp", "duration", "cost", "metadata"}


class DecodeFailure(ValueError):
    """The model's output does not decode into calls (BFCL's error type and a sentence)."""

    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def read_output(raw: Any) -> list[Any]:
    """The calls in a model output, in BFCL's form (not yet checked against the format gate).

    Raises:
        DecodeFailure: the output does not decode, as BFCL's decoder would fail.
        TypeError: ``raw`` is no kind of model output (a number, an unknown object).

    Example:
        >>> read_output('[f(a=1)]')
        [{'f': {'a': 1}}]
        >>> read_output([{"f": '{"a": 1}'}])
        [{'f': {'a': 1}}]
    """
    if raw is None:
        raise DecodeFailure(DECODER_FAILED, "The model gave no output (None).")
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str):
        try:
            return read_python_calls(raw)
        except PythonCallsError as exc:
            raise DecodeFailure(
                DECODER_FAILED,
                f"The output {show(raw, 60)} does not decode as Python function calls ({exc}).",
            ) from None
    if isinstance(raw, (list, tuple)):
        return [call for position, item in enumerate(raw) for call in _read_item(item, position)]
    return _read_item(raw, 0) if isinstance(raw, ToolCall) else _read_response(raw)


def _read_item(item: Any, position: int) -> list[Any]:
    if isinstance(item, ToolCall):
        return [{item.tool: dict(item.args or {})}]
    if not isinstance(item, Mapping):
        return [item]  # the format gate rejects it
    tool = item.get("tool")
    if isinstance(tool, str) and set(item) <= _TOOLSCORE_KEYS:
        args = item.get("args")
        if isinstance(args, str):
            args = _json_arguments(args, tool, position)
        return [{tool: args if args is not None else {}}]
    if len(item) == 2 and "tool_name" in item and "parameters" in item:  # Cohere
        return [{item["tool_name"]: item["parameters"]}]
    if len(item) == 1:
        name, args = next(iter(item.items()))
        if isinstance(args, (str, bytes)):
            return [{name: _json_arguments(args, name, position)}]
        return [dict(item)]
    try:
        return [_bfcl_call(c) for c in _extract(item)]
    except TypeError:
        return [dict(item)]  # several keys and no provider shape: the format gate rejects it


def _json_arguments(text: str | bytes, name: Any, position: int) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise DecodeFailure(
            DECODER_FAILED,
            f"Call {position + 1} ({name!r}) has arguments that are not valid JSON: "
            f"{show(text, 60)} ({exc}).",
        ) from None


def _extract(response: Any) -> list[dict[str, Any]]:
    """``toolscore.auto_extract``, with arguments that are not JSON made a decode failure."""
    from toolscore.integrations import MalformedArgumentsWarning, auto_extract

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MalformedArgumentsWarning)
        try:
            calls = auto_extract(response)
        except (TypeError, ValueError) as exc:
            raise TypeError(str(exc)) from None
    for warning in caught:
        if issubclass(warning.category, MalformedArgumentsWarning):
            raise DecodeFailure(DECODER_FAILED, " ".join(str(warning.message).split()))
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return calls


def _bfcl_call(call: Mapping[str, Any]) -> dict[str, Any]:
    return {call["tool"]: dict(call.get("args") or {})}


def _read_response(raw: Any) -> list[Any]:
    try:
        return [_bfcl_call(c) for c in _extract(raw)]
    except TypeError as exc:
        if isinstance(raw, Mapping) and len(raw) == 1:
            ((name, args),) = raw.items()
            if isinstance(args, Mapping):
                return [{name: dict(args)}]
        raise TypeError(
            "model_output must be a list of calls ([{name: {param: value}}] as BFCL writes "
            "them, or toolscore's [{'tool': ..., 'args': {...}}]), a prompt-mode text like "
            f'"[f(a=1)]", or a provider response toolscore can read; got {show(raw, 60)} '
            f"({exc})"
        ) from None


def is_call_format(calls: Any) -> bool:
    """BFCL's format gate: a list of one-key dicts whose value is a dict (``[]`` passes)."""
    return type(calls) is list and all(
        type(call) is dict and len(call) == 1 and type(next(iter(call.values()))) is dict
        for call in calls
    )


def not_calls_message(calls: Any) -> str:
    """Why a decoded output fails BFCL's format gate."""
    return (
        f"The output decodes to {show(calls, 80)}, which is not a list of calls "
        "[{name: {param: value}}]."
    )


def to_calls(model_output: Any) -> list[dict[str, Any]]:
    """A model output in any shape :func:`toolscore.bfcl.check` reads, as toolscore calls
    ``[{"tool": name, "args": {...}}]`` for :func:`toolscore.evaluate` and friends.

    Raises:
        DecodeFailure: (a ``ValueError``) the output does not decode into calls; its
            ``error_type`` is BFCL's.
        TypeError: ``model_output`` is no kind of model output.

    Example:
        >>> to_calls("[spotify.play(artist='Taylor Swift', duration=20)]")
        [{'tool': 'spotify.play', 'args': {'artist': 'Taylor Swift', 'duration': 20}}]
    """
    calls = read_output(model_output)
    if not is_call_format(calls):
        raise DecodeFailure(WRONG_FORMAT, not_calls_message(calls))
    return [{"tool": name, "args": args} for call in calls for name, args in call.items()]
