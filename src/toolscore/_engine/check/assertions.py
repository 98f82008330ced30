"""Assertions on top of ``evaluate()``: ``assert_tools``, ``test_agent``, ``cases``."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from typing import Any

from toolscore._engine.check.failure import ToolScoreAssertionError, check_min_score, record_row
from toolscore._engine.check.trajectory import match_trajectory
from toolscore._engine.check.trajectory_sides import check_mode
from toolscore._engine.score.evaluate import evaluate
from toolscore._engine.score.render import render_result
from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "ToolScoreAssertionError",
    "assert_tools",
    "call_sync_agent",
    "cases",
    "check_response",
    "test_agent",
    "test_agent_async",
]


def _decide(
    function: str,
    result: EvaluationResult,
    min_score: float | None,
    started: float,
    problems: list[str] | None = None,
) -> EvaluationResult:
    __tracebackhide__ = True
    passed = not problems and (min_score is None or result.score >= min_score)
    record_row(function, result, min_score, passed, started)
    if not passed:
        raise ToolScoreAssertionError(
            render_result(result, min_score=min_score, problems=problems),
            result=result,
            min_score=min_score,
        )
    return result


def assert_tools(
    expected: list[dict[str, Any]],
    actual: list[dict[str, Any]] | Any,
    min_score: float = 0.9,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    *,
    mode: str | None = None,
) -> EvaluationResult:
    """Evaluate and fail unless the score reaches ``min_score``.

    Args:
        expected: the calls that should be made (see :func:`toolscore.evaluate`).
        actual: the calls made, or a provider response.
        min_score: the lowest acceptable score, in [0, 1] (default 0.9).
        weights: custom score weights (see :func:`toolscore.evaluate`).
        strict: exact types and values.
        mode: also require the trajectory to match under this mode (``"strict"``,
            ``"unordered"``, ``"subset"`` or ``"superset"``, as in
            :func:`toolscore.match_trajectory`, arguments compared exactly).

    Returns:
        The :class:`~toolscore.core.EvaluationResult` when it passes.

    Raises:
        ToolScoreAssertionError: the score is below ``min_score``; the message lists every
            expected call with its actual partner, missing and extra calls, and a hint.

    Example:
        >>> assert_tools(
        ...     expected=[{"tool": "search", "args": {"q": "weather"}}],
        ...     actual=[{"tool": "search", "args": {"q": "weather"}}],
        ... ).score
        1.0
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    threshold = check_min_score(min_score)
    if mode is not None:
        check_mode(mode)
    result = evaluate(expected, actual, weights=weights, strict=strict)
    problems = None
    if mode is not None:
        match = match_trajectory(expected, actual, mode=mode, strict=strict)
        problems = [f"mode={mode!r}: {p}" for p in match.problems]
    return _decide("assert_tools", result, threshold, started, problems)


def check_response(response: Any) -> None:
    """An agent that returns nothing is a bug in the test setup, not a scored failure."""
    if response is None:
        raise TypeError(
            "the agent returned None; it must return its provider response (or a list of "
            "{'tool': name, 'args': {...}} dicts) so the tool calls can be read"
        )


def _is_async_callable(agent: Any) -> bool:
    if inspect.iscoroutinefunction(agent):
        return True
    call = type(agent).__dict__.get("__call__")
    return call is not None and inspect.iscoroutinefunction(call)


def call_sync_agent(agent: Callable[..., Any], prompt: Any, instead: str) -> Any:
    """``agent(prompt)`` for a synchronous agent; an async one is a ``TypeError`` naming
    ``instead`` (what to call for it), and so is an awaitable returned (it is closed unrun)."""
    if _is_async_callable(agent):
        raise TypeError(f"the agent is an async function; use {instead} instead")
    response = agent(prompt)
    if inspect.isawaitable(response):
        if inspect.iscoroutine(response):
            response.close()  # never awaited: no "coroutine was never awaited" warning
        raise TypeError(f"the agent returned an awaitable; use {instead} instead")
    return response


