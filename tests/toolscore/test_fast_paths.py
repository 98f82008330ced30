"""The engine's shortcuts for small traces give exactly what the general path gives.

``align()`` pairs calls without pools when no tool repeats (the pairing is then forced) and
skips the pools when the same calls come in the same order; the reader takes plain call dicts
in one pass; ``has_semantic`` skips plain values by type. Each is compared here with the
general path on random traces built to hit the corners of the comparison rule (bool vs int,
1 vs 1.0, stripped strings, NaN, nested values, key order, matchers, unchecked calls).
"""

from __future__ import annotations

import copy
import functools
import math
import random
from typing import Any

import pytest

from toolscore import ANY, Approx, OneOf, Regex, evaluate
from toolscore._engine.align.pairing import Alignment, align
from toolscore._engine.compare.matchers import has_batched as has_semantic
from toolscore._engine.read.inputs import actual_calls
from toolscore._engine.score import flat_metrics as scoring
from toolscore._engine.score.evaluate import evaluation
from toolscore._engine.score.flat_metrics import weighted_score
from toolscore.matchers import Matcher, Semantic

NAN = float("nan")
TOOLS = ["search", "book", "pay", "mail", "get", "put", "list"]


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 2 else 6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, 1, 2, -1, 10**20])
    if pick == 2:
        return rng.choice([0.0, -0.0, 1.0, 2.5, 21.5, NAN, float("nan"), float("inf")])
    if pick in (3, 4, 5):
        return rng.choice(["a", " a", "a ", "b", "", "1", "Paris"])
    if pick == 6:
        items = [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
        return items if rng.random() < 0.7 else tuple(items)
    keys = rng.sample(["x", "y", "z"], rng.randrange(3))
    return {k: _value(rng, depth + 1) for k in keys}


def _rebuilt(value: Any) -> Any:
    """An equal value made of new objects (a NaN read from another line is another NaN)."""
    if type(value) is float:
        return float(repr(value))
    if isinstance(value, (list, tuple)):
        return type(value)(_rebuilt(v) for v in value)
    if isinstance(value, dict):
        return {k: _rebuilt(v) for k, v in value.items()}
    return value


def _near(rng: random.Random, value: Any) -> Any:
    """A value the rule may or may not call equal to ``value`` (the corners)."""
    if value is True:
        return rng.choice([1, "true", False])
    if type(value) is int:
        return rng.choice([float(value), value + 1, bool(value % 2), str(value)])
    if type(value) is float:
        return rng.choice([value, int(value) if math.isfinite(value) else value, NAN, -value])
    if isinstance(value, str):
        return rng.choice([f" {value} ", value.upper(), value + "!", value])
    if isinstance(value, list):
        return tuple(value) if rng.random() < 0.5 else [*value, 1]
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return dict(reversed(list(value.items())))
    return rng.choice([0, "", False])


def _matcher(rng: random.Random) -> Matcher:
    return rng.choice([ANY, Regex("a|P.*"), OneOf(1, "a", True), Approx(21.5, abs=0.2)])


def _args(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(["q", "n", "flag", "city", "tags", "opts"], rng.randrange(4))
    return {name: _value(rng) for name in names}


def _case(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:  # noqa: C901 (a random case generator: one branch per corner of the rule)
    """Expected calls and an agent's take on them: copied, then bent in a few places."""
    n = rng.randrange(7)
    if rng.random() < 0.5:
        tools = rng.sample(TOOLS, n)  # no tool repeats: the forced pairing
    else:
        tools = [rng.choice(TOOLS[:2]) for _ in range(n)]
    expected: list[dict[str, Any]] = []
    for tool in tools:
        call: dict[str, Any] = {"tool": tool}
        if rng.random() < 0.9:
            call["args"] = _args(rng)
        elif rng.random() < 0.5:
            call["args"] = None  # do not check
        expected.append(call)
    if rng.random() < 0.7:
        actual = [{"tool": c["tool"], "args": _rebuilt(c.get("args") or {})} for c in expected]
    else:
        # The same objects on both sides (one NaN object equals itself inside containers).
        actual = [{"tool": c["tool"], "args": c.get("args") or {}} for c in expected]
    for _ in range(rng.randrange(4)):
        kind = rng.randrange(7)
        if kind == 0 and actual:
            actual.pop(rng.randrange(len(actual)))
        elif kind == 1:
            actual.insert(
                rng.randrange(len(actual) + 1), {"tool": rng.choice(TOOLS), "args": _args(rng)}
            )
        elif kind == 2 and len(actual) > 1:
            i, j = rng.sample(range(len(actual)), 2)
            actual[i], actual[j] = actual[j], actual[i]
        elif kind == 3 and actual:
            args = dict(actual[rng.randrange(len(actual))]["args"])
            if args:
                name = rng.choice(list(args))
                args[name] = _near(rng, args[name])
            actual[rng.randrange(len(actual))]["args"] = args
        elif kind == 4 and actual:
            call = actual[rng.randrange(len(actual))]
            call["args"] = dict(reversed(list(call["args"].items())))
        elif kind == 5 and expected:
            call = expected[rng.randrange(len(expected))]
            if call.get("args"):
                call["args"] = dict(call["args"])
                call["args"][rng.choice(list(call["args"]))] = _matcher(rng)
        elif kind == 6 and actual:
            actual[rng.randrange(len(actual))]["args"] = {}
    return expected, actual


def _fields(a: Alignment) -> tuple[Any, ...]:
    return (a.pairs, a.counts, a.missing, a.extra, a.agree, a.expected_units, a.actual_units)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("named_only", [False, True])
def test_align_shortcuts_give_the_general_alignment(strict: bool, named_only: bool) -> None:
    rng = random.Random(1400 + 2 * strict + named_only)
    taken = {"unique": 0, "identical": 0}
    for _ in range(4000):
        expected, actual = _case(rng)
        e_tools = [c["tool"] for c in expected]
        e_args = [c.get("args") for c in expected]
        a_tools = [c["tool"] for c in actual]
        a_args: list[dict[str, Any] | None] = [c["args"] for c in actual]
        if rng.random() < 0.1:  # align() reads a None actual as {}
            a_args = [a or None for a in a_args]
        fast = align(e_tools, e_args, a_tools, a_args, strict, named_only)
        general = align(e_tools, e_args, a_tools, a_args, strict, named_only, shortcuts=False)
        assert _fields(fast) == _fields(general), (expected, actual)
        if len(set(e_tools)) == len(e_tools) and len(set(a_tools)) == len(a_tools):
            taken["unique"] += 1
        elif e_tools == a_tools and not fast.missing and not fast.extra:
            taken["identical"] += 1
    # The cases reach both shortcuts often (else this test would prove little).
    assert taken["unique"] > 1000 and taken["identical"] > 100, taken


def test_identical_shortcut_with_repeated_tools() -> None:
    calls = [
        {"tool": "search", "args": {"q": "a", "n": 1}},
        {"tool": "search", "args": {"q": "b", "n": 1}},
        {"tool": "search", "args": {"q": "a", "n": 1}},
        {"tool": "book", "args": {}},
    ]
    tools = [c["tool"] for c in calls]
    args = [c["args"] for c in calls]
    result = align(tools, args, tools, copy.deepcopy(args))
    assert result.pairs == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert [c.agree for c in result.counts] == [2, 2, 2, 1]
    assert (result.agree, result.expected_units, result.actual_units) == (7, 7, 7)
    assert _fields(result) == _fields(
        align(tools, args, tools, copy.deepcopy(args), shortcuts=False)
    )


@pytest.mark.parametrize("strict", [False, True])
def test_evaluate_with_shortcuts_equals_the_general_path(
    strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(77 + strict)
    cases = [_case(rng) for _ in range(1500)]
    fast = [evaluate(e, a, strict=strict).to_dict() for e, a in cases]
    monkeypatch.setattr(scoring, "align", functools.partial(align, shortcuts=False))
    general = [evaluate(e, a, strict=strict).to_dict() for e, a in cases]
    for one, other, case in zip(fast, general, cases, strict=True):
        # NaN != NaN: compare the records as text.
        assert repr(one) == repr(other), case


class _NotPlain(list):  # type: ignore[type-arg]
    """A list ``actual_calls`` does not take for a plain call list (its one-pass branch wants
    exactly ``list``): read the general way, as before the one-pass branch."""


_NotPlain.__name__ = "list"  # messages name the input's type: they must read the same


def _read_as_before(actual: Any) -> Any:
    """``actual_calls`` without its one-pass branch: is it a call list, else a response."""
    return actual_calls(_NotPlain(actual) if type(actual) is list else actual)


def test_reading_plain_call_lists_in_one_pass_reads_the_same() -> None:
    rng = random.Random(8)
    lists: list[Any] = [
        [],
        [{"tool": "a"}],
        [{"tool": "a", "args": None}, {"tool": "b", "args": {"x": 1}}],
        [{"tool": "a", "args": {}, "id": "c1"}],  # a third key: read the long way
        [{"tool": "a", "args": {}, "is_error": True}],
        [{"tool": "a", "args": '{"x": 1}'}],  # JSON text arguments
        [{"tool": "", "args": {}}],
        [{"tool": 3, "args": {}}],
        [{"tool": "a", "args": [1]}],
        [{"name": "a", "arguments": {}}],
        [{"tool": "a"}, {"function": {"name": "b", "arguments": "{}"}}],
        [{"tool": "a"}, "not a call"],
    ]
    lists += [_case(rng)[1] for _ in range(300)]

    def outcome(read: Any, calls: Any) -> Any:
        try:
            out = read(calls)
        except (TypeError, ValueError) as exc:
            return type(exc), str(exc)
        return out.tools, out.args, out.items, out.errors

    for calls in lists:
        assert repr(outcome(actual_calls, calls)) == repr(outcome(_read_as_before, calls)), calls


def test_has_semantic_skips_plain_values_only() -> None:
    def reference(all_args: list[dict[str, Any] | None]) -> bool:
        def inside(value: Any) -> bool:
            if isinstance(value, Semantic):
                return True
            parts = getattr(value, "parts", None) or [getattr(value, "inner", None)]
            return any(isinstance(p, Matcher) and inside(p) for p in parts)

        return any(
            isinstance(v, Matcher) and inside(v) for args in all_args if args for v in args.values()
        )

    semantic = Semantic("New York", judge="scripted")
    samples: list[list[dict[str, Any] | None]] = [
        [],
        [None, {}],
        [{"a": 1, "b": [1, 2], "c": {"x": None}}],
        [{"a": Regex("x")}],
        [{"a": 1}, {"b": semantic}],
        [{"a": Regex("x") | semantic}],
        [{"a": ~semantic}],
        [{"a": [semantic]}],  # nested in a list: not a top-level matcher, as before
    ]
    for all_args in samples:
        assert has_semantic(all_args) == reference(all_args), all_args


@pytest.mark.parametrize("strict", [False, True])
def test_evaluation_and_weighted_score_give_the_results_numbers(strict: bool) -> None:
    rng = random.Random(31 + strict)
    weights_choices: list[dict[str, float] | None] = [
        None,
        {"required_call_recall": 1.0},
        {"selection_accuracy": 0.0, "argument_f1": 2.0},
        {"sequence_accuracy": 0.0, "redundant_rate": 0.0, "selection_accuracy": 0.0},
    ]
    for _ in range(800):
        expected, actual = _case(rng)
        weights = rng.choice(weights_choices)
        result = evaluate(expected, actual, weights=weights, strict=strict)
        ev = evaluation(expected, actual, strict)
        score = weighted_score(
            result.weights,
            ev.tool_f1,
            ev.argument_f1,
            ev.sequence_accuracy,
            ev.redundant_rate,
            ev.required_call_recall,
        )
        assert score == result.score
        for name in ("selection_accuracy", "tool_precision", "tool_recall", "argument_f1"):
            assert getattr(ev, name) == getattr(result, name)
        assert ev.required_call_recall == result.required_call_recall
        assert [ev.gold.tools[i] for i in ev.alignment.missing] == [
            c["tool"] for c in result.missing_calls
        ]
