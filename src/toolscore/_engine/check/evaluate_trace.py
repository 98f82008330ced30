"""``evaluate_trace``: score a recorded trace file against a gold file."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.judge.config import resolve_judge
from toolscore._engine.judge.evaluation import judged_evaluate
from toolscore._engine.read.gold_files import GoldFormatError, decode_gold
from toolscore._engine.read.trace_files import (
    TRACE_FORMATS,
    TraceFileError,
    TraceFileNotFoundError,
    check_format,
    nested_too_deeply,
    read_json_file,
    trace_calls,
)
from toolscore._engine.score.evaluate import evaluate
from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "TRACE_FORMATS",
    "GoldFormatError",
    "TraceFileError",
    "TraceFileNotFoundError",
    "evaluate_trace",
    "load_gold",
    "load_trace",
]


def load_gold(gold_file: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The expected calls of a gold file, with JSON-encoded matchers decoded; no file is a
    ``TraceFileNotFoundError``, an empty or malformed one (an unknown matcher key, JSON nested
    too deeply to read) a ``TraceFileError``."""
    name = os.fspath(gold_file)
    data = read_json_file(gold_file)
    try:
        return decode_gold(data, name)
    except RecursionError:
        raise nested_too_deeply(name, GoldFormatError) from None


def load_trace(trace_file: str | os.PathLike[str], format: str = "auto") -> list[dict[str, Any]]:
    """The calls recorded in a trace file, as ``[{"tool": ..., "args": {...}}]`` (plus run
    data such as ``result``, ``is_error``, ``duration`` when the format records it). Errors
    as :func:`load_gold`, and a ``ValueError`` ("Unsupported format") for an unknown format."""
    check_format(format)
    name = os.fspath(trace_file)
    data = read_json_file(trace_file)
    try:
        return trace_calls(data, format, name)
    except RecursionError:
        raise nested_too_deeply(name) from None


def evaluate_trace(
    gold_file: str | os.PathLike[str],
    trace_file: str | os.PathLike[str],
    format: str = "auto",
    validate_side_effects: bool = True,
    judge: Any = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    weights: Mapping[str, float] | None = None,
    *,
    strict: bool = False,
) -> EvaluationResult:
    """Score the tool calls recorded in ``trace_file`` against the gold calls in ``gold_file``.

    Args:
        gold_file: JSON list of ``{"tool": name, "args": {...}}`` (optionally with
            ``"side_effects"`` checks and a ``"description"``); argument values may be matchers
            in their JSON encoding (``{"$regex": "NYC|JFK"}``, ``{"$any": true}``,
            ``{"$approx": 72.5, "rel": 0.01}``, ``{"$one_of": [...]}``,
            ``{"$contains": ...}``, ``{"$type": "int"}``).
        trace_file: the recorded calls: an OpenAI, Anthropic, Gemini, LangChain or CrewAI
            response or message list, MCP JSON-RPC ``tools/call`` requests (JSON list, one per
            line, or a recorded session), OpenTelemetry GenAI spans (OTLP/JSON), or a plain
            list of ``{"tool", "args"}``.
        format: ``auto`` (detect) or one of ``openai``, ``anthropic``, ``gemini``,
            ``langchain``, ``mcp``, ``otel``, ``crewai``, ``custom``.
        validate_side_effects: run the gold calls' ``side_effects`` checks on their paired
            actual calls (``metrics["side_effect_metrics"]``).
        judge: ``False`` (default): deterministic scoring only. ``True`` (the session's
            judge: ``--llm-*`` options, the environment, ``configure()``; the offline MiniLM
            similarity when no LLM is configured), a model name or a
            :class:`~toolscore.JudgeConfig`: the judge decides every argument exact matching
            rejected; the scores, failure text and reports reflect its verdicts, and
            ``metrics["semantic_metrics"]`` holds them (see
            :func:`toolscore.metrics.llm_judge.calculate_semantic_correctness`). A judge
            failure raises ``JudgeUnavailableError`` (an error, never a lower score).
        forbidden: calls the agent must never make (see :func:`toolscore.evaluate`).
        weights: custom score weights, as for :func:`toolscore.evaluate`.
        strict: exact types and values, as for :func:`toolscore.evaluate`.

    Returns:
        The :class:`~toolscore.core.EvaluationResult`; its ``metrics`` also hold
        ``latency_metrics`` / ``cost_metrics`` when the trace records durations / costs, and
        ``schema_metrics`` when gold calls carry an argument schema (``metadata.schema``).

    Raises:
        TraceFileNotFoundError: (a ``FileNotFoundError``) a file does not exist.
        TraceFileError: (a ``ValueError``) a file is empty, not JSON, of an unknown shape, or
            holds an unknown matcher key; the message names the file and the problem.
        ValueError: ``format`` is unknown ("Unsupported format"), or bad weights or rules.

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
    check_format(format)
    if not isinstance(validate_side_effects, bool):
        raise TypeError(
            f"validate_side_effects must be True or False, got {validate_side_effects!r}"
        )
    expected = load_gold(gold_file)
    actual = load_trace(trace_file, format)
    semantic: dict[str, Any] | None = None
    if judge is not False and judge is not None:
        # The judge decides what exact matching rejected; every metric reflects its verdicts.
        result, semantic = judged_evaluate(
            expected,
            actual,
            resolve_judge(judge),
            weights=weights,
            strict=strict,
            forbidden=forbidden,
        )
    else:
        result = evaluate(expected, actual, weights=weights, strict=strict, forbidden=forbidden)
    gold_calls, calls = result.gold_calls, result.trace_calls
    extra: dict[str, Any] = {}
    if validate_side_effects:
        from toolscore._engine.score.metrics.side_effects import (
            calculate_side_effect_success_rate,
            default_side_effect_validators,
        )

        extra["side_effect_metrics"] = calculate_side_effect_success_rate(
            gold_calls, calls, default_side_effect_validators()
        )
    from toolscore._engine.score.validators.schema import calculate_schema_validation_metrics

    # Gold calls written by `toolscore generate` carry their tool's argument schema.
    schemas = calculate_schema_validation_metrics(gold_calls, calls)
    if schemas["total_validated"] > 0:
        extra["schema_metrics"] = schemas
    from toolscore._engine.score.metrics.cost import calculate_cost_attribution, calculate_latency

    latency = calculate_latency(calls)
    if latency["total_duration"] > 0:
        extra["latency_metrics"] = latency
    cost = calculate_cost_attribution(calls)
    if cost["total_cost"] > 0:
        extra["cost_metrics"] = cost
    if semantic is not None:
        extra["semantic_metrics"] = semantic
    result._add_metrics(extra)
    return result
