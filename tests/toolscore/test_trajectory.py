"""match_trajectory / assert_trajectory: the four modes, the args modes, per_tool, the optimal
pairing, the input shapes, and assert_tools(mode=) / expect().mode()."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolscore
from toolscore import (
    ANY,
    Regex,
    ToolScoreAssertionError,
    TrajectoryMatch,
    assert_tools,
    assert_trajectory,
    expect,
    match_trajectory,
)


def c(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


A, B, C = c("a", x=1), c("b", y=2), c("c", z=3)


# --- the four modes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "expected", "actual", "matched"),
    [
        ("strict", [A, B], [A, B], True),
        ("strict", [A, B], [B, A], False),
        ("strict", [A, B], [A, B, C], False),
        ("strict", [A, B], [A], False),
        ("unordered", [A, B], [B, A], True),
        ("unordered", [A, B], [B, A, C], False),
        ("unordered", [A, A, B], [A, B, B], False),
        ("unordered", [A, A, B], [B, A, A], True),
        ("subset", [A, B, C], [C, A], True),
        ("subset", [A, B], [A, C], False),
        ("subset", [A], [A, A], False),
        ("subset", [A, B], [], True),
        ("superset", [A, B], [C, B, A], True),
        ("superset", [A, B], [A, C], False),
        ("superset", [A, A], [A], False),
        ("superset", [], [A], True),
    ],
)
def test_modes(mode: str, expected: Any, actual: Any, matched: bool) -> None:
    m = match_trajectory(expected, actual, mode=mode)
    assert m.matched is matched, m.reason
    assert bool(m) is matched
    assert m.mode == mode
    assert (m.problems == ()) is matched


def test_a_match_gives_pairs_a_sentence_and_the_evaluate_score() -> None:
    m = match_trajectory([A, B], [B, A], mode="unordered")
    assert isinstance(m, TrajectoryMatch)
    assert m.pairs == ((0, 1), (1, 0))
    assert m.reason.startswith("The 2 actual call(s) match the 2 expected call(s)")
    assert m.score == toolscore.evaluate([A, B], [B, A]).score
    assert m.score < 1.0  # evaluate's sequence component sees the swap
    assert m.missing == () and m.extra == ()


def test_reason_names_the_first_missing_call() -> None:
    m = match_trajectory([A, c("b", y=9)], [A, B], mode="unordered")
    assert m.reason == (
        "Expected call #2 b(y=9) has no partner among the actual calls: the 1 actual call(s) to "
        "'b' (#2) have other arguments (args mode 'exact'); the first is b(y=2)."
    )
    assert m.missing == (1,) and m.extra == (1,)
    assert len(m.problems) == 2
    assert m.problems[1] == "Actual call #2 b(y=2) is extra: no expected call is left for it."


def test_reason_names_a_tool_never_called_and_calls_already_taken() -> None:
    never = match_trajectory([A, B], [A], mode="superset")
    assert never.reason.endswith("the agent never called 'b'.")
    taken = match_trajectory([c("a"), c("a")], [c("a")], mode="superset", args="ignore")
    assert "are each paired with another expected call" in taken.reason


def test_reason_names_the_first_extra_call() -> None:
    m = match_trajectory([A], [A, C], mode="unordered")
    assert m.reason == "Actual call #2 c(z=3) is extra: no expected call is left for it."


def test_strict_reason_names_the_first_position_out_of_order() -> None:
    m = match_trajectory([A, B, C], [A, C, B])
    assert m.reason == "Position 2 is out of order: expected b(y=2), actual c(z=3)."
    assert m.problems[1] == "Position 3 is out of order: expected c(z=3), actual b(y=2)."
    assert m.pairs == ((0, 0), (1, 2), (2, 1))  # the pairing still found


# --- args modes and per_tool ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected_args", "actual_args", "matched"),
    [
        ("exact", {"q": "x"}, {"q": " x "}, True),  # the comparison rule strips strings
        ("exact", {"q": "x"}, {"q": "x", "n": 1}, False),
        ("exact", {"q": Regex("x.*")}, {"q": "xyz"}, True),
        ("ignore", {"q": "x"}, {"other": 1}, True),
        # subset: the actual arguments are a subset of the expected ones.
        ("subset", {"q": "x", "n": 1}, {"q": "x"}, True),
        ("subset", {"q": "x"}, {"q": "x", "n": 1}, False),
        ("subset", {"q": "x", "n": 1}, {"q": "y"}, False),
        ("subset", {"q": "x"}, {}, True),
        # superset: the actual call has every expected argument, extras allowed.
        ("superset", {"q": "x"}, {"q": "x", "n": 1}, True),
        ("superset", {"q": "x", "n": 1}, {"q": "x"}, False),
        ("superset", {"q": ANY}, {"q": 5, "n": 1}, True),
        ("superset", {}, {"q": 5}, True),
    ],
)
def test_args_modes(args: str, expected_args: Any, actual_args: Any, matched: bool) -> None:
    m = match_trajectory([c("s", **expected_args)], [c("s", **actual_args)], args=args)
    assert m.matched is matched, m.reason
    assert m.args == args


def test_expected_args_none_accepts_any_arguments() -> None:
    assert match_trajectory([{"tool": "s"}], [c("s", q=1)]).matched
    assert match_trajectory([{"tool": "s", "args": None}], [c("s", q=1)], args="subset").matched


def test_strict_values_by_exact_type() -> None:
    assert match_trajectory([c("s", n=1)], [c("s", n=1.0)]).matched
    assert not match_trajectory([c("s", n=1)], [c("s", n=1.0)], strict=True).matched


def test_per_tool_modes_and_callables() -> None:
    expected = [c("search", q="cats"), c("log", msg="hello")]
    actual = [c("search", q="CATS"), c("log", msg="something else", level=3)]
    assert not match_trajectory(expected, actual).matched
    seen: list[tuple[Any, Any]] = []

    def same_query(e: dict[str, Any], a: dict[str, Any]) -> bool:
        seen.append((e, a))
        return bool(e["q"].lower() == a["q"].lower())

    m = match_trajectory(expected, actual, per_tool={"search": same_query, "log": "ignore"})
    assert m.matched, m.reason
    assert seen == [({"q": "cats"}, {"q": "CATS"})]
    failing = match_trajectory(
        expected, actual, per_tool={"search": lambda e, a: False, "log": "ignore"}
    )
    assert "(the per_tool callable)" in failing.reason


def test_per_tool_mode_overrides_the_default() -> None:
    expected = [c("a", x=1, y=2), c("b", x=1)]
    actual = [c("a", x=1), c("b", x=1, extra=True)]
    assert not match_trajectory(expected, actual, args="subset").matched
    assert match_trajectory(expected, actual, args="subset", per_tool={"b": "superset"}).matched


# --- the optimal pairing --------------------------------------------------------------------


def test_pairing_is_optimal_where_first_fit_fails() -> None:
    # The first expected call fits both actual calls; the second fits only the first one. A
    # first-fit pairing gives the first actual call to the first expected call and misses.
    expected = [c("s", q=ANY), c("s", q="exact")]
    actual = [c("s", q="exact"), c("s", q="other")]
    m = match_trajectory(expected, actual, mode="unordered")
    assert m.matched, m.reason
    assert m.pairs == ((0, 1), (1, 0))


def test_pairing_is_optimal_with_argument_modes() -> None:
    expected = [c("s", a=1), c("s", a=1, b=2)]
    actual = [c("s", a=1, b=2), c("s", a=1)]
    m = match_trajectory(expected, actual, mode="unordered", args="superset")
    assert m.matched and m.pairs == ((0, 1), (1, 0))
    # A longer chain that needs an augmenting path through several calls.
    expected = [c("s", k=Regex(p)) for p in ("[abc]", "[ab]", "a")]
    actual = [c("s", k=v) for v in ("a", "b", "c")]
    m = match_trajectory(expected, actual, mode="superset")
    assert m.matched and dict(m.pairs) == {0: 2, 1: 1, 2: 0}


def test_hash_path_pairs_identical_calls_and_wildcards() -> None:
    expected = [c("s", q=2), {"tool": "s"}, c("s", q=1)]
    actual = [c("s", q=1), c("s", q=3), c("s", q=2)]
    m = match_trajectory(expected, actual, mode="unordered")
    assert m.matched and dict(m.pairs) == {0: 2, 1: 1, 2: 0}
    assert not match_trajectory([c("s", q=2), c("s", q=2)], actual, mode="superset").matched


def test_nan_arguments_take_the_general_path() -> None:
    nan = float("nan")
    m = match_trajectory([c("s", v=nan)], [c("s", v=nan)])
    assert not m.matched  # NaN equals nothing, under evaluate's rule too
    assert match_trajectory([c("s", v=nan)], [c("s", v=nan)], args="ignore").matched


# --- input shapes ---------------------------------------------------------------------------


def _chat(*calls: dict[str, Any], n: int = 0) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{n}_{k}",
                "type": "function",
                "function": {"name": x["tool"], "arguments": json.dumps(x["args"])},
            }
            for k, x in enumerate(calls)
        ],
    }


def _tool(n: int) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_{n}", "content": "ok"}


CHAT = [
    {"role": "user", "content": "go"},
    _chat(A, B, n=0),
    _tool(0),
    _tool(1),
    _chat(C, n=1),
    _tool(2),
    {"role": "assistant", "content": "done"},
]


def test_openai_chat_messages_on_the_actual_side() -> None:
    assert match_trajectory([A, B, C], CHAT).matched
    # The calls of one assistant message may come in any order; across messages they may not.
    assert match_trajectory([B, A, C], CHAT).matched
    m = match_trajectory([C, A, B], CHAT)
    assert not m.matched
    assert (
        m.reason
        == "Assistant message 1 is out of order: expected c(z=3), a(x=1), actual a(x=1), b(y=2)."
    )


def test_messages_on_both_sides_are_compared_message_by_message() -> None:
    same = [dict(m) for m in CHAT]
    same[1] = _chat(B, A, n=0)
    assert match_trajectory(CHAT, same).matched
    shorter = CHAT[:-1]
    m = match_trajectory(CHAT, shorter)
    assert not m.matched
    assert m.reason == (
        "The actual history has 6 message(s) and the expected one 7; strict mode compares them "
        "message by message."
    )
    split = [CHAT[0], _chat(A, n=0), _tool(0), _chat(B, n=1), _tool(1), _chat(C, n=2), _tool(2)]
    split.append(CHAT[-1])
    m = match_trajectory(CHAT, split)
    assert not m.matched and "message" in m.reason
    assert match_trajectory(CHAT, split, mode="unordered").matched


def test_role_mismatch_is_named() -> None:
    other = [dict(m) for m in CHAT]
    other[3] = {"role": "user", "content": "interrupt"}
    m = match_trajectory(CHAT, other)
    assert m.reason == "Message 4 is a user message where the expected history has a tool message."


def test_agentevals_messages_dict_and_langchain_messages() -> None:
    messages = pytest.importorskip("langchain_core.messages")
    history = [
        messages.HumanMessage(content="go"),
        messages.AIMessage(
            content="",
            tool_calls=[
                {"name": "a", "args": {"x": 1}, "id": "1"},
                {"name": "b", "args": {"y": 2}, "id": "2"},
            ],
        ),
        messages.ToolMessage(content="ok", tool_call_id="1"),
        messages.ToolMessage(content="ok", tool_call_id="2"),
        messages.AIMessage(content="", tool_calls=[{"name": "c", "args": {"z": 3}, "id": "3"}]),
        messages.ToolMessage(content="ok", tool_call_id="3"),
        messages.AIMessage(content="done"),
    ]
    assert match_trajectory({"messages": CHAT}, {"messages": history}).matched
    assert match_trajectory([A, B, C], history).matched
    assert not match_trajectory({"messages": CHAT}, history[:-1]).matched  # no final message
    assert match_trajectory({"messages": CHAT}, history[:-1], mode="unordered").matched
    assert not match_trajectory({"messages": CHAT}, history[:4], mode="superset").matched
    assert match_trajectory({"messages": CHAT}, history[:4], mode="subset").matched


def test_provider_responses_that_evaluate_reads() -> None:
    response = {
        "content": [
            {"type": "tool_use", "id": "t1", "name": "a", "input": {"x": 1}},
            {"type": "tool_use", "id": "t2", "name": "b", "input": {"y": 2}},
        ]
    }
    assert match_trajectory([A, B], response).matched
    assert not match_trajectory([B, A], response).matched


def test_anthropic_and_gemini_histories() -> None:
    anthropic = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": "a", "input": {"x": 1}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
    ]
    assert match_trajectory([A], anthropic).matched
    gemini = [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"function_call": {"name": "a", "args": {"x": 1}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "a", "response": {}}}]},
    ]
    assert match_trajectory([A], gemini).matched


def test_responses_items_group_consecutive_calls() -> None:
    items = [
        {"role": "user", "content": "go"},
        {"type": "reasoning", "id": "r", "summary": []},
        {"type": "function_call", "call_id": "1", "name": "b", "arguments": '{"y": 2}'},
        {"type": "function_call", "call_id": "2", "name": "a", "arguments": '{"x": 1}'},
        {"type": "function_call_output", "call_id": "1", "output": "ok"},
        {"type": "function_call", "call_id": "3", "name": "c", "arguments": '{"z": 3}'},
    ]
    assert match_trajectory([A, B, C], items).matched
    assert not match_trajectory([A, C, B], items).matched


# --- bad input ------------------------------------------------------------------------------


def test_unknown_mode_and_args_mode() -> None:
    with pytest.raises(ValueError, match=r"mode must be one of 'strict'.*got 'exact'"):
        match_trajectory([A], [A], mode="exact")
    with pytest.raises(ValueError, match=r"args must be one of 'exact'.*got 'loose'"):
        match_trajectory([A], [A], args="loose")
    with pytest.raises(ValueError, match=r"per_tool\['a'\] must be one of"):
        match_trajectory([A], [A], per_tool={"a": "fuzzy"})


def test_bad_per_tool_values() -> None:
    with pytest.raises(TypeError, match=r"per_tool must be a dict"):
        match_trajectory([A], [A], per_tool=["a"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"per_tool\['a'\] must be an args mode .* got int 3"):
        match_trajectory([A], [A], per_tool={"a": 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"per_tool keys must be tool names"):
        match_trajectory([A], [A], per_tool={1: "ignore"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="strict must be True or False"):
        match_trajectory([A], [A], strict="yes")  # type: ignore[arg-type]


def test_message_list_of_an_unknown_shape() -> None:
    with pytest.raises(ValueError, match=r"actual\[1\] is not a message of a known shape"):
        match_trajectory([A], [{"role": "user", "content": "x"}, {"speaker": "bot"}])
    with pytest.raises(ValueError, match=r"expected\[1\] holds a tool call without a tool name"):
        match_trajectory([{"role": "user", "content": "x"}, _chat(c(""))], [])
    with pytest.raises(TypeError, match="wrap it in a list"):
        match_trajectory(A, [A])


# --- assertions -----------------------------------------------------------------------------


def test_assert_trajectory_passes_and_fails_with_every_problem() -> None:
    assert assert_trajectory([A, B], [B, A], mode="unordered").matched
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_trajectory([A, B, C], [C, B, A])
    text = str(info.value)
    assert text.startswith(
        "The trajectory does not match (mode 'strict'): Position 1 is out of order: expected "
        "a(x=1), actual c(z=3)."
    )
    assert "Every problem (2):" in text
    assert "Hint: If the order does not matter, use mode='unordered'." in text
    assert info.value.result is not None


def test_assert_trajectory_hints() -> None:
    with pytest.raises(ToolScoreAssertionError, match="loosen the comparison"):
        assert_trajectory([c("a", x=2)], [A], mode="superset")
    with pytest.raises(ToolScoreAssertionError, match="use mode='superset'"):
        assert_trajectory([A], [A, B], mode="unordered")


def test_assert_tools_with_a_mode() -> None:
    assert assert_tools([A, B], [A, B], mode="strict").score == 1.0
    # Scores well enough, but the order breaks strict mode.
    assert_tools([A, B, C], [A, C, B], min_score=0.5)
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools([A, B, C], [A, C, B], min_score=0.5, mode="strict")
    assert "mode='strict': Position 2 is out of order" in str(info.value)
    assert_tools([A, B, C], [A, C, B], min_score=0.5, mode="unordered")
    with pytest.raises(ValueError, match="mode must be one of"):
        assert_tools([A], [A], mode="sorted")


def test_expect_mode() -> None:
    trace = [c("search", q="x", limit=5), c("book", id=1), c("log")]
    expect(trace).calls("search", q="x").calls("book").mode("superset").with_score(0.5).run()
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(trace).calls("search", q="x").calls("book").mode("unordered").with_score(0).run()
    assert "mode('unordered') was not met: Actual call #3 log() is extra" in str(info.value)
    with pytest.raises(ToolScoreAssertionError, match="mode\\('strict'\\) was not met: Position 1"):
        expect(trace).calls("book").calls("search").calls("log").mode("strict").run()
    with pytest.raises(ValueError, match=r"mode\(mode\) must be one of"):
        expect(trace).mode("any")
