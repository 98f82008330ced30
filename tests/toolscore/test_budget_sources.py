"""Run budgets on each measure from each source, built with the real SDK objects: provider
responses, message histories, OpenTelemetry spans, ``ToolCall`` fields and fake tools; a
limit on a measure the run lacks is a ``ValueError`` naming it."""

from __future__ import annotations

from typing import Any

import pytest

from toolscore import ToolScoreAssertionError, assert_budget, expect
from toolscore.adapters.base import ToolCall
from toolscore.fakes import FakeTools


def _completion(
    tool: str | None, prompt: int, completion: int, model: str = "gpt-4o-mini", created: int = 1
) -> Any:
    from openai.types.chat import ChatCompletion

    message: dict[str, Any] = {"role": "assistant", "content": None if tool else "done"}
    if tool:
        message["tool_calls"] = [
            {"id": "c", "type": "function", "function": {"name": tool, "arguments": "{}"}}
        ]
    return ChatCompletion.model_validate(
        {
            "id": "r",
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
    )


def test_openai_chat_completions_every_measure() -> None:
    run = [_completion("search", 100, 10), _completion("search", 200, 20), _completion(None, 5, 1)]
    usage = assert_budget(
        run,
        max_tool_calls=2,
        max_calls_per_tool={"search": 2},
        max_model_requests=3,
        max_tokens=336,
        max_cost_usd=1.0,
    )
    assert (len(usage.calls), len(usage.requests or []), usage.tokens) == (2, 3, 336)
    # gpt-4o-mini at its list price: 305 prompt tokens at 0.15 and 31 completion at 0.6 a million.
    assert usage.cost_usd == pytest.approx((305 * 0.15 + 31 * 0.6) / 1e6)
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(run, max_tokens=335, max_model_requests=2, max_tool_calls=5)
    text = str(caught.value)
    assert "over: tokens: 336 (prompt 305 + completion 31), limit 335, over by 1" in text
    assert "over: model requests: 3, limit 2, over by 1" in text
    assert "within: tool calls: 2, limit 5" in text
    # One timestamp is no duration.
    with pytest.raises(ValueError, match=r"max_duration_s=10\.0 cannot be checked"):
        assert_budget(run[0], max_duration_s=10)


def test_response_timestamps_give_the_duration_first_to_last() -> None:
    run = [
        _completion("search", 1, 1, created=1_700_000_000),
        _completion("search", 1, 1, created=1_700_000_012),
        _completion(None, 1, 1, created=1_700_000_030),
    ]
    assert assert_budget(run, max_duration_s=30).duration_s == 30.0
    with pytest.raises(ToolScoreAssertionError, match=r"duration: 30.000 s \(first response's"):
        assert_budget(run, max_duration_s=29)


def test_openai_responses_anthropic_and_gemini_responses() -> None:
    from anthropic.types import Message
    from google.genai import types
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": "r",
            "object": "response",
            "created_at": 1.0,
            "model": "gpt-4o-mini",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "f",
                    "call_id": "c",
                    "name": "search",
                    "arguments": "{}",
                }
            ],
            "usage": {
                "input_tokens": 100,
                "output_tokens": 20,
                "total_tokens": 120,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 5},
            },
        }
    )
    usage = assert_budget([response, response], max_tokens=240, max_model_requests=2)
    assert (usage.tokens, len(usage.calls)) == (240, 2)

    message = Message.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "claude-3-5-haiku-latest",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100},
            "content": [{"type": "tool_use", "id": "t", "name": "search", "input": {}}],
        }
    )
    assert assert_budget(message, max_tokens=115).tokens == 115  # cache reads are prompt tokens
    with pytest.raises(ToolScoreAssertionError, match="tokens: 115"):
        assert_budget(message, max_tokens=114)

    gemini = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[types.Part(function_call=types.FunctionCall(name="search", args={}))],
                )
            )
        ],
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=7, candidates_token_count=3, total_token_count=10
        ),
        model_version="gemini-2.0-flash",
    )
    gemini_usage = assert_budget([gemini], max_tokens=10, max_tool_calls=1)
    assert gemini_usage.cost_usd is not None and gemini_usage.cost_usd > 0


