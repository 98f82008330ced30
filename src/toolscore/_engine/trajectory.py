"""``match_trajectory()``: does the agent's run follow the expected trajectory, under a mode?

Modes (as LangChain's ``agentevals`` names them):

* ``strict``: the same calls in the same order. Where a side is a message history, the calls of
  one assistant message may come in any order, and when both sides are histories they are
  compared message by message (same number of messages, same roles);
* ``unordered``: the same calls, any order (equal multisets);
* ``subset``: no actual call beyond the expected ones (each actual call has its own expected
  partner; expected calls may be left over);
* ``superset``: every expected call is present (extra actual calls allowed).

Arguments (``args=``, or per tool with ``per_tool=``): ``exact`` (the comparison rule of
``evaluate``, matchers honoured), ``ignore``, ``subset`` (the actual call's arguments are a subset
of the expected call's), ``superset`` (the actual call has every expected argument, extras
allowed), or a callable ``(expected_args, actual_args) -> bool``. An expected call whose
``args`` is ``None`` accepts any arguments.

Pairing is a maximum one-to-one matching (augmenting paths), so when several calls fit one
another a valid pairing is found whenever one exists; a greedy first-fit pairing would miss
some. Identical argument sets (no matchers) are paired by hashing, in linear time.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekit._gc_pause import gc_paused
from toolscore._engine.assertions import ToolScoreAssertionError, record_row
from toolscore._engine.calls import actual_calls, expected_calls, is_call_list
from toolscore._engine.compare import NOT_CANONICAL, args_satisfy, canonical, values_match
from toolscore._engine.evaluate import evaluate_calls
from toolscore._engine.messages import Step, message_list, read_messages
from toolscore._engine.render import format_call, render_result
from toolscore._engine.result import EvaluationResult

__all__ = [
    "ARGS_MODES",
    "MODES",
    "Side",
    "TrajectoryMatch",
    "assert_trajectory",
    "check_mode",
    "match_sides",
    "match_trajectory",
    "read_side",
]

MODES = ("strict", "unordered", "subset", "superset")
ARGS_MODES = ("exact", "ignore", "subset", "superset")
_MAX_LISTED = 10

ArgsRule = Callable[[dict[str, Any], dict[str, Any]], bool]


# --- reading either side -------------------------------------------------------------------


@dataclass
class Side:
    """The calls of one side, flat, with the message steps they came from (if any)."""

    tools: list[str]
    args: list[dict[str, Any] | None]
    # Per message: its role and the flat indices of its calls; None for a plain call list.
    steps: list[tuple[str, list[int]]] | None = None

    def calls(self) -> list[dict[str, Any]]:
        return [{"tool": t, "args": a} for t, a in zip(self.tools, self.args, strict=False)]

    def groups(self) -> list[list[int]] | None:
        """Flat indices of the calls of each assistant message that makes calls."""
        if self.steps is None:
            return None
        return [calls for _, calls in self.steps if calls]


def side_of_steps(steps: Sequence[Step]) -> Side:
    """A side read from message steps (the calls flattened in message order)."""
    side = Side([], [], [])
    assert side.steps is not None
    for step in steps:
        indices = []
        for call in step.calls:
            indices.append(len(side.tools))
            side.tools.append(call["tool"])
            side.args.append(call["args"])
        side.steps.append((step.role, indices))
    return side


def read_side(value: Any, name: str, expected: bool) -> Side:
    """Read ``expected`` / ``actual``: a call list, a message history or a provider response.

    Raises:
        TypeError / ValueError: the value has no known shape (the message names ``name``).
    """
    if isinstance(value, Side):
        return value
    messages = message_list(value)
    if messages is not None:
        steps = read_messages(messages, name)
        for step in steps:
            for call in step.calls:
                if not call["tool"]:
                    raise ValueError(
                        f"{name}[{step.index}] holds a tool call without a tool name: {call!r}"
                    )
        return side_of_steps(steps)
    if expected and is_call_list(value):
        gold = expected_calls(value)
        return Side(gold.tools, gold.args)
    if expected and isinstance(value, Mapping) and "tool" in value:
        raise TypeError(
            f"{name} must be a list of calls, got one call dict; wrap it in a list: [{value!r}]"
        )
    trace = actual_calls(value)
    return Side(trace.tools, trace.args)


# --- argument rules ------------------------------------------------------------------------


def check_mode(mode: Any, name: str = "mode") -> str:
    """Validate a trajectory mode."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(m) for m in MODES)}, got {mode!r}; "
            "'strict' is the same calls in the same order, 'unordered' the same calls in any "
            "order, 'subset' no call beyond the expected ones, 'superset' every expected call "
            "(extras allowed)"
        )
    return mode


