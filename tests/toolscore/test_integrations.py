"""Extraction: every provider shape, SDK objects and dicts, mixed lists, malformed JSON.

Fixtures follow each provider's documented response shape.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from toolscore import (
    auto_extract,
    evaluate,
    from_anthropic,
    from_claude_agent_sdk,
    from_gemini,
    from_langgraph,
    from_openai,
    from_openai_agents,
    from_pydantic_ai,
)
from toolscore.integrations import MalformedArgumentsWarning

WEATHER = [{"tool": "get_weather", "args": {"city": "Paris", "unit": "c"}}]
ARGS_JSON = json.dumps({"city": "Paris", "unit": "c"})

OPENAI_CHAT: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "logprobs": None,
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ARGS_JSON},
                    }
                ],
            },
        }
    ],
}

OPENAI_LEGACY: dict[str, Any] = {
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "finish_reason": "function_call",
            "message": {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "get_weather", "arguments": ARGS_JSON},
            },
        }
    ],
}

OPENAI_RESPONSES: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": ARGS_JSON,
            "status": "completed",
        },
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
        },
    ],
}

ANTHROPIC: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "stop_reason": "tool_use",
    "content": [
        {"type": "text", "text": "I'll check the weather."},
        {
            "type": "tool_use",
            "id": "toolu_01",
            "name": "get_weather",
            "input": {"city": "Paris", "unit": "c"},
        },
    ],
    "usage": {"input_tokens": 10, "output_tokens": 20},
}

GEMINI_REST: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {
                            "name": "get_weather",
                            "args": {"city": "Paris", "unit": "c"},
                        }
                    }
                ],
            },
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {"totalTokenCount": 5},
}

# google-genai's model_dump(): snake_case, every field present, unused ones None
GEMINI_SDK_DUMP: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": None, "function_call": None, "thought": None},
                    {
                        "text": None,
                        "thought": None,
                        "function_call": {
                            "id": None,
                            "name": "get_weather",
                            "args": {"city": "Paris", "unit": "c"},
                        },
                    },
                ],
            },
            "finish_reason": "STOP",
        }
    ]
}

LANGGRAPH_STATE: dict[str, Any] = {
    "messages": [
        {"type": "human", "content": "Weather in Paris?", "id": "1"},
        {
            "type": "ai",
            "content": "",
            "additional_kwargs": {
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ARGS_JSON},
                    }
                ]
            },
            "tool_calls": [
                {
                    "name": "get_weather",
                    "args": {"city": "Paris", "unit": "c"},
                    "id": "c1",
                    "type": "tool_call",
                }
            ],
            "invalid_tool_calls": [],
        },
        {"type": "tool", "content": "18C", "tool_call_id": "c1", "name": "get_weather"},
        {"type": "ai", "content": "It is 18C.", "tool_calls": []},
    ]
}


class Dumpable:
    """An SDK object: only model_dump() gives its data."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._data))


@pytest.mark.parametrize(
    ("reader", "response"),
    [
        (from_openai, OPENAI_CHAT),
        (from_openai, OPENAI_LEGACY),
        (from_openai, OPENAI_RESPONSES),
        (from_anthropic, ANTHROPIC),
        (from_gemini, GEMINI_REST),
        (from_gemini, GEMINI_SDK_DUMP),
        (from_langgraph, LANGGRAPH_STATE),
        (from_langgraph, LANGGRAPH_STATE["messages"]),
    ],
    ids=[
        "openai-chat",
        "openai-legacy-function_call",
        "openai-responses",
        "anthropic",
        "gemini-rest",
        "gemini-sdk",
        "langgraph-state",
        "langchain-messages",
    ],
)
def test_provider_dicts_and_sdk_objects(reader: Any, response: Any) -> None:
    as_object = (
        [Dumpable(m) for m in response] if isinstance(response, list) else Dumpable(response)
    )
    assert reader(response) == WEATHER
    assert reader(as_object) == WEATHER
    assert auto_extract(response) == WEATHER
    assert evaluate(WEATHER, as_object).score == 1.0