def test_message_histories_each_assistant_message_is_a_request() -> None:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    history = [
        HumanMessage("hi"),
        AIMessage(
            "",
            tool_calls=[{"name": "search", "args": {}, "id": "1"}],
            usage_metadata={"input_tokens": 5, "output_tokens": 2, "total_tokens": 7},
        ),
        ToolMessage("r", tool_call_id="1"),
        AIMessage(
            "done", usage_metadata={"input_tokens": 9, "output_tokens": 1, "total_tokens": 10}
        ),
    ]
    for run in (history, {"messages": history}):
        usage = assert_budget(run, max_model_requests=2, max_tokens=17, max_tool_calls=1)
        assert (len(usage.requests or []), usage.tokens) == (2, 17)
    with pytest.raises(ToolScoreAssertionError, match="model requests: 2, limit 1"):
        assert_budget(history, max_model_requests=1)
    chat = [
        {"role": "user", "content": "x"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": "s", "input": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "r"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    ]
    assert len(assert_budget(chat, max_model_requests=2).requests or []) == 2
    with pytest.raises(
        ValueError, match=r"max_tokens=10 cannot be checked: .*report no token usage"
    ):
        assert_budget(chat, max_tokens=10)
    with pytest.raises(ValueError, match="max_duration_s"):
        assert_budget(chat, max_duration_s=10)


def _span(op: str, start_s: float, end_s: float, **attributes: Any) -> dict[str, Any]:
    return {
        "name": op,
        "startTimeUnixNano": int(start_s * 1e9),
        "endTimeUnixNano": int(end_s * 1e9),
        "attributes": {"gen_ai.operation.name": op, **attributes},
    }


def test_otel_spans_count_chat_spans_once_each_and_time_first_to_last() -> None:
    usage_attrs = {"gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 100}
    spans = [
        _span("invoke_agent", 10, 19, **{"gen_ai.agent.name": "a", **usage_attrs}),
        _span("invoke_agent", 12, 18, **{"gen_ai.agent.name": "b", **usage_attrs}),
        _span(
            "chat",
            12,
            13,
            **{
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.usage.input_tokens": 40,
                "gen_ai.usage.output_tokens": 2,
            },
        ),
        _span("execute_tool", 13, 14, **{"gen_ai.tool.name": "search"}),
        _span("execute_tool", 14, 15, **{"gen_ai.tool.name": "transfer_to_b"}),
        _span(
            "chat",
            15,
            16.5,
            **{
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.usage.input_tokens": 60,
                "gen_ai.usage.output_tokens": 8,
            },
        ),
    ]
    usage = assert_budget(
        spans, max_tokens=110, max_model_requests=2, max_tool_calls=1, max_duration_s=9
    )
    assert usage.tokens == 110 and usage.duration_s == pytest.approx(9.0)
    assert [c.tool for c in usage.calls] == ["search"]  # the hand-off is no tool call
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(spans, max_tokens=109, max_duration_s=8.5)
    text = str(caught.value)
    assert "tokens: 110" in text and "duration: 9.000 s" in text and "limit 8.500 s" in text


def test_tool_call_fields_give_time_and_cost() -> None:
    calls = [
        ToolCall("fetch", {"u": 1}, timestamp=100.0, duration=1.0, cost=0.25),
        ToolCall("fetch", {"u": 1}, timestamp=104.0, duration=2.0, cost=0.5),
    ]
    usage = assert_budget(calls, max_duration_s=6, max_cost_usd=0.75, max_tool_calls=2)
    assert (usage.duration_s, usage.cost_usd) == (6.0, 0.75)
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_budget(calls, max_duration_s=5.5, max_cost_usd=0.7, max_tool_calls=1)
    text = str(caught.value)
    assert "over: duration: 6.000 s (first call's start to last call's end), limit 5.500 s" in text
    assert "over: cost: $0.750000, limit $0.700000" in text
    assert "repeated: fetch(u=1) x2 (#1, #2)" in text
    untimed = [{"tool": "a", "args": {}, "duration": 1.5}, {"tool": "b", "args": {}, "duration": 2}]
    assert assert_budget(untimed, max_duration_s=3.5).duration_s == 3.5  # the sum


@pytest.mark.parametrize(
    ("limit", "measure"),
    [
        ({"max_tokens": 10}, "max_tokens"),
        ({"max_model_requests": 3}, "max_model_requests"),
        ({"max_cost_usd": 1.0}, "max_cost_usd"),
        ({"max_duration_s": 1.0}, "max_duration_s"),
    ],
)
def test_a_limit_on_what_a_bare_call_list_lacks_is_a_value_error(
    limit: dict[str, Any], measure: str
) -> None:
    bare = [{"tool": "search", "args": {}}]
    with pytest.raises(ValueError, match=f"{measure}=.* cannot be checked"):
        assert_budget(bare, **limit)
    with pytest.raises(ValueError, match=f"{measure}=.* cannot be checked"):
        expect(bare).within(**limit).run()


def test_fake_tools_and_their_calls_are_runs() -> None:
    tools = FakeTools()
    tools.add("search", result=["x"])
    for _ in range(3):
        tools.call("search", {"q": "same"})
    for run in (tools, tools.calls):
        usage = assert_budget(run, max_tool_calls=3, max_duration_s=3600)
        assert len(usage.calls) == 3 and usage.duration_s is not None
        with pytest.raises(ToolScoreAssertionError, match=r"repeated: search\(q='same'\) x3"):
            assert_budget(run, max_calls_per_tool=2)
    with pytest.raises(ValueError, match="max_tokens"):
        assert_budget(tools, max_tokens=100)


def test_within_alone_is_an_expectation_and_joins_the_others() -> None:
    run = [_completion("search", 10, 1), _completion("search", 10, 1)]
    with pytest.raises(ToolScoreAssertionError, match="model requests: 2, limit 1"):
        expect(run).within(max_model_requests=1).run()
    assert expect(run).within(max_model_requests=2, max_tokens=22).run() is not None
    with pytest.raises(ToolScoreAssertionError) as caught:
        expect(run).calls("search").within(max_tokens=21).run()
    assert "within() was not met: tokens: 22" in str(caught.value)
    with pytest.raises(TypeError, match="unknown limit"):
        expect(run).within(max_calls=1)
    with pytest.raises(ValueError, match="at least one limit"):
        expect(run).within()


def test_hand_off_calls_are_no_tool_calls_but_can_be_forbidden() -> None:
    run = [{"tool": "transfer_to_billing", "args": {}}, {"tool": "refund", "args": {}}]
    assert len(assert_budget(run, max_tool_calls=1).calls) == 1
    with pytest.raises(ToolScoreAssertionError, match="does_not_call"):
        expect(run).calls("refund").does_not_call("transfer_to_billing").run()
    assert expect(run).calls("refund").mode("strict").run().score == 1.0


def test_message_timestamps_and_a_pydantic_ai_run_give_the_duration() -> None:
    from datetime import datetime, timedelta, timezone

    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    messages = [
        ModelRequest(parts=[UserPromptPart("refund", timestamp=start)]),
        ModelResponse(
            parts=[ToolCallPart("refund", {"id": 7}, tool_call_id="c1")],
            timestamp=start + timedelta(seconds=2),
        ),
        ModelRequest(parts=[ToolReturnPart("refund", "ok", tool_call_id="c1", timestamp=start)]),
        ModelResponse(parts=[TextPart("Done.")], timestamp=start + timedelta(seconds=5)),
    ]
    usage = assert_budget(messages, max_duration_s=5, max_model_requests=2, max_tool_calls=1)
    assert usage.duration_s == 5.0
    with pytest.raises(ToolScoreAssertionError, match=r"duration: 5\.000 s"):
        assert_budget(messages, max_duration_s=4)
    chat = [
        {"role": "user", "content": "x", "timestamp": "2026-01-01T00:00:00Z"},
        {"role": "assistant", "content": "ok", "timestamp": "2026-01-01T00:00:07Z"},
    ]
    assert assert_budget(chat, max_duration_s=7).duration_s == 7.0


def test_otel_without_chat_spans_counts_the_outermost_agents_tokens_once() -> None:
    spans = [
        _span(
            "invoke_agent",
            0,
            10,
            **{
                "gen_ai.agent.name": "triage",
                "gen_ai.usage.input_tokens": 300,
                "gen_ai.usage.output_tokens": 30,
            },
        ),
        _span(  # a sub-agent: its usage is inside triage's
            "invoke_agent",
            2,
            6,
            **{
                "gen_ai.agent.name": "billing",
                "gen_ai.usage.input_tokens": 100,
                "gen_ai.usage.output_tokens": 10,
            },
        ),
        _span("execute_tool", 3, 4, **{"gen_ai.tool.name": "refund"}),
    ]
    assert assert_budget(spans, max_tokens=330, max_tool_calls=1).tokens == 330
    with pytest.raises(ToolScoreAssertionError, match="tokens: 330"):
        assert_budget(spans, max_tokens=329)
    # No chat span: no model requests to count, never a silent zero.
    with pytest.raises(ValueError, match=r"max_model_requests=5 cannot be checked: .*chat spans"):
        assert_budget(spans, max_model_requests=5)