def _check_args_mode(value: Any, name: str) -> str:
    if not isinstance(value, str) or value not in ARGS_MODES:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(m) for m in ARGS_MODES)}, got {value!r}; "
            "'exact' compares every argument, 'ignore' none, 'subset' accepts actual arguments "
            "that are a subset of the expected ones, 'superset' actual arguments that include "
            "every expected one"
        )
    return value


def _rule(mode: str, strict: bool) -> ArgsRule | None:
    """The argument rule of a mode (None: ``ignore``)."""
    if mode == "exact":
        return lambda e, a: values_match(e, a, strict)
    if mode == "subset":
        return lambda e, a: all(k in e and values_match(e[k], v, strict) for k, v in a.items())
    if mode == "superset":
        return lambda e, a: args_satisfy(a, e, strict)
    return None


def _rules(args: Any, per_tool: Any, strict: bool) -> tuple[str, ArgsRule | None, dict[str, Any]]:
    """The default rule and the per-tool rules (each a rule, or None for ``ignore``)."""
    default = _check_args_mode(args, "args")
    overrides: dict[str, Any] = {}
    if per_tool is not None:
        if not isinstance(per_tool, Mapping):
            raise TypeError(
                "per_tool must be a dict of tool name -> args mode or callable, got "
                f"{type(per_tool).__name__}; e.g. per_tool={{'search': 'ignore'}}"
            )
        for tool, value in per_tool.items():
            if not isinstance(tool, str):
                raise TypeError(f"per_tool keys must be tool names (str), got {tool!r}")
            if isinstance(value, str):
                mode = _check_args_mode(value, f"per_tool[{tool!r}]")
                overrides[tool] = ("mode", mode, _rule(mode, strict))
            elif callable(value):
                overrides[tool] = ("callable", None, value)
            else:
                raise TypeError(
                    f"per_tool[{tool!r}] must be an args mode ({', '.join(map(repr, ARGS_MODES))}) "
                    "or a callable(expected_args, actual_args) -> bool, got "
                    f"{type(value).__name__} {value!r}"
                )
    return default, _rule(default, strict), overrides


# --- the matching --------------------------------------------------------------------------


