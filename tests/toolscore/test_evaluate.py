"""evaluate(): the metrics, the one-to-one alignment, strict mode, weights."""

from __future__ import annotations

import gc
import itertools
import json
import math
import random
from typing import Any

import pytest

from toolscore import ANY, Regex, evaluate, letter_grade
from toolscore.adapters.base import ToolCall
from toolscore.core import EvaluationResult
from toolscore.metrics.arguments import calculate_argument_f1

FIELDS = (
    "score",
    "selection_accuracy",
    "tool_precision",
    "tool_recall",
    "tool_f1",
    "argument_precision",
    "argument_recall",
    "argument_f1",
    "sequence_accuracy",
    "required_call_recall",
)


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def test_empty_against_empty_is_exactly_one() -> None:
    result = evaluate([], [])
    for name in FIELDS:
        if name != "required_call_recall":
            assert getattr(result, name) == 1.0, name
    assert result.required_call_recall is None  # nothing was required: the metric does not apply
    assert result.redundant_rate == 0.0
    assert result.grade == "A"
    assert result.missing_calls == [] and result.extra_calls == []


def test_a_perfect_match_is_exactly_one() -> None:
    calls = [call("search", q="cats", n=3), call("open", url="x"), call("search", q="dogs", n=3)]
    # 0.4 + 0.3 + 0.2 + 0.1 in floating point is not 1.0; the score must still be exactly 1.0
    result = evaluate(calls, [dict(c) for c in calls])
    for name in FIELDS:
        assert getattr(result, name) == 1.0, name
    assert result.redundant_rate == 0.0


def test_custom_weights_still_give_exactly_one_on_a_perfect_match() -> None:
    calls = [call("a", x=1)]
    weights = {"selection_accuracy": 0.1, "argument_f1": 0.7, "sequence_accuracy": 0.3}
    assert evaluate(calls, calls, weights=weights).score == 1.0


def test_all_values_are_in_the_unit_interval() -> None:
    rng = random.Random(7)
    for _ in range(200):
        expected = [call(rng.choice("abc"), x=rng.randint(0, 2)) for _ in range(rng.randint(0, 5))]
        actual = [call(rng.choice("abcd"), x=rng.randint(0, 2)) for _ in range(rng.randint(0, 5))]
        result = evaluate(expected, actual)
        for name in (*FIELDS, "redundant_rate"):
            value = getattr(result, name)
            if value is None:  # required_call_recall when nothing was expected
                assert name == "required_call_recall" and not expected
                continue
            assert 0.0 <= value <= 1.0 and not math.isnan(value), (name, value)


def test_first_call_of_a_long_trace_dropped() -> None:
    expected = [call("step", i=i, label=f"s{i}") for i in range(1000)]
    result = evaluate(expected, expected[1:])
    # 999 of 1000 calls paired, all of their arguments right: the reference reports 0.001
    assert result.tool_recall == pytest.approx(999 / 1000)
    assert result.argument_precision == 1.0
    assert result.argument_recall == pytest.approx(1998 / 2000)
    assert result.argument_f1 > 0.999
    assert result.sequence_accuracy == pytest.approx(999 / 1000)
    assert [m["index"] for m in result.missing_calls] == [0]
    assert result.extra_calls == []


def test_two_calls_to_one_tool_in_swapped_order() -> None:
    expected = [call("search", q="a"), call("search", q="b")]
    actual = [call("search", q="b"), call("search", q="a")]
    result = evaluate(expected, actual)
    assert result.argument_f1 == 1.0
    assert sorted(result.alignment.pairs) == [(0, 1), (1, 0)]
    assert result.score == 1.0  # same tool-name sequence


def test_one_actual_call_never_satisfies_two_expected_calls() -> None:
    expected = [call("search", q="a"), call("search", q="a")]
    actual = [call("search", q="a")]
    result = evaluate(expected, actual)
    assert len(result.alignment.pairs) == 1
    assert result.tool_recall == 0.5
    assert result.argument_recall == 0.5
    assert result.required_call_recall == 0.5
    assert len(result.missing_calls) == 1


