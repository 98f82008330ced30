"""Tool-call tests as a user writes them: run with ``pytest examples/test_toolscore_example.py``."""

from __future__ import annotations

from typing import Any

from toolscore_example import travel_agent

import toolscore
from toolscore import ANY, Regex


@toolscore.cases(
    [
        {
            "input": "Book a flight from SFO to NYC",
            "expected": [{"tool": "search_flights"}, {"tool": "book_flight"}],
        },
        {
            "input": "Find me flights to New York",
            "expected": [
                {
                    "tool": "search_flights",
                    "args": {"origin": "SFO", "destination": "NYC", "date": ANY},
                }
            ],
        },
    ]
)
def test_agent_calls_the_right_tools(input: str, expected: list[dict[str, Any]]) -> None:
    toolscore.assert_tools(expected, travel_agent(input), min_score=0.6)


def test_agent_searches_before_booking() -> None:
    (
        toolscore.expect(travel_agent)
        .on("Book a flight to NYC")
        .calls("search_flights", destination="NYC")
        .then_calls("book_flight", flight_id=Regex(r"FL-\d+"))
        .does_not_call("cancel_booking")
        .run()
    )


def test_with_the_fixture(toolscore_assert_tools: Any) -> None:
    toolscore_assert_tools(
        expected=[{"tool": "search_flights"}, {"tool": "book_flight"}],
        actual=travel_agent("Book a flight"),
        min_score=0.9,
    )