@dataclass
class _Matcher:
    """Which expected call fits which actual call, and maximum one-to-one matchings."""

    e: Side
    a: Side
    default_mode: str
    default_rule: ArgsRule | None
    overrides: dict[str, Any]
    strict: bool
    _memo: dict[tuple[int, int], bool] = field(default_factory=dict)

    def _tool_rule(self, tool: str) -> tuple[str, ArgsRule | None]:
        entry = self.overrides.get(tool)
        if entry is None:
            return self.default_mode, self.default_rule
        kind, mode, rule = entry
        return (mode if kind == "mode" else "callable"), rule

    def fits(self, i: int, j: int) -> bool:
        tool = self.e.tools[i]
        if tool != self.a.tools[j]:
            return False
        expected = self.e.args[i]
        if expected is None:
            return True
        _, rule = self._tool_rule(tool)
        if rule is None:
            return True
        key = (i, j)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = bool(rule(expected, self.a.args[j] or {}))
        return known

    def matching(self, e_idx: Sequence[int], a_idx: Sequence[int]) -> dict[int, int]:
        """A maximum matching between the two index sets: ``{expected: actual}``."""
        by_tool_e: dict[str, list[int]] = {}
        for i in e_idx:
            by_tool_e.setdefault(self.e.tools[i], []).append(i)
        by_tool_a: dict[str, list[int]] = {}
        for j in a_idx:
            by_tool_a.setdefault(self.a.tools[j], []).append(j)
        out: dict[int, int] = {}
        for tool, es in by_tool_e.items():
            actual = by_tool_a.get(tool)
            if not actual:
                continue
            mode, _ = self._tool_rule(tool)
            if mode == "ignore":
                out.update(zip(es, actual, strict=False))
            elif mode != "exact" or not self._hash_pairs(es, actual, out):
                self._augment(es, actual, out)
        return out

    def _hash_pairs(self, es: list[int], actual: list[int], out: dict[int, int]) -> bool:
        """Exact mode without matchers: fitting is equality, so pair equal keys in order.
        False (nothing written) when a value has no canonical key."""
        e_keys = []  # the expected side first: a matcher there ends it before any lookup
        for i in es:
            args = self.e.args[i]
            key = None if args is None else canonical(args, self.strict)
            if key is NOT_CANONICAL:
                return False
            e_keys.append(key)
        keyed: dict[Any, deque[int]] = {}
        for j in actual:
            key = canonical(self.a.args[j] or {}, self.strict)
            if key is NOT_CANONICAL:
                return False
            keyed.setdefault(key, deque()).append(j)
        used: set[int] = set()
        wildcards = []
        for i, key in zip(es, e_keys, strict=False):
            if key is None:
                wildcards.append(i)
                continue
            bucket = keyed.get(key)
            if bucket:
                j = bucket.popleft()
                out[i] = j
                used.add(j)
        if wildcards:  # args=None accepts any call to the tool: the ones left, in order
            free = (j for j in actual if j not in used)
            for i, j in zip(wildcards, free, strict=False):
                out[i] = j
        return True

    def _candidates(self, tool: str, es: list[int], actual: list[int]) -> list[list[int]]:
        """The actual calls each expected call may fit, narrowed where the mode allows.

        In ``exact`` and ``superset`` modes an actual call fits only if it has every expected
        argument with an agreeing value; for an argument with a plain (matcher-free) value,
        agreeing is having the same canonical form, so calls are looked up by it (the most
        selective such argument of each expected call). Other modes scan every call to the tool.
        """
        mode, _ = self._tool_rule(tool)
        if mode not in ("exact", "superset"):
            return [actual] * len(es)
        index: dict[str, dict[Any, list[int]]] = {}

        def lookup(key: str) -> dict[Any, list[int]]:
            table = index.get(key)
            if table is None:
                table = index[key] = {}
                for j in actual:
                    args = self.a.args[j] or {}
                    if key in args:
                        form = canonical(args[key], self.strict)
                        if form is not NOT_CANONICAL:
                            table.setdefault(form, []).append(j)
            return table

        out: list[list[int]] = []
        for i in es:
            args = self.e.args[i]
            best: list[int] | None = None
            for key, value in (args or {}).items():
                form = canonical(value, self.strict)
                if form is NOT_CANONICAL:
                    continue
                found = lookup(key).get(form, [])
                if best is None or len(found) < len(best):
                    best = found
                    if len(best) <= 1:
                        # Nothing narrower but none: and a later argument with no call
                        # holding its value would leave this one call unfit all the same.
                        break
            out.append(actual if best is None else best)
        return out

    def _augment(self, es: list[int], actual: list[int], out: dict[int, int]) -> None:
        """Maximum matching by augmenting paths, after a greedy pass (each expected call takes
        its same-rank actual call if it fits, else its first free candidate)."""
        candidates = dict(zip(es, self._candidates(self.e.tools[es[0]], es, actual), strict=False))
        owner: dict[int, int] = {}
        pending = []
        for rank, i in enumerate(es):
            if rank < len(actual) and actual[rank] not in owner and self.fits(i, actual[rank]):
                out[i] = actual[rank]
                owner[actual[rank]] = i
                continue
            j = next((j for j in candidates[i] if j not in owner and self.fits(i, j)), None)
            if j is None:
                pending.append(i)
            else:
                out[i] = j
                owner[j] = i
        for i in pending:
            # Breadth-first search for a free actual call along alternating paths.
            came_from: dict[int, int] = {}  # actual -> expected that reached it
            queue = deque([i])
            seen_e = {i}
            found = None
            while queue and found is None:
                current = queue.popleft()
                for j in candidates[current]:
                    if j in came_from or not self.fits(current, j):
                        continue
                    came_from[j] = current
                    holder = owner.get(j)
                    if holder is None:
                        found = j
                        break
                    if holder not in seen_e:
                        seen_e.add(holder)
                        queue.append(holder)
            while found is not None:
                current = came_from[found]
                previous = out.get(current)
                out[current] = found
                owner[found] = current
                found = previous if current != i else None


