"""Score an agent's tool calls with toolscore: no API key, no network.

Run:
    python examples/toolscore_example.py

The "agent" below is a stand-in that returns an OpenAI Chat Completions response (as a plain
dict, the shape ``response.model_dump()`` gives); toolscore reads the tool calls out of it,
pairs them with the expected calls and scores them.
"""

from __future__ import annotations

import json
from typing import Any

import toolscore
from toolscore import ANY, Approx, Regex


def travel_agent(prompt: str) -> dict[str, Any]:
    """A fake agent: searches flights to NYC, then books one (with a slightly odd price)."""
    calls = [
        ("search_flights", {"origin": "SFO", "destination": "NYC", "date": "2026-05-01"}),
        ("book_flight", {"flight_id": "FL-1042", "max_price": 412.5}),
    ]
    return {
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{n}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)},
                        }
                        for n, (name, args) in enumerate(calls)
                    ],
                },
            }
        ],
    }


def main() -> None:
    response = travel_agent("Book me the cheapest flight from SFO to New York on May 1st")

    # 1. Score the calls against what should have happened.
    expected = [
        {
            "tool": "search_flights",
            "args": {"origin": "SFO", "destination": Regex("NYC|JFK"), "date": ANY},
        },
        {
            "tool": "book_flight",
            "args": {"flight_id": Regex(r"FL-\d+"), "max_price": Approx(400, rel=0.05)},
        },
    ]
    result = toolscore.evaluate(expected, response)
    print(f"score {result.score:.3f} (grade {result.grade}); argument F1 {result.argument_f1:.3f}")

    # 2. The same calls against a stricter expectation: see what a failure explains.
    stricter = [
        {"tool": "search_flights", "args": {"origin": "SFO", "destination": "JFK", "date": ANY}},
        {"tool": "book_flight", "args": {"flight_id": Regex(r"FL-\d+"), "max_price": 400}},
        {"tool": "send_confirmation", "args": {"email": ANY}},
    ]
    try:
        toolscore.assert_tools(stricter, response, min_score=0.9)
    except toolscore.ToolScoreAssertionError as failure:
        print("\nA failing assertion explains itself:\n")
        print(failure)

    # 3. The fluent form: an assertion about behaviour.
    (
        toolscore.expect(travel_agent)
        .on("Book me a flight to New York")
        .calls("search_flights", destination=Regex("NYC|JFK"))
        .then_calls("book_flight", flight_id=Regex(r"FL-\d+"))
        .does_not_call("cancel_booking")
        .with_score(0.8)
        .run()
    )
    print("\nexpect(...): search, then book, never cancel: passed")


if __name__ == "__main__":
    main()
