"""Run budgets: ``assert_budget`` and ``expect(...).within()`` on every measure and source."""

from __future__ import annotations

from typing import Any

import pytest

import toolscore
from toolscore import ToolScoreAssertionError, assert_budget, expect
from toolscore.adapters.base import ToolCall
from toolscore.fakes import FakeTools


def _chat(model: str, prompt: int, completion: int, tools: list[str]) -> dict[str, Any]:
    calls = [
        {"id": f"c{n}", "type": "function", "function": {"name": t, "arguments": "{}"}}
        for n, t in enumerate(tools)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else "done"}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": "r",
        "object": "chat.completion",
        "created": 1,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def _span(op: str, start: int, end: int, **attributes: Any) -> dict[str, Any]:
    return {
        "name": op,
        "startTimeUnixNano": start,
        "endTimeUnixNano": end,
        "attributes": {"gen_ai.operation.name": op, **attributes},
    }


# -- tool calls -------------------------------------------------------------------------------
def test_max_tool_calls_lists_the_repeated_calls() -> None:
    calls = [{"tool": "search", "args": {"q": "x"}}] * 3 + [{"tool": "open", "args": {"id": 1}}]
    usage = assert_budget(calls, max_tool_calls=4)
    assert len(usage.calls) == 4
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(calls, max_tool_calls=2, max_model_requests=None)
    text = str(caught.value)
    assert "The run went over its budget (1 of 1 limits), read from a list of tool calls:" in text
    assert (
        "over: tool calls: 4, limit 2, over by 2; repeated: search(q='x') x3 (#1, #2, #3)" in text
    )
    assert "Hint: repeated identical calls" in text


def test_max_tool_calls_without_repeats_lists_the_calls_past_the_limit() -> None:
    calls = [{"tool": f"t{n}", "args": {}} for n in range(4)]
    with pytest.raises(ToolScoreAssertionError, match=r"past the limit: #4 t3\(\)"):
        assert_budget(calls, max_tool_calls=3)


def test_max_calls_per_tool_as_a_number_or_per_tool() -> None:
    calls = [{"tool": "a", "args": {"n": n}} for n in range(3)] + [{"tool": "b", "args": {}}]
    assert_budget(calls, max_calls_per_tool=3)
    assert_budget(calls, max_calls_per_tool={"b": 1, "c": 0})
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(calls, max_calls_per_tool={"a": 2, "b": 1}, max_tool_calls=10)
    text = str(caught.value)
    assert "over: calls to 'a': 3, limit 2, over by 1; past the limit: #3 a(n=2)" in text
    assert "within: calls to 'b': 1, limit 1" in text
    assert "within: tool calls: 4, limit 10" in text


# -- time and cost from tool calls --------------------------------------------------------------
def test_duration_spans_first_start_to_last_end_when_calls_have_timestamps() -> None:
    calls = [
        ToolCall("a", {}, timestamp=100.0, duration=1.0),
        ToolCall("b", {}, timestamp=103.0, duration=2.0),
    ]
    assert assert_budget(calls, max_duration_s=5.0).duration_s == pytest.approx(5.0)
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(calls, max_duration_s=4.5)
    text = str(caught.value)
    assert "duration: 5.000 s (first call's start to last call's end), limit 4.500 s" in text
    assert "slowest calls #2 b() 2.000 s, #1 a() 1.000 s" in text


def test_duration_is_the_sum_of_durations_without_timestamps() -> None:
    calls = [{"tool": "a", "args": {}, "duration": 0.5}, {"tool": "b", "args": {}, "duration": 1.0}]
    assert assert_budget(calls, max_duration_s=1.5).duration_s == pytest.approx(1.5)
    with pytest.raises(ToolScoreAssertionError, match="sum of the calls' durations"):
        assert_budget(calls, max_duration_s=1.4)


def test_cost_fields_of_calls_are_summed() -> None:
    calls = [ToolCall("a", {}, cost=0.25), ToolCall("b", {}, cost=0.5)]
    assert assert_budget(calls, max_cost_usd=0.75).cost_usd == pytest.approx(0.75)
    with pytest.raises(ToolScoreAssertionError, match=r"cost: \$0.750000, limit \$0.700000"):
        assert_budget(calls, max_cost_usd=0.7)


# -- what a run does not carry ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("limit", "text"),
    [
        (
            {"max_tokens": 10},
            "max_tokens=10 cannot be checked: a list of tool calls carries no token",
        ),
        ({"max_model_requests": 1}, "max_model_requests=1 cannot be checked: a list of tool calls"),
        ({"max_cost_usd": 1.0}, "carries no cost fields and no priced token usage"),
        ({"max_duration_s": 1.0}, "has no timestamps or durations"),
    ],
)
def test_a_limit_on_a_measure_the_run_lacks_is_a_value_error(
    limit: dict[str, Any], text: str
) -> None:
    with pytest.raises(ValueError, match=text):
        assert_budget([{"tool": "a", "args": {}}], **limit)


