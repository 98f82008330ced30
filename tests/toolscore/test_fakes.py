"""Fake tools: registrations with matchers, answers, errors, handlers, the record of calls."""

from __future__ import annotations

import asyncio
import doctest
import importlib

import pytest

import toolscore
from toolscore import ANY, Approx, IsType, OneOf, Regex
from toolscore.adapters.base import ToolCall
from toolscore.fakes import FakeTools, ToolError, UnexpectedToolCall


def test_the_first_matching_registration_answers_and_matchers_decide() -> None:
    tools = FakeTools()
    tools.add("get_weather", {"city": Regex("^(NYC|JFK)$")}, result="nyc")
    tools.add("get_weather", {"city": ANY}, result="elsewhere")
    tools.add("convert", {"value": Approx(1.0, abs=0.01), "unit": OneOf("C", "F")}, result=2)
    assert tools.call("get_weather", {"city": "JFK"}) == "nyc"
    assert tools.call("get_weather", {"city": "Oslo"}) == "elsewhere"
    assert tools.call("convert", {"value": 1.005, "unit": "F"}) == 2
    with pytest.raises(UnexpectedToolCall):
        tools.call("convert", {"value": 1.5, "unit": "F"})


def test_none_matches_any_arguments_and_a_dict_needs_the_same_names() -> None:
    tools = FakeTools()
    tools.add("search", result=["a"])
    tools.add("open", {"id": IsType(int)}, result="page")
    assert tools.call("search", {"q": "x", "page": 2}) == ["a"]
    assert tools.call("search") == ["a"]
    with pytest.raises(UnexpectedToolCall) as caught:
        tools.call("open", {"id": 3, "extra": True})
    assert caught.value.tool == "open"
    assert caught.value.arguments == {"id": 3, "extra": True}
    assert "extra not expected" in caught.value.closest[0]


def test_a_used_up_registration_stops_matching_and_the_next_one_answers() -> None:
    tools = FakeTools()
    tools.add("roll", result=6, times=2)
    tools.add("roll", result=1)
    assert [tools.call("roll") for _ in range(4)] == [6, 6, 1, 1]
    tools.add("flip", result="heads", times=1)
    tools.call("flip")
    with pytest.raises(UnexpectedToolCall) as caught:
        tools.call("flip")
    assert "used up (answered 1 time(s))" in caught.value.closest[0]


def test_error_raises_tool_error_and_is_recorded_as_a_failed_call() -> None:
    tools = FakeTools()
    tools.add("send_email", {"to": ANY}, error="SMTP is down")
    with pytest.raises(ToolError, match="SMTP is down") as caught:
        tools.call("send_email", {"to": "a@b.c"})
    assert caught.value.message == "SMTP is down"
    (call,) = tools.calls
    assert call.is_error and call.metadata == {"is_error": True, "error": "SMTP is down"}
    assert call.result is None and call.duration is not None and call.duration >= 0


def test_a_handler_keeps_state_between_calls() -> None:
    notes: dict[str, str] = {}

    def create(args: dict[str, str]) -> dict[str, str]:
        notes[args["title"]] = args["body"]
        return {"id": args["title"]}

    def get(args: dict[str, str]) -> str:
        if args["id"] not in notes:
            raise ToolError(f"no note {args['id']!r}")
        return notes[args["id"]]

    tools = FakeTools()
    tools.add("create_note", handler=create)
    tools.add("get_note", handler=get)
    assert tools.call("create_note", {"title": "t1", "body": "hello"}) == {"id": "t1"}
    assert tools.call("get_note", {"id": "t1"}) == "hello"
    with pytest.raises(ToolError, match="no note 'zz'"):
        tools.call("get_note", {"id": "zz"})
    assert [c.is_error for c in tools.calls] == [False, False, True]


def test_a_handler_gets_a_copy_of_the_arguments() -> None:
    tools = FakeTools()
    tools.add("mutate", handler=lambda args: args.pop("x"))
    assert tools.call("mutate", {"x": 1}) == 1
    assert tools.calls[0].args == {"x": 1}


def test_acall_awaits_async_handlers_and_delays() -> None:
    async def lookup(args: dict[str, int]) -> int:
        await asyncio.sleep(0)
        return args["n"] * 2

    tools = FakeTools()
    tools.add("double", handler=lookup)
    tools.add("slow", result="done", delay=0.02)

    async def run() -> list[object]:
        return list(await asyncio.gather(tools.acall("double", {"n": 4}), tools.acall("slow")))

    assert asyncio.run(run()) == [8, "done"]
    slow = next(c for c in tools.calls if c.tool == "slow")
    assert slow.duration is not None and slow.duration >= 0.02
    with pytest.raises(TypeError, match=r"handler .* is async"):
        tools.call("double", {"n": 1})


def test_arguments_as_json_text_are_read_as_providers_send_them() -> None:
    tools = FakeTools()
    tools.add("search", {"q": "x"}, result=1)
    assert tools.call("search", '{"q": "x"}') == 1
    with pytest.raises(TypeError, match=r"call\('search', args\): the arguments as a dict"):
        tools.call("search", 42)  # type: ignore[arg-type]