def test_extra_calls_cost_precision_and_redundancy() -> None:
    expected = [call("search", q="a")]
    actual = [call("search", q="a"), call("delete_all"), call("search", q="a")]
    result = evaluate(expected, actual)
    assert result.tool_precision == pytest.approx(1 / 3)
    assert result.tool_recall == 1.0
    assert result.redundant_rate == pytest.approx(2 / 3)
    assert result.selection_accuracy == pytest.approx(2 / 3)
    assert [x["tool"] for x in result.extra_calls] == ["delete_all", "search"]
    assert result.argument_f1 == 1.0  # extra calls are counted by the tool metrics
    assert result.score < 1.0


def test_repeated_calls_count_as_a_multiset() -> None:
    expected = [call("poll")] * 3
    assert evaluate(expected, [call("poll")] * 3).tool_f1 == 1.0
    fewer = evaluate(expected, [call("poll")] * 2)
    assert fewer.tool_recall == pytest.approx(2 / 3) and fewer.tool_precision == 1.0
    more = evaluate(expected, [call("poll")] * 4)
    assert more.tool_precision == pytest.approx(3 / 4) and more.tool_recall == 1.0


def test_args_omitted_means_do_not_check() -> None:
    result = evaluate([{"tool": "search"}], [call("search", q="anything", n=5)])
    assert result.argument_f1 == 1.0
    assert result.pairs[0].checked is False
    assert evaluate([{"tool": "search", "args": None}], [call("search", q="x")]).score == 1.0


def test_empty_args_means_expect_no_arguments() -> None:
    assert evaluate([{"tool": "ping", "args": {}}], [call("ping")]).argument_f1 == 1.0
    result = evaluate([{"tool": "ping", "args": {}}], [call("ping", verbose=True)])
    assert result.argument_f1 == 0.0
    assert result.pairs[0].ok is False
    assert [a.status for a in result.pairs[0].arguments] == ["unexpected"]


def test_missing_expected_call_loses_its_arguments() -> None:
    result = evaluate([call("a", x=1, y=2), call("b", z=3)], [call("a", x=1, y=2)])
    assert result.argument_precision == 1.0
    assert result.argument_recall == pytest.approx(2 / 3)


def test_lenient_comparison_rule() -> None:
    expected = [call("f", n=1, s="NYC", xs=[1, 2.0], d={"k": " v "})]
    actual = [call("f", n=1.0, s="  NYC\n", xs=(1.0, 2), d={"k": "v"})]
    assert evaluate(expected, actual).argument_f1 == 1.0
    # bool is not a number in the lenient rule either
    assert evaluate([call("f", flag=True)], [call("f", flag=1)]).argument_f1 == 0.0


def test_strict_mode_compares_types_and_values_exactly() -> None:
    expected = [call("f", n=1, s="NYC")]
    assert evaluate(expected, [call("f", n=1, s="NYC")], strict=True).argument_f1 == 1.0
    assert evaluate(expected, [call("f", n=1.0, s="NYC")], strict=True).argument_f1 == 0.5
    assert evaluate(expected, [call("f", n=1, s=" NYC")], strict=True).argument_f1 == 0.5
    assert evaluate([call("f", xs=[1])], [call("f", xs=(1,))], strict=True).argument_f1 == 0.0
    # matchers are still honoured in strict mode
    assert evaluate([call("f", s=Regex("N.C"))], [call("f", s="NYC")], strict=True).score == 1.0


def test_strict_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="strict"):
        evaluate([], [], strict="yes")  # type: ignore[arg-type]


