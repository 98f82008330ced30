"""Code written against Toolscore 1.10 imports and calls ours: every public name and module,
the signatures of the drop-in functions, and the error phrases and types it matches on.

The reference's surface is written out here (facts read from tool-scorer 1.10.0), so the test
runs without the reference installed.
"""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

import toolscore

# toolscore.__all__ of Toolscore 1.10.
REFERENCE_ALL = {
    "ANY", "Approx", "Contains", "Expectation", "FixSuggestion", "IsType", "JudgeConfig",
    "Matcher", "OneOf", "Regex", "Snapshot", "SnapshotStore", "ToolScoreAssertionError",
    "TraceCapture", "__version__", "assert_tools", "auto_extract", "capture_trace", "cases",
    "evaluate", "evaluate_trace", "expect", "from_anthropic", "from_claude_agent_sdk",
    "from_crewai", "from_gemini", "from_langgraph", "from_openai", "from_openai_agents",
    "from_otel", "from_pydantic_ai", "letter_grade", "snapshot_check", "test_agent",
    "test_agent_async",
}  # fmt: skip
# Built on other branches (snapshots; the LLM tool-call judge), checked there.
ELSEWHERE = {"JudgeConfig", "Snapshot", "SnapshotStore", "snapshot_check"}

# Public names per module in Toolscore 1.10 (this branch's share of them).
REFERENCE_MODULES: dict[str, set[str]] = {
    "toolscore.core": {
        "EvaluationResult", "ToolScoreAssertionError", "assert_tools", "evaluate",
        "evaluate_trace", "load_gold_standard", "load_trace", "test_agent", "test_agent_async",
        "BaseAdapter", "ToolCall", "letter_grade",
    },
    "toolscore.verdict": {"FixSuggestion", "letter_grade", "GRADE_BANDS", "GRADE_ORDER"},
    "toolscore.diff": {"build_diff_table", "build_eval_fix_list", "render_failure"},
    "toolscore.capture": {"TraceCapture", "capture_trace"},
    "toolscore.explainer": {
        "Explanation", "MetricExplanation", "explain_argument_metrics",
        "explain_efficiency_metrics", "explain_selection_accuracy", "explain_sequence_metrics",
        "explain_tool_correctness", "generate_explanations", "get_all_tips", "get_top_issues",
    },
    "toolscore.integrations": {
        "auto_extract", "from_anthropic", "from_claude_agent_sdk", "from_crewai", "from_gemini",
        "from_langgraph", "from_openai", "from_openai_agents", "from_otel", "from_pydantic_ai",
    },
    "toolscore.adapters": {
        "AnthropicAdapter", "BaseAdapter", "CustomAdapter", "GeminiAdapter", "LangChainAdapter",
        "MCPAdapter", "OTelAdapter", "OpenAIAdapter", "ToolCall",
    },
    "toolscore.adapters.base": {"BaseAdapter", "ToolCall"},
    "toolscore.adapters.otel": {
        "OTelAdapter", "is_tool_span", "looks_like_otel", "tool_calls_from_otel",
    },
    "toolscore.adapters.openai": {"OpenAIAdapter"},
    "toolscore.adapters.anthropic": {"AnthropicAdapter"},
    "toolscore.adapters.gemini": {"GeminiAdapter"},
    "toolscore.adapters.langchain": {"LangChainAdapter"},
    "toolscore.adapters.mcp": {"MCPAdapter"},
    "toolscore.adapters.custom": {"CustomAdapter"},
    "toolscore.reports": {
        "generate_csv_report", "generate_html_report", "generate_json_report",
        "generate_markdown_report", "print_error", "print_evaluation_summary", "print_progress",
        "print_validation_result",
    },
    # Toolscore 1.10's report submodules: the same functions as toolscore.reports.
    "toolscore.reports.json_report": {"generate_json_report"},
    "toolscore.reports.html_report": {"generate_html_report"},
    "toolscore.reports.csv_report": {"generate_csv_report"},
    "toolscore.reports.markdown_report": {"generate_markdown_report"},
    "toolscore.reports.findings": {"behavior_findings"},
    "toolscore.debug": {"run_interactive_debug"},
    "toolscore.reports.console_report": {
        "print_error", "print_evaluation_summary", "print_progress", "print_validation_result",
    },
    "toolscore.metrics": {
        "calculate_argument_f1", "calculate_cost_attribution", "calculate_cost_savings",
        "calculate_edit_distance", "calculate_invocation_accuracy", "calculate_latency",
        "calculate_llm_cost", "calculate_partial_trajectory_accuracy",
        "calculate_redundant_call_rate", "calculate_required_call_recall",
        "calculate_selection_accuracy", "calculate_side_effect_success_rate",
        "calculate_tool_correctness", "calculate_tool_correctness_with_args",
        "calculate_trajectory_accuracy", "check_forbidden_calls", "estimate_tokens",
        "estimate_trace_cost", "find_secrets", "format_cost", "load_forbidden_rules",
        "redact_secrets", "rules_from_json",
    },
    "toolscore.metrics.accuracy": {"calculate_invocation_accuracy", "calculate_selection_accuracy"},
    "toolscore.metrics.arguments": {"calculate_argument_f1"},
    "toolscore.metrics.sequence": {"calculate_edit_distance"},
    "toolscore.metrics.efficiency": {"calculate_redundant_call_rate"},
    "toolscore.metrics.trajectory": {
        "calculate_partial_trajectory_accuracy", "calculate_trajectory_accuracy",
    },
    "toolscore.metrics.tool_correctness": {
        "calculate_required_call_recall", "calculate_tool_correctness",
        "calculate_tool_correctness_with_args",
    },
    "toolscore.metrics.policy": {
        "call_matches_rule", "check_forbidden_calls", "load_forbidden_rules", "rules_from_json",
    },
    "toolscore.metrics.security": {"find_secrets", "redact_secrets"},
    "toolscore.metrics.cost": {"calculate_cost_attribution", "calculate_latency"},
    "toolscore.metrics.side_effects": {"calculate_side_effect_success_rate"},
    "toolscore.metrics.cost_estimator": {
        "calculate_cost_savings", "calculate_llm_cost", "estimate_json_tokens",
        "estimate_tokens", "estimate_trace_cost", "format_cost",
    },
    "toolscore.matchers": {"ANY", "Approx", "Contains", "IsType", "Matcher", "OneOf", "Regex"},
    "toolscore.expect": {"Expectation", "expect"},
}  # fmt: skip

