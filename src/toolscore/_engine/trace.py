"""``evaluate_trace``: score a recorded trace file against a gold file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from toolscore._engine.evaluate import evaluate
from toolscore._engine.result import EvaluationResult
from toolscore._engine.trace_files import TRACE_FORMATS, TraceFileError, read_json_file, trace_calls
from toolscore._engine.trace_gold import GoldFormatError, decode_gold

__all__ = [
    "TRACE_FORMATS",
    "GoldFormatError",
    "TraceFileError",
    "evaluate_trace",
    "load_gold",
    "load_trace",
]


def load_gold(gold_file: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The expected calls of a gold file, with JSON-encoded matchers decoded.

    Raises:
        TraceFileError: missing, empty or malformed file, or an unknown matcher key.
    """
    name = os.fspath(gold_file)
    return decode_gold(read_json_file(gold_file), name)


def load_trace(trace_file: str | os.PathLike[str], format: str = "auto") -> list[dict[str, Any]]:
    """The calls recorded in a trace file, as ``[{"tool": ..., "args": {...}}]``.

    Raises:
        ValueError: ``format`` is not one of ``TRACE_FORMATS``.
        TraceFileError: missing, empty or malformed file, or a shape the format cannot read.
    """
    if format not in TRACE_FORMATS:
        raise ValueError(f"format must be one of {', '.join(TRACE_FORMATS)}; got {format!r}")
    name = os.fspath(trace_file)
    return trace_calls(read_json_file(trace_file), format, name)


def evaluate_trace(
    gold_file: str | os.PathLike[str],
    trace_file: str | os.PathLike[str],
    format: str = "auto",
    *,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Score the tool calls recorded in ``trace_file`` against the gold calls in ``gold_file``.

    Args:
        gold_file: JSON list of ``{"tool": name, "args": {...}}``; argument values may be
            matchers in their JSON encoding (``{"$regex": "NYC|JFK"}``, ``{"$any": true}``,
            ``{"$approx": 72.5, "rel": 0.01}``, ``{"$one_of": [...]}``,
            ``{"$contains": ...}``, ``{"$type": "int"}``).
        trace_file: the recorded calls: an OpenAI, Anthropic, Gemini or LangChain response or
            message list, MCP JSON-RPC ``tools/call`` requests (JSON list or one per line),
            or a plain list of ``{"tool", "args"}``.
        format: ``auto`` (detect) or one of ``openai``, ``anthropic``, ``gemini``,
            ``langchain``, ``mcp``, ``custom``.
        weights: custom score weights, as for :func:`toolscore.evaluate`.
        strict: exact types and values, as for :func:`toolscore.evaluate`.

    Returns:
        The :class:`~toolscore.core.EvaluationResult`.

    Raises:
        TraceFileError: (a ``ValueError``) a file is missing, empty, not JSON, of an unknown
            shape, or holds an unknown matcher key; the message names the file and the problem.

    Example:
        >>> import json, tempfile, os
        >>> d = tempfile.mkdtemp()
        >>> gold, trace = os.path.join(d, "gold.json"), os.path.join(d, "trace.json")
        >>> _ = open(gold, "w").write(json.dumps(
        ...     [{"tool": "get_weather", "args": {"city": {"$regex": "NYC|JFK"}}}]))
        >>> _ = open(trace, "w").write(json.dumps(
        ...     [{"tool": "get_weather", "args": {"city": "NYC"}}]))
        >>> evaluate_trace(gold, trace).score
        1.0
    """
    expected = load_gold(gold_file)
    actual = load_trace(trace_file, format)
    return evaluate(expected, actual, weights=weights, strict=strict)
