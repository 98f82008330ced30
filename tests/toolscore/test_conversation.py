"""evaluate_conversation / assert_conversation: split at user turns, per-turn credit, in every
history format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolscore import (
    ConversationResult,
    ToolScoreAssertionError,
    TurnResult,
    assert_conversation,
    evaluate_conversation,
)

WEATHER = {"tool": "weather", "args": {"city": "Paris"}}
BOOK = {"tool": "book", "args": {"hotel": "Ritz", "nights": 2}}
PAY = {"tool": "pay", "args": {"amount": 300}}
EXPECTED = [[WEATHER], [BOOK, PAY], []]


def _fn(call: dict[str, Any], n: str) -> dict[str, Any]:
    return {
        "id": n,
        "type": "function",
        "function": {"name": call["tool"], "arguments": json.dumps(call["args"])},
    }


def openai_chat(turn2: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    turn2 = [BOOK, PAY] if turn2 is None else turn2
    return [
        {"role": "system", "content": "You are a travel agent."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [_fn(WEATHER, "c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        {"role": "assistant", "content": "18C and sunny."},
        {"role": "user", "content": "Book the Ritz for two nights and pay."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_fn(c, f"c{n + 2}") for n, c in enumerate(turn2)],
        },
        *(
            {"role": "tool", "tool_call_id": f"c{n + 2}", "content": "ok"}
            for n in range(len(turn2))
        ),
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "Enjoy."},
    ]


def test_every_turn_passes() -> None:
    result = evaluate_conversation(EXPECTED, openai_chat())
    assert isinstance(result, ConversationResult)
    assert result.passed and bool(result)
    assert result.score == 1.0
    assert result.turns_passed == 3
    assert result.first_failed_turn is None
    assert [t.passed for t in result.turns] == [True, True, True]
    assert isinstance(result.turns[1], TurnResult)
    assert result.turns[1].actual == (BOOK, PAY)
    assert result.turns[1].result is not None and result.turns[1].result.score == 1.0
    assert (result.expected_turns, result.actual_turns) == (3, 3)


def test_one_wrong_turn_costs_its_share() -> None:
    wrong = {"tool": "book", "args": {"hotel": "Ritz", "nights": 3}}
    result = evaluate_conversation(EXPECTED, openai_chat([wrong, PAY]))
    assert not result.passed
    assert result.first_failed_turn == 1
    assert result.turns_passed == 2
    turn = result.turns[1]
    assert 0.0 < turn.score < 1.0
    assert result.score == pytest.approx((1.0 + turn.score + 1.0) / 3)
    assert turn.reason.startswith("Expected call #1 book(hotel='Ritz', nights=2) has no partner")


def test_the_mode_decides_each_turn() -> None:
    swapped = openai_chat([PAY, BOOK])
    # One assistant message's calls may come in any order, even in strict mode.
    assert evaluate_conversation(EXPECTED, swapped).passed
    assert evaluate_conversation(EXPECTED, openai_chat([PAY]), mode="subset").passed
    assert not evaluate_conversation(EXPECTED, openai_chat([PAY])).passed
    extra = openai_chat([BOOK, PAY, WEATHER])
    assert not evaluate_conversation(EXPECTED, extra).passed
    assert evaluate_conversation(EXPECTED, extra, mode="superset").passed
    assert evaluate_conversation(EXPECTED, extra, args="ignore", mode="superset").passed


def test_calls_of_one_message_in_any_order_across_messages_in_order() -> None:
    history = openai_chat()
    history[6] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [_fn(PAY, "c3"), _fn(BOOK, "c2")],
    }
    assert evaluate_conversation(EXPECTED, history).passed
    split = [
        *history[:6],
        {"role": "assistant", "tool_calls": [_fn(PAY, "c3")]},
        {"role": "tool", "tool_call_id": "c3", "content": "ok"},
        {"role": "assistant", "tool_calls": [_fn(BOOK, "c2")]},
        *history[7:],
    ]
    result = evaluate_conversation(EXPECTED, split)
    assert result.first_failed_turn == 1
    assert result.turns[1].reason == (
        "Assistant message 1 is out of order: expected book(hotel='Ritz', nights=2), actual "
        "pay(amount=300)."
    )
    assert evaluate_conversation(EXPECTED, split, mode="unordered").passed


def test_turns_that_do_not_line_up_fail_and_say_so() -> None:
    fewer = evaluate_conversation([[WEATHER], [BOOK, PAY]], openai_chat())
    assert not fewer.passed and fewer.first_failed_turn == 2
    assert fewer.turns[2].reason == (
        "Turn 3 is in the conversation but expected_turns has only 2 turn(s)."
    )
    assert fewer.score == pytest.approx(2 / 3)
    more = evaluate_conversation([*EXPECTED, [WEATHER]], openai_chat())
    assert (
        more.turns[3].reason == "Turn 4 is expected but the conversation has only 3 user turn(s)."
    )
    assert more.turns[3].expected == (WEATHER,) and more.turns[3].match is None
    assert more.turns_passed == 3 and more.first_failed_turn == 3
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_conversation([*EXPECTED, [WEATHER]], openai_chat())
    text = str(info.value)
    assert "The turns do not line up: expected_turns has 4 turn(s), the conversation 3" in text
    assert "Hint: give one expected call list per user turn" in text


def test_assert_conversation_names_the_failed_turn_with_its_diff() -> None:
    assert assert_conversation(EXPECTED, openai_chat()).score == 1.0
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_conversation(EXPECTED, openai_chat([BOOK]))
    text = str(info.value)
    assert text.splitlines()[0] == (
        "1 of 3 conversation turn(s) failed (mode 'strict'); score 0.9022, 2 turn(s) passed."
    )
    assert "  - Turn 2: Expected call #2 pay(amount=300) has no partner" in text
    assert "Turn 2 (index 1): Expected call #2 pay(amount=300)" in text
    assert "Missing calls (1)" in text
    assert info.value.result is not None


def test_empty_conversation_and_nothing_expected() -> None:
    result = evaluate_conversation([], [])
    assert result.passed and result.score == 1.0 and result.turns == ()


# --- the formats ----------------------------------------------------------------------------


def responses_items() -> list[dict[str, Any]]:
    """OpenAI Responses API: input items (user messages, prior outputs) and output items."""

    def call(c: dict[str, Any], n: str) -> dict[str, Any]:
        return {
            "type": "function_call",
            "id": f"fc_{n}",
            "call_id": n,
            "name": c["tool"],
            "arguments": json.dumps(c["args"]),
            "status": "completed",
        }

    def output(n: str) -> dict[str, Any]:
        return {"type": "function_call_output", "call_id": n, "output": "ok"}

    def said(text: str) -> dict[str, Any]:
        return {
            "type": "message",
            "id": "m",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }

    return [
        {"role": "developer", "content": "You are a travel agent."},
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        call(WEATHER, "c1"),
        output("c1"),
        said("18C."),
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Book."}]},
        call(BOOK, "c2"),
        call(PAY, "c3"),
        output("c2"),
        output("c3"),
        said("Done."),
        {"role": "user", "content": "Thanks!"},
        said("Enjoy."),
    ]


def anthropic_messages() -> list[dict[str, Any]]:
    def use(c: dict[str, Any], n: str) -> dict[str, Any]:
        return {"type": "tool_use", "id": n, "name": c["tool"], "input": c["args"]}

    def results(*ids: str) -> dict[str, Any]:
        return {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": n, "content": "ok"} for n in ids],
        }

    return [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Checking."}, use(WEATHER, "t1")],
        },
        results("t1"),
        {"role": "assistant", "content": "18C."},
        {"role": "user", "content": [{"type": "text", "text": "Book."}]},
        {"role": "assistant", "content": [use(BOOK, "t2"), use(PAY, "t3")]},
        results("t2", "t3"),
        {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "Enjoy."},
    ]


def gemini_contents() -> list[Any]:
    types = pytest.importorskip("google.genai.types")

    def fc(c: dict[str, Any]) -> Any:
        return types.Part(function_call=types.FunctionCall(name=c["tool"], args=c["args"]))

    def fr(c: dict[str, Any]) -> Any:
        return types.Part(
            function_response=types.FunctionResponse(name=c["tool"], response={"ok": True})
        )

    return [
        types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
        types.Content(role="model", parts=[fc(WEATHER)]),
        types.Content(role="user", parts=[fr(WEATHER)]),
        types.Content(role="model", parts=[types.Part(text="18C.")]),
        types.Content(role="user", parts=[types.Part(text="Book.")]),
        types.Content(role="model", parts=[fc(BOOK), fc(PAY)]),
        types.Content(role="user", parts=[fr(BOOK), fr(PAY)]),
        types.Content(role="user", parts=[types.Part(text="Thanks!")]),
        types.Content(role="model", parts=[types.Part(text="Enjoy.")]),
    ]


def langchain_messages() -> list[Any]:
    m = pytest.importorskip("langchain_core.messages")

    def ai(*calls: dict[str, Any]) -> Any:
        tool_calls = [{"name": c["tool"], "args": c["args"], "id": c["tool"]} for c in calls]
        return m.AIMessage(content="", tool_calls=tool_calls)

    return [
        m.SystemMessage(content="You are a travel agent."),
        m.HumanMessage(content="Weather in Paris?"),
        ai(WEATHER),
        m.ToolMessage(content="18C", tool_call_id="weather"),
        m.AIMessage(content="18C."),
        m.HumanMessage(content="Book."),
        ai(BOOK, PAY),
        m.ToolMessage(content="ok", tool_call_id="book"),
        m.ToolMessage(content="ok", tool_call_id="pay"),
        m.HumanMessage(content="Thanks!"),
        m.AIMessage(content="Enjoy."),
    ]


def langchain_dicts() -> list[Any]:
    m = pytest.importorskip("langchain_core.messages")
    return list(m.messages_to_dict(langchain_messages()))


def openai_sdk_messages() -> list[Any]:
    chat = pytest.importorskip("openai.types.chat")
    history: list[Any] = openai_chat()
    for n, message in enumerate(history):
        if message["role"] == "assistant":
            history[n] = chat.ChatCompletionMessage.model_validate(message)
    return history


FORMATS = {
    "openai-chat": openai_chat,
    "openai-chat-sdk": openai_sdk_messages,
    "openai-responses": responses_items,
    "anthropic": anthropic_messages,
    "gemini": gemini_contents,
    "langchain": langchain_messages,
    "langchain-dicts": langchain_dicts,
    "langgraph-state": lambda: {"messages": langchain_messages()},
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format(name: str) -> None:
    history = FORMATS[name]()
    result = evaluate_conversation(EXPECTED, history)
    assert result.passed, [t.reason for t in result.turns]
    assert [t.actual for t in result.turns] == [(WEATHER,), (BOOK, PAY), ()]
    assert evaluate_conversation([[WEATHER], [PAY], []], history).first_failed_turn == 1


# --- bad input ------------------------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(TypeError, match="expected_turns must be a list with one expected call"):
        evaluate_conversation({"turn": []}, openai_chat())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"expected_turns\[1\] must be the list of calls expected"):
        evaluate_conversation([[WEATHER], WEATHER], openai_chat())  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"expected_turns\[0\]: expected\[0\] is missing 'tool'"):
        evaluate_conversation([[{"name": "x"}]], openai_chat())
    with pytest.raises(TypeError, match="conversation must be a message history"):
        evaluate_conversation(EXPECTED, "hello")
    with pytest.raises(ValueError, match=r"conversation\[2\] is not a message of a known shape"):
        evaluate_conversation(EXPECTED, [*openai_chat()[:2], {"speaker": "bot"}])
    with pytest.raises(ValueError, match="mode must be one of"):
        evaluate_conversation(EXPECTED, openai_chat(), mode="turns")
    with pytest.raises(ValueError, match=r"conversation\[0\] makes tool calls before any user"):
        evaluate_conversation(EXPECTED, openai_chat()[2:])
