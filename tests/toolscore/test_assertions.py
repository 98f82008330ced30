"""assert_tools, test_agent(_async), cases, report rows, and the failure text."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import toolscore
from scorekit.report import ToolScoreRow, recording
from toolscore import ToolScoreAssertionError, assert_tools, cases
from toolscore import test_agent as run_agent
from toolscore import test_agent_async as run_agent_async

GOOD = [{"tool": "get_weather", "args": {"city": "NYC"}}]
BAD = [{"tool": "get_weather", "args": {"city": "Boston"}}]


def test_assert_tools_passes_and_returns_the_result() -> None:
    result = assert_tools(GOOD, GOOD)
    assert result.score == 1.0


def test_assert_tools_fails_with_the_result_attached() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools(GOOD, BAD, min_score=0.9)
    assert isinstance(info.value, AssertionError)
    assert info.value.result is not None
    assert info.value.result.argument_f1 == 0.0
    assert info.value.min_score == 0.9
    assert type(info.value).__module__ == "toolscore"


def test_assert_tools_validates_min_score() -> None:
    with pytest.raises(ValueError, match=r"min_score must be between 0\.0 and 1\.0"):
        assert_tools(GOOD, GOOD, min_score=1.5)
    with pytest.raises(TypeError, match="min_score"):
        assert_tools(GOOD, GOOD, min_score="high")  # type: ignore[arg-type]


def test_failure_message_lists_everything_and_one_hint() -> None:
    expected = [
        {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
        {"tool": "book_flight", "args": {"flight_id": "FL-1"}},
    ]
    actual = [
        {"tool": "search_flights", "args": {"origin": "SFO", "destination": "LAX"}},
        {"tool": "cancel_booking", "args": {"id": 7}},
    ]
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools(expected, actual)
    text = str(info.value)
    # By hand: one pair of two -> tool F1 0.5; argument units 1 agree of 2 actual and 3
    # expected (book_flight's one lost) -> P 0.5, R 1/3, F1 0.4; one substitution in two
    # names -> sequence 0.5; one extra of two -> redundant rate 0.5.
    # score = 0.4 * 0.5 + 0.3 * 0.4 + 0.2 * 0.5 + 0.1 * (1 - 0.5) = 0.47.
    assert text.startswith("Tool calls scored 0.4700 (grade F), below the required 0.9.")
    assert (
        "Scores: score 0.4700 (required: 0.9); tool F1 0.5000, argument F1 0.4000, sequence"
        " 0.5000, redundant rate 0.5000, required-call recall 0.0000." in text
    )
    assert "1. search_flights(origin='SFO', destination='NYC') -> actual call #1" in text
    assert "origin: expected 'SFO', actual 'SFO' (ok)" in text
    assert "destination: expected 'NYC', actual 'LAX' (NOT ok)" in text
    assert "2. book_flight(flight_id='FL-1') -> no actual call (missing)." in text
    assert "Missing calls (1), expected but never made:" in text
    assert "- cancel_booking(id=7) (actual call #2)" in text
    assert "(required: 0.9)" in text
    assert text.count("Hint:") == 1
    assert "never called 'book_flight'" in text


def test_failure_message_of_a_long_trace_lists_every_mismatch_only() -> None:
    expected = [{"tool": "step", "args": {"i": i}} for i in range(100)]
    actual = [dict(c) for c in expected]
    actual[50] = {"tool": "step", "args": {"i": -1}}
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools(expected, actual, min_score=1.0)
    text = str(info.value)
    assert "51. step(i=50) -> actual call #51 step(i=-1):" in text
    assert "... and 99 more expected call(s) matched with all arguments agreeing." in text
    assert len(text.splitlines()) < 30


def test_strict_hint_names_strict_mode() -> None:
    with pytest.raises(ToolScoreAssertionError, match="strict=True"):
        assert_tools(
            [{"tool": "f", "args": {"n": 1}}], [{"tool": "f", "args": {"n": 1.0}}], strict=True
        )


def test_test_agent_runs_the_agent_and_evaluates() -> None:
    seen: list[str] = []

    def agent(prompt: str) -> list[dict[str, Any]]:
        seen.append(prompt)
        return GOOD

    result = run_agent(agent, "weather in NYC", GOOD, min_score=0.9)
    assert seen == ["weather in NYC"]
    assert result.score == 1.0
    with pytest.raises(ToolScoreAssertionError):
        run_agent(lambda p: BAD, "x", GOOD, min_score=0.9)
    # no min_score: never raises
    assert run_agent(lambda p: BAD, "x", GOOD).score < 0.9


def test_test_agent_reads_provider_responses() -> None:
    def agent(prompt: str) -> dict[str, Any]:
        return {
            "content": [
                {"type": "tool_use", "id": "t", "name": "get_weather", "input": {"city": "NYC"}}
            ]
        }

    assert run_agent(agent, "x", GOOD).score == 1.0


def test_test_agent_rejects_async_agents() -> None:
    async def agent(prompt: str) -> list[dict[str, Any]]:
        return GOOD

    with pytest.raises(TypeError, match="test_agent_async"):
        run_agent(agent, "x", GOOD)

    class AsyncCallable:
        async def __call__(self, prompt: str) -> list[dict[str, Any]]:
            return GOOD

    with pytest.raises(TypeError, match="test_agent_async"):
        run_agent(AsyncCallable(), "x", GOOD)


def test_a_sync_agent_that_returns_a_coroutine_is_refused_and_the_coroutine_closed() -> None:
    async def work() -> list[dict[str, Any]]:
        return GOOD

    made: list[Any] = []

    def agent(prompt: str) -> Any:
        made.append(work())
        return made[-1]

    with pytest.raises(
        TypeError, match=r"^the agent returned an awaitable; use toolscore.test_agent_async"
    ):
        run_agent(agent, "x", GOOD)
    # closed, not left pending (which would warn "coroutine ... was never awaited")
    assert made[0].cr_frame is None


def test_test_agent_async_awaits_the_agent() -> None:
    async def agent(prompt: str) -> list[dict[str, Any]]:
        await asyncio.sleep(0)
        return GOOD

    result = asyncio.run(run_agent_async(agent, "x", GOOD, min_score=1.0))
    assert result.score == 1.0
    with pytest.raises(ToolScoreAssertionError):
        asyncio.run(run_agent_async(agent, "x", BAD, min_score=0.95))
    assert asyncio.run(run_agent_async(lambda p: GOOD, "x", GOOD)).score == 1.0


def test_assertions_record_report_rows() -> None:
    with recording() as rec:
        assert_tools(GOOD, GOOD)
        with pytest.raises(ToolScoreAssertionError):
            assert_tools(GOOD, [*BAD, {"tool": "extra", "args": {}}])
        run_agent(lambda p: GOOD, "x", GOOD)
        toolscore.evaluate(GOOD, GOOD)  # not an assertion: no row
    rows = rec.rows
    assert [type(r) for r in rows] == [ToolScoreRow] * 3
    assert [(r.function, r.outcome) for r in rows] == [  # type: ignore[union-attr]
        ("assert_tools", "passed"),
        ("assert_tools", "failed"),
        ("test_agent", "passed"),
    ]
    failed = rows[1]
    assert isinstance(failed, ToolScoreRow)
    assert failed.threshold == 0.9
    assert failed.extra == ["extra"]
    assert failed.metrics["argument_f1"] == 0.0
    assert rows[2].threshold is None  # type: ignore[union-attr]


def test_no_recorder_means_no_rows_and_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every test here runs inside a recorder (tests/conftest.py); take them all away, as in
    # plain Python outside pytest, so the path without one really runs.
    from scorekit.report import _recorder, active_recorder

    outer = list(_recorder._stack)
    monkeypatch.setattr(_recorder, "_stack", [])
    assert active_recorder() is None
    assert assert_tools(GOOD, GOOD).score == 1.0
    with pytest.raises(ToolScoreAssertionError):
        assert_tools(GOOD, BAD)
    rows_before = [len(r.rows) for r in outer]
    assert run_agent(lambda prompt: GOOD, "x", GOOD, min_score=0.5).score == 1.0
    assert [len(r.rows) for r in outer] == rows_before  # nothing went to a hidden recorder


def test_cases_builds_a_parametrize_mark() -> None:
    mark = cases(
        [
            {"input": "weather NYC", "expected": GOOD},
            {"input": "weather Boston", "expected": BAD},
        ]
    )
    assert mark.mark.name == "parametrize"
    assert mark.mark.args[0] == "input,expected"
    assert mark.mark.kwargs["ids"] == ["weather NYC", "weather Boston"]
    with pytest.raises(ValueError, match="same keys"):
        cases([{"input": "a", "expected": []}, {"input": "b"}])
    with pytest.raises(ValueError, match="non-empty list"):
        cases([])


@cases([{"input": "weather NYC", "expected": GOOD}])
def test_cases_in_use(input: str, expected: list[dict[str, Any]]) -> None:
    assert input == "weather NYC"
    assert_tools(expected, GOOD)


def test_an_agent_returning_none_is_a_setup_error() -> None:
    with pytest.raises(TypeError, match="the agent returned None"):
        run_agent(lambda p: None, "x", GOOD)
    with pytest.raises(TypeError, match="the agent returned None"):
        toolscore.expect(lambda p: None).on("x").calls("a").run()