# --- the result ----------------------------------------------------------------------------


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
    _result: list[EvaluationResult] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @property
    def result(self) -> EvaluationResult:
        """:func:`toolscore.evaluate` of the two call lists (computed on first use)."""
        if not self._result:
            self._result.append(
                evaluate_calls(list(self.expected), list(self.actual), strict=self.strict)
            )
        return self._result[0]

    @property
    def score(self) -> float:
        """The :func:`toolscore.evaluate` score of the two call lists."""
        return self.result.score

    def __bool__(self) -> bool:
        return self.matched


def _call_text(side: Side, k: int) -> str:
    return format_call(side.tools[k], side.args[k])


def _missing_sentence(m: _Matcher, i: int) -> str:
    tool = m.e.tools[i]
    same = [j for j, t in enumerate(m.a.tools) if t == tool]
    head = f"Expected call #{i + 1} {_call_text(m.e, i)} has no partner among the actual calls"
    if not same:
        return f"{head}: the agent never called {tool!r}."
    where = ", ".join(f"#{j + 1}" for j in same[:5]) + (" ..." if len(same) > 5 else "")
    fitting = [j for j in same if m.fits(i, j)]
    if fitting:
        return (
            f"{head}: the actual call(s) to {tool!r} that fit it ({where}) are each paired with "
            "another expected call."
        )
    mode, _ = m._tool_rule(tool)
    rule = "the per_tool callable" if mode == "callable" else f"args mode {mode!r}"
    return (
        f"{head}: the {len(same)} actual call(s) to {tool!r} ({where}) have other arguments "
        f"({rule}); the first is {_call_text(m.a, same[0])}."
    )


def _order_problems(m: _Matcher) -> list[str]:
    """Strict mode with the same calls on both sides: every place where the order breaks."""
    e, a = m.e, m.a
    problems: list[str] = []
    if e.steps is not None and a.steps is not None:
        if len(e.steps) != len(a.steps):
            problems.append(
                f"The actual history has {len(a.steps)} message(s) and the expected one "
                f"{len(e.steps)}; strict mode compares them message by message."
            )
        for n, ((e_role, e_calls), (a_role, a_calls)) in enumerate(
            zip(e.steps, a.steps, strict=False)
        ):
            if e_role != a_role:
                problems.append(
                    f"Message {n + 1} is a {a_role} message where the expected history has a "
                    f"{e_role} message."
                )
            elif len(m.matching(e_calls, a_calls)) != max(len(e_calls), len(a_calls)):
                problems.append(_segment_sentence(m, n, e_calls, a_calls, "Message"))
        return problems
    groups = e.groups() if e.steps is not None else a.groups()
    if groups is None:
        for p in range(len(e.tools)):
            if not m.fits(p, p):
                problems.append(
                    f"Position {p + 1} is out of order: expected {_call_text(e, p)}, actual "
                    f"{_call_text(a, p)}."
                )
        return problems
    start = 0
    for n, group in enumerate(groups):
        span = list(range(start, start + len(group)))
        start += len(group)
        if len(m.matching(span, span)) != len(span):
            problems.append(_segment_sentence(m, n, span, span, "Assistant message"))
    return problems


def _segment_sentence(
    m: _Matcher, n: int, e_calls: list[int], a_calls: list[int], what: str
) -> str:
    expected = ", ".join(_call_text(m.e, i) for i in e_calls) or "no call"
    actual = ", ".join(_call_text(m.a, j) for j in a_calls) or "no call"
    return f"{what} {n + 1} is out of order: expected {expected}, actual {actual}."


