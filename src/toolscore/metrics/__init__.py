"""Metric families, each one module, all computed with the one comparison rule and the
one-to-one alignment ``evaluate()`` uses.

=====================  ===========================================================
module                 functions
=====================  ===========================================================
``accuracy``           ``calculate_invocation_accuracy``, ``calculate_selection_accuracy``
``arguments``          ``calculate_argument_f1``
``sequence``           ``calculate_edit_distance``
``trajectory``         ``calculate_trajectory_accuracy``,
                       ``calculate_partial_trajectory_accuracy``
``tool_correctness``   ``calculate_tool_correctness``, ``calculate_tool_correctness_with_args``,
                       ``calculate_required_call_recall``
``efficiency``         ``calculate_redundant_call_rate``
``policy``             ``check_forbidden_calls``, ``rules_from_json``, ``load_forbidden_rules``
``security``           ``find_secrets``, ``redact_secrets``
``side_effects``       ``calculate_side_effect_success_rate``
``cost``               ``calculate_latency``, ``calculate_cost_attribution``
``cost_estimator``     ``estimate_tokens``, ``calculate_llm_cost``, ``estimate_trace_cost``,
                       ``format_cost``, ``calculate_cost_savings``
``llm_judge``          ``calculate_semantic_correctness``,
                       ``calculate_batch_semantic_correctness``, ``JudgeConfig``,
                       ``infer_provider``
=====================  ===========================================================

Every function takes ``ToolCall`` objects or ``{"tool", "args"}`` dicts.
"""

from toolscore.metrics.accuracy import calculate_invocation_accuracy, calculate_selection_accuracy
from toolscore.metrics.arguments import calculate_argument_f1
from toolscore.metrics.cost import calculate_cost_attribution, calculate_latency
from toolscore.metrics.cost_estimator import (
    calculate_cost_savings,
    calculate_llm_cost,
    estimate_tokens,
    estimate_trace_cost,
    format_cost,
)
from toolscore.metrics.efficiency import calculate_redundant_call_rate
from toolscore.metrics.llm_judge import (
    JudgeConfig,
    Provider,
    calculate_batch_semantic_correctness,
    calculate_semantic_correctness,
    infer_provider,
)
from toolscore.metrics.policy import check_forbidden_calls, load_forbidden_rules, rules_from_json
from toolscore.metrics.security import find_secrets, redact_secrets
from toolscore.metrics.sequence import calculate_edit_distance
from toolscore.metrics.side_effects import calculate_side_effect_success_rate
from toolscore.metrics.tool_correctness import (
    calculate_required_call_recall,
    calculate_tool_correctness,
    calculate_tool_correctness_with_args,
)
from toolscore.metrics.trajectory import (
    calculate_partial_trajectory_accuracy,
    calculate_trajectory_accuracy,
)

__all__ = [
    "JudgeConfig",
    "Provider",
    "calculate_argument_f1",
    "calculate_batch_semantic_correctness",
    "calculate_cost_attribution",
    "calculate_cost_savings",
    "calculate_edit_distance",
    "calculate_invocation_accuracy",
    "calculate_latency",
    "calculate_llm_cost",
    "calculate_partial_trajectory_accuracy",
    "calculate_redundant_call_rate",
    "calculate_required_call_recall",
    "calculate_selection_accuracy",
    "calculate_semantic_correctness",
    "calculate_side_effect_success_rate",
    "calculate_tool_correctness",
    "calculate_tool_correctness_with_args",
    "calculate_trajectory_accuracy",
    "check_forbidden_calls",
    "estimate_tokens",
    "estimate_trace_cost",
    "find_secrets",
    "format_cost",
    "infer_provider",
    "load_forbidden_rules",
    "redact_secrets",
    "rules_from_json",
]
