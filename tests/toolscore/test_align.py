"""The alignment machinery: the assignment solver and the shortcuts around it."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from toolscore import ANY, OneOf, Regex
from toolscore._engine.align.assignment import solve_assignment
from toolscore._engine.align.pairing import Alignment, align, args_key
from toolscore._engine.compare.counts import count_pair
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical, values_match


def test_assignment_solver_is_optimal_on_small_matrices() -> None:
    rng = random.Random(5)
    for _ in range(300):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        cost = np.array([[rng.randint(-3, 6) for _ in range(cols)] for _ in range(rows)], float)
        pairs = solve_assignment(cost)
        assert len(pairs) == min(rows, cols)
        assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == len(pairs)
        k = min(rows, cols)
        if rows <= cols:
            best = min(
                sum(cost[r, p[r]] for r in range(rows))
                for p in itertools.permutations(range(cols), k)
            )
        else:
            best = min(
                sum(cost[p[c], c] for c in range(cols))
                for p in itertools.permutations(range(rows), k)
            )
        assert sum(cost[r, c] for r, c in pairs) == best


def test_assignment_solver_handles_empty_input() -> None:
    assert solve_assignment(np.zeros((0, 3))) == []


def _align_dicts(
    expected: list[dict[str, Any]], actual: list[dict[str, Any]], named_only: bool = False
) -> Alignment:
    """``align`` on ``{"tool", "args"}`` dicts."""
    return align(
        [c["tool"] for c in expected],
        [c["args"] for c in expected],
        [c["tool"] for c in actual],
        [c["args"] for c in actual],
        named_only=named_only,
    )


def _plain_optimum(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> int:
    """Most agreeing units per tool, by the Hungarian method on the full matrix (no shortcuts)."""
    total = 0
    for tool in {c["tool"] for c in expected}:
        e = [c["args"] for c in expected if c["tool"] == tool]
        a = [c["args"] for c in actual if c["tool"] == tool]
        if not e or not a:
            continue
        agree = np.array([[count_pair(x, y).agree for y in a] for x in e], float)
        total += int(sum(agree[r, c] for r, c in solve_assignment(-agree)))
    return total


def test_shortcuts_give_the_same_optimum_as_the_plain_solver() -> None:
    rng = random.Random(11)
    for _ in range(40):
        n = rng.randint(20, 120)

        def rand_args() -> dict[str, Any]:
            keys = rng.sample(["a", "b", "c", "d"], rng.randint(0, 4))
            return {k: rng.choice([0, 1, 2, "x", "y", " x", 1.0, True]) for k in keys}

        expected = [{"tool": rng.choice("pq"), "args": rand_args()} for _ in range(n)]
        actual = [dict(c) for c in expected if rng.random() < 0.7]
        actual += [{"tool": rng.choice("pq"), "args": rand_args()} for _ in range(n // 3)]
        rng.shuffle(actual)
        result = _align_dicts(expected, actual)
        assert result.agree == _plain_optimum(expected, actual)
        for (i, j), count in zip(result.pairs, result.counts, strict=True):
            assert count == count_pair(expected[i]["args"], actual[j]["args"])
            assert expected[i]["tool"] == actual[j]["tool"]


def test_matchers_take_the_exact_pairwise_path() -> None:
    rng = random.Random(3)
    values: list[Any] = ["a", "b", 1, 2]
    matchers: list[Any] = [ANY, Regex("a|b"), OneOf(1, "b"), "a", 2]
    for _ in range(100):
        expected = [
            {"tool": "t", "args": {k: rng.choice(matchers) for k in rng.sample("xy", 2)}}
            for _ in range(rng.randint(1, 5))
        ]
        actual = [
            {"tool": "t", "args": {k: rng.choice(values) for k in rng.sample("xy", 2)}}
            for _ in range(rng.randint(1, 5))
        ]
        result = _align_dicts(expected, actual)
        assert result.agree == _plain_optimum(expected, actual)


def test_args_key_separates_what_the_rule_separates() -> None:
    assert args_key({"x": 1}, False) == args_key({"x": 1.0}, False)
    assert args_key({"x": 1}, True) != args_key({"x": 1.0}, True)
    assert args_key({"x": True}, False) != args_key({"x": 1}, False)
    # Equal keys mean identical calls; identical calls may get different keys (nested values
    # are keyed by their exact types), which only skips the shortcut: canonical() is exact.
    assert args_key({"x": [1, 2]}, False) != args_key({"x": [1, 3]}, False)
    assert args_key({"x": [1, 2]}, False) == args_key({"x": [1, 2]}, False)
    assert canonical({"x": [1, 2]}, False) == canonical({"x": (1, 2)}, False)
    assert canonical({"x": [1, 2]}, True) != canonical({"x": (1, 2)}, True)
    assert args_key({"x": [float("nan")]}, False) is NOT_CANONICAL
    assert args_key({"x": (1, True)}, False) != args_key({"x": (1, 1)}, False)
    # the fast path does not strip strings: such pairs are left to the exact pairwise step
    assert args_key({"x": " a "}, False) != args_key({"x": "a"}, False)
    assert args_key({"a": 1, "b": 2}, False) == args_key({"b": 2, "a": 1}, False)


def test_named_only_counts_match_the_pairwise_rule() -> None:
    rng = random.Random(21)
    for _ in range(30):
        expected = [
            {"tool": "t", "args": {k: rng.randint(0, 2) for k in rng.sample("ab", 1)}}
            for _ in range(rng.randint(2, 12))
        ]
        actual = [
            {"tool": "t", "args": {k: rng.randint(0, 2) for k in rng.sample("abc", 2)}}
            for _ in range(rng.randint(2, 12))
        ]
        result = _align_dicts(expected, actual, named_only=True)
        for (i, j), count in zip(result.pairs, result.counts, strict=True):
            assert count == count_pair(expected[i]["args"], actual[j]["args"], named_only=True)


def test_matchers_on_a_long_single_tool_trace() -> None:
    n = 400
    expected = [
        {"tool": "search", "args": {"id": Regex(r"q\d+"), "ts": ANY, "page": i % 10}}
        for i in range(n)
    ]
    actual = [
        {"tool": "search", "args": {"id": f"q{i}", "ts": i * 1.5, "page": i % 10 if i % 7 else 99}}
        for i in range(n)
    ][1:]
    result = _align_dicts(expected, actual)
    changed = len([i for i in range(1, n) if i % 7 == 0])
    assert result.agree == 3 * (n - 1) - changed
    assert result.missing == [0]


def test_matcher_verdicts_are_not_shared_between_different_matchers() -> None:
    from toolscore._engine.align.agreement import agreement_matrix
    from toolscore.matchers import IsType

    class A:
        pass

    first = A
    second = type("A", (), {})  # same name, a different class
    e_args: list[dict[str, Any] | None] = [
        {"x": Regex("a")},
        {"x": Regex("b")},
        {"x": IsType(first)},
        {"x": IsType(second)},
        {"x": Regex("a", flags=2)},
    ]
    a_args = [{"x": "a"}, {"x": "b"}, {"x": first()}, {"x": second()}, {"x": "A"}]
    agree = agreement_matrix(e_args, a_args, False)
    assert agree.tolist() == [
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 1, 0],
        [1, 0, 0, 0, 1],
    ]


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(10 if depth < 3 else 7)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, 1, 2, -1])
    if pick == 2:
        return rng.choice([0.0, -0.0, 1.0, 2.5, float("nan"), float("inf")])
    if pick in (3, 4):
        return rng.choice(["a", " a", "a ", "b", "", "1"])
    if pick in (5, 6):
        return rng.choice([1, "a", True])
    if pick == 7:
        items = [_random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
        return items if rng.random() < 0.5 else tuple(items)
    keys = rng.sample(["a", "b", 1, 2], rng.randrange(3))
    return {k: _random_value(rng, depth + 1) for k in keys}


@pytest.mark.parametrize("strict", [False, True])
def test_canonical_forms_are_equal_exactly_when_the_rule_says_so(strict: bool) -> None:
    # The hashing shortcuts (step 1 keys, residual columns, identical-call counting) rest on
    # this: a canonical form exists only where it is exact, and args_key never joins values
    # the rule tells apart.
    rng = random.Random(5 if strict else 6)
    values = [_random_value(rng) for _ in range(400)]
    forms = [canonical(v, strict) for v in values]
    keys = [args_key({"v": v}, strict) for v in values]
    for _ in range(20_000):
        i, j = rng.randrange(len(values)), rng.randrange(len(values))
        if i == j:  # one NaN object is equal to itself in containers (documented)
            continue
        same = values_match(values[i], values[j], strict)
        if forms[i] is not NOT_CANONICAL and forms[j] is not NOT_CANONICAL:
            assert (forms[i] == forms[j]) == same, (values[i], values[j])
        if keys[i] is not NOT_CANONICAL and keys[i] == keys[j]:
            assert same, (values[i], values[j])


def test_unchecked_calls_take_what_the_checked_calls_leave() -> None:
    # f(args=None) ("do not check") agrees with any partner; the checked f(x=1) must get the
    # one call that shares x=1, the unchecked call the other. Units: the pair f(x=1) ->
    # f(x=1, y=2) agrees 1 of 1 expected and 2 actual, the unchecked pair 1 of 1 and 1.
    e_args: list[dict[str, Any] | None] = [None, {"x": 1}]
    a_args: list[dict[str, Any] | None] = [{"z": 3}, {"x": 1, "y": 2}]
    result = align(["f", "f"], e_args, ["f", "f"], a_args)
    assert result.pairs == [(0, 0), (1, 1)]
    assert (result.agree, result.expected_units, result.actual_units) == (2, 2, 3)
    # expect()'s counting: y is not named, so it is not counted on the actual side
    named = align(["f", "f"], e_args, ["f", "f"], a_args, named_only=True)
    assert named.pairs == [(0, 0), (1, 1)]
    assert (named.agree, named.expected_units, named.actual_units) == (2, 2, 2)


def test_equal_agreement_goes_to_the_call_in_the_same_relative_position() -> None:
    # f(k=1) at position 2 of 3 agrees once with actual calls 0 and 2; the one at the same
    # relative position (2) wins, and the calls left over pair in order.
    e_args: list[dict[str, Any] | None] = [{"a": 1}, {"b": 1}, {"k": 1}]
    a_args: list[dict[str, Any] | None] = [{"k": 1, "y": 0}, {"z": 5}, {"k": 1, "y": 1}]
    result = align(["f"] * 3, e_args, ["f"] * 3, a_args)
    assert result.pairs == [(0, 0), (1, 1), (2, 2)]
    assert result.agree == 1