def test_real_openai_sdk_objects() -> None:
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    chat = ChatCompletion.model_validate(OPENAI_CHAT)
    assert from_openai(chat) == WEATHER
    responses = Response.model_validate(
        {
            **OPENAI_RESPONSES,
            "created_at": 1700000000,
            "model": "gpt-4.1",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [OPENAI_RESPONSES["output"][1]],
        }
    )
    assert from_openai(responses) == WEATHER


def test_openai_several_tool_calls_keep_their_order() -> None:
    response = json.loads(json.dumps(OPENAI_CHAT))
    calls = response["choices"][0]["message"]["tool_calls"]
    calls.append(
        {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
    )
    assert [c["tool"] for c in from_openai(response)] == ["get_weather", "get_time"]


def test_openai_message_list_history() -> None:
    history = [
        {"role": "user", "content": "hi"},
        OPENAI_CHAT["choices"][0]["message"],
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
    ]
    assert from_openai(history) == WEATHER


# --- agent frameworks (objects shaped like their documented classes) ---------------------


@dataclass
class RawFunctionCall:  # openai ResponseFunctionToolCall
    name: str
    arguments: str
    call_id: str = "call_1"
    type: str = "function_call"


@dataclass
class ToolCallItem:  # agents.items.ToolCallItem
    raw_item: Any
    agent: Any = None
    type: str = "tool_call_item"


@dataclass
class MessageOutputItem:
    raw_item: Any
    agent: Any = None
    type: str = "message_output_item"


@dataclass
class RunResult:
    input: str
    new_items: list[Any]
    final_output: Any = None


def test_openai_agents_run_result() -> None:
    result = RunResult(
        input="weather?",
        new_items=[
            ToolCallItem(raw_item=RawFunctionCall("get_weather", ARGS_JSON)),
            MessageOutputItem(raw_item={"type": "message", "content": []}),
        ],
    )
    assert from_openai_agents(result) == WEATHER
    assert auto_extract(result) == WEATHER
    assert from_openai_agents(result.new_items) == WEATHER


@dataclass
class ToolCallPart:  # pydantic_ai.messages.ToolCallPart
    tool_name: str
    args: str | dict[str, Any] | None
    tool_call_id: str = "t1"
    part_kind: str = "tool-call"


@dataclass
class UserPromptPart:
    content: str
    part_kind: str = "user-prompt"


@dataclass
class ToolReturnPart:
    tool_name: str
    content: Any
    part_kind: str = "tool-return"


@dataclass
class ModelRequest:
    parts: list[Any]
    kind: str = "request"


@dataclass
class ModelResponse:
    parts: list[Any]
    kind: str = "response"


class AgentRunResult:
    def __init__(self, messages: list[Any]) -> None:
        self._messages = messages

    def all_messages(self) -> list[Any]:
        return self._messages


def test_pydantic_ai_result_with_string_and_dict_args() -> None:
    result = AgentRunResult(
        [
            ModelRequest([UserPromptPart("weather?")]),
            ModelResponse([ToolCallPart("get_weather", ARGS_JSON)]),
            ModelRequest([ToolReturnPart("get_weather", ["18C", {"raw": 1}])]),
            ModelResponse([ToolCallPart("get_weather", {"city": "Paris", "unit": "c"})]),
        ]
    )
    assert from_pydantic_ai(result) == WEATHER * 2
    assert auto_extract(result) == WEATHER * 2


@dataclass
class TextBlock:
    text: str


@dataclass
class ToolUseBlock:  # claude_agent_sdk.ToolUseBlock: no "type" field
    id: str
    name: str
    input: dict[str, Any]


@dataclass
class ToolResultBlock:
    tool_use_id: str
    content: Any = None
    is_error: bool | None = None


@dataclass
class AssistantMessage:
    content: list[Any]
    model: str = "claude"


@dataclass
class UserMessage:
    content: Any


@dataclass
class ResultMessage:
    subtype: str
    duration_ms: int = 0
    is_error: bool = False
    num_turns: int = 1
    session_id: str = "s"
    result: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)


def test_claude_agent_sdk_message_list() -> None:
    messages = [
        UserMessage("weather?"),
        AssistantMessage(
            [
                TextBlock("Checking"),
                ToolUseBlock("t1", "get_weather", {"city": "Paris", "unit": "c"}),
            ]
        ),
        UserMessage([ToolResultBlock("t1", [{"type": "text", "text": "18C"}])]),
        ResultMessage("success", result="18C"),
    ]
    assert from_claude_agent_sdk(messages) == WEATHER
    assert auto_extract(messages) == WEATHER