def test_an_unpriced_model_makes_cost_unknown_naming_the_model() -> None:
    responses = [_chat("my-local-model", 10, 5, [])]
    with pytest.raises(ValueError, match="'my-local-model', which the price table"):
        assert_budget(responses, max_cost_usd=1.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({}, ValueError, "needs at least one limit"),
        ({"max_tool_calls": -1}, ValueError, "max_tool_calls must be >= 0"),
        ({"max_tool_calls": 1.5}, TypeError, "max_tool_calls must be a whole number"),
        ({"max_cost_usd": float("nan")}, ValueError, "max_cost_usd must be a number >= 0"),
        ({"max_calls_per_tool": {"a": True}}, TypeError, r"max_calls_per_tool\['a'\]"),
    ],
)
def test_bad_limits_are_refused(kwargs: dict[str, Any], error: type[Exception], text: str) -> None:
    with pytest.raises(error, match=text):
        assert_budget([{"tool": "a", "args": {}}], **kwargs)


def test_a_run_of_no_known_shape_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Cannot read what the run spent from a int"):
        assert_budget(42, max_tool_calls=1)


# -- provider responses -----------------------------------------------------------------------
def test_openai_responses_count_requests_tokens_and_cost() -> None:
    from openai.types.chat import ChatCompletion

    responses = [
        ChatCompletion.model_validate(_chat("gpt-4o-mini", 1000, 200, ["search", "search"])),
        ChatCompletion.model_validate(_chat("gpt-4o-mini", 3000, 100, [])),
    ]
    usage = assert_budget(
        responses, max_model_requests=2, max_tokens=4300, max_tool_calls=2, max_cost_usd=0.01
    )
    assert usage.tokens == 4300
    # gpt-4o-mini list price: $0.15 / $0.60 per million tokens.
    assert usage.cost_usd == pytest.approx((4000 * 0.15 + 300 * 0.60) / 1e6)
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(responses, max_model_requests=1, max_tokens=4000)
    text = str(caught.value)
    assert "over: model requests: 2, limit 1, over by 1" in text
    assert "over: tokens: 4,300 (prompt 4,000 + completion 300), limit 4,000, over by 300" in text
    assert "largest requests #2 (3,100), #1 (1,200)" in text


def test_anthropic_and_gemini_usage_fields_are_read() -> None:
    from anthropic.types import Message
    from google.genai import types

    anthropic_reply = Message.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "content": [{"type": "text", "text": "ok"}],
            "usage": {"input_tokens": 50, "output_tokens": 7, "cache_read_input_tokens": 3},
        }
    )
    gemini_reply = types.GenerateContentResponse(
        candidates=[
            types.Candidate(content=types.Content(role="model", parts=[types.Part(text="x")]))
        ],
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=20, candidates_token_count=4, thoughts_token_count=6
        ),
    )
    assert assert_budget(anthropic_reply, max_tokens=60).tokens == 60
    assert assert_budget([gemini_reply], max_tokens=30).tokens == 30
    with pytest.raises(ToolScoreAssertionError):
        assert_budget([gemini_reply], max_tokens=29)


def test_openai_agents_model_responses_are_requests() -> None:
    from agents.items import ModelResponse
    from agents.usage import Usage

    responses = [
        ModelResponse(
            output=[],
            usage=Usage(requests=1, input_tokens=10, output_tokens=2, total_tokens=12),
            response_id=None,
        ),
        ModelResponse(
            output=[],
            usage=Usage(requests=1, input_tokens=30, output_tokens=3, total_tokens=33),
            response_id=None,
        ),
    ]
    usage = assert_budget(responses, max_tokens=45, max_model_requests=2)
    assert usage.tokens == 45


def test_a_pydantic_ai_run_counts_its_model_responses() -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("lookup", {"q": "x"}, tool_call_id="1")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model))

    @agent.tool_plain
    def lookup(q: str) -> str:
        return "found " + q

    result = agent.run_sync("go")
    usage = assert_budget(result, max_model_requests=2, max_tool_calls=1)
    assert [c.tool for c in usage.calls] == ["lookup"]
    assert usage.tokens is not None and usage.tokens > 0
    with pytest.raises(ToolScoreAssertionError, match="model requests: 2, limit 1"):
        assert_budget(result, max_model_requests=1)