def test_calls_are_tool_calls_every_checker_reads() -> None:
    tools = FakeTools()
    tools.add("search", {"q": ANY}, result=["r1"])
    tools.add("open", {"id": "r1"}, result="page")
    tools.call("search", {"q": "cats"})
    tools.call("open", {"id": "r1"})
    assert all(isinstance(c, ToolCall) for c in tools.calls)
    assert [(c.tool, c.args, c.result) for c in tools.calls] == [
        ("search", {"q": "cats"}, ["r1"]),
        ("open", {"id": "r1"}, "page"),
    ]
    first, second = tools.calls
    assert first.timestamp is not None and second.timestamp is not None
    assert first.timestamp <= second.timestamp
    expected = [{"tool": "search", "args": {"q": "cats"}}, {"tool": "open", "args": {"id": "r1"}}]
    assert toolscore.evaluate(expected, tools.calls).score == 1.0
    assert toolscore.match_trajectory(expected, tools.calls).matched
    assert toolscore.assert_budget(tools, max_tool_calls=2).calls == tools.calls


def test_verify_names_unused_registrations_and_unexpected_calls_with_the_closest() -> None:
    tools = FakeTools()
    tools.add("get_weather", {"city": "NYC"}, result="sunny")
    tools.add("send_email", result="sent")
    tools.add("log", optional=True)
    with pytest.raises(UnexpectedToolCall):
        tools.call("get_weather", {"city": "Paris"})
    with pytest.raises(AssertionError) as caught:
        tools.verify()
    text = str(caught.value)
    assert "1 call matched no registration (the agent got an error result):" in text
    assert "call #1 get_weather(city='Paris')" in text
    assert (
        "closest: #1 add('get_weather', {'city': 'NYC'}): city expected 'NYC', got 'Paris'" in text
    )
    assert "2 registrations were never used:" in text
    assert "#2 add('send_email', any arguments)" in text
    assert "log" not in text  # optional
    assert "#1 add('get_weather'" in text.split("never used:")[1]


def test_verify_passes_when_everything_was_used_as_registered() -> None:
    tools = FakeTools()
    tools.add("a", result=1)
    tools.call("a")
    tools.verify()
    assert tools.failure_text() is None


def test_a_similar_tool_name_is_listed_and_an_unrelated_one_is_not() -> None:
    tools = FakeTools()
    tools.add("get_weather", result=1)
    tools.add("zzz", result=1)
    with pytest.raises(UnexpectedToolCall) as caught:
        tools.call("get_wether")
    assert len(caught.value.closest) == 1
    assert "a tool of another name, not 'get_wether'" in caught.value.closest[0]


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"tool": ""}, TypeError, r"add\(tool\): the tool's name"),
        ({"tool": "t", "args": [1]}, TypeError, r"add\('t', args\): a dict of arguments"),
        ({"tool": "t", "result": 1, "error": "x"}, ValueError, "give one of result=, error="),
        ({"tool": "t", "times": 0}, ValueError, r"times=...\): how often it answers"),
        ({"tool": "t", "delay": -1}, ValueError, r"delay=...\): seconds to wait"),
        ({"tool": "t", "error": 3}, TypeError, "the error message as a string"),
        ({"tool": "t", "handler": 3}, TypeError, "a function of the arguments"),
        ({"tool": "t", "schema": {"type": "string"}}, ValueError, "the JSON schema of the tool"),
    ],
)
def test_bad_registrations_are_refused_naming_the_argument(
    kwargs: dict[str, object], error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=text):
        FakeTools().add(**kwargs)  # type: ignore[arg-type]


def test_openai_tools_derives_schemas_or_uses_the_one_given() -> None:
    tools = FakeTools()
    tools.add("get_weather", {"city": "NYC", "days": 3}, result=1)
    tools.add("get_weather", {"city": Regex("."), "units": OneOf("C", "F")}, result=1)
    given = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    tools.add("search", schema=given)
    listed = {t["function"]["name"]: t for t in tools.openai_tools()}
    weather = listed["get_weather"]
    assert weather["type"] == "function"
    assert weather["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "units": {"enum": ["C", "F"]},
        },
        "required": ["city"],
    }
    assert listed["search"]["function"]["parameters"] == given
    assert list(listed) == ["get_weather", "search"]


def test_the_call_record_is_safe_across_threads() -> None:
    import threading

    tools = FakeTools()
    tools.add("inc", result=1, times=400)
    threads = [
        threading.Thread(target=lambda: [tools.call("inc") for _ in range(100)]) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(tools.calls) == 400
    with pytest.raises(UnexpectedToolCall):
        tools.call("inc")


@pytest.mark.parametrize("name", ["toolscore.fakes", "toolscore._fakes.tools"])
def test_docstring_examples(name: str) -> None:
    outcome = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_check_honesty_reads_the_calls_of_fake_tools() -> None:
    check_honesty = getattr(toolscore, "check_honesty", None)
    if check_honesty is None:
        pytest.skip("check_honesty is not part of this build")
    tools = FakeTools()
    tools.add("send_email", error="SMTP is down")
    with pytest.raises(ToolError):
        tools.call("send_email", {"to": "a@b.c"})
    report = check_honesty(tools.calls, "Done! I've sent the email.")
    assert "tool_failed" in [f.kind for f in report.findings]
