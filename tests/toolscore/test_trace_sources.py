"""OpenTelemetry spans, CrewAI results, MCP sessions, captured traces; the adapters and the
core loaders that read them into ToolCall objects."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import toolscore
from toolscore.adapters import (
    AnthropicAdapter,
    BaseAdapter,
    CrewAIAdapter,
    CustomAdapter,
    GeminiAdapter,
    LangChainAdapter,
    MCPAdapter,
    OpenAIAdapter,
    OTelAdapter,
)
from toolscore.adapters.otel import is_tool_span
from toolscore.core import load_gold_standard, load_trace
from toolscore.integrations import MalformedArgumentsWarning, from_crewai, from_otel


def _kv(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        wrapped = {"boolValue": value}
    elif isinstance(value, int):
        wrapped = {"intValue": str(value)}  # OTLP/JSON writes 64-bit ints as strings
    else:
        wrapped = {"stringValue": value}
    return {"key": key, "value": wrapped}


def _span(tool: str | None, start: int, **attrs: Any) -> dict[str, Any]:
    attributes = [_kv(k.replace("__", "."), v) for k, v in attrs.items()]
    if tool is not None:
        attributes.append(_kv("gen_ai.tool.name", tool))
    return {
        "name": f"execute_tool {tool}",
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(start + 250_000_000),
        "attributes": attributes,
    }


def _export(*spans: dict[str, Any]) -> dict[str, Any]:
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}


TOOL = {"gen_ai__operation__name": "execute_tool"}


def test_otlp_export_tool_spans_in_start_order_with_failures() -> None:
    late = _span("book", 3_000_000_000, **TOOL, gen_ai__tool__call__arguments='{"id": 7}')
    early = _span(
        "search",
        1_000_000_000,
        **TOOL,
        gen_ai__tool__call__arguments='{"q": "x"}',
        gen_ai__tool__call__result='{"hits": 2}',
        gen_ai__tool__call__id="c1",
    )
    failed = _span("pay", 2_000_000_000, **TOOL, error__type="TimeoutError")
    chat = _span(None, 500, gen_ai__operation__name="chat")  # not a tool span: skipped
    mcp = _span("lookup", 4_000_000_000, mcp__method__name="tools/call", jsonrpc__request__id=9)
    calls = from_otel(_export(late, early, failed, chat, mcp))
    assert [c["tool"] for c in calls] == ["search", "pay", "book", "lookup"]
    assert calls[0] == {
        "tool": "search",
        "args": {"q": "x"},
        "result": {"hits": 2},
        "is_error": False,
        "error": None,
        "duration": 0.25,
        "id": "c1",
    }
    assert calls[1]["is_error"] is True and calls[1]["error"] == "TimeoutError"
    assert calls[3]["id"] == "9"


def test_otel_every_otlp_value_kind_legacy_scopes_and_odd_fields() -> None:
    # Attributes as the OTLP/JSON exporter writes every AnyValue kind; the arguments arrive
    # as a key/value list rather than a JSON string, the result as a double.
    args = {
        "kvlistValue": {
            "values": [
                {"key": "q", "value": {"stringValue": "x"}},
                {"key": "n", "value": {"intValue": "12345678901234"}},
                {"key": "exact", "value": {"boolValue": False}},
                {"key": "w", "value": {"doubleValue": 0.5}},
                {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
                {"key": "none", "value": {"arrayValue": None}},
                {"key": "raw", "value": {"bytesValue": "AAE="}},
                {"key": "odd", "value": {"intValue": "twelve"}},
                {"key": "empty", "value": {}},
                {"no key": 1},
            ]
        }
    }
    span = {
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
            {"key": "gen_ai.tool.name", "value": {"stringValue": "search"}},
            {"key": "gen_ai.tool.call.arguments", "value": args},
            {"key": "gen_ai.tool.call.result", "value": {"doubleValue": 0.25}},
        ],
        "startTimeUnixNano": "not a number",
        "status": ["not", "an", "object"],
    }
    # An old exporter's instrumentationLibrarySpans; junk resources and scopes are skipped.
    export = {
        "resourceSpans": [
            "junk",
            {"scopeSpans": ["junk"]},
            {"instrumentationLibrarySpans": [{"spans": [span]}]},
        ]
    }
    (call,) = from_otel(export)
    assert call == {
        "tool": "search",
        "args": {
            "q": "x",
            "n": 12345678901234,
            "exact": False,
            "w": 0.5,
            "tags": ["a"],
            "none": [],
            "raw": "AAE=",
            "odd": "twelve",
            "empty": None,
        },
        "result": 0.25,
        "is_error": False,
        "error": None,
        "duration": None,  # the start time is unreadable
        "id": None,
    }


def test_otel_span_objects_with_attribute_pairs_or_no_attributes() -> None:
    # A span object whose attributes are a tuple of (key, value) pairs (a list is read as
    # OTLP's key/value objects), one without attributes, one with unreadable attributes.
    pairs = SimpleNamespace(
        attributes=(("gen_ai.operation.name", "execute_tool"), ("gen_ai.tool.name", "ls")),
        start_time=None,
        end_time=None,
        status=None,
    )
    assert [c["tool"] for c in from_otel([pairs])] == ["ls"]
    assert is_tool_span(SimpleNamespace(attributes=None)) is False
    assert is_tool_span(SimpleNamespace(attributes=42)) is False
    assert is_tool_span({"attributes": {"gen_ai.tool.name": "x"}}) is False  # no operation


def test_otel_status_error_sdk_objects_and_auto_detection() -> None:
    status = SimpleNamespace(status_code=SimpleNamespace(name="ERROR"), description="boom")
    sdk_span = SimpleNamespace(
        attributes={"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fetch",
                    "gen_ai.tool.call.arguments": {"url": "u"}},
        start_time=10, end_time=20, status=status,
    )  # fmt: skip
    (call,) = from_otel([sdk_span])
    assert (call["tool"], call["args"], call["is_error"], call["error"]) == (
        "fetch",
        {"url": "u"},
        True,
        "boom",
    )
    # evaluate() and auto_extract detect spans; the failure feeds required_call_recall.
    result = toolscore.evaluate([{"tool": "fetch"}], [sdk_span])
    assert result.tool_f1 == 1.0 and result.required_call_recall == 0.0


def test_otel_arguments_that_are_not_an_object_warn() -> None:
    span = _span("calc", 1, **TOOL, gen_ai__tool__call__arguments="[1, 2]")
    with pytest.warns(MalformedArgumentsWarning, match="'calc'"):
        (call,) = from_otel([span])
    assert call["args"] == {}


def test_from_otel_rejects_what_is_not_a_span() -> None:
    with pytest.raises(TypeError, match="item 1 is a int"):
        from_otel([_span("a", 1, **TOOL), 5])
    assert from_otel([]) == []


def test_otel_trace_files_json_and_json_lines(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "search", "args": {"q": {"$any": True}}}]))
    spans = [_span("search", 1, **TOOL, gen_ai__tool__call__arguments='{"q": "x"}')]
    one = tmp_path / "export.json"
    one.write_text(json.dumps(_export(*spans)))
    lines = tmp_path / "export.jsonl"
    lines.write_text(json.dumps(_export(*spans)) + "\n" + json.dumps(_export()) + "\n")
    assert toolscore.evaluate_trace(gold, one).score == 1.0
    assert toolscore.evaluate_trace(gold, lines, format="otel").score == 1.0
    (call,) = load_trace(one)
    assert call.duration == 0.25 and call.is_error is False
    assert OTelAdapter().parse(_export(*spans))[0].args == {"q": "x"}


def test_crewai_results() -> None:
    entries = [
        {"tool_name": "search", "tool_args": '{"q": "crew"}', "result": "..."},
        SimpleNamespace(tool_name="write", tool_args={"path": "a.md"}, result="ok"),
    ]
    expected = [("search", {"q": "crew"}), ("write", {"path": "a.md"})]
    for shape in (entries, {"tools_results": entries}, SimpleNamespace(tools_results=entries)):
        assert [(c["tool"], c["args"]) for c in from_crewai(shape)] == expected
    assert toolscore.auto_extract({"tools_results": entries[:1]}) == [
        {"tool": "search", "args": {"q": "crew"}}
    ]
    assert [c.tool for c in CrewAIAdapter().parse({"tools_results": entries[:1]})] == ["search"]
    with pytest.raises(TypeError, match="Cannot auto-detect"):
        from_crewai(42)


MCP_SESSION = {
    "format": "mcp",
    "messages": [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "search", "arguments": {"q": "x"}}},
        {"jsonrpc": "2.0", "id": 1, "duration": 0.5,
         "result": {"content": [{"type": "text", "text": "3 hits"}]}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "fetch"}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32000, "message": "forbidden"}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read"}},
        {"jsonrpc": "2.0", "id": 3, "result": {"structuredContent": {"n": 1}, "content": []}},
    ],
}  # fmt: skip


def test_mcp_sessions_merge_responses_into_their_calls(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text(json.dumps(MCP_SESSION))
    calls = load_trace(path)
    assert [(c.tool, c.result, c.is_error, c.duration) for c in calls] == [
        ("search", "3 hits", False, 0.5),
        ("fetch", None, True, None),
        ("read", {"n": 1}, False, None),
    ]
    assert calls[1].metadata is not None and calls[1].metadata["error"] == "forbidden"
    assert [c.tool for c in MCPAdapter().parse(MCP_SESSION)] == ["search", "fetch", "read"]


def test_mcp_json_lines_log_with_error_results_resources_and_string_arguments(
    tmp_path: Path,
) -> None:
    messages = [
        {"jsonrpc": "2.0", "id": "a", "method": "tools/call",
         "params": {"name": "open", "arguments": '{"path": "/tmp/x"}'}},
        # isError: the error is what the client would show, resource and link blocks included
        {"jsonrpc": "2.0", "id": "a", "result": {"isError": True, "content": [
            {"type": "text", "text": "cannot open"},
            {"type": "resource", "resource": {"uri": "file:///tmp/x", "text": "denied"}},
            {"type": "resource_link", "uri": "file:///tmp/log"},
            "junk",
        ]}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call",
         "params": {"name": "list", "arguments": None}},
        {"jsonrpc": "2.0", "id": "b", "duration": True, "result": {"content": [
            {"type": "resource", "resource": {"uri": "file:///tmp"}},
        ]}},
        {"jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": {"name": "ping"}},
        {"jsonrpc": "2.0", "id": "c", "error": "gone"},
        {"jsonrpc": "2.0", "id": "d", "method": "tools/call", "params": {"name": "stat"}},
        {"jsonrpc": "2.0", "id": "d", "result": {"isError": True, "content": []}},
        {"jsonrpc": "2.0", "id": "e", "method": "tools/call", "params": {"name": "echo"}},
        {"jsonrpc": "2.0", "id": "e", "result": "bare"},
    ]  # fmt: skip
    path = tmp_path / "log.jsonl"
    # One message per line, with a blank line in between (JSON Lines)
    path.write_text(
        "\n".join(json.dumps(m) for m in messages[:3])
        + "\n\n"
        + "\n".join(json.dumps(m) for m in messages[3:])
    )
    calls = load_trace(path)
    assert [(c.tool, c.args, c.result, c.is_error) for c in calls] == [
        ("open", {"path": "/tmp/x"}, None, True),
        ("list", {}, "file:///tmp", False),  # a resource without text: its uri
        ("ping", {}, None, True),
        ("stat", {}, None, True),
        ("echo", {}, "bare", False),  # no content: the raw result
    ]
    errors = [(c.metadata or {}).get("error") for c in calls]
    assert errors[0] == "cannot open\ndenied\nfile:///tmp/log"
    assert errors[2] == "gone"
    assert errors[3] == "the tool reported an error"
    # a duration that is not a number (True) is not taken
    assert calls[1].duration is None


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ([{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}],
         "message 0: tools/call without params.name"),
        ([{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "f", "arguments": [1]}}],
         r"message 0 \(f\): params.arguments must be an object, got \[1\]"),
    ],
)  # fmt: skip
def test_mcp_calls_without_a_name_or_with_list_arguments_are_refused(
    tmp_path: Path, messages: list[Any], message: str
) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(messages))
    with pytest.raises(ValueError, match=message):
        load_trace(path, format="mcp")


def test_a_trace_file_that_is_not_utf8_text(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_bytes(b"\xff\xfe[\x00]\x00")
    with pytest.raises(ValueError, match=r"trace.json: not a text file \(expected UTF-8 JSON\)"):
        load_trace(path)


def test_adapters_read_their_format_and_refuse_others() -> None:
    openai = {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "a", "arguments": '{"x": 1}'},
                        }
                    ]
                }
            }
        ]
    }
    anthropic = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t", "name": "b", "input": {"y": 2}}],
    }
    gemini = {"candidates": [{"content": {"parts": [{"functionCall": {"name": "c", "args": {}}}]}}]}
    langchain = [
        {
            "type": "ai",
            "content": "",
            "tool_calls": [{"name": "d", "args": {"z": 3}, "id": "1", "type": "tool_call"}],
        }
    ]
    custom = {"calls": [{"tool": "e", "args": {}}]}
    cases: list[tuple[BaseAdapter, Any, str]] = [
        (OpenAIAdapter(), openai, "a"), (AnthropicAdapter(), anthropic, "b"),
        (GeminiAdapter(), gemini, "c"), (LangChainAdapter(), langchain, "d"),
        (CustomAdapter(), custom, "e"),
    ]  # fmt: skip
    for adapter, data, tool in cases:
        calls = adapter.parse(data)
        assert [c.tool for c in calls] == [tool]
        assert calls[0].metadata is not None and calls[0].metadata["format"] == adapter.format  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="cannot be None"):
        OpenAIAdapter().parse(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match='item 0 needs a "tool" name'):
        CustomAdapter().parse([{"args": {"x": 1}}])


def test_load_gold_standard_keeps_side_effects_and_unchecked_args(tmp_path: Path) -> None:
    path = tmp_path / "gold.json"
    path.write_text(
        json.dumps(
            [
                {"tool": "save", "args": {"path": {"$regex": r".*\.txt"}},
                 "side_effects": {"file_exists": True}, "description": "saves notes"},
                {"tool": "notify"},
            ]
        )
    )  # fmt: skip
    save, notify = load_gold_standard(path)
    assert save.args is not None and save.args["path"] == "notes.txt"  # a Regex matcher
    assert save.metadata == {"side_effects": {"file_exists": True}, "description": "saves notes"}
    assert notify.args is None


def test_evaluate_trace_adds_side_effects_latency_cost_and_forbidden(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "save", "side_effects": {"file_exists": True}}]))
    trace = tmp_path / "trace.json"
    trace.write_text(
        json.dumps([{"tool": "save", "args": {}, "duration": 0.5, "cost": 0.002},
                    {"tool": "rm", "args": {"path": "/"}}])
    )  # fmt: skip
    result = toolscore.evaluate_trace(gold, trace, forbidden=[{"tool": "rm"}])
    m = result.metrics
    # No validator is registered for file_exists here: the check fails and says why.
    assert m["side_effect_metrics"]["total_checks"] == 1
    assert m["side_effect_metrics"]["passed_checks"] == 0
    assert m["latency_metrics"]["total_duration"] == 0.5
    assert m["cost_metrics"]["total_cost"] == 0.002
    assert [v["tool"] for v in result.policy_violations] == ["rm"]
    off = toolscore.evaluate_trace(gold, trace, validate_side_effects=False)
    assert "side_effect_metrics" not in off.metrics


def test_a_captured_trace_file_reads_as_a_trace(tmp_path: Path) -> None:
    capture = toolscore.TraceCapture(dataset_dir=tmp_path)
    path = capture.capture_tools([{"tool": "a", "args": {"x": 1}}], name="run")
    assert [(c.tool, c.args) for c in load_trace(path)] == [("a", {"x": 1})]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (
            toolscore.evaluate_trace(
                capture.to_gold_standard(path, tmp_path / "g.json"), path
            ).score
            == 1.0
        )


def test_custom_traces_accept_the_other_usual_names(tmp_path: Path) -> None:
    data = {
        "tool_calls": [
            {"name": "search", "arguments": '{"q": "x"}', "duration": 0.1},
            {"function": "open", "input": {"id": 3}},
            {"tool": "close"},
        ]
    }
    calls = CustomAdapter().parse(data)
    assert [(c.tool, c.args, c.duration) for c in calls] == [
        ("search", {"q": "x"}, 0.1),
        ("open", {"id": 3}, None),
        ("close", {}, None),
    ]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    assert [c.tool for c in load_trace(path, format="custom")] == ["search", "open", "close"]
    with pytest.raises(ValueError, match="args must be an object"):
        CustomAdapter().parse([{"name": "a", "arguments": [1]}])


def test_langchain_agent_actions_keep_their_input() -> None:
    steps = [
        {"tool": "search", "tool_input": {"q": "x"}, "log": "Invoking search"},
        {"tool": "calculator", "tool_input": "2 + 2", "log": "..."},
        {"tool": "lookup", "tool_input": '{"id": 7}'},
        {"action": "finish_tool", "action_input": "done"},
    ]
    assert [(c.tool, c.args) for c in LangChainAdapter().parse(steps)] == [
        ("search", {"q": "x"}),
        ("calculator", {"input": "2 + 2"}),
        ("lookup", {"id": 7}),
        ("finish_tool", {"input": "done"}),
    ]
    assert (
        toolscore.evaluate([{"tool": "calculator", "args": {"input": "2 + 2"}}], steps[1:2]).score
        == 1.0
    )