# Parameter lists (name, default) of the drop-in functions in Toolscore 1.10. Ours may add
# keyword-only parameters after them, never change these.
_ = inspect.Parameter.empty
REFERENCE_SIGNATURES: dict[str, list[tuple[str, Any]]] = {
    "toolscore.evaluate": [
        ("expected", _), ("actual", _), ("weights", None), ("strict", False), ("forbidden", None),
    ],
    "toolscore.evaluate_trace": [
        ("gold_file", _), ("trace_file", _), ("format", "auto"), ("validate_side_effects", True),
        ("judge", False), ("forbidden", None), ("weights", None),
    ],
    "toolscore.assert_tools": [
        ("expected", _), ("actual", _), ("min_score", 0.9), ("weights", None), ("strict", False),
    ],
    "toolscore.core.load_gold_standard": [("file_path", _)],
    "toolscore.core.load_trace": [("file_path", _), ("format", "auto")],
    "toolscore.diff.build_diff_table": [("gold", _), ("trace", _)],
    "toolscore.diff.render_failure": [
        ("result", _), ("min_score", _), ("color", False), ("width", 100),
    ],
    "toolscore.diff.build_eval_fix_list": [("gold", _), ("trace", _)],
    "toolscore.reports.generate_json_report": [("result", _), ("output_path", "toolscore.json")],
    "toolscore.reports.generate_html_report": [("result", _), ("output_path", "toolscore.html")],
    "toolscore.reports.generate_csv_report": [("result", _), ("output_path", "toolscore.csv")],
    "toolscore.reports.generate_markdown_report": [("result", _), ("output_path", "toolscore.md")],
    "toolscore.reports.print_evaluation_summary": [
        ("result", _), ("console", None), ("verbose", False), ("show_explanations", True),
    ],
    "toolscore.capture.TraceCapture": [("dataset_dir", "traces"), ("auto_save", True)],
    "toolscore.capture.TraceCapture.trace": [("self", _), ("name", None), ("save_on_error", True)],
    "toolscore.capture.TraceCapture.capture_tools": [
        ("self", _), ("tools", _), ("name", _), ("description", ""), ("metadata", None),
    ],
    "toolscore.capture.TraceCapture.to_gold_standard": [
        ("self", _), ("trace_file", _), ("output_file", _), ("description", ""),
    ],
    "toolscore.capture.capture_trace": [("name", None), ("save_on_error", True)],
    "toolscore.integrations.from_otel": [("spans", _)],
    "toolscore.integrations.from_crewai": [("result", _)],
    "toolscore.verdict.letter_grade": [("score", _)],
    "toolscore.metrics.calculate_required_call_recall": [("gold_calls", _), ("trace_calls", _)],
    "toolscore.metrics.calculate_trajectory_accuracy": [("gold_calls", _), ("trace_calls", _)],
    "toolscore.metrics.calculate_redundant_call_rate": [("gold_calls", _), ("trace_calls", _)],
    "toolscore.metrics.calculate_tool_correctness": [
        ("gold_calls", _), ("trace_calls", _), ("strict_order", False),
    ],
    "toolscore.metrics.calculate_partial_trajectory_accuracy": [
        ("gold_calls", _), ("trace_calls", _), ("allow_tool_name_variations", False),
    ],
    "toolscore.metrics.check_forbidden_calls": [("trace_calls", _), ("rules", _)],
    "toolscore.metrics.find_secrets": [("trace_calls", _)],
    "toolscore.explainer.generate_explanations": [("result", _)],
    "toolscore.explainer.get_top_issues": [("explanations", _), ("max_issues", 5)],
}  # fmt: skip