def _agent_threshold(agent: Any, min_score: float | None) -> float | None:
    """Check ``min_score``, then that ``agent`` is callable; return the threshold."""
    threshold = None if min_score is None else check_min_score(min_score)
    if not callable(agent):
        raise TypeError(f"agent must be callable, got {type(agent).__name__}")
    return threshold


def test_agent(
    agent: Callable[..., Any],
    input: str,
    expected: list[dict[str, Any]],
    min_score: float | None = None,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Run ``agent(input)``, read the tool calls from what it returns, and evaluate them.

    Args:
        agent: a synchronous callable taking the prompt and returning a provider response
            or a list of ``{"tool", "args"}`` dicts. Use :func:`test_agent_async` for
            ``async`` agents.
        input: the prompt.
        expected: the calls that should be made.
        min_score: if given, fail below this score.
        weights: custom score weights.
        strict: exact types and values.

    Raises:
        TypeError: ``agent`` is async or returned an awaitable.
        ToolScoreAssertionError: ``min_score`` is given and not reached.

    Example:
        >>> def agent(prompt):
        ...     return [{"tool": "search", "args": {"q": prompt}}]
        >>> test_agent(agent, "cats", [{"tool": "search", "args": {"q": "cats"}}]).score
        1.0
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    threshold = _agent_threshold(agent, min_score)
    response = call_sync_agent(agent, input, "toolscore.test_agent_async")
    check_response(response)
    result = evaluate(expected, response, weights=weights, strict=strict)
    return _decide("test_agent", result, threshold, started)


test_agent.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


async def test_agent_async(
    agent: Callable[..., Any],
    input: str,
    expected: list[dict[str, Any]],
    min_score: float | None = None,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Like :func:`test_agent` for async agents (a plain callable's result is also accepted).

    Example:
        >>> async def agent(prompt):
        ...     return [{"tool": "search", "args": {"q": prompt}}]
        >>> import asyncio
        >>> asyncio.run(test_agent_async(agent, "x", [{"tool": "search"}])).score
        1.0
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    threshold = _agent_threshold(agent, min_score)
    response = agent(input)
    if inspect.isawaitable(response):
        response = await response
    check_response(response)
    result = evaluate(expected, response, weights=weights, strict=strict)
    return _decide("test_agent_async", result, threshold, started)


test_agent_async.__test__ = False  # type: ignore[attr-defined]


def cases(test_cases: list[dict[str, object]], id_key: str = "input") -> Any:
    """Parametrize a pytest test with a list of case dicts (keys become argument names).

    Args:
        test_cases: one dict per case; every dict must have the same keys.
        id_key: the key whose value names each case in the test id.

    Returns:
        A ``pytest.mark.parametrize`` decorator.

    Example:
        >>> import toolscore
        >>> @toolscore.cases([{"input": "weather NYC", "expected": [{"tool": "get_weather"}]}])
        ... def test_agent(input, expected):
        ...     pass
    """
    import pytest

    if not isinstance(test_cases, (list, tuple)) or not test_cases:
        raise ValueError("cases() needs a non-empty list of dicts, one per test case")
    for n, case in enumerate(test_cases):
        if not isinstance(case, Mapping):
            raise TypeError(f"cases(): test_cases[{n}] must be a dict, got {type(case).__name__}")
    names = list(test_cases[0].keys())
    for n, case in enumerate(test_cases[1:], start=1):
        if set(case) != set(names):
            raise ValueError(
                f"cases(): test_cases[{n}] has keys {sorted(case)}, but test_cases[0] has "
                f"{sorted(names)}; every case needs the same keys"
            )
    ids = [str(case.get(id_key, n)) for n, case in enumerate(test_cases)]
    values = [tuple(case[name] for name in names) for case in test_cases]
    if len(names) == 1:
        return pytest.mark.parametrize(names[0], [v[0] for v in values], ids=ids)
    return pytest.mark.parametrize(",".join(names), values, ids=ids)
