"""``expect()``: a fluent assertion about what an agent does with its tools.

Every ``.calls()`` must be present with matching arguments (the arguments named must agree;
others are checked neither here nor by the score), each ``.then_calls()`` must come after the
call declared just before it, every ``.does_not_call()`` must be absent (only calls whose named
arguments match count), and on top of that the score of :func:`toolscore.evaluate` on the
declared calls must reach the threshold (``.with_score()``, default 0.9 when calls are
declared).

Example:
    >>> from toolscore import expect, ANY, Regex
    >>> trace = [
    ...     {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    ...     {"tool": "book_flight", "args": {"flight_id": "FL-12"}},
    ... ]
    >>> result = (
    ...     expect(trace)
    ...     .calls("search_flights", origin=ANY, destination="NYC")
    ...     .then_calls("book_flight", flight_id=Regex(r"FL-\\d+"))
    ...     .does_not_call("cancel_booking")
    ...     .run()
    ... )
    >>> result.score
    1.0
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Mapping
from typing import Any

from toolscore._engine.check.assertions import call_sync_agent, check_response
from toolscore._engine.check.expectation import (
    Declared,
    budget_check,
    declared_problems,
    forbidden_problems,
    mode_problems,
    within_limits,
)
from toolscore._engine.check.failure import ToolScoreAssertionError, check_min_score, record_row
from toolscore._engine.score.evaluate import evaluate_calls
from toolscore._engine.score.result import EvaluationResult
from toolscore._engine.score.weights import resolve_weights

__all__ = ["Expectation", "expect"]

_FORBIDDEN_HINT = (
    "The agent made a call it must not make; look at what in the prompt or in the tool's "
    "description leads it there, or narrow does_not_call() with argument matchers if only some "
    "such calls are wrong."
)


class Expectation:
    """Builder returned by :func:`expect`; finish with :meth:`run` or :meth:`run_async`."""

    def __init__(self, subject: Any) -> None:
        self._subject = subject
        self._prompt: str | None = None
        self._declared: list[Declared] = []
        self._forbidden: list[tuple[str, dict[str, Any]]] = []
        self._min_score: float | None = None
        self._weights: dict[str, float] | None = None
        self._strict = False
        self._mode: str | None = None
        self._budget: dict[str, Any] | None = None
        self._honesty: tuple[str | None, Any, frozenset[str]] | None = None

    # -- building --------------------------------------------------------------------------
    def on(self, prompt: str) -> Expectation:
        """The prompt to run the agent on (only when the subject is an agent callable)."""
        if not isinstance(prompt, str):
            raise TypeError(f"on(prompt) takes a string, got {type(prompt).__name__}")
        if not callable(self._subject):
            raise ValueError(
                "on(prompt) is for agent callables; this expectation already holds a response, "
                "so drop .on(...)"
            )
        self._prompt = prompt
        return self

    def calls(self, tool: str, **args: Any) -> Expectation:
        """The agent must call ``tool``; named arguments must agree (matchers allowed)."""
        self._declared.append(Declared(_tool_name(tool, "calls"), args, False))
        return self

    def then_calls(self, tool: str, **args: Any) -> Expectation:
        """Like :meth:`calls`, and the call must come after the previously declared one."""
        if not self._declared:
            raise ValueError("then_calls() needs a call declared before it; start with .calls()")
        self._declared.append(Declared(_tool_name(tool, "then_calls"), args, True))
        return self

    def does_not_call(self, tool: str, **args: Any) -> Expectation:
        """The agent must not call ``tool`` (with these arguments, if any are named)."""
        self._forbidden.append((_tool_name(tool, "does_not_call"), args))
        return self

    def with_score(self, min_score: float) -> Expectation:
        """The lowest acceptable :func:`toolscore.evaluate` score (default 0.9)."""
        self._min_score = check_min_score(min_score, "with_score(min_score)")
        return self

    def with_weights(self, **weights: float) -> Expectation:
        """Custom score weights, as in :func:`toolscore.evaluate`."""
        resolve_weights(weights)  # fail here, where the mistake was made
        self._weights = dict(weights)
        return self

    def with_strict_args(self) -> Expectation:
        """Compare argument values by exact type and value."""
        self._strict = True
        return self

    def mode(self, mode: str) -> Expectation:
        """Also require the declared calls to form the trajectory under ``mode``.

        ``"strict"`` (the declared calls, and no others, in the declared order),
        ``"unordered"`` (the declared calls and no others, any order), ``"subset"`` (no call
        beyond the declared ones) or ``"superset"`` (every declared call, extras allowed);
        see :func:`toolscore.match_trajectory`. Only the arguments a declaration names are
        compared (args mode ``"superset"``), as everywhere in ``expect()``.
        """
        from toolscore._engine.check.trajectory_sides import check_mode

        self._mode = check_mode(mode, "mode(mode)")
        return self

    def within(self, **limits: Any) -> Expectation:
        """Also hold the run to a budget: the keywords of :func:`toolscore.assert_budget`
        (``max_tool_calls``, ``max_calls_per_tool``, ``max_model_requests``, ``max_tokens``,
        ``max_cost_usd``, ``max_duration_s``). On its own it is an expectation."""
        self._budget = within_limits(limits)
        return self

    def is_honest(
        self, answer: str | None = None, *, judge: Any = None, allow: Any = ()
    ) -> Expectation:
        """Also require the agent's answer to agree with its run (see
        :func:`toolscore.check_honesty`): ``answer`` defaults to the run's last assistant
        text, ``allow`` names finding kinds to tolerate. On its own it is an expectation."""
        from toolscore._engine.check.honesty.assertion import check_allow

        if answer is not None and not isinstance(answer, str):
            raise TypeError(f"is_honest(answer) takes a str, got {type(answer).__name__}")
        self._honesty = (answer, judge, check_allow(allow))
        return self

    # -- running ---------------------------------------------------------------------------
    def _is_agent(self) -> bool:
        return callable(self._subject) and not isinstance(self._subject, (list, tuple, Mapping))

    def run(self) -> EvaluationResult:
        """Run the agent if there is one, check every expectation, return the result.

        Raises:
            ToolScoreAssertionError: an expectation is broken or the score is too low.
            TypeError: the agent is async (use :meth:`run_async`).
        """
        __tracebackhide__ = True
        started = self._start()
        response = self._subject
        if self._is_agent():
            response = call_sync_agent(self._subject, self._prompt, ".run_async()")
        return self._check(response, started)

    async def run_async(self) -> EvaluationResult:
        """Like :meth:`run`, awaiting the agent when it is async."""
        __tracebackhide__ = True
        started = self._start()
        response = self._subject
        if self._is_agent():
            response = self._subject(self._prompt)
            if inspect.isawaitable(response):
                response = await response
        return self._check(response, started)

    def _start(self) -> float:
        """The start time, once there is something to check (and a prompt for an agent)."""
        if (
            not (self._declared or self._forbidden or self._budget or self._honesty)
            and self._min_score is None
        ):
            raise ValueError(
                "expect(...) has no expectations to check: declare at least one with .calls(), "
                ".then_calls(), .does_not_call(), .within() or .with_score() before .run()"
            )
        if self._is_agent() and self._prompt is None:
            raise ValueError(
                "expect(agent) needs .on(prompt) before .run(), e.g. "
                "expect(agent).on('book a flight').calls('search_flights').run()"
            )
        return time.perf_counter()

    def _check(self, response: Any, started: float) -> EvaluationResult:
        __tracebackhide__ = True
        check_response(response)
        expected = [{"tool": d.tool, "args": d.args or None} for d in self._declared]
        # A hand-off call the agent must not make stays in the trace to be found.
        keep = {tool for tool, _ in self._forbidden}
        result = evaluate_calls(
            expected, response, self._weights, self._strict, named_only=True, keep=keep
        )
        trace = result.trace  # the response, read once
        declared = declared_problems(self._declared, trace, self._strict)
        declared += mode_problems(self._mode, expected, trace, self._strict)
        forbidden = forbidden_problems(self._forbidden, trace, self._strict)
        budget, budget_text = budget_check(self._budget, response)
        honest, honest_text = self._honesty_problems(response)
        budget, budget_text = budget + honest, "\n".join(t for t in (budget_text, honest_text) if t)
        problems = declared + forbidden + budget
        threshold = 0.9 if self._min_score is None and self._declared else self._min_score
        passed = not problems and (threshold is None or result.score >= threshold)
        record_row("expect", result, threshold, passed, started)
        if budget and problems == budget and threshold is None:  # .within() alone
            raise ToolScoreAssertionError(budget_text, result=result)
        if not passed:
            from toolscore._engine.score.render import render_result

            hint = _FORBIDDEN_HINT if forbidden and not declared else None
            message = render_result(result, min_score=threshold, problems=problems, hint=hint)
            raise ToolScoreAssertionError(message, result=result, min_score=threshold)
        return result

    # -- behaviour checks ------------------------------------------------------------------
    def _honesty_problems(self, response: Any) -> tuple[list[str], str]:
        if self._honesty is None:
            return [], ""
        from toolscore._engine.check.honesty.assertion import record_honesty
        from toolscore._engine.check.honesty.check import check_honesty
        from toolscore._engine.check.honesty.report import describe

        answer, judge, allow = self._honesty
        report = check_honesty(response, answer, judge=judge)
        failing = report.failing(allow)
        record_honesty("expect.is_honest", report, not failing, 0.0)
        lines = [f"is_honest() was not met: {f.message}" for f in failing]
        return lines, describe(failing, report.claims_checked) if failing else ""


def _tool_name(tool: Any, method: str) -> str:
    if not isinstance(tool, str) or not tool:
        raise TypeError(f"{method}(tool) takes the tool's name as a non-empty string, got {tool!r}")
    return tool


def expect(subject: Any) -> Expectation:
    """Start a fluent expectation about an agent or a response.

    Args:
        subject: an agent callable (sync or async; add ``.on(prompt)``) or something that was
            already produced: a provider response, framework result, or list of
            ``{"tool", "args"}`` dicts.

    Returns:
        An :class:`Expectation` builder.

    Example:
        >>> expect([{"tool": "search", "args": {"q": "x"}}]).calls("search").run().score
        1.0
    """
    return Expectation(subject)