def _resolve(dotted: str) -> Any:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


# Our public names beyond Toolscore 1.10 (issue 23: trajectories, conversations, streams), and
# the public module each is also importable from.
OUR_ADDITIONS: dict[str, str] = {
    "match_trajectory": "toolscore.core",
    "assert_trajectory": "toolscore.core",
    "TrajectoryMatch": "toolscore.core",
    "evaluate_conversation": "toolscore.core",
    "assert_conversation": "toolscore.core",
    "ConversationResult": "toolscore.core",
    "TurnResult": "toolscore.core",
    "assert_stream_matches": "toolscore.core",
    "from_stream": "toolscore.integrations",
}


@pytest.mark.parametrize("name", sorted(OUR_ADDITIONS))
def test_our_additions_are_exported_from_the_package_and_their_module(name: str) -> None:
    module = importlib.import_module(OUR_ADDITIONS[name])
    assert name in toolscore.__all__
    assert name in module.__all__
    assert getattr(toolscore, name) is getattr(module, name)
    if isinstance(getattr(toolscore, name), type):
        assert getattr(toolscore, name).__module__ == "toolscore"  # shown as its public home


def test_the_new_signatures() -> None:
    def params(fn: Any) -> list[tuple[str, Any]]:
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]

    assert params(toolscore.match_trajectory) == [
        ("expected", _), ("actual", _), ("mode", "strict"), ("args", "exact"),
        ("per_tool", None), ("strict", False),
    ]  # fmt: skip
    assert params(toolscore.assert_tools)[-1] == ("mode", None)
    assert params(toolscore.evaluate_conversation)[:3] == [
        ("expected_turns", _), ("conversation", _), ("mode", "strict"),
    ]  # fmt: skip
    assert params(toolscore.assert_stream_matches)[:2] == [
        ("stream_events", _),
        ("final_response", _),
    ]
    assert params(toolscore.from_stream) == [("events", _)]


def test_every_reference_top_level_name_is_there() -> None:
    missing = sorted(REFERENCE_ALL - ELSEWHERE - set(toolscore.__all__))
    assert not missing
    for name in toolscore.__all__:
        assert getattr(toolscore, name) is not None, name


@pytest.mark.parametrize("module", sorted(REFERENCE_MODULES))
def test_every_reference_module_imports_with_its_names(module: str) -> None:
    mod = importlib.import_module(module)
    missing = sorted(n for n in REFERENCE_MODULES[module] if not hasattr(mod, n))
    assert not missing, f"{module} lacks {missing}"
    for name in getattr(mod, "__all__", ()):
        assert hasattr(mod, name), f"{module}.__all__ names {name!r}, which is not there"


def test_the_report_submodules_hold_the_one_implementation() -> None:
    import toolscore.reports as reports

    for module in [
        m for m in REFERENCE_MODULES if m.startswith("toolscore.reports.") and "findings" not in m
    ]:
        mod = importlib.import_module(module)
        for name in REFERENCE_MODULES[module]:
            assert getattr(mod, name) is getattr(reports, name), f"{module}.{name}"


def test_findings_are_severity_message_pairs_as_in_toolscore() -> None:
    from toolscore.reports.findings import behavior_findings

    result = toolscore.evaluate(
        [{"tool": "read", "args": {}}],
        [{"tool": "read", "args": {}}, {"tool": "rm", "args": {"path": "/"}}],
        forbidden=[{"tool": "rm"}],
    )
    findings = behavior_findings(result)
    assert findings[0][0] == "error" and "call 2 (rm)" in findings[0][1]
    assert all(isinstance(f, tuple) and len(f) == 2 for f in findings)


