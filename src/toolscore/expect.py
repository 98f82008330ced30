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
from dataclasses import dataclass
from typing import Any

from toolscore._engine.assertions import (
    ToolScoreAssertionError,
    call_sync_agent,
    check_min_score,
    check_response,
    record_row,
)
from toolscore._engine.calls import CallList
from toolscore._engine.compare import args_satisfy, values_match
from toolscore._engine.evaluate import evaluate_calls
from toolscore._engine.render import format_call, format_value
from toolscore._engine.result import EvaluationResult
from toolscore._engine.weights import resolve_weights

__all__ = ["Expectation", "expect"]

_SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class _Declared:
    tool: str
    args: dict[str, Any]
    after_previous: bool

    def describe(self) -> str:
        method = "then_calls" if self.after_previous else "calls"
        return f"{method}({_declaration(self.tool, self.args)})"


def _declaration(tool: str, args: Mapping[str, Any]) -> str:
    """``'tool', a=1``: a declared or forbidden call as it was written."""
    return ", ".join([repr(tool), *(f"{k}={format_value(v, 40)}" for k, v in args.items())])


def _matching_calls(
    trace: CallList, tool: str, wanted: Mapping[str, Any], strict: bool
) -> list[int]:
    """Indices of the calls to ``tool`` whose arguments agree on every name in ``wanted``."""
    return [
        j
        for j, (t, args) in enumerate(zip(trace.tools, trace.args, strict=False))
        if t == tool and args_satisfy(args, wanted, strict)
    ]


