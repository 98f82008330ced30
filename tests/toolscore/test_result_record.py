"""EvaluationResult: the empty result, Toolscore's metrics layout, the v2 record, hand-built
results, and required_call_recall."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from toolscore import ANY, evaluate
from toolscore.adapters.base import ToolCall
from toolscore.core import EvaluationResult

REFERENCE_KEYS = {
    "invocation_accuracy",
    "selection_accuracy",
    "tool_correctness_metrics",
    "sequence_metrics",
    "trajectory_metrics",
    "argument_metrics",
    "efficiency_metrics",
    "required_call_recall",
    "security_metrics",
}


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def test_the_empty_result() -> None:
    result = EvaluationResult()
    assert result.metrics == {}
    assert result.gold_calls == [] and result.trace_calls == []
    # Nothing expected, nothing called: nothing went wrong.
    assert result.score == 1.0 and result.grade == "A"
    assert result.required_call_recall is None
    assert result.policy_violations == []
    record = result.to_dict()
    assert record["schema_version"] == "2"
    assert record["gold_calls_count"] == record["trace_calls_count"] == 0
    json.dumps(record)


def test_class_constants() -> None:
    assert EvaluationResult.RECORD_SCHEMA_VERSION == "2"
    assert EvaluationResult.DEFAULT_WEIGHTS == {
        "selection_accuracy": 0.4,
        "argument_f1": 0.3,
        "sequence_accuracy": 0.2,
        "redundant_rate": 0.1,
        "required_call_recall": 0.0,
    }


def test_metrics_hold_the_reference_keys_with_hand_computed_values() -> None:
    expected = [call("search", q="cats"), call("open", id=1)]
    actual = [call("search", q="cats"), call("open", id=2), call("open", id=1)]
    m = evaluate(expected, actual).metrics
    assert set(m) >= REFERENCE_KEYS
    assert "policy_metrics" not in m  # only when forbidden rules are given
    # Aligned: search<->search, open(id=1)<->open(id=1); open(id=2) is extra.
    assert m["selection_accuracy"] == 1.0
    assert m["invocation_accuracy"] == 1.0
    assert m["argument_metrics"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert m["sequence_metrics"] == {
        "edit_distance": 1.0,
        "normalized_distance": 1 / 3,
        "sequence_accuracy": 1 - 1 / 3,
    }
    eff = m["efficiency_metrics"]
    assert (eff["redundant_count"], eff["total_calls"], eff["redundant_rate"]) == (1, 3, 1 / 3)
    assert (eff["identical_count"], eff["error_count"], eff["retry_after_error_count"]) == (0, 0, 0)
    traj = m["trajectory_metrics"]
    # Step 2 is open(id=2) where open(id=1) was expected; one extra step.
    assert traj["correct_steps"] == 1 and traj["step_match_rate"] == 0.5
    assert traj["path_efficiency"] == 2 / 3 and traj["trajectory_accuracy"] == 0.5 * 2 / 3
    assert [s["matches"] for s in traj["trajectory_details"]] == [True, False, False]
    tc = m["tool_correctness_metrics"]
    assert tc["tool_correctness"] == 1.0 and tc["missing_tools"] == [] and tc["extra_tools"] == []
    assert m["required_call_recall"] == 1.0
    assert m["security_metrics"] == {"secret_count": 0, "secrets": []}
    # Ours beside them: multiset tool agreement (2 pairs, 2 expected, 3 actual).
    assert (m["tool_precision"], m["tool_recall"]) == (2 / 3, 1.0)


def test_flat_fields_agree_with_the_metrics_dict() -> None:
    result = evaluate([call("a", x=1), call("b", y=2)], [call("b", y=3), call("c")])
    m = result.metrics
    assert result.selection_accuracy == m["selection_accuracy"]
    assert result.argument_f1 == m["argument_metrics"]["f1"]
    assert result.sequence_accuracy == m["sequence_metrics"]["sequence_accuracy"]
    assert result.redundant_rate == m["efficiency_metrics"]["redundant_rate"]
    assert result.required_call_recall == m["required_call_recall"] == 0.0


def test_to_dict_is_a_superset_of_the_v2_record() -> None:
    expected = [call("search", q=ANY)]
    actual = [
        {"tool": "search", "args": {"q": "x"}, "result": {"hits": 3}, "duration": 0.25},
        {"tool": "fetch", "args": {}, "error": "timeout", "cost": 0.01},
    ]
    record = evaluate(expected, actual).to_dict()
    for key in (
        "schema_version",
        "score",
        "grade",
        "weights",
        "required_call_recall",
        "metrics",
        "calls",
        "gold_calls_count",
        "trace_calls_count",
    ):
        assert key in record, key
    assert record["calls"]["expected"] == [{"tool": "search", "args": {"q": "ANY"}}]
    assert record["calls"]["actual"] == [
        {
            "tool": "search",
            "args": {"q": "x"},
            "result": {"hits": 3},
            "is_error": False,
            "error": None,
            "duration": 0.25,
            "cost": None,
        },
        {
            "tool": "fetch",
            "args": {},
            "result": None,
            "is_error": True,
            "error": "timeout",
            "duration": None,
            "cost": 0.01,
        },
    ]
    assert (record["gold_calls_count"], record["trace_calls_count"]) == (1, 2)
    # Ours on top: flat metrics, the pairing, missing/extra calls.
    assert record["tool_f1"] == 2 * (1 / 2 * 1) / (1 / 2 + 1)
    assert [c["tool"] for c in record["extra_calls"]] == ["fetch"]
    assert record["pairs"][0]["arguments"][0]["status"] == "ok"
    assert record["metrics"]["efficiency_metrics"]["error_count"] == 1
    json.dumps(record)  # JSON-safe: the matcher is its repr


def test_required_call_recall_is_none_when_nothing_is_required() -> None:
    assert evaluate([], []).required_call_recall is None
    assert evaluate([], [call("a")]).required_call_recall is None
    # Treated as met in the score (weight given): no requirement was missed.
    weights = {"required_call_recall": 1.0}
    assert evaluate([], [], weights=weights).score == 1.0


def test_required_call_recall_counts_repeats_failures_and_arguments() -> None:
    two_searches = [call("search", q="a"), call("search", q="b")]
    assert evaluate(two_searches, [call("search", q="a")]).required_call_recall == 0.5
    failed = [{"tool": "search", "args": {"q": "a"}, "is_error": True}, call("search", q="b")]
    assert evaluate(two_searches, failed).required_call_recall == 0.5
    # A failed attempt followed by a successful retry completes the requirement.
    retried = [
        {"tool": "search", "args": {"q": "a"}, "error": "rate limited"},
        call("search", q="a"),
        call("search", q="b"),
    ]
    assert evaluate(two_searches, retried).required_call_recall == 1.0
    # Arguments must agree on every expected argument; args=None checks the tool only.
    assert evaluate([call("search", q="a")], [call("search", q="z")]).required_call_recall == 0.0
    assert evaluate([{"tool": "search"}], [call("search", q="z")]).required_call_recall == 1.0


def test_a_hand_built_result_reads_its_metrics_dict() -> None:
    result = EvaluationResult()
    result.metrics = {
        "selection_accuracy": 0.5,
        "argument_metrics": {"precision": 1.0, "recall": 0.5, "f1": 2 / 3},
        "sequence_metrics": {"sequence_accuracy": 0.25},
        "efficiency_metrics": {"redundant_rate": 0.5},
    }
    assert result.selection_accuracy == 0.5 and result.argument_f1 == 2 / 3
    assert result.sequence_accuracy == 0.25 and result.redundant_rate == 0.5
    # Toolscore's weighted mean of what the dict holds.
    assert result.score == pytest.approx(0.4 * 0.5 + 0.3 * (2 / 3) + 0.2 * 0.25 + 0.1 * 0.5)
    result.metrics["selection_accuracy"] = 1.0  # edited in place: the score follows
    assert result.score == pytest.approx(0.4 * 1.0 + 0.3 * (2 / 3) + 0.2 * 0.25 + 0.1 * 0.5)


def test_a_hand_built_result_evaluates_the_calls_it_is_given() -> None:
    result = EvaluationResult()
    result.gold_calls = [ToolCall("search", {"q": "x"}), ToolCall("open")]
    result.trace_calls = [ToolCall("search", {"q": "x"})]
    assert result.tool_recall == 0.5 and result.required_call_recall == 0.5
    assert result.metrics == {}  # nothing was assigned to it
    assert [c["tool"] for c in result.missing_calls] == ["open"]
    same = evaluate([call("search", q="x"), {"tool": "open"}], [call("search", q="x")])
    assert result.score == same.score


def test_assigning_calls_re_evaluates_an_evaluated_result() -> None:
    result = evaluate([call("a", x=1)], [call("a", x=2)])
    assert result.argument_f1 == 0.0
    _ = result.metrics  # built for the old calls
    result.trace_calls = [ToolCall("a", {"x": 1})]
    assert result.argument_f1 == 1.0 and result.score == 1.0
    assert result.metrics["argument_metrics"]["f1"] == 1.0


def test_weights_can_be_reassigned_under_both_names() -> None:
    result = evaluate([call("a", x=1)], [call("a", x=2)])
    # selection 1, arguments 0, sequence 1, non-redundancy 1
    assert result.score == pytest.approx(0.7)
    result.weights = {"argument_f1": 0.0}
    assert result.score == 1.0
    result._weights = {"argument_f1": 1.0, "selection_accuracy": 0.0}
    assert result.score == pytest.approx(0.3 / 1.3)
    assert math.isclose(sum(result._weights.values()), 1.0)
    with pytest.raises(ValueError, match="Unknown weight keys"):
        result.weights = {"speed": 1.0}
