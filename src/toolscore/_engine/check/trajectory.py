"""``match_trajectory()``: does the agent's run follow the expected trajectory, under a mode?

The trajectory modes (``strict``, ``unordered``, ``subset``, ``superset``) are LangChain
``agentevals``' ones, the argument modes are described at :func:`match_trajectory`. Reading the
sides is ``trajectory_sides`` (hand-offs included); pairing them is
``trajectory_pairing``, a maximum one-to-one matching, so when several calls fit one another a
valid pairing is found whenever one exists (a greedy first-fit pairing would miss some).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scorekit.runtime import gc_paused
from toolscore._engine.check.failure import ToolScoreAssertionError, record_row
from toolscore._engine.check.trajectory_pairing import (
    CallMatcher,
    call_text,
    missing_sentence,
    strict_order,
)
from toolscore._engine.check.trajectory_sides import Side, check_mode, read_sides, rules_for
from toolscore._engine.score.evaluate import evaluate_calls
from toolscore._engine.score.render import render_result
from toolscore._engine.score.result import EvaluationResult

__all__ = ["TrajectoryMatch", "assert_trajectory", "match_sides", "match_trajectory"]

_MAX_LISTED = 10
_HOW = {
    "strict": "the same calls in the same order",
    "unordered": "the same calls in any order",
    "subset": "no call beyond the expected ones",
    "superset": "every expected call present",
}


@dataclass(frozen=True)
class TrajectoryMatch:
    """The outcome of :func:`toolscore.match_trajectory`.

    Attributes:
        matched: whether the actual trajectory matches the expected one under the mode.
        reason: one sentence: why it matched, or the first problem (the first expected call
            with no partner, else the first extra call, else the first position out of order).
        problems: every problem, one sentence each (empty when matched).
        mode / args: the trajectory mode and the default argument mode used.
        pairs: ``(expected_index, actual_index)`` pairs (0-based) of the one-to-one pairing.
        missing: expected indices with no partner.
        extra: actual indices with no partner (allowed by ``superset``).
        expected / actual: the calls read from each side, as ``{"tool", "args"}`` dicts.
        strict: whether argument values were compared by exact type.
        result: :func:`toolscore.evaluate` of the two call lists (computed on first use).
        score: ``result.score``.

    Example:
        >>> from toolscore import match_trajectory
        >>> m = match_trajectory([{"tool": "a"}, {"tool": "b"}], [{"tool": "b"}, {"tool": "a"}],
        ...                      mode="unordered")
        >>> m.matched, m.pairs
        (True, ((0, 1), (1, 0)))
    """

    matched: bool
    reason: str
    problems: tuple[str, ...]
    mode: str
    args: str
    pairs: tuple[tuple[int, int], ...]
    missing: tuple[int, ...]
    extra: tuple[int, ...]
    expected: tuple[dict[str, Any], ...]
    actual: tuple[dict[str, Any], ...]
    strict: bool = field(default=False, repr=False)

    @cached_property
    def result(self) -> EvaluationResult:
        """:func:`toolscore.evaluate` of the two call lists (computed on first use)."""
        return evaluate_calls(  # tool calls only: agent steps are no calls
            [c for c in self.expected if "tool" in c],
            [c for c in self.actual if "tool" in c],
            strict=self.strict,
        )

    @property
    def score(self) -> float:
        """The :func:`toolscore.evaluate` score of the two call lists."""
        return self.result.score

    def __bool__(self) -> bool:
        return self.matched


def match_sides(
    expected: Side,
    actual: Side,
    mode: str = "strict",
    args: str = "exact",
    per_tool: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> TrajectoryMatch:
    """:func:`match_trajectory` on sides already read (``evaluate_conversation`` reads once)."""
    mode = check_mode(mode)
    default_mode, default_rule, overrides = rules_for(args, per_tool, strict)
    m = CallMatcher(expected, actual, default_mode, default_rule, overrides, strict)
    n_e, n_a = len(expected.tools), len(actual.tools)
    with gc_paused():
        pairing, order = strict_order(m) if mode == "strict" else (None, [])
        if pairing is None:
            pairing = m.matching(range(n_e), range(n_a))
    paired_actual = set(pairing.values())
    missing = tuple(i for i in range(n_e) if i not in pairing)
    extra = tuple(j for j in range(n_a) if j not in paired_actual)
    problems: list[str] = []
    if mode != "subset":
        problems.extend(missing_sentence(m, i) for i in missing)
    if mode != "superset":
        problems.extend(
            f"Actual call #{j + 1} {call_text(actual, j)} is extra: no expected call is left "
            "for it."
            for j in extra
        )
    problems = problems or order
    reason = (
        problems[0]
        if problems
        else f"The {n_a} actual call(s) match the {n_e} expected call(s) under mode {mode!r} "
        f"({_HOW[mode]})."
    )
    return TrajectoryMatch(
        matched=not problems,
        reason=reason,
        problems=tuple(problems),
        mode=mode,
        args=default_mode,
        pairs=tuple(sorted(pairing.items())),
        missing=missing,
        extra=extra,
        expected=tuple(expected.calls()),
        actual=tuple(actual.calls()),
        strict=strict,
    )


def match_trajectory(
    expected: Any,
    actual: Any,
    mode: str = "strict",
    args: str = "exact",
    per_tool: Mapping[str, str | Callable[[dict[str, Any], dict[str, Any]], bool]] | None = None,
    *,
    strict: bool = False,
) -> TrajectoryMatch:
    """Match the agent's trajectory against the expected one, under a mode.

    Args:
        expected: the expected calls: ``[{"tool": name, "args": {...}}, ...]`` (matchers
            allowed; ``args`` omitted or ``None`` accepts any arguments), or a message history
            (OpenAI chat messages, LangChain messages, ``{"messages": [...]}``...). A call list
            may hold ``{"agent": NAME}`` steps: a hand-off to NAME, after which the calls must
            be made while NAME is active (in every mode). Without agent steps the run's
            hand-offs (``transfer_to_*`` calls included) are left out.
        actual: the agent's calls: a call list, any provider response
            :func:`toolscore.evaluate` reads, or a message history; hand-offs are read from
            ``transfer_to_*`` calls, assistant ``name`` changes, OpenAI Agents SDK items,
            Google ADK events and OpenTelemetry ``invoke_agent`` spans.
        mode: ``"strict"`` (same calls, same order; the calls of one assistant message in any
            order), ``"unordered"`` (same calls, any order), ``"subset"`` (no call beyond the
            expected ones) or ``"superset"`` (every expected call, extras allowed).
        args: how arguments must agree: ``"exact"`` (the comparison rule of ``evaluate``),
            ``"ignore"``, ``"subset"`` (the actual arguments are a subset of the expected ones)
            or ``"superset"`` (the actual call has every expected argument).
        per_tool: an args mode or a callable ``(expected_args, actual_args) -> bool`` per tool
            name, over ``args``.
        strict: compare argument values by exact type (as ``evaluate(strict=True)``).

    Returns:
        A :class:`TrajectoryMatch` (true when matched).

    Raises:
        ValueError: an unknown ``mode`` or args mode, or a message list of an unknown shape.
        TypeError: ``per_tool`` is not a dict of args modes or callables, or a side is of no
            known shape.

    Example:
        >>> from toolscore import match_trajectory
        >>> expected = [{"tool": "search", "args": {"q": "NYC"}}]
        >>> actual = [{"tool": "search", "args": {"q": "NYC", "limit": 5}},
        ...           {"tool": "weather", "args": {"city": "NYC"}}]
        >>> match_trajectory(expected, actual, mode="superset", args="superset").matched
        True
        >>> m = match_trajectory(expected, actual, mode="strict")
        >>> m.matched, m.missing, m.extra
        (False, (0,), (0, 1))
    """
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    check_mode(mode)
    rules_for(args, per_tool, strict)  # bad input fails before any reading
    return match_sides(*read_sides(expected, actual), mode, args, per_tool, strict)


def trajectory_failure(match: TrajectoryMatch, title: str) -> str:
    """The failure text: the title, every problem, the calls side by side, one hint."""
    lines = [f"{title}: {match.reason}"]
    if len(match.problems) > 1:
        lines += ["", f"Every problem ({len(match.problems)}):"]
        lines.extend(f"  - {p}" for p in match.problems[:_MAX_LISTED])
        if len(match.problems) > _MAX_LISTED:
            lines.append(f"  ... and {len(match.problems) - _MAX_LISTED} more.")
    lines += ["", render_result(match.result, hint=_hint(match))]
    return "\n".join(lines)


def _hint(match: TrajectoryMatch) -> str:
    if match.missing and match.mode != "subset":
        return (
            "If the missing call is made with other arguments that are acceptable, loosen the "
            "comparison with args='superset' or 'ignore', or per_tool={tool: mode}."
        )
    if match.extra and match.mode in ("strict", "unordered"):
        return "If extra calls are acceptable, use mode='superset'."
    return "If the order does not matter, use mode='unordered'."


def assert_trajectory(
    expected: Any,
    actual: Any,
    mode: str = "strict",
    args: str = "exact",
    per_tool: Mapping[str, str | Callable[[dict[str, Any], dict[str, Any]], bool]] | None = None,
    *,
    strict: bool = False,
) -> TrajectoryMatch:
    """:func:`match_trajectory`, failing unless the trajectory matches.

    Raises:
        ToolScoreAssertionError: the trajectory does not match; the message gives the first
            problem, every problem, the calls side by side and a hint.

    Example:
        >>> from toolscore import assert_trajectory
        >>> assert_trajectory([{"tool": "a"}], [{"tool": "a", "args": {"x": 1}}]).matched
        True
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    match = match_trajectory(expected, actual, mode, args, per_tool, strict=strict)
    record_row("assert_trajectory", match.result, None, match.matched, started)
    if not match.matched:
        raise ToolScoreAssertionError(
            trajectory_failure(match, f"The trajectory does not match (mode {mode!r})"),
            result=match.result,
        )
    return match


TrajectoryMatch.__module__ = "toolscore"
