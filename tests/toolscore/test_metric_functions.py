"""toolscore.metrics: each public metric function, on cases worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from toolscore import Regex, evaluate
from toolscore.adapters.base import ToolCall
from toolscore.metrics import (
    calculate_cost_attribution,
    calculate_cost_savings,
    calculate_edit_distance,
    calculate_invocation_accuracy,
    calculate_latency,
    calculate_llm_cost,
    calculate_partial_trajectory_accuracy,
    calculate_redundant_call_rate,
    calculate_required_call_recall,
    calculate_selection_accuracy,
    calculate_side_effect_success_rate,
    calculate_tool_correctness,
    calculate_tool_correctness_with_args,
    calculate_trajectory_accuracy,
    estimate_tokens,
    estimate_trace_cost,
    format_cost,
)

T = ToolCall


def test_invocation_accuracy() -> None:
    assert calculate_invocation_accuracy([], []) == 1.0
    assert calculate_invocation_accuracy([T("a")], []) == 0.0
    assert calculate_invocation_accuracy([], [T("a")]) == 0.0
    # names {a, b} expected, {a, c} called: 1 right, 2 wrong -> (1 - 0.5 * 2) / 2 = 0
    assert calculate_invocation_accuracy([T("a"), T("b")], [T("a"), T("c")]) == 0.0
    # {a, b, c, d} expected, {a, b, c} called: (3 - 0.5) / 4
    gold = [T("a"), T("b"), T("c"), T("d")]
    assert calculate_invocation_accuracy(gold, [T("a"), T("b"), T("c")]) == 2.5 / 4


def test_selection_accuracy_accepts_dicts_too() -> None:
    assert calculate_selection_accuracy([{"tool": "a"}], [{"tool": "a"}, {"tool": "b"}]) == 0.5
    assert calculate_selection_accuracy([T("a")], []) == 0.0
    assert calculate_selection_accuracy([], []) == 1.0


def test_edit_distance() -> None:
    m = calculate_edit_distance([T("a"), T("b"), T("c")], [T("a"), T("c")])
    assert m == {"edit_distance": 1.0, "normalized_distance": 1 / 3, "sequence_accuracy": 1 - 1 / 3}
    assert calculate_edit_distance([], [])["sequence_accuracy"] == 1.0


def test_tool_correctness_by_name_and_in_order() -> None:
    gold = [T("search"), T("read"), T("search")]
    trace = [T("read"), T("search"), T("write")]
    m = calculate_tool_correctness(gold, trace)
    assert m["tool_correctness"] == 1.0 and m["extra_tools"] == ["write"]
    assert (m["correct_count"], m["total_expected"]) == (2, 2)
    ordered = calculate_tool_correctness(gold, trace, strict_order=True)
    assert ordered["tool_correctness"] == 0.0  # no position holds the expected tool
    assert ordered["expected_sequence"] == ["search", "read", "search"]
    assert calculate_tool_correctness([], [T("a")])["tool_correctness"] == 0.0


def test_tool_correctness_with_args_uses_the_comparison_rule_one_to_one() -> None:
    gold = [T("get", {"id": 1}), T("get", {"id": 2}), T("put", {"v": Regex("x+")})]
    trace = [
        T("get", {"id": 2.0}),
        T("get", {"id": 1}),
        T("put", {"v": "xxx"}),
        T("get", {"id": 1}),
    ]
    m = calculate_tool_correctness_with_args(gold, trace)
    assert m["tool_correctness_strict"] == 1.0 and m["match_count"] == 3
    assert [c.args for c in m["mismatches"]] == [{"id": 1}]  # the repeat is left over
    strict = calculate_tool_correctness_with_args(gold, trace, strict=True)
    assert strict["match_count"] == 2  # 2 != 2.0 by type


def test_required_call_recall() -> None:
    gold = [T("search", {"q": "a"}), T("search", {"q": "b"})]
    assert calculate_required_call_recall(gold, [T("search", {"q": "a"})]) == 0.5
    assert calculate_required_call_recall([], [T("a")]) is None
    failed = T("search", {"q": "b"}, metadata={"is_error": True})
    assert calculate_required_call_recall(gold, [T("search", {"q": "a"}), failed]) == 0.5
    # the same definition as EvaluationResult.required_call_recall
    expected = [{"tool": "search", "args": {"q": "a"}}, {"tool": "search", "args": {"q": "b"}}]
    assert evaluate(expected, [{"tool": "search", "args": {"q": "a"}}]).required_call_recall == 0.5


def test_trajectory() -> None:
    gold = [T("a", {"x": 1}), T("b"), T("c", {})]
    trace = [T("a", {"x": 1, "extra": 2}), T("b", {"anything": True})]
    m = calculate_trajectory_accuracy(gold, trace)
    # step 1: an extra argument is not the expected call; step 2: b with args unchecked
    assert [s["matches"] for s in m["trajectory_details"]] == [False, True, False]
    assert m["trajectory_details"][2]["actual_tool"] is None
    assert (m["correct_steps"], m["step_match_rate"], m["path_efficiency"]) == (1, 1 / 3, 1.0)
    longer = calculate_trajectory_accuracy([T("a")], [T("a"), T("a"), T("b"), T("c")])
    assert (longer["step_match_rate"], longer["path_efficiency"]) == (1.0, 0.25)
    assert longer["trajectory_accuracy"] == 0.25
    assert calculate_trajectory_accuracy([T("a")], [])["path_efficiency"] == 0.0
    assert calculate_trajectory_accuracy([], [])["trajectory_accuracy"] == 1.0


def test_partial_trajectory() -> None:
    gold = [T("web_search"), T("web_search"), T("summarize")]
    trace = [T("WebSearch"), T("summarize")]
    assert calculate_partial_trajectory_accuracy(gold, trace) == {
        "partial_trajectory_accuracy": 1 / 3
    }
    loose = calculate_partial_trajectory_accuracy(gold, trace, allow_tool_name_variations=True)
    assert loose == {"partial_trajectory_accuracy": 2 / 3}


def test_redundant_identical_errors_and_blind_retries() -> None:
    boom = {"is_error": True}
    trace = [
        T("search", {"q": "x"}),
        T("search", {"q": " x "}),  # identical under the lenient rule (white space)
        T("fetch", {"url": "u"}, metadata=boom),
        T("fetch", {"url": "u"}),  # retried unchanged after a failure
        T("fetch", {"url": "v"}, metadata=boom),
        T("other"),
    ]
    m = calculate_redundant_call_rate([T("search"), T("fetch")], trace)
    # search 2 vs 1 expected, fetch 3 vs 1, other 1 vs 0 -> 1 + 2 + 1
    assert m["redundant_count"] == 4 and m["total_calls"] == 6
    assert m["redundant_rate"] == 4 / 6
    assert (m["identical_count"], m["error_count"], m["retry_after_error_count"]) == (2, 2, 1)
    assert m["error_rate"] == 2 / 6
    assert calculate_redundant_call_rate([], [])["total_calls"] == 0


def test_distinct_nan_arguments_are_never_identical() -> None:
    calls = [T("a", {"x": float("nan")}), T("a", {"x": float("nan")})]
    m = calculate_redundant_call_rate([], calls)
    assert m["identical_count"] == 0


def test_latency_and_cost() -> None:
    calls = [T("a", duration=0.5, cost=0.01), T("b", duration=1.5), T("a", cost=0.03)]
    assert calculate_latency(calls) == {
        "total_duration": 2.0,
        "average_duration": 1.0,
        "max_duration": 1.5,
        "min_duration": 0.5,
    }
    cost = calculate_cost_attribution(calls)
    assert cost["total_cost"] == pytest.approx(0.04)
    assert cost["average_cost"] == pytest.approx(0.02)
    assert cost["cost_by_tool"] == {"a": pytest.approx(0.04)}
    assert calculate_latency([T("a")])["total_duration"] == 0.0
    with pytest.raises(ValueError, match="duration must be a finite number >= 0"):
        calculate_latency([T("a", duration=-1.0)])


def test_side_effects_run_on_the_paired_call() -> None:
    gold = [
        T("write", {"path": "a"}, metadata={"side_effects": {"exists": True}}),
        T("write", {"path": "b"}, metadata={"side_effects": {"exists": True, "size": 3}}),
        T("email", metadata={"side_effects": {"sent": True}}),
    ]
    # Reordered: position would check the wrong file; the alignment checks the right one.
    trace = [T("write", {"path": "b"}, result="b"), T("write", {"path": "a"}, result="a")]

    def exists(call: ToolCall, want: Any) -> bool:
        return (call.result in ("a", "b")) == want

    def size(call: ToolCall, want: Any) -> bool:
        raise OSError("disk gone")

    m = calculate_side_effect_success_rate(gold, trace, {"exists": exists, "size": size})
    assert (m["total_checks"], m["passed_checks"]) == (4, 2)
    reasons = [d["reason"] for d in m["details"]]
    assert reasons[2] == "validator raised OSError: disk gone"
    assert reasons[3] == "the call was never made"
    assert calculate_side_effect_success_rate([T("a")], [T("a")])["success_rate"] == 1.0
    unknown = calculate_side_effect_success_rate(gold[:1], trace)
    assert "no validator named 'exists'" in unknown["details"][0]["reason"]


def test_cost_estimator() -> None:
    assert (
        estimate_tokens("") == 0 and estimate_tokens("abc") == 1 and estimate_tokens("x" * 41) == 10
    )
    assert calculate_llm_cost("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    # longest prefix: gpt-4o-mini-2024-07-18 is mini's price, not gpt-4o's
    assert calculate_llm_cost("gpt-4o-mini-2024-07-18", 1_000_000) == pytest.approx(0.15)
    assert calculate_llm_cost("gpt-4o", 0, 0) == 0.0
    with pytest.raises(ValueError, match="no price known for model 'my-model'"):
        calculate_llm_cost("my-model", 10, 10)
    with pytest.raises(ValueError, match="input_tokens"):
        calculate_llm_cost("gpt-4o", -1)
    # 400 characters of JSON text -> 100 tokens -> 70 in, 30 out
    trace = ["x" * 400]
    assert estimate_trace_cost(trace, "gpt-4o") == pytest.approx((70 * 2.5 + 30 * 10) / 1e6)
    assert format_cost(0.0042) == "$0.0042" and format_cost(12.345) == "$12.35"
    savings = calculate_cost_savings(4.0, 3.0)
    assert savings == {
        "absolute_savings": 1.0,
        "percentage_savings": 25.0,
        "formatted_savings": "$1.00 (25.0% reduction)",
    }


def test_cost_estimator_refuses_what_is_no_count_model_or_cost() -> None:
    with pytest.raises(TypeError, match=r"takes a string, got int"):
        estimate_tokens(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"output_tokens must be a whole number .* got True"):
        calculate_llm_cost("gpt-4o", 1, True)
    with pytest.raises(ValueError, match=r"model must be a model name .* got ' '"):
        calculate_llm_cost(" ", 1, 1)
    # zero tokens still need a known model (else a typo would price a run at $0)
    with pytest.raises(ValueError, match=r"no price known for model 'gtp-4o'"):
        calculate_llm_cost("gtp-4o", 0, 0)
    # a dict trace counts as its JSON: '{"a": "xxxx...x"}' is 9 + 391 = 400 characters
    # -> 100 tokens -> 70 in, 30 out at gpt-4o's $2.50 / $10 per million
    assert estimate_trace_cost({"a": "x" * 391}, "gpt-4o") == pytest.approx(
        (70 * 2.5 + 30 * 10) / 1e6
    )
    for bad in (float("nan"), float("inf"), True, "1"):
        with pytest.raises(ValueError, match=r"cost must be a finite number of dollars"):
            format_cost(bad)  # type: ignore[arg-type]
