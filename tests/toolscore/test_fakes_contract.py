"""Fake tools held to the text of their contract, sentence by sentence: registrations with
matchers, ``times``, handlers, errors, unexpected calls, the record of calls, the Chat
Completions ``tools`` list, and answers in each provider's shape read back by its own SDK."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import toolscore
from toolscore import ANY, Approx, IsType, Regex
from toolscore.adapters.base import ToolCall
from toolscore.fakes import FakeTools, ToolError, UnexpectedToolCall


# -- registrations and matchers -------------------------------------------------------------
def test_the_first_matching_registration_answers_in_the_order_added() -> None:
    tools = FakeTools()
    tools.add("convert", {"amount": Approx(10, abs=0.5), "to": Regex("^EUR$")}, result="ten")
    tools.add("convert", {"amount": IsType(int, float), "to": ANY}, result="any")
    tools.add("convert", result="fallback")
    assert tools.call("convert", {"amount": 10.2, "to": "EUR"}) == "ten"
    assert tools.call("convert", {"amount": 99, "to": "EUR"}) == "any"
    assert tools.call("convert", {"amount": "x", "to": "EUR"}) == "fallback"
    assert tools.call("convert") == "fallback"
    tools.verify()


def test_a_matcher_for_the_whole_arguments_dict() -> None:
    tools = FakeTools()
    tools.add("search", ANY, result=1)
    assert tools.call("search", {"q": "a", "n": 3}) == 1
    tools.verify()


def test_a_dict_without_matchers_must_hold_the_same_names() -> None:
    tools = FakeTools()
    tools.add("search", {"q": "a"}, result=1, optional=True)
    with pytest.raises(UnexpectedToolCall):
        tools.call("search", {"q": "a", "page": 2})
    with pytest.raises(UnexpectedToolCall):
        tools.call("search", {})


def test_times_limits_the_answers_then_the_next_registration_or_an_unexpected_call() -> None:
    tools = FakeTools()
    tools.add("roll", result=6, times=2)
    assert [tools.call("roll"), tools.call("roll")] == [6, 6]
    with pytest.raises(UnexpectedToolCall) as caught:
        tools.call("roll")
    assert "used up" in caught.value.closest[0]
    tools.add("roll", result=1)
    assert tools.call("roll") == 1
    with pytest.raises(AssertionError, match=r"call #3 roll\(\)"):
        tools.verify()


def test_a_used_up_registration_is_not_reported_as_unused() -> None:
    tools = FakeTools()
    tools.add("a", result=1, times=1)
    tools.call("a")
    tools.verify()


# -- errors and handlers ---------------------------------------------------------------------
def test_error_raises_tool_error_an_exception_and_unexpected_tool_call_too() -> None:
    assert issubclass(ToolError, Exception) and issubclass(UnexpectedToolCall, Exception)
    tools = FakeTools()
    tools.add("pay", {"amount": 5}, error="card declined")
    with pytest.raises(ToolError, match="card declined"):
        tools.call("pay", {"amount": 5})
    with pytest.raises(UnexpectedToolCall, match=r"pay\(amount=6\)") as caught:
        tools.call("pay", {"amount": 6})
    assert caught.value.tool == "pay" and caught.value.arguments == {"amount": 6}
    assert "amount expected 5, got 6" in caught.value.closest[0]


def test_a_handler_holds_state_and_may_fail_some_calls_with_tool_error() -> None:
    notes: dict[str, str] = {}

    def create_note(args: dict[str, Any]) -> dict[str, str]:
        notes[args["id"]] = args["text"]
        return {"id": args["id"]}

    def get_note(args: dict[str, Any]) -> str:
        if args["id"] not in notes:
            raise ToolError(f"no note {args['id']}")
        return notes[args["id"]]

    tools = FakeTools()
    tools.add("create_note", {"id": ANY, "text": ANY}, handler=create_note)
    tools.add("get_note", {"id": ANY}, handler=get_note)
    with pytest.raises(ToolError, match="no note n1"):
        tools.call("get_note", {"id": "n1"})
    assert tools.call("create_note", {"id": "n1", "text": "milk"}) == {"id": "n1"}
    assert tools.call("get_note", {"id": "n1"}) == "milk"
    first, _, last = tools.calls
    assert first.is_error and first.metadata is not None
    assert first.metadata["error"] == "no note n1" and first.error == "no note n1"
    assert (last.result, last.is_error, last.error) == ("milk", False, None)
    tools.verify()


# -- acall, the record of calls -----------------------------------------------------------
def test_acall_waits_the_delay_and_records_the_duration() -> None:
    tools = FakeTools()
    tools.add("slow", {"n": 1}, result="done", delay=0.05)

    async def handler(args: dict[str, Any]) -> int:
        await asyncio.sleep(0)
        return int(args["n"]) + 1

    tools.add("async_inc", handler=handler)
    tools.add("fails_slowly", error="timeout upstream", delay=0.02)

    async def agent() -> tuple[Any, ...]:
        slow = await tools.acall("slow", {"n": 1})
        inc = await tools.acall("async_inc", '{"n": 41}')
        with pytest.raises(ToolError):
            await tools.acall("fails_slowly", {})
        return slow, inc

    assert asyncio.run(agent()) == ("done", 42)
    slow, inc, failed = tools.calls
    assert slow.duration is not None and slow.duration >= 0.05  # the delay is part of the call
    assert failed.duration is not None and failed.duration >= 0.02
    assert inc.args == {"n": 41} and inc.result == 42
    assert failed.error == "timeout upstream"


def test_calls_hold_tool_calls_in_arrival_order_even_unexpected_ones() -> None:
    tools = FakeTools()
    tools.add("a", result=1)
    tools.call("a", {"x": 1})
    with pytest.raises(UnexpectedToolCall):
        tools.call("b", {"y": 2})
    calls = tools.calls
    assert all(isinstance(c, ToolCall) for c in calls)
    assert [(c.tool, c.args, c.is_error) for c in calls] == [
        ("a", {"x": 1}, False),
        ("b", {"y": 2}, True),
    ]
    assert all(c.duration is not None and c.duration >= 0 for c in calls)
    calls.clear()  # a copy: the record itself is kept
    assert len(tools.calls) == 2


def test_the_record_is_read_by_evaluate_match_trajectory_and_assert_tools() -> None:
    tools = FakeTools()
    tools.add("search", {"q": ANY}, result=["r"])
    tools.call("search", {"q": "cats"})
    expected = [{"tool": "search", "args": {"q": "cats"}}]
    assert toolscore.evaluate(expected, tools.calls).score == 1.0
    assert toolscore.match_trajectory(expected, tools.calls).matched
    toolscore.assert_tools(expected, tools.calls)


# -- teardown text outside pytest ----------------------------------------------------------
def test_verify_names_every_unused_registration_and_lists_the_closest_ones() -> None:
    tools = FakeTools()
    tools.add("get_weather", {"city": "NYC"}, result="sunny")
    tools.add("get_weather", {"city": "LA"}, result="warm")
    tools.add("get_forecast", {"city": "NYC"}, result="rain")
    tools.add("send_email", {"to": "a@b.c"}, result="sent")
    tools.add("audit", optional=True)
    tools.call("get_weather", {"city": "NYC"})
    assert tools.outcome("get_weather", {"city": "Paris"})[0]  # the agent got an error result
    with pytest.raises(AssertionError) as caught:
        tools.verify()
    text = str(caught.value)
    assert "call #2 get_weather(city='Paris')" in text
    assert "closest: #2 add('get_weather', {'city': 'LA'})" in text
    never = text.split("never used:")[1]
    assert "#2 add('get_weather', {'city': 'LA'})" in never
    assert "#3 add('get_forecast', {'city': 'NYC'})" in never
    assert "#4 add('send_email', {'to': 'a@b.c'})" in never
    assert "audit" not in text and "Hint:" in text


# -- openai_tools() ------------------------------------------------------------------------
def test_openai_tools_is_a_valid_chat_completions_tools_list() -> None:
    from openai.types.chat import ChatCompletionToolParam
    from pydantic import TypeAdapter

    tools = FakeTools()
    tools.add("get_weather", {"city": Regex("."), "days": 3}, result=1)
    given = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    tools.add("search", {"q": "x"}, result=1, schema=given)
    tools.add("ping", result="pong")
    listed = tools.openai_tools()
    adapter = TypeAdapter(ChatCompletionToolParam)
    for entry in listed:
        adapter.validate_python(entry)
    by_name = {e["function"]["name"]: e["function"]["parameters"] for e in listed}
    assert by_name["search"] == given  # schema= wins over the registrations
    assert by_name["get_weather"]["properties"] == {
        "city": {"type": "string"},
        "days": {"type": "integer"},
    }
    assert by_name["ping"] == {"type": "object", "properties": {}}


# -- answer() in each provider's shape, built and read back with the SDKs ---------------------
def _weather() -> FakeTools:
    tools = FakeTools()
    tools.add("get_weather", {"city": "Oslo"}, result={"temp_c": 3})
    tools.add("send_email", error="SMTP is down")
    return tools


def test_answer_an_openai_responses_response_object() -> None:
    from openai.types.responses import Response
    from openai.types.responses.response_input_param import FunctionCallOutput
    from pydantic import TypeAdapter

    response = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1.0,
            "model": "gpt-4.1-mini",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_a",
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo"}',
                },
                {
                    "type": "function_call",
                    "id": "fc_2",
                    "call_id": "call_b",
                    "name": "send_email",
                    "arguments": '{"to": "x"}',
                },
                {
                    "type": "function_call",
                    "id": "fc_3",
                    "call_id": "call_c",
                    "name": "delete_all",
                    "arguments": "{}",
                },
            ],
        }
    )
    tools = _weather()
    out = tools.answer(response)
    adapter = TypeAdapter(FunctionCallOutput)
    for item in out:
        adapter.validate_python(item)
    assert [o["call_id"] for o in out] == ["call_a", "call_b", "call_c"]
    assert out[0]["output"] == '{"temp_c": 3}'
    assert "SMTP is down" in out[1]["output"]
    assert "No fake tool registration matches delete_all()" in out[2]["output"]
    with pytest.raises(AssertionError, match=r"delete_all\(\)"):
        tools.verify()


def test_answer_an_anthropic_message_marks_errors() -> None:
    from anthropic.types import Message, MessageParam
    from pydantic import TypeAdapter

    message = Message.model_validate(
        {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Oslo"}},
                {"type": "tool_use", "id": "t2", "name": "send_email", "input": {}},
            ],
        }
    )
    (reply,) = _weather().answer(message)
    TypeAdapter(MessageParam).validate_python(reply)
    ok, failed = reply["content"]
    assert ok["tool_use_id"] == "t1" and "is_error" not in ok
    assert failed == {
        "type": "tool_result",
        "tool_use_id": "t2",
        "content": "SMTP is down",
        "is_error": True,
    }


def test_answer_a_gemini_response_reads_back_as_content() -> None:
    from google.genai import types

    response = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            function_call=types.FunctionCall(
                                name="get_weather", args={"city": "Oslo"}
                            )
                        ),
                        types.Part(function_call=types.FunctionCall(name="send_email", args={})),
                    ],
                )
            )
        ]
    )
    (reply,) = _weather().answer(response)
    content = types.Content.model_validate(reply)
    assert content.role == "user" and content.parts is not None
    ok, failed = (p.function_response for p in content.parts)
    assert ok is not None and ok.name == "get_weather" and ok.response == {"result": {"temp_c": 3}}
    assert failed is not None and failed.response == {"error": "SMTP is down"}


def test_answer_openai_chat_tool_messages_pair_with_the_calls() -> None:
    from openai.types.chat import ChatCompletionMessage

    message = ChatCompletionMessage.model_validate(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c9",
                    "type": "function",
                    "function": {"name": "send_email", "arguments": '{"to": "x"}'},
                }
            ],
        }
    )
    tools = _weather()
    tools.add("get_weather", optional=True)
    assert tools.answer(message) == [
        {"role": "tool", "tool_call_id": "c9", "content": "Error: SMTP is down"}
    ]
    assert tools.calls[0].metadata == {"id": "c9", "is_error": True, "error": "SMTP is down"}
    with pytest.raises(AssertionError, match=r"#1 add\('get_weather', \{'city': 'Oslo'\}\)"):
        tools.verify()


def test_the_fakes_themselves_are_a_run_for_every_checker() -> None:
    tools = FakeTools()
    tools.add("search", {"q": ANY}, result=["r"])
    tools.call("search", {"q": "cats"})
    tools.call("search", {"q": "cats"})
    expected = [{"tool": "search", "args": {"q": "cats"}}] * 2
    assert toolscore.evaluate(expected, tools).score == 1.0
    assert toolscore.match_trajectory(expected, tools).matched
    both = toolscore.expect(tools).calls("search", q="cats").then_calls("search", q="cats")
    assert both.within(max_tool_calls=2).run().score == 1.0
    with pytest.raises(toolscore.ToolScoreAssertionError, match=r"repeated: search\(q='cats'\)"):
        toolscore.expect(tools).within(max_calls_per_tool=1).run()
    assert toolscore.evaluate([], FakeTools()).score == 1.0