def test_the_garbage_collector_is_back_on_after_evaluate_even_when_it_raises() -> None:
    # evaluate() pauses the cyclic collector while it aligns (a long trace would make it rescan
    # a growing heap); it must never leave it off for the caller, and never turn it on for a
    # caller that had it off.
    assert gc.isenabled()
    evaluate([{"tool": "a"}], [{"tool": "a"}])
    assert gc.isenabled()
    with pytest.raises(ValueError, match="'tool' must be the tool's name"):
        evaluate([{"tool": 1}], [{"tool": "a"}])
    assert gc.isenabled()
    gc.disable()
    try:
        evaluate([{"tool": "a"}], [{"tool": "a"}])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_matchers_in_expected_args() -> None:
    expected = [call("book", flight=Regex(r"FL-\d+"), seat=ANY)]
    assert evaluate(expected, [call("book", flight="FL-12", seat="3A")]).score == 1.0
    assert evaluate(expected, [call("book", flight="XX", seat="3A")]).argument_f1 == 0.5


def test_pairs_only_join_calls_to_the_same_tool() -> None:
    result = evaluate([call("a", x=1)], [call("b", x=1)])
    assert result.alignment.pairs == []
    assert result.argument_f1 == 0.0
    assert result.tool_f1 == 0.0


def test_alignment_prefers_argument_agreement_then_order() -> None:
    expected = [call("s", q="x"), call("s", q="y")]
    actual = [call("s", q="z"), call("s", q="y")]
    result = evaluate(expected, actual)
    assert sorted(result.alignment.pairs) == [(0, 0), (1, 1)]
    # with no argument to tell them apart, keep the order
    tied = evaluate([{"tool": "s"}, {"tool": "s"}], [call("s", q=1), call("s", q=2)])
    assert tied.alignment.pairs == [(0, 0), (1, 1)]


