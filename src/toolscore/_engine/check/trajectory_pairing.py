"""The pairing of a trajectory check: which expected call fits which actual call, a maximum
one-to-one matching (augmenting paths; identical argument sets paired by hashing), and the
sentences that say where the pairing or the order breaks."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from toolscore._engine.check.trajectory_sides import AGENT_STEP, ArgsRule, Side
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical
from toolscore._engine.score.render import format_call

__all__ = ["CallMatcher", "call_text", "missing_sentence", "strict_order"]


@dataclass
class CallMatcher:
    """Which expected call fits which actual call, and maximum one-to-one matchings."""

    e: Side
    a: Side
    default_mode: str
    default_rule: ArgsRule | None
    overrides: dict[str, tuple[str, ArgsRule | None]]
    strict: bool
    _memo: dict[tuple[int, int], bool] = field(default_factory=dict)

    def _tool_rule(self, tool: str) -> tuple[str, ArgsRule | None]:
        return self.overrides.get(tool) or (self.default_mode, self.default_rule)

    def fits(self, i: int, j: int) -> bool:
        tool = self.e.tools[i]
        if tool != self.a.tools[j] or self.e.agent(i) != self.a.agent(j):
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
        # Calls pair within one tool made under one agent (None throughout without agent steps).
        by_tool_e: dict[tuple[str, str | None], list[int]] = {}
        for i in e_idx:
            by_tool_e.setdefault((self.e.tools[i], self.e.agent(i)), []).append(i)
        by_tool_a: dict[tuple[str, str | None], list[int]] = {}
        for j in a_idx:
            by_tool_a.setdefault((self.a.tools[j], self.a.agent(j)), []).append(j)
        out: dict[int, int] = {}
        for key, es in by_tool_e.items():
            actual = by_tool_a.get(key)
            if not actual:
                continue
            mode, _ = self._tool_rule(key[0])
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
        # args=None accepts any call to the tool: the ones left, in order.
        out.update(zip(wildcards, (j for j in actual if j not in used), strict=False))
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


def call_text(side: Side, k: int) -> str:
    if side.tools[k] == AGENT_STEP:
        return f"hand-off to {(side.args[k] or {}).get('name')!r}"
    text = format_call(side.tools[k], side.args[k])
    agent = side.agent(k)
    return f"{text} by {agent!r}" if agent is not None else text


def missing_sentence(m: CallMatcher, i: int) -> str:
    tool = m.e.tools[i]
    same = [j for j, t in enumerate(m.a.tools) if t == tool]
    head = f"Expected call #{i + 1} {call_text(m.e, i)} has no partner among the actual calls"
    if tool == AGENT_STEP:
        return _handoff_sentence(m, i, head, same)
    if not same:
        return f"{head}: the agent never called {tool!r}."
    where = ", ".join(f"#{j + 1}" for j in same[:5]) + (" ..." if len(same) > 5 else "")
    fitting = [j for j in same if m.fits(i, j)]
    if not fitting and all(m.a.agent(j) != m.e.agent(i) for j in same):
        agents = " or ".join(sorted({_agent_label(m.a.agent(j)) for j in same}))
        return (
            f"{head}: the actual call(s) to {tool!r} ({where}) were made while {agents} was "
            f"active, not {_agent_label(m.e.agent(i))}."
        )
    if fitting:
        return (
            f"{head}: the actual call(s) to {tool!r} that fit it ({where}) are each paired with "
            "another expected call."
        )
    mode, _ = m._tool_rule(tool)
    rule = "the per_tool callable" if mode == "callable" else f"args mode {mode!r}"
    return (
        f"{head}: the {len(same)} actual call(s) to {tool!r} ({where}) have other arguments "
        f"({rule}); the first is {call_text(m.a, same[0])}."
    )


def _agent_label(key: str | None) -> str:
    return "the starting agent" if key is None else repr(key)


def _handoff_sentence(m: CallMatcher, i: int, head: str, handoffs: list[int]) -> str:
    name = (m.e.args[i] or {}).get("name")
    to_it = [j for j in handoffs if m.fits(i, j)]
    if to_it:
        where = ", ".join(f"#{j + 1}" for j in to_it[:5])
        return (
            f"{head}: the run's hand-off(s) to {name!r} ({where}) are each paired with "
            "another step."
        )
    made = ", ".join(f"#{j + 1} to {(m.a.args[j] or {}).get('name')!r}" for j in handoffs[:5])
    return f"{head}: the run never handed off to {name!r} (its hand-offs: {made or 'none'})."


def strict_order(m: CallMatcher) -> tuple[dict[int, int] | None, list[str]]:
    """Strict mode: the pairing when every message (or position) lines up, else None and
    every place where the order breaks (nothing when the sides differ in length: the
    pairing names the missing and extra calls)."""
    e, a = m.e, m.a
    problems: list[str] = []
    spans: list[tuple[str | None, str | None, list[int], list[int]]]
    if e.steps is not None and a.steps is not None:
        if len(e.steps) != len(a.steps):
            problems.append(
                f"The actual history has {len(a.steps)} message(s) and the expected one "
                f"{len(e.steps)}; strict mode compares them message by message."
            )
        spans = [(er, ar, ec, ac) for (er, ec), (ar, ac) in zip(e.steps, a.steps, strict=False)]
        what = "Message"
    else:
        if len(e.tools) != len(a.tools):
            return None, []
        groups = e.groups() if e.steps is not None else a.groups()
        if groups is None:
            bad = [p for p in range(len(e.tools)) if not m.fits(p, p)]
            if not bad:
                return {p: p for p in range(len(e.tools))}, []
            return None, [
                f"Position {p + 1} is out of order: expected {call_text(e, p)}, actual "
                f"{call_text(a, p)}."
                for p in bad
            ]
        starts = accumulate(map(len, groups), initial=0)
        ranges = [list(range(s, s + len(g))) for s, g in zip(starts, groups, strict=False)]
        spans = [(None, None, r, r) for r in ranges]
        what = "Assistant message"
    out: dict[int, int] = {}
    for n, (e_role, a_role, e_calls, a_calls) in enumerate(spans):
        if e_role != a_role:
            problems.append(
                f"Message {n + 1} is a {a_role} message where the expected history has a "
                f"{e_role} message."
            )
            continue
        part = m.matching(e_calls, a_calls) if len(e_calls) == len(a_calls) else {}
        if len(part) == len(e_calls) == len(a_calls):
            out.update(part)
        else:
            problems.append(_segment_sentence(m, n, e_calls, a_calls, what))
    return (None, problems) if problems else (out, [])


def _segment_sentence(
    m: CallMatcher, n: int, e_calls: list[int], a_calls: list[int], what: str
) -> str:
    expected = ", ".join(call_text(m.e, i) for i in e_calls) or "no call"
    actual = ", ".join(call_text(m.a, j) for j in a_calls) or "no call"
    return f"{what} {n + 1} is out of order: expected {expected}, actual {actual}."