def test_the_debug_session_prints_every_issue_without_a_prompt() -> None:
    import io

    from rich.console import Console

    from toolscore.debug import run_interactive_debug

    result = toolscore.evaluate(
        [{"tool": "search", "args": {"q": "NYC"}}, {"tool": "book", "args": {}}],
        [{"tool": "search", "args": {"q": "Boston"}}],
    )
    buffer = io.StringIO()
    run_interactive_debug(result, console=Console(file=buffer, width=200))
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "Issues to fix, most urgent first:"
    assert sum(line.lstrip().startswith("Fix: ") for line in lines) == 2  # book missing, q wrong


@pytest.mark.parametrize("dotted", sorted(REFERENCE_SIGNATURES))
def test_signatures_start_like_the_reference(dotted: str) -> None:
    params = list(inspect.signature(_resolve(dotted)).parameters.values())
    want = REFERENCE_SIGNATURES[dotted]
    got = [(p.name, p.default) for p in params[: len(want)]]
    assert got == want
    for extra in params[len(want) :]:  # additions are keyword-only or have defaults
        assert extra.kind is inspect.Parameter.KEYWORD_ONLY or extra.default is not _, extra


def test_version_comes_from_the_installed_distribution() -> None:
    from importlib.metadata import version

    assert toolscore.__version__ == version("llm-scorekit")


# --- the error phrases and types code written against Toolscore matches on ---------------


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


ERRORS: list[tuple[str, Any, type[BaseException], str]] = [
    ("unknown weight", lambda: toolscore.evaluate([], [], weights={"speed": 1}), ValueError,
     "Unknown weight keys"),
    ("negative weight", lambda: toolscore.evaluate([], [], weights={"argument_f1": -1}),
     ValueError, "non-negative"),
    ("all zero", lambda: toolscore.evaluate([], [], weights=dict.fromkeys(
        toolscore.core.EvaluationResult.DEFAULT_WEIGHTS, 0)), ValueError, "sum to zero"),
    ("not a dict", lambda: toolscore.evaluate([{"tool": "a"}, "b"], []), ValueError,
     "not a dict"),
    ("actual not a dict", lambda: toolscore.evaluate([], [{"tool": "a"}, 42]), ValueError,
     "not a dict"),
    ("no tool", lambda: toolscore.evaluate([{"args": {}}], []), ValueError,
     "missing 'tool' key"),
    ("actual no tool", lambda: toolscore.evaluate([], [{"tool": "a"}, {"args": {}}]),
     ValueError, "missing 'tool' key"),
    ("min_score", lambda: toolscore.assert_tools([], [], min_score=1.5), ValueError,
     "between 0.0 and 1.0"),
    ("agent min_score", lambda: toolscore.test_agent(lambda p: [], "x", [], min_score=-0.1),
     ValueError, "between 0.0 and 1.0"),
    ("unknown shape", lambda: toolscore.evaluate([], {"weird": True}), TypeError,
     "Cannot auto-detect"),
    ("auto_extract", lambda: toolscore.auto_extract(42), TypeError, "Cannot auto-detect"),
    ("no expectations", lambda: toolscore.expect([]).run(), ValueError, "no expectations"),
    ("expected not a list", lambda: toolscore.evaluate("nope", []), TypeError,  # type: ignore[arg-type]
     "expected must be a list of dicts"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "call", "error", "phrase"), ERRORS, ids=[e[0] for e in ERRORS])
def test_error_phrases_and_types(case: str, call: Any, error: type, phrase: str) -> None:
    with pytest.raises(error, match=phrase):
        call()


def test_file_errors_are_the_reference_types(tmp_path: Path) -> None:
    from toolscore.core import load_gold_standard, load_trace

    with pytest.raises(FileNotFoundError):
        load_gold_standard(tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError):
        load_trace(tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError):
        toolscore.evaluate_trace(tmp_path / "missing.json", tmp_path / "missing.json")
    trace = _write(tmp_path / "t.json", [])
    with pytest.raises(ValueError, match="Unsupported format"):
        load_trace(trace, format="bedrock")
    with pytest.raises(ValueError, match="Unsupported format"):
        toolscore.evaluate_trace(_write(tmp_path / "g.json", []), trace, format="bedrock")


def test_tool_call_needs_a_name() -> None:
    from toolscore.adapters.base import ToolCall

    with pytest.raises(ValueError, match="Tool name cannot be empty"):
        ToolCall("")
    assert ToolCall("a").metadata == {} and ToolCall("a").args is None