class Expectation:
    """Builder returned by :func:`expect`; finish with :meth:`run` or :meth:`run_async`."""

    def __init__(self, subject: Any) -> None:
        self._subject = subject
        self._prompt: str | None = None
        self._declared: list[_Declared] = []
        self._forbidden: list[tuple[str, dict[str, Any]]] = []
        self._min_score: float | None = None
        self._weights: dict[str, float] | None = None
        self._strict = False
        self._mode: str | None = None

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
        self._declared.append(_Declared(_tool_name(tool, "calls"), args, False))
        return self

    def then_calls(self, tool: str, **args: Any) -> Expectation:
        """Like :meth:`calls`, and the call must come after the previously declared one."""
        if not self._declared:
            raise ValueError("then_calls() needs a call declared before it; start with .calls()")
        self._declared.append(_Declared(_tool_name(tool, "then_calls"), args, True))
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
        from toolscore._engine.trajectory import check_mode

        self._mode = check_mode(mode, "mode(mode)")
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
        self._need_expectations()
        started = time.perf_counter()
        response = self._subject
        if self._is_agent():
            self._need_prompt()
            response = call_sync_agent(self._subject, self._prompt, ".run_async()")
        return self._check(response, started)

    async def run_async(self) -> EvaluationResult:
        """Like :meth:`run`, awaiting the agent when it is async."""
        __tracebackhide__ = True
        self._need_expectations()
        started = time.perf_counter()
        response = self._subject
        if self._is_agent():
            self._need_prompt()
            response = self._subject(self._prompt)
            if inspect.isawaitable(response):
                response = await response
        return self._check(response, started)

    def _need_expectations(self) -> None:
        if not self._declared and not self._forbidden and self._min_score is None:
            raise ValueError(
                "expect(...) has no expectations to check: declare at least one with "
                ".calls(), .then_calls(), .does_not_call() or .with_score() before .run()"
            )

    def _need_prompt(self) -> None:
        if self._prompt is None:
            raise ValueError(
                "expect(agent) needs .on(prompt) before .run(), e.g. "
                "expect(agent).on('book a flight').calls('search_flights').run()"
            )

    def _check(self, response: Any, started: float) -> EvaluationResult:
        __tracebackhide__ = True
        check_response(response)
        expected = [{"tool": d.tool, "args": d.args or None} for d in self._declared]
        result = evaluate_calls(expected, response, self._weights, self._strict, named_only=True)
        trace = result.trace  # the response, read once
        declared = self._declared_problems(trace) + self._mode_problems(expected, trace)
        forbidden = self._forbidden_problems(trace)
        problems = declared + forbidden
        threshold = self._min_score
        if threshold is None and self._declared:
            threshold = 0.9
        passed = not problems and (threshold is None or result.score >= threshold)
        record_row("expect", result, threshold, passed, time.perf_counter() - started)
        if not passed:
            from toolscore._engine.render import render_result

            hint = None
            if forbidden and not declared:
                hint = (
                    "The agent made a call it must not make; look at what in the prompt or in "
                    "the tool's description leads it there, or narrow does_not_call() with "
                    "argument matchers if only some such calls are wrong."
                )
            message = render_result(result, min_score=threshold, problems=problems, hint=hint)
            raise ToolScoreAssertionError(message, result=result, min_score=threshold)
        return result

    # -- behaviour checks ------------------------------------------------------------------
    def _declared_problems(self, trace: CallList) -> list[str]:
        if not self._declared:
            return []
        candidates: list[list[int]] = []
        problems: list[str] = []
        for d in self._declared:
            found = _matching_calls(trace, d.tool, d.args, self._strict)
            candidates.append(found)
            if not found:
                problems.append(self._never_made(d, trace))
        if problems:
            return problems
        if _assign(self._declared, candidates) is None:
            problems.append(self._order_problem(candidates))
        return problems

    def _mode_problems(self, expected: list[dict[str, Any]], trace: CallList) -> list[str]:
        if self._mode is None:
            return []
        from toolscore._engine.trajectory import Side, match_sides

        match = match_sides(
            Side([d["tool"] for d in expected], [d["args"] for d in expected]),
            Side(trace.tools, trace.args),
            self._mode,
            "superset",
            strict=self._strict,
        )
        if match.matched:
            return []
        return [f"mode({self._mode!r}) was not met: {p}" for p in match.problems]

    def _never_made(self, d: _Declared, trace: CallList) -> str:
        same_tool = [j for j, tool in enumerate(trace.tools) if tool == d.tool]
        if not same_tool:
            return f"{d.describe()} was not met: the agent never called {d.tool!r}."
        j = same_tool[0]
        args = trace.args[j] or {}
        diffs = []
        for k, v in d.args.items():
            if k not in args:
                diffs.append(f"{k} expected {format_value(v)}, not passed")
            elif not values_match(v, args[k], self._strict):
                diffs.append(f"{k} expected {format_value(v)}, actual {format_value(args[k])}")
        return (
            f"{d.describe()} was not met: {len(same_tool)} call(s) to {d.tool!r}, none with "
            f"matching arguments; the first, call #{j + 1} {format_call(d.tool, args)}, "
            f"differs in {'; '.join(diffs)}."
        )

    def _order_problem(self, candidates: list[list[int]]) -> str:
        # Greedy earliest placement shows which "then" step cannot follow its predecessor.
        used: set[int] = set()
        previous = -1
        for n, (d, found) in enumerate(zip(self._declared, candidates, strict=False)):
            floor = previous if d.after_previous else -1
            choice = next((j for j in found if j > floor and j not in used), None)
            if choice is None:
                before = self._declared[n - 1].describe() if n else ""
                where = ", ".join(f"#{j + 1}" for j in found)
                return (
                    f"{d.describe()} must come after {before} (actual call #{previous + 1}), "
                    f"but its matching call(s) are at {where}."
                    if d.after_previous
                    else f"{d.describe()} matched only calls already used by other expectations "
                    f"({where}); each actual call satisfies at most one expectation."
                )
            used.add(choice)
            previous = choice
        return "The declared calls cannot all be matched to distinct calls in the declared order."

    def _forbidden_problems(self, trace: CallList) -> list[str]:
        problems = []
        for tool, wanted in self._forbidden:
            hits = _matching_calls(trace, tool, wanted, self._strict)
            if hits:
                shown = ", ".join(f"#{j + 1} {format_call(tool, trace.args[j])}" for j in hits[:5])
                more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
                problems.append(
                    f"does_not_call({_declaration(tool, wanted)}) was broken by actual call(s) "
                    f"{shown}{more}."
                )
        return problems


def _assign(declared: list[_Declared], candidates: list[list[int]]) -> list[int] | None:
    """Distinct actual calls for every declared call, honouring then-order; None if none."""
    chosen: list[int] = []
    used: set[int] = set()
    budget = [_SEARCH_BUDGET]

    def place(n: int) -> bool:
        if n == len(declared):
            return True
        floor = chosen[-1] if declared[n].after_previous else -1
        for j in candidates[n]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if j > floor and j not in used:
                chosen.append(j)
                used.add(j)
                if place(n + 1):
                    return True
                chosen.pop()
                used.discard(j)
        return False

    return list(chosen) if place(0) else None


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