# -- message histories ------------------------------------------------------------------------
def test_each_assistant_message_is_a_model_request_with_its_usage() -> None:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    history = [
        HumanMessage("weather?"),
        AIMessage(
            "",
            tool_calls=[{"name": "get_weather", "args": {"city": "a"}, "id": "1"}],
            usage_metadata={"input_tokens": 100, "output_tokens": 10, "total_tokens": 110},
        ),
        ToolMessage("21 C", tool_call_id="1"),
        AIMessage(
            "21 C",
            usage_metadata={"input_tokens": 130, "output_tokens": 5, "total_tokens": 135},
        ),
    ]
    usage = assert_budget(history, max_model_requests=2, max_tokens=245, max_tool_calls=1)
    assert usage.source == "the message history"
    with pytest.raises(ValueError, match="the message history carries fewer than two timestamps"):
        assert_budget(history, max_duration_s=10)


def test_a_history_whose_messages_report_no_usage_cannot_be_held_to_tokens() -> None:
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
    ]
    assert assert_budget(history, max_model_requests=1).requests is not None
    with pytest.raises(ValueError, match=r"model request\(s\) #1 of the message history report"):
        assert_budget(history, max_tokens=100)


# -- OpenTelemetry spans ----------------------------------------------------------------------
def test_otel_chat_spans_are_requests_and_agent_usage_is_not_counted_twice() -> None:
    spans = [
        _span(
            "invoke_agent",
            0,
            5_000_000_000,
            **{
                "gen_ai.agent.name": "triage",
                "gen_ai.usage.input_tokens": 300,
                "gen_ai.usage.output_tokens": 30,
            },
        ),
        _span(
            "chat",
            1_000_000_000,
            2_000_000_000,
            **{
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.usage.input_tokens": 100,
                "gen_ai.usage.output_tokens": 10,
            },
        ),
        _span("execute_tool", 2_000_000_000, 3_000_000_000, **{"gen_ai.tool.name": "search"}),
        _span(
            "chat",
            3_000_000_000,
            4_500_000_000,
            **{
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.usage.input_tokens": 200,
                "gen_ai.usage.output_tokens": 20,
            },
        ),
    ]
    usage = assert_budget(
        spans, max_model_requests=2, max_tokens=330, max_tool_calls=1, max_duration_s=5.0
    )
    assert usage.duration_s == pytest.approx(5.0)
    assert usage.cost_usd is not None and usage.cost_usd > 0
    with pytest.raises(ToolScoreAssertionError, match="first span's start to last span's end"):
        assert_budget(spans, max_duration_s=4.0)
    export = {
        "resourceSpans": [
            {
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                **s,
                                "attributes": [
                                    {
                                        "key": k,
                                        "value": {"stringValue": v}
                                        if isinstance(v, str)
                                        else {"intValue": str(v)},
                                    }
                                    for k, v in s["attributes"].items()
                                ],
                            }
                            for s in spans
                        ]
                    }
                ]
            }
        ]
    }
    assert assert_budget(export, max_tokens=330).tokens == 330


# -- fake tools and expect() ------------------------------------------------------------------
def test_fake_tools_carry_their_calls_and_timing() -> None:
    tools = FakeTools()
    tools.add("search", result=["x"])
    for _ in range(3):
        tools.call("search", {"q": "x"})
    usage = assert_budget(tools, max_tool_calls=3, max_duration_s=60)
    assert usage.duration_s is not None and usage.duration_s >= 0
    with pytest.raises(ToolScoreAssertionError, match=r"read from the calls recorded by FakeTools"):
        assert_budget(tools, max_calls_per_tool=2)


def test_expect_within_alone_is_an_expectation() -> None:
    calls = [{"tool": "search", "args": {"q": "x"}}] * 3
    assert expect(calls).within(max_tool_calls=3).run() is not None
    with pytest.raises(ToolScoreAssertionError) as caught:
        expect(calls).within(max_calls_per_tool=2).run()
    assert str(caught.value).startswith("The run went over its budget (1 of 1 limits)")


def test_expect_within_joins_the_other_expectations() -> None:
    calls = [{"tool": "search", "args": {"q": "x"}}, {"tool": "search", "args": {"q": "x"}}]
    with pytest.raises(ToolScoreAssertionError) as caught:
        expect(calls).calls("search", q="x").within(max_tool_calls=1).run()
    assert "within() was not met: tool calls: 2, limit 1, over by 1" in str(caught.value)
    with pytest.raises(TypeError, match=r"within\(\) got unknown limit\(s\) \['max_calls'\]"):
        expect(calls).within(max_calls=1)
    with pytest.raises(ValueError, match=r"within\(\) needs at least one limit"):
        expect(calls).within()
    with pytest.raises(ValueError, match="max_tokens=5 cannot be checked"):
        expect(calls).within(max_tokens=5).run()


def test_assert_budget_is_public() -> None:
    assert "assert_budget" in toolscore.__all__


@pytest.mark.parametrize("name", ["toolscore._engine.check.budget", "toolscore._engine.read.usage"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    outcome = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0
