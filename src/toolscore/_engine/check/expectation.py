"""What ``expect(...)`` checks, behind the builder of :mod:`toolscore.expect`.

Each check reads the trace once read by ``evaluate`` and returns its problems, one sentence
each: the declared calls (present, with matching named arguments, in the declared order), the
trajectory mode, the forbidden calls and the budget of ``.within()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolscore._engine.check.budget import LIMITS, budget_message, budget_problems, check_limits
from toolscore._engine.check.trajectory import match_sides
from toolscore._engine.check.trajectory_sides import Side
from toolscore._engine.compare.rule import args_satisfy, values_match
from toolscore._engine.read.inputs import CallList
from toolscore._engine.score.render import format_call, format_value

__all__ = [
    "Declared",
    "budget_check",
    "declaration",
    "declared_problems",
    "forbidden_problems",
    "mode_problems",
    "within_limits",
]

_SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class Declared:
    """One ``.calls()`` / ``.then_calls()``: the tool, the named arguments, the order."""

    tool: str
    args: dict[str, Any]
    after_previous: bool

    def describe(self) -> str:
        method = "then_calls" if self.after_previous else "calls"
        return f"{method}({declaration(self.tool, self.args)})"


def declaration(tool: str, args: Mapping[str, Any]) -> str:
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


def declared_problems(declared: list[Declared], trace: CallList, strict: bool) -> list[str]:
    """Every declared call never made (with what differs), else the first one out of order."""
    candidates = [_matching_calls(trace, d.tool, d.args, strict) for d in declared]
    problems = [
        _never_made(d, trace, strict)
        for d, found in zip(declared, candidates, strict=True)
        if not found
    ]
    if problems or _assign(declared, candidates) is not None:
        return problems
    return [_order_problem(declared, candidates)]


def _never_made(d: Declared, trace: CallList, strict: bool) -> str:
    same_tool = [j for j, tool in enumerate(trace.tools) if tool == d.tool]
    if not same_tool:
        return f"{d.describe()} was not met: the agent never called {d.tool!r}."
    j = same_tool[0]
    args = trace.args[j] or {}
    diffs = []
    for k, v in d.args.items():
        if k not in args:
            diffs.append(f"{k} expected {format_value(v)}, not passed")
        elif not values_match(v, args[k], strict):
            diffs.append(f"{k} expected {format_value(v)}, actual {format_value(args[k])}")
    return (
        f"{d.describe()} was not met: {len(same_tool)} call(s) to {d.tool!r}, none with "
        f"matching arguments; the first, call #{j + 1} {format_call(d.tool, args)}, "
        f"differs in {'; '.join(diffs)}."
    )


def _order_problem(declared: list[Declared], candidates: list[list[int]]) -> str:
    # Greedy earliest placement shows which "then" step cannot follow its predecessor.
    used: set[int] = set()
    previous = -1
    for n, (d, found) in enumerate(zip(declared, candidates, strict=False)):
        floor = previous if d.after_previous else -1
        choice = next((j for j in found if j > floor and j not in used), None)
        if choice is None:
            before = declared[n - 1].describe() if n else ""
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


def _assign(declared: list[Declared], candidates: list[list[int]]) -> list[int] | None:
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


def mode_problems(
    mode: str | None, expected: list[dict[str, Any]], trace: CallList, strict: bool
) -> list[str]:
    """The problems of ``.mode(mode)``: the declared calls as a trajectory, named args only."""
    if mode is None:
        return []
    match = match_sides(
        Side([d["tool"] for d in expected], [d["args"] for d in expected]),
        Side(trace.tools, trace.args),
        mode,
        "superset",
        strict=strict,
    )
    return [f"mode({mode!r}) was not met: {p}" for p in match.problems]


def forbidden_problems(
    forbidden: list[tuple[str, dict[str, Any]]], trace: CallList, strict: bool
) -> list[str]:
    """One sentence per ``.does_not_call()`` the run broke, with the calls that broke it."""
    problems = []
    for tool, wanted in forbidden:
        hits = _matching_calls(trace, tool, wanted, strict)
        if hits:
            shown = ", ".join(f"#{j + 1} {format_call(tool, trace.args[j])}" for j in hits[:5])
            more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
            problems.append(
                f"does_not_call({declaration(tool, wanted)}) was broken by actual call(s) "
                f"{shown}{more}."
            )
    return problems


def within_limits(limits: Mapping[str, Any]) -> dict[str, Any]:
    """The limits of ``.within(...)`` (the keywords of ``assert_budget``), validated."""
    unknown = sorted(set(limits) - set(LIMITS))
    if unknown:
        raise TypeError(f"within() got unknown limit(s) {unknown}; use {', '.join(LIMITS)}")
    return check_limits("within()", limits)


def budget_check(budget: Mapping[str, Any] | None, response: Any) -> tuple[list[str], str]:
    """``.within()``: one problem per limit exceeded, and the full budget text (or ``""``)."""
    if budget is None:
        return [], ""
    usage, over, within = budget_problems(response, budget)
    text = budget_message(over, within, usage.source) if over else ""
    return [f"within() was not met: {line}." for line in over], text