def _brute_force(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> tuple[int, int]:
    """Most pairs, then most agreeing argument units, by enumerating every pairing."""
    from toolscore._engine.compare.counts import count_pair

    best_pairs = best_agree = 0
    tools = {c["tool"] for c in expected}
    for tool in tools:
        e = [c for c in expected if c["tool"] == tool]
        a = [c for c in actual if c["tool"] == tool]
        k = min(len(e), len(a))
        best = 0
        for rows in itertools.permutations(range(len(e)), k) if len(e) > len(a) else [None]:
            for cols in itertools.permutations(range(len(a)), k):
                pairs = zip(rows, cols, strict=True) if rows else zip(range(k), cols, strict=True)
                agree = sum(count_pair(e[r]["args"], a[c]["args"]).agree for r, c in pairs)
                best = max(best, agree)
        best_pairs += k
        best_agree += best
    return best_pairs, best_agree


def test_alignment_is_optimal_on_random_small_traces() -> None:
    rng = random.Random(1234)
    for _ in range(300):

        def rand_call() -> dict[str, Any]:
            args = {
                k: rng.choice([0, 1, "a", " a", True]) for k in rng.sample("xyz", rng.randint(0, 3))
            }
            return {"tool": rng.choice("pq"), "args": args}

        expected = [rand_call() for _ in range(rng.randint(0, 5))]
        actual = [rand_call() for _ in range(rng.randint(0, 5))]
        result = evaluate(expected, actual)
        n_pairs, agree = _brute_force(expected, actual)
        assert len(result.alignment.pairs) == n_pairs
        assert result.alignment.agree == agree, (expected, actual)


def test_long_trace_argument_f1_matches_the_construction() -> None:
    n = 3000
    expected = [call(f"t{i % 5}", a=i, b=f"v{i}", c=i % 3) for i in range(n)]
    actual = []
    for i, c in enumerate(expected):
        args = dict(c["args"])
        if i % 7 == 0:
            args["b"] = "changed"
        actual.append({"tool": c["tool"], "args": args})
    actual = actual[1:]
    changed = len([i for i in range(1, n) if i % 7 == 0])
    agree = 3 * (n - 1) - changed
    f1 = 2 * agree / (3 * n + 3 * (n - 1))
    result = evaluate(expected, actual)
    assert result.argument_f1 == pytest.approx(f1, abs=1e-12)


def test_weights_validation() -> None:
    calls = [call("a")]
    with pytest.raises(ValueError, match=r"Unknown weight keys: .speed.*valid keys: selection_"):
        evaluate(calls, calls, weights={"speed": 1.0})
    with pytest.raises(ValueError, match=r"weights\['argument_f1'\] must be non-negative.*-1"):
        evaluate(calls, calls, weights={"argument_f1": -1})
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="finite"):
            evaluate(calls, calls, weights={"argument_f1": bad})
    with pytest.raises(ValueError, match="number"):
        evaluate(calls, calls, weights={"argument_f1": "1"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="sum to zero"):
        evaluate(
            calls,
            calls,
            weights={
                "selection_accuracy": 0,
                "argument_f1": 0,
                "sequence_accuracy": 0,
                "redundant_rate": 0,
            },
        )
    with pytest.raises(TypeError, match="weights must be a dict"):
        evaluate(calls, calls, weights=[1, 2])  # type: ignore[arg-type]


def test_custom_weights_are_merged_and_renormalised() -> None:
    expected = [call("a", x=1)]
    actual = [call("a", x=2)]  # argument F1 0, everything else 1
    only_args = {"selection_accuracy": 0, "sequence_accuracy": 0, "redundant_rate": 0}
    assert evaluate(expected, actual, weights={**only_args, "argument_f1": 5}).score == 0.0
    merged = evaluate(expected, actual, weights={"argument_f1": 0.6})
    assert merged.score == pytest.approx(0.7 / 1.3)
    assert sum(merged.weights.values()) == pytest.approx(1.0)


def test_default_score_formula() -> None:
    result = evaluate([call("a", x=1), call("b")], [call("a", x=2), call("c")])
    expected_score = (
        0.4 * result.tool_f1
        + 0.3 * result.argument_f1
        + 0.2 * result.sequence_accuracy
        + 0.1 * (1 - result.redundant_rate)
    )
    assert result.score == pytest.approx(expected_score)
    assert result.grade == letter_grade(result.score)


def test_required_call_recall_counts_failed_calls_as_not_done() -> None:
    expected = [call("a", x=1), call("b")]
    actual = [{"tool": "a", "args": {"x": 1}, "is_error": True}, call("b")]
    assert evaluate(expected, actual).required_call_recall == 0.5


def test_sequence_accuracy_is_normalised_levenshtein() -> None:
    result = evaluate([call("a"), call("b"), call("c")], [call("a"), call("c"), call("b")])
    assert result.sequence_accuracy == pytest.approx(1 - 2 / 3)


def test_letter_grade_bounds() -> None:
    assert [letter_grade(x) for x in (1.0, 0.9, 0.89, 0.8, 0.7, 0.6, 0.59, 0.0)] == list("AABBCDFF")
    with pytest.raises(ValueError):
        letter_grade(math.nan)


def test_to_dict_has_every_field_and_is_json() -> None:
    result = evaluate([call("a", x=Regex("1+")), call("b")], [call("a", x="11"), call("c", y=2)])
    data = result.to_dict()
    for name in (*FIELDS, "redundant_rate", "grade", "weights", "missing_calls", "extra_calls"):
        assert name in data
    assert data["pairs"][0]["arguments"][0] == {
        "name": "x",
        "expected": "Regex('1+')",
        "actual": "11",
        "ok": True,
        "status": "ok",
    }
    json.dumps(data)
    assert isinstance(result, EvaluationResult)


def test_bad_calls_name_the_culprit() -> None:
    with pytest.raises(ValueError, match=r"expected\[1\].*'tool'"):
        evaluate([call("a"), {"name": "b"}], [])
    with pytest.raises(ValueError, match=r"actual\[0\].*'args' must be a dict"):
        evaluate([], [{"tool": "a", "args": [1]}])
    with pytest.raises(ValueError, match=r"expected\[0\].*'args' must be a dict"):
        evaluate([{"tool": "a", "args": "x=1"}], [])
    with pytest.raises(TypeError, match="expected must be a list"):
        evaluate({"tool": "a"}, [])  # type: ignore[arg-type]


def test_tool_call_objects_are_accepted() -> None:
    result = evaluate([ToolCall("a", {"x": 1})], [ToolCall("a", {"x": 1}), ToolCall("b")])
    assert result.tool_recall == 1.0
    assert result.trace_calls[1].args == {}
    assert calculate_argument_f1([ToolCall("a", {"x": 1})], [ToolCall("a", {"x": 2})]) == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
    }


