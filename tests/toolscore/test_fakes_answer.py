"""``FakeTools.answer()``: the tool-result messages of each provider, from real SDK objects,
read back by that SDK's own types."""

from __future__ import annotations

from typing import Any

import pytest

from toolscore import ANY
from toolscore.fakes import FakeTools


def _tools() -> FakeTools:
    tools = FakeTools()
    tools.add("get_weather", {"city": ANY}, result={"temp_c": 21})
    tools.add("send_email", error="SMTP is down", optional=True)
    return tools


def test_openai_chat_completion_gets_tool_messages_by_id() -> None:
    from openai.types.chat import ChatCompletion, ChatCompletionToolMessageParam
    from pydantic import TypeAdapter

    response = ChatCompletion.model_validate(
        {
            "id": "r",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {
                                    "name": "get_weather",
                                    "arguments": '{"city": "Oslo"}',
                                },
                            },
                            {
                                "id": "call_2",
                                "type": "function",
                                "function": {"name": "send_email", "arguments": "{}"},
                            },
                        ],
                    },
                }
            ],
        }
    )
    tools = _tools()
    messages = tools.answer(response)
    assert messages == [
        {"role": "tool", "tool_call_id": "call_1", "content": '{"temp_c": 21}'},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: SMTP is down"},
    ]
    adapter = TypeAdapter(ChatCompletionToolMessageParam)
    for message in messages:
        adapter.validate_python(message)
    # The message alone and its tool_calls list answer the same way.
    assert tools.answer(response.choices[0].message)[0]["tool_call_id"] == "call_1"
    assert tools.answer(response.choices[0].message.tool_calls)[1]["tool_call_id"] == "call_2"
    assert [c.metadata.get("id") for c in tools.calls][:2] == ["call_1", "call_2"]


def test_openai_responses_items_get_function_call_outputs() -> None:
    from openai.types.responses import ResponseFunctionToolCall
    from openai.types.responses.response_input_param import FunctionCallOutput
    from pydantic import TypeAdapter

    items = [
        ResponseFunctionToolCall(
            type="function_call", call_id="fc_1", name="get_weather", arguments='{"city": "x"}'
        )
    ]
    (out,) = _tools().answer({"output": items})
    assert out == {"type": "function_call_output", "call_id": "fc_1", "output": '{"temp_c": 21}'}
    TypeAdapter(FunctionCallOutput).validate_python(out)


def test_anthropic_message_gets_one_user_message_of_tool_results() -> None:
    from anthropic.types import Message, MessageParam
    from pydantic import TypeAdapter

    message = Message.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "claude-3-5-haiku-latest",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
            "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "tu_1", "name": "get_weather", "input": {"city": "a"}},
                {"type": "tool_use", "id": "tu_2", "name": "book_flight", "input": {"to": "b"}},
            ],
        }
    )
    (reply,) = _tools().answer(message)
    TypeAdapter(MessageParam).validate_python(reply)
    assert reply["role"] == "user"
    first, second = reply["content"]
    assert first == {"type": "tool_result", "tool_use_id": "tu_1", "content": '{"temp_c": 21}'}
    assert second["tool_use_id"] == "tu_2" and second["is_error"] is True
    assert "No fake tool registration matches book_flight(to='b')" in second["content"]


def test_gemini_response_gets_function_responses() -> None:
    from google.genai import types

    response = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            function_call=types.FunctionCall(
                                id="g1", name="get_weather", args={"city": "Rome"}
                            )
                        ),
                        types.Part(function_call=types.FunctionCall(name="send_email", args={})),
                    ],
                )
            )
        ]
    )
    (content,) = _tools().answer(response)
    parsed = types.Content.model_validate(content)
    assert parsed.role == "user"
    ok, failed = [p.function_response for p in parsed.parts or []]
    assert ok is not None and failed is not None
    assert (ok.id, ok.name, ok.response) == ("g1", "get_weather", {"result": {"temp_c": 21}})
    assert failed.response == {"error": "SMTP is down"}


def test_langchain_ai_message_gets_tool_messages() -> None:
    from langchain_core.messages import AIMessage, ToolMessage, convert_to_messages

    message = AIMessage(
        content="",
        tool_calls=[
            {"name": "get_weather", "args": {"city": "Oslo"}, "id": "lc1", "type": "tool_call"},
            {"name": "send_email", "args": {}, "id": "lc2", "type": "tool_call"},
        ],
    )
    converted = convert_to_messages(_tools().answer(message))
    assert all(isinstance(m, ToolMessage) for m in converted)
    ok, failed = converted
    assert (ok.tool_call_id, ok.content, ok.status) == ("lc1", '{"temp_c": 21}', "success")
    assert (failed.tool_call_id, failed.status) == ("lc2", "error")


def test_pydantic_ai_response_gets_a_request_of_tool_returns() -> None:
    from pydantic_ai.messages import (
        ModelMessagesTypeAdapter,
        ModelResponse,
        RetryPromptPart,
        ToolCallPart,
        ToolReturnPart,
    )

    response = ModelResponse(
        parts=[
            ToolCallPart(tool_name="get_weather", args={"city": "x"}, tool_call_id="p1"),
            ToolCallPart(tool_name="send_email", args="{}", tool_call_id="p2"),
        ]
    )
    (request,) = ModelMessagesTypeAdapter.validate_python(_tools().answer(response))
    ok, failed = request.parts
    assert isinstance(ok, ToolReturnPart) and ok.tool_call_id == "p1"
    assert ok.content == {"temp_c": 21}
    # Pydantic AI 2 reads a retry prompt as a return with outcome "retried".
    assert isinstance(failed, RetryPromptPart) or failed.outcome == "retried"
    assert failed.tool_call_id == "p2" and failed.content == "SMTP is down"


def test_plain_call_dicts_get_results_and_errors() -> None:
    out = _tools().answer(
        [{"tool": "get_weather", "args": {"city": "a"}, "id": "x"}, {"tool": "send_email"}]
    )
    assert out == [
        {"tool": "get_weather", "args": {"city": "a"}, "result": {"temp_c": 21}, "id": "x"},
        {"tool": "send_email", "args": {}, "is_error": True, "error": "SMTP is down"},
    ]


def test_a_response_without_tool_calls_answers_nothing() -> None:
    tools = _tools()
    assert tools.answer({"role": "assistant", "content": "Done."}) == []
    assert tools.answer([]) == []
    assert tools.calls == []


@pytest.mark.parametrize("value", [42, "text", {"unknown": 1}, [object()]])
def test_something_that_is_no_response_is_refused(value: Any) -> None:
    with pytest.raises(TypeError, match=r"answer\(\) cannot read tool calls from a"):
        _tools().answer(value)