def _segments_match(m: _Matcher) -> dict[int, int] | None:
    """Strict mode: the pairing when every message (or position) lines up, else None."""
    e, a = m.e, m.a
    if e.steps is not None and a.steps is not None:
        if len(e.steps) != len(a.steps):
            return None
        out: dict[int, int] = {}
        for (e_role, e_calls), (a_role, a_calls) in zip(e.steps, a.steps, strict=False):
            if e_role != a_role or len(e_calls) != len(a_calls):
                return None
            part = m.matching(e_calls, a_calls)
            if len(part) != len(e_calls):
                return None
            out.update(part)
        return out
    if len(e.tools) != len(a.tools):
        return None
    groups = e.groups() if e.steps is not None else a.groups()
    if groups is None:
        if all(m.fits(p, p) for p in range(len(e.tools))):
            return {p: p for p in range(len(e.tools))}
        return None
    out = {}
    start = 0
    for group in groups:
        span = list(range(start, start + len(group)))
        start += len(group)
        part = m.matching(span, span)
        if len(part) != len(span):
            return None
        out.update(part)
    return out


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
    default_mode, default_rule, overrides = _rules(args, per_tool, strict)
    m = _Matcher(expected, actual, default_mode, default_rule, overrides, strict)
    n_e, n_a = len(expected.tools), len(actual.tools)
    with gc_paused():
        in_order = _segments_match(m) if mode == "strict" else None
        pairing = in_order
        if pairing is None:
            pairing = m.matching(range(n_e), range(n_a))
    paired_actual = set(pairing.values())
    missing = tuple(i for i in range(n_e) if i not in pairing)
    extra = tuple(j for j in range(n_a) if j not in paired_actual)
    problems: list[str] = []
    if mode != "subset":
        problems.extend(_missing_sentence(m, i) for i in missing)
    if mode != "superset":
        problems.extend(
            f"Actual call #{j + 1} {_call_text(actual, j)} is extra: no expected call is left "
            "for it."
            for j in extra
        )
    if mode == "strict" and not problems and in_order is None:
        problems.extend(_order_problems(m))
    matched = not problems
    if matched:
        how = {
            "strict": "the same calls in the same order",
            "unordered": "the same calls in any order",
            "subset": "no call beyond the expected ones",
            "superset": "every expected call present",
        }[mode]
        reason = (
            f"The {n_a} actual call(s) match the {n_e} expected call(s) under mode {mode!r} "
            f"({how})."
        )
    else:
        reason = problems[0]
    e_calls, a_calls = expected.calls(), actual.calls()
    return TrajectoryMatch(
        matched=matched,
        reason=reason,
        problems=tuple(problems),
        mode=mode,
        args=default_mode,
        pairs=tuple(sorted(pairing.items())),
        missing=missing,
        extra=extra,
        expected=tuple(e_calls),
        actual=tuple(a_calls),
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
            (OpenAI chat messages, LangChain messages, ``{"messages": [...]}``...).
        actual: the agent's calls: a call list, any provider response
            :func:`toolscore.evaluate` reads, or a message history.
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
    _rules(args, per_tool, strict)  # bad input fails before any reading
    e = read_side(expected, "expected", True)
    a = read_side(actual, "actual", False)
    return match_sides(e, a, mode, args, per_tool, strict)


def trajectory_failure(match: TrajectoryMatch, title: str) -> str:
    """The failure text: the title, every problem, the calls side by side, one hint."""
    lines = [f"{title}: {match.reason}"]
    if len(match.problems) > 1:
        lines.append("")
        lines.append(f"Every problem ({len(match.problems)}):")
        lines.extend(f"  - {p}" for p in match.problems[:_MAX_LISTED])
        if len(match.problems) > _MAX_LISTED:
            lines.append(f"  ... and {len(match.problems) - _MAX_LISTED} more.")
    lines.append("")
    lines.append(render_result(match.result, hint=_hint(match)))
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
    record_row(
        "assert_trajectory", match.result, None, match.matched, time.perf_counter() - started
    )
    if not match.matched:
        raise ToolScoreAssertionError(
            trajectory_failure(match, f"The trajectory does not match (mode {mode!r})"),
            result=match.result,
        )
    return match


TrajectoryMatch.__module__ = "toolscore"