def test_tool_call_signature_and_error_flag() -> None:
    c = ToolCall("t")
    assert (c.args, c.result, c.timestamp, c.duration, c.cost, c.metadata) == (
        None,
        None,
        None,
        None,
        None,
        {},
    )
    assert ToolCall("t", metadata={"error": "boom"}).is_error
    assert not ToolCall("t", metadata={"error": ""}).is_error


def test_actual_arguments_as_json_text_are_parsed() -> None:
    expected = [call("a", x=1)]
    assert evaluate(expected, [{"tool": "a", "args": '{"x": 1}'}]).score == 1.0
    from toolscore.integrations import MalformedArgumentsWarning

    with pytest.warns(MalformedArgumentsWarning, match=r"'a'.*'\{x'"):
        result = evaluate(expected, [{"tool": "a", "args": "{x"}])
    assert result.argument_f1 == 0.0


# --- NaN and nested dicts: the comparison rule's edges, on every path ------------------------


@pytest.mark.parametrize("strict", [False, True])
def test_distinct_nans_never_match(strict: bool) -> None:
    from toolscore._engine.compare.rule import values_match

    nan_a, nan_b = float("nan"), float("nan")
    assert not values_match(nan_a, nan_b, strict)
    assert not values_match([1, nan_a], [1, nan_b], strict)
    assert not values_match({"v": nan_a}, {"v": nan_b}, strict)
    one = evaluate([call("a", x=nan_a)], [call("a", x=nan_b)], strict=strict)
    assert one.argument_f1 == 0.0 and one.score < 1.0
    # many calls (the hashing and residual paths), NaN nested in lists and dicts
    expected = [call("a", x=float("nan"), n=i, y=[float("nan")]) for i in range(40)]
    actual = [call("a", x=float("nan"), n=i, y=[float("nan")]) for i in range(40)]
    many = evaluate(expected, actual, strict=strict)
    # per call, only n agrees: 1 of 3 units on each side
    assert many.argument_f1 == pytest.approx(1 / 3)


@pytest.mark.parametrize("strict", [False, True])
def test_extra_keys_in_nested_dicts_are_a_mismatch(strict: bool) -> None:
    from toolscore._engine.compare.rule import values_match

    assert not values_match({"a": 1}, {"a": 1, "b": 2}, strict)
    assert not values_match({"a": 1, "b": 2}, {"a": 1}, strict)
    assert not values_match([{"a": {"b": 1}}], [{"a": {"b": 1, "c": 0}}], strict)
    assert values_match({"a": {"b": 1}}, {"a": {"b": 1}}, strict)
    expected = call("book", flight={"id": "F1", "seat": {"row": 3}})
    extra = call("book", flight={"id": "F1", "seat": {"row": 3, "window": True}})
    assert evaluate([expected], [extra], strict=strict).argument_f1 == 0.0
    # the same through the alignment of several calls to one tool
    many_e = [call("book", flight={"id": f"F{i}", "seat": {"row": i}}) for i in range(30)]
    many_a = [
        call("book", flight={"id": f"F{i}", "seat": {"row": i, "aisle": True}}) for i in range(30)
    ]
    result = evaluate(many_e, many_a, strict=strict)
    assert result.argument_f1 == 0.0 and result.passed_pairs == 0