class AIMessage:
    """LangChain's AIMessage, read through attributes only."""

    def __init__(
        self, tool_calls: list[dict[str, Any]], invalid: list[dict[str, Any]] | None = None
    ) -> None:
        self.content = ""
        self.type = "ai"
        self.tool_calls = tool_calls
        self.invalid_tool_calls = invalid or []


def test_langchain_message_objects_and_invalid_tool_calls() -> None:
    messages = [
        AIMessage([{"name": "get_weather", "args": {"city": "Paris", "unit": "c"}, "id": "1"}]),
        AIMessage([], invalid=[{"name": "search", "args": "{not json", "id": "2", "error": "bad"}]),
    ]
    with pytest.warns(MalformedArgumentsWarning, match=r"'search'.*\{not json"):
        calls = from_langgraph({"messages": messages})
    assert calls == [*WEATHER, {"tool": "search", "args": {}}]


def test_mixed_lists_of_calls_objects_and_messages() -> None:
    mixed = [
        {"tool": "first", "args": {"n": 1}},
        Dumpable(ANTHROPIC),
        OPENAI_CHAT["choices"][0]["message"],
        {"type": "function_call", "name": "last", "arguments": "{}"},
    ]
    assert [c["tool"] for c in auto_extract(mixed)] == [
        "first",
        "get_weather",
        "get_weather",
        "last",
    ]
    result = evaluate(
        [{"tool": "first"}, {"tool": "get_weather"}, {"tool": "get_weather"}, {"tool": "last"}],
        mixed,
    )
    assert result.score == 1.0


def test_malformed_json_arguments_warn_and_keep_the_call() -> None:
    response = json.loads(json.dumps(OPENAI_CHAT))
    response["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"city": "Par'
    with pytest.warns(MalformedArgumentsWarning, match=r"'get_weather'.*\{\"city\": \"Par"):
        calls = from_openai(response)
    assert calls == [{"tool": "get_weather", "args": {}}]
    with pytest.warns(MalformedArgumentsWarning, match="not a JSON object"):
        assert from_openai(
            {"output": [{"type": "function_call", "name": "f", "arguments": "[1]"}]}
        ) == [{"tool": "f", "args": {}}]


def test_empty_arguments_are_no_arguments() -> None:
    response = {"output": [{"type": "function_call", "name": "ping", "arguments": ""}]}
    assert from_openai(response) == [{"tool": "ping", "args": {}}]


def test_responses_without_tool_calls_give_an_empty_list() -> None:
    assert from_anthropic({"role": "assistant", "content": [{"type": "text", "text": "hi"}]}) == []
    assert from_openai({"choices": [{"message": {"role": "assistant", "content": "hi"}}]}) == []
    assert auto_extract([]) == []


def test_unknown_shapes_raise_a_clear_error() -> None:
    with pytest.raises(TypeError, match=r"auto_extract\(\) cannot read tool calls from a int"):
        auto_extract(42)
    with pytest.raises(TypeError, match="list of"):
        auto_extract({"foo": "bar"})

    class Opaque:
        def __init__(self) -> None:
            self.payload = 1

    with pytest.raises(TypeError, match="Opaque"):
        evaluate([], Opaque())


def test_call_dicts_pass_through() -> None:
    calls = [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {}}]
    assert auto_extract(calls) == calls


def test_responses_api_other_tool_call_items() -> None:
    response = {
        "object": "response",
        "output": [
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "weather Paris"},
            },
            {
                "type": "mcp_call",
                "id": "mcp_1",
                "name": "lookup",
                "server_label": "kb",
                "arguments": '{"key": "x"}',
            },
            {
                "type": "custom_tool_call",
                "id": "ct_1",
                "call_id": "c",
                "name": "shell",
                "input": "ls -la",
            },
            {"type": "function_call_output", "call_id": "c", "output": "ok"},
        ],
    }
    assert from_openai(response) == [
        {"tool": "web_search", "args": {"type": "search", "query": "weather Paris"}},
        {"tool": "lookup", "args": {"key": "x"}},
        {"tool": "shell", "args": {"input": "ls -la"}},
    ]
