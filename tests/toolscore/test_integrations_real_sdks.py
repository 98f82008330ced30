"""Provider extraction on the objects the real SDKs build, offline.

Each SDK makes its own objects the way it does in production: the ``anthropic`` and
``google-genai`` clients parse a reply served by a local HTTP server, the agent frameworks
(OpenAI Agents, Pydantic AI, Claude Agent SDK) run a real agent loop against a scripted model or
transport through their public extension points, LangChain's fake chat model returns real
messages. No network, no keys. A change in an SDK's shape fails here.

The SDKs are the ``test-sdks`` extra (``pip install -e ".[dev,test-sdks]"``); a test whose SDK
is not installed skips and names it.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import AsyncIterator
from typing import Any

import pytest

from fakes.canned_server import CannedJSONServer
from toolscore import (
    auto_extract,
    evaluate,
    from_anthropic,
    from_claude_agent_sdk,
    from_gemini,
    from_langgraph,
    from_openai_agents,
    from_pydantic_ai,
)
from toolscore.integrations import MalformedArgumentsWarning


def _sdk(module: str) -> Any:
    return pytest.importorskip(
        module, reason=f"{module} is not installed (pip install -e '.[test-sdks]')"
    )


WEATHER_THEN_TIME = [
    {"tool": "get_weather", "args": {"city": "Oslo", "unit": "celsius"}},
    {"tool": "get_time", "args": {"zone": "Europe/Oslo"}},
]


# --- Anthropic ------------------------------------------------------------------------------

ANTHROPIC_REPLY = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-test-model",
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 12, "output_tokens": 30},
    "content": [
        {"type": "text", "text": "Let me check both."},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "get_weather",
            "input": {"city": "Oslo", "unit": "celsius"},
        },
        {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {"zone": "Europe/Oslo"}},
    ],
}


def _anthropic_message(body: dict[str, Any]) -> Any:
    anthropic = _sdk("anthropic")
    with CannedJSONServer(body) as server:
        client = anthropic.Anthropic(api_key="test-key", base_url=server.url, max_retries=0)
        message = client.messages.create(
            model="claude-test-model",
            max_tokens=100,
            messages=[{"role": "user", "content": "Weather and time in Oslo?"}],
        )
        assert server.paths == ["/v1/messages"]
    assert type(message).__module__.startswith("anthropic.")
    return message


def test_anthropic_client_message() -> None:
    message = _anthropic_message(ANTHROPIC_REPLY)
    assert from_anthropic(message) == WEATHER_THEN_TIME
    assert auto_extract(message) == WEATHER_THEN_TIME
    assert evaluate(WEATHER_THEN_TIME, message).score == 1.0


def test_anthropic_server_tool_use_counts_as_a_call_and_its_result_does_not() -> None:
    body = {
        **ANTHROPIC_REPLY,
        "content": [
            {
                "type": "server_tool_use",
                "id": "srvtoolu_1",
                "name": "web_search",
                "input": {"query": "Oslo weather"},
            },
            {
                "type": "web_search_tool_result",
                "tool_use_id": "srvtoolu_1",
                "content": [
                    {
                        "type": "web_search_result",
                        "url": "https://example.org",
                        "title": "Oslo",
                        "encrypted_content": "x",
                        "page_age": None,
                    }
                ],
            },
            {"type": "text", "text": "It is sunny."},
        ],
    }
    message = _anthropic_message(body)
    assert from_anthropic(message) == [{"tool": "web_search", "args": {"query": "Oslo weather"}}]


def test_anthropic_conversation_of_sdk_messages_and_param_dicts() -> None:
    message = _anthropic_message(ANTHROPIC_REPLY)
    history = [
        {"role": "user", "content": "Weather and time in Oslo?"},
        message,
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "14:02"},
            ],
        },
    ]
    assert from_anthropic(history) == WEATHER_THEN_TIME


# --- Google Gen AI (Gemini) -----------------------------------------------------------------

GEMINI_REPLY = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Checking."},
                    {
                        "functionCall": {
                            "name": "get_weather",
                            "args": {"city": "Oslo", "unit": "celsius"},
                        }
                    },
                    {"functionCall": {"name": "get_time", "args": {"zone": "Europe/Oslo"}}},
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20, "totalTokenCount": 30},
    "modelVersion": "gemini-2.5-flash",
}


def _gemini_response() -> Any:
    _sdk("google.genai")
    from google import genai
    from google.genai import types

    with CannedJSONServer(GEMINI_REPLY) as server:
        client = genai.Client(
            api_key="test-key",
            http_options=types.HttpOptions(base_url=server.url + "/"),
        )
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents="Weather and time in Oslo?"
        )
        assert len(server.paths) == 1
        assert server.paths[0].endswith("models/gemini-2.5-flash:generateContent")
    assert isinstance(response, types.GenerateContentResponse)
    return response


def test_gemini_client_response() -> None:
    response = _gemini_response()
    # The SDK's own reading of the same response, as a cross-check of the fixture.
    assert [fc.name for fc in response.function_calls] == ["get_weather", "get_time"]
    assert from_gemini(response) == WEATHER_THEN_TIME
    assert auto_extract(response) == WEATHER_THEN_TIME


def test_gemini_chat_history_with_function_responses() -> None:
    response = _gemini_response()
    from google.genai import types

    history = [
        types.Content(role="user", parts=[types.Part(text="Weather and time in Oslo?")]),
        response.candidates[0].content,
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        name="get_weather", response={"result": "18C"}
                    )
                )
            ],
        ),
    ]
    assert from_gemini(history) == WEATHER_THEN_TIME


# --- LangChain / LangGraph ------------------------------------------------------------------


def _langchain_reply() -> Any:
    _sdk("langchain_core")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    scripted = AIMessage(
        content="",
        tool_calls=[
            {"name": "get_weather", "args": {"city": "Oslo", "unit": "celsius"}, "id": "c1"},
            {"name": "get_time", "args": {"zone": "Europe/Oslo"}, "id": "c2"},
        ],
    )
    model = GenericFakeChatModel(messages=iter([scripted]))
    return model.invoke("Weather and time in Oslo?")


def test_langchain_chat_model_reply_and_graph_state() -> None:
    from_model = _langchain_reply()
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    assert isinstance(from_model, AIMessage)
    assert from_langgraph(from_model) == WEATHER_THEN_TIME
    state = {
        "messages": [
            HumanMessage("Weather and time in Oslo?"),
            from_model,
            ToolMessage("18C", tool_call_id="c1"),
            ToolMessage("14:02", tool_call_id="c2"),
            AIMessage("18C and 14:02."),
        ]
    }
    assert from_langgraph(state) == WEATHER_THEN_TIME
    assert auto_extract(state["messages"]) == WEATHER_THEN_TIME


def test_langchain_messages_to_dict_form() -> None:
    from_model = _langchain_reply()
    from langchain_core.messages import HumanMessage, messages_to_dict

    stored = messages_to_dict([HumanMessage("Weather and time in Oslo?"), from_model])
    assert stored[1]["type"] == "ai" and "data" in stored[1]  # the shape this test is about
    assert from_langgraph(stored) == WEATHER_THEN_TIME
    assert auto_extract({"messages": stored}) == WEATHER_THEN_TIME


def test_langchain_invalid_tool_call_is_kept_with_a_warning() -> None:
    _sdk("langchain_core")
    from langchain_core.messages import AIMessage

    message = AIMessage(
        content="",
        invalid_tool_calls=[
            {"name": "get_weather", "args": '{"city": "Os', "id": "c1", "error": "bad JSON"}
        ],
    )
    with pytest.warns(MalformedArgumentsWarning, match="get_weather"):
        assert from_langgraph([message]) == [{"tool": "get_weather", "args": {}}]


def test_langchain_streamed_chunks() -> None:
    _sdk("langchain_core")
    from langchain_core.messages import AIMessageChunk

    first = AIMessageChunk(
        content="",
        tool_call_chunks=[{"name": "get_time", "args": '{"zone": ', "id": "c2", "index": 0}],
    )
    second = AIMessageChunk(
        content="",
        tool_call_chunks=[{"name": None, "args": '"Europe/Oslo"}', "id": None, "index": 0}],
    )
    merged = first + second
    assert from_langgraph(merged) == [WEATHER_THEN_TIME[1]]


# --- OpenAI Agents SDK ----------------------------------------------------------------------


def test_openai_agents_run_result() -> None:
    _sdk("agents")
    from agents import Agent, ModelResponse, RunConfig, Runner, function_tool
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    ran: list[str] = []

    @function_tool
    def get_weather(city: str, unit: str) -> str:
        """The weather in a city."""
        ran.append(f"get_weather({city}, {unit})")
        return "18C"

    @function_tool
    def get_time(zone: str) -> str:
        """The time in a zone."""
        ran.append(f"get_time({zone})")
        return "14:02"

    class ScriptedModel(Model):  # the SDK's public model interface
        def __init__(self) -> None:
            self.turn = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            self.turn += 1
            output: list[Any]
            if self.turn == 1:
                output = [
                    ResponseFunctionToolCall(
                        type="function_call",
                        id=f"fc_{n}",
                        call_id=f"call_{n}",
                        name=call["tool"],
                        arguments=json.dumps(call["args"]),
                        status="completed",
                    )
                    for n, call in enumerate(WEATHER_THEN_TIME)
                ]
            else:
                output = [
                    ResponseOutputMessage(
                        id="msg_1",
                        type="message",
                        role="assistant",
                        status="completed",
                        content=[
                            ResponseOutputText(type="output_text", text="18C.", annotations=[])
                        ],
                    )
                ]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    agent = Agent(name="weather", model=ScriptedModel(), tools=[get_weather, get_time])
    result = Runner.run_sync(
        agent, "Weather and time in Oslo?", run_config=RunConfig(tracing_disabled=True)
    )
    assert ran == ["get_weather(Oslo, celsius)", "get_time(Europe/Oslo)"]
    kinds = [type(item).__name__ for item in result.new_items]
    assert kinds.count("ToolCallItem") == 2 and "ToolCallOutputItem" in kinds
    assert from_openai_agents(result) == WEATHER_THEN_TIME
    assert from_openai_agents(result.new_items) == WEATHER_THEN_TIME
    assert auto_extract(result) == WEATHER_THEN_TIME
    # The replayable input list (Responses API items as dicts) reads the same.
    assert auto_extract(result.to_input_list()) == WEATHER_THEN_TIME


# --- Pydantic AI ----------------------------------------------------------------------------


def test_pydantic_ai_run_result_and_stored_messages() -> None:
    _sdk("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    def model(messages: list[Any], info: Any) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(
                parts=[
                    TextPart("Checking."),
                    # One call with JSON-text arguments, one with a dict: both occur.
                    ToolCallPart(
                        tool_name="get_weather", args=json.dumps(WEATHER_THEN_TIME[0]["args"])
                    ),
                    ToolCallPart(tool_name="get_time", args=dict(WEATHER_THEN_TIME[1]["args"])),
                ]
            )
        return ModelResponse(parts=[TextPart("18C and 14:02.")])

    agent = Agent(FunctionModel(model))
    ran: list[str] = []

    @agent.tool_plain
    def get_weather(city: str, unit: str) -> str:
        ran.append("get_weather")
        return "18C"

    @agent.tool_plain
    def get_time(zone: str) -> str:
        ran.append("get_time")
        return "14:02"

    result = agent.run_sync("Weather and time in Oslo?")
    # Pydantic AI runs the calls of one response concurrently (sync tools in worker threads), so
    # the order they run in is not the order they were made in: check each ran once. The
    # extracted calls below keep the order the model made them in.
    assert sorted(ran) == ["get_time", "get_weather"]
    assert from_pydantic_ai(result) == WEATHER_THEN_TIME
    assert auto_extract(result) == WEATHER_THEN_TIME
    assert from_pydantic_ai(result.all_messages()) == WEATHER_THEN_TIME
    stored = ModelMessagesTypeAdapter.dump_python(result.all_messages(), mode="json")
    assert from_pydantic_ai(json.loads(json.dumps(stored))) == WEATHER_THEN_TIME


# --- Claude Agent SDK -----------------------------------------------------------------------

CLAUDE_WIRE = [
    {"type": "system", "subtype": "init", "session_id": "s1", "tools": ["Read", "Bash"]},
    {
        "type": "assistant",
        "session_id": "s1",
        "message": {
            "model": "claude-test-model",
            "content": [
                {"type": "thinking", "thinking": "Read it first.", "signature": "sig"},
                {"type": "text", "text": "Reading the file."},
                {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.txt"}},
            ],
        },
    },
    {
        "type": "user",
        "session_id": "s1",
        "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "hi"}]},
    },
    {
        "type": "assistant",
        "session_id": "s1",
        "message": {
            "model": "claude-test-model",
            "content": [
                {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "ls"}}
            ],
        },
    },
    {
        "type": "result",
        "subtype": "success",
        "session_id": "s1",
        "duration_ms": 10,
        "duration_api_ms": 8,
        "is_error": False,
        "num_turns": 2,
        "result": "Done.",
    },
]


def _claude_messages(wire: list[dict[str, Any]]) -> list[Any]:
    """Run ``claude_agent_sdk.query`` over a scripted transport (the SDK's public hook)."""
    sdk = _sdk("claude_agent_sdk")

    class ScriptedTransport(sdk.Transport):  # type: ignore[misc]
        def __init__(self) -> None:
            self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        async def connect(self) -> None:
            pass

        async def write(self, data: str) -> None:
            message = json.loads(data)
            if message.get("type") == "control_request":  # the SDK's initialize handshake
                await self.outbox.put(
                    {
                        "type": "control_response",
                        "response": {
                            "subtype": "success",
                            "request_id": message["request_id"],
                            "response": {},
                        },
                    }
                )
            elif message.get("type") == "user":  # the prompt: play the scripted session
                for item in wire:
                    await self.outbox.put(item)
                await self.outbox.put(None)

        async def read_messages(self) -> AsyncIterator[dict[str, Any]]:
            while (item := await self.outbox.get()) is not None:
                yield item

        async def close(self) -> None:
            pass

        def is_ready(self) -> bool:
            return True

        async def end_input(self) -> None:
            pass

    async def run() -> list[Any]:
        return [m async for m in sdk.query(prompt="List and read.", transport=ScriptedTransport())]

    return asyncio.run(asyncio.wait_for(run(), timeout=30))


def test_claude_agent_sdk_query_messages() -> None:
    messages = _claude_messages(CLAUDE_WIRE)
    assert [type(m).__name__ for m in messages] == [
        "SystemMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
    ]
    expected = [
        {"tool": "Read", "args": {"file_path": "a.txt"}},
        {"tool": "Bash", "args": {"command": "ls"}},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert from_claude_agent_sdk(messages) == expected
        assert auto_extract(messages) == expected


def test_claude_agent_sdk_server_tool_blocks() -> None:
    sdk = _sdk("claude_agent_sdk")
    message = sdk.AssistantMessage(
        content=[
            sdk.ServerToolUseBlock(id="s1", name="web_search", input={"query": "Oslo"}),
            sdk.ServerToolResultBlock(tool_use_id="s1", content={"type": "web_search_result"}),
            sdk.ToolUseBlock(id="t1", name="Read", input={"file_path": "a.txt"}),
        ],
        model="claude-test-model",
    )
    assert from_claude_agent_sdk([message]) == [
        {"tool": "web_search", "args": {"query": "Oslo"}},
        {"tool": "Read", "args": {"file_path": "a.txt"}},
    ]


def test_messages_to_dict_shape_without_langchain_installed() -> None:
    # The same stored form as test_langchain_messages_to_dict_form, written out by hand, so the
    # reading is checked where langchain-core is not installed too.
    stored = [
        {"type": "human", "data": {"type": "human", "content": "Time in Oslo?"}},
        {
            "type": "ai",
            "data": {
                "type": "ai",
                "content": "",
                "tool_calls": [
                    {"name": "get_time", "args": {"zone": "Europe/Oslo"}, "id": "c2"},
                ],
            },
        },
    ]
    assert auto_extract(stored) == [WEATHER_THEN_TIME[1]]
