"""expect(): declared calls required, then_calls ordered, does_not_call, score on top."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scorekit.report import recording
from toolscore import ANY, Regex, ToolScoreAssertionError, expect

TRACE = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-12"}},
]


def test_the_documented_chain_passes() -> None:
    result = (
        expect(TRACE)
        .calls("search_flights", origin=ANY, destination="NYC")
        .then_calls("book_flight", flight_id=Regex(r"FL-\d+"))
        .does_not_call("cancel_booking")
        .with_score(0.9)
        .run()
    )
    assert result.score == 1.0


def test_a_declared_call_must_be_present() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(TRACE).calls("get_weather").with_score(0.0).run()
    text = str(info.value)
    assert "calls('get_weather') was not met: the agent never called 'get_weather'." in text


def test_declared_arguments_must_match_even_when_the_score_is_high() -> None:
    trace = [*TRACE, *([{"tool": "noop", "args": {}}] * 0)]
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(trace).calls("search_flights", destination="LAX").with_score(0.0).run()
    text = str(info.value)
    assert "calls('search_flights', destination='LAX') was not met" in text
    assert "destination expected 'LAX', actual 'NYC'" in text


def test_undeclared_arguments_are_not_required() -> None:
    expect(TRACE).calls("book_flight").calls("search_flights", destination="NYC").with_score(
        0.5
    ).run()


def test_then_calls_must_come_after_its_predecessor() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(TRACE).calls("book_flight").then_calls("search_flights").with_score(0.0).run()
    assert "then_calls('search_flights') must come after calls('book_flight')" in str(info.value)
    # calls() without then_ does not constrain order
    expect(TRACE).calls("book_flight").calls("search_flights").with_score(0.0).run()


def test_then_calls_finds_a_valid_assignment_when_greedy_would_fail() -> None:
    trace = [
        {"tool": "a", "args": {"x": 1}},
        {"tool": "b", "args": {}},
        {"tool": "a", "args": {"x": 1}},
    ]
    # "a" then "b", and another "a": the first a must go to the chain, the second stands alone
    expect(trace).calls("a").calls("a").then_calls("b").with_score(0.0).run()


def test_one_actual_call_satisfies_one_declared_call() -> None:
    trace = [{"tool": "search_flights", "args": {"destination": "NYC"}}]
    with pytest.raises(ToolScoreAssertionError, match="at most one expectation"):
        expect(trace).calls("search_flights").calls("search_flights").with_score(0.0).run()


def test_does_not_call_with_and_without_matchers() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(TRACE).does_not_call("book_flight").run()
    assert (
        "does_not_call('book_flight') was broken by actual call(s) "
        "#2 book_flight(flight_id='FL-12')" in str(info.value)
    )
    # only calls whose named arguments match are forbidden
    expect(TRACE).does_not_call("book_flight", flight_id=Regex("XX-.*")).run()
    with pytest.raises(ToolScoreAssertionError):
        expect(TRACE).does_not_call("book_flight", flight_id=Regex("FL-.*")).run()


def test_score_threshold_comes_on_top() -> None:
    noisy = [
        *TRACE,
        {"tool": "x", "args": {}},
        {"tool": "y", "args": {}},
        {"tool": "z", "args": {}},
    ]
    expect(noisy).calls("search_flights").calls("book_flight").with_score(0.5).run()
    with pytest.raises(ToolScoreAssertionError, match=r"below the required 0\.95"):
        expect(noisy).calls("search_flights").calls("book_flight").with_score(0.95).run()
    # the default threshold (0.9) applies when calls are declared
    with pytest.raises(ToolScoreAssertionError, match=r"below the required 0\.9\."):
        expect(noisy).calls("search_flights").calls("book_flight").run()


def test_with_weights_and_strict_args() -> None:
    trace = [{"tool": "f", "args": {"n": 1.0}}]
    expect(trace).calls("f", n=1).run()
    with pytest.raises(ToolScoreAssertionError):
        expect(trace).calls("f", n=1).with_strict_args().with_score(0.0).run()
    with pytest.raises(ValueError, match="Unknown weight keys: 'speed'"):
        expect(trace).with_weights(speed=1.0)
    result = expect(trace).calls("f", n=1).with_weights(sequence_accuracy=0).run()
    assert result.weights["sequence_accuracy"] == 0.0


def test_agents_need_on_and_async_agents_need_run_async() -> None:
    def agent(prompt: str) -> list[dict[str, Any]]:
        return TRACE if "flight" in prompt else []

    expect(agent).on("book a flight").calls("book_flight").with_score(0.5).run()
    with pytest.raises(ValueError, match=r"needs \.on\(prompt\)"):
        expect(agent).calls("book_flight").run()
    with pytest.raises(ValueError, match="already holds a response"):
        expect(TRACE).on("x")

    async def async_agent(prompt: str) -> list[dict[str, Any]]:
        return TRACE

    with pytest.raises(TypeError, match=r"^the agent is an async function; use .run_async\(\)"):
        expect(async_agent).on("x").calls("book_flight").run()

    class AsyncCallable:  # an object whose __call__ is async is an async agent too
        async def __call__(self, prompt: str) -> list[dict[str, Any]]:
            return [{"tool": "book_flight", "args": {}}]

    with pytest.raises(TypeError, match=r"^the agent is an async function"):
        expect(AsyncCallable()).on("x").calls("book_flight").run()
    with pytest.raises(TypeError, match=r"^the agent returned an awaitable; use .run_async"):
        expect(lambda prompt: async_agent(prompt)).on("x").calls("book_flight").run()
    result = asyncio.run(
        expect(async_agent).on("x").calls("book_flight").with_score(0.5).run_async()
    )
    assert result.tool_recall == 1.0


def test_builder_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="then_calls"):
        expect(TRACE).then_calls("a")
    with pytest.raises(TypeError, match="tool's name"):
        expect(TRACE).calls(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        expect(TRACE).with_score(2)


def test_expect_records_a_row() -> None:
    with recording() as rec:
        expect(TRACE).calls("book_flight").with_score(0.5).run()
    assert [(r.function, r.outcome) for r in rec.rows] == [("expect", "passed")]


def test_arguments_not_named_do_not_lower_the_score() -> None:
    trace = [{"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC", "n": 3}}]
    result = expect(trace).calls("search_flights", destination="NYC").run()
    assert result.score == 1.0
    assert [a.name for a in result.pairs[0].arguments] == ["destination"]
    # evaluate() itself does count them (precision)
    from toolscore import evaluate

    plain = evaluate([{"tool": "search_flights", "args": {"destination": "NYC"}}], trace)
    assert plain.argument_precision == pytest.approx(1 / 3)


def test_a_forbidden_call_gets_its_own_hint() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(TRACE).calls("search_flights").does_not_call("book_flight").with_score(0.0).run()
    text = str(info.value)
    assert text.startswith("The tool calls broke 1 expectation(s); their score is")
    assert text.count("Hint:") == 1
    assert "Hint: The agent made a call it must not make" in text
