"""Hand-offs read from every source shape, checked in every trajectory mode: the same run
(``lookup_order`` by the starting agent, a hand-off to ``billing``, ``refund`` by billing)
written as each framework writes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import toolscore
from toolscore import ToolScoreAssertionError, assert_trajectory, match_trajectory
from toolscore._engine.check.trajectory_sides import MODES

LOOKUP = {"tool": "lookup_order", "args": {"id": 7}}
REFUND = {"tool": "refund", "args": {"id": 7}}


def _transfer_calls() -> Any:
    return [LOOKUP, {"tool": "transfer_to_billing", "args": {}}, REFUND]


def _adk_calls() -> Any:
    return [LOOKUP, {"tool": "transfer_to_agent", "args": {"agent_name": "billing"}}, REFUND]


def _agents_sdk_items() -> list[Any]:
    from agents import Agent
    from agents.items import HandoffCallItem, HandoffOutputItem, ToolCallItem
    from openai.types.responses import ResponseFunctionToolCall

    triage, billing = Agent(name="triage"), Agent(name="billing")

    def call(name: str, args: str, call_id: str) -> ResponseFunctionToolCall:
        return ResponseFunctionToolCall(
            type="function_call", name=name, arguments=args, call_id=call_id
        )

    return [
        ToolCallItem(agent=triage, raw_item=call("lookup_order", '{"id": 7}', "c1")),
        HandoffCallItem(agent=triage, raw_item=call("transfer_to_billing", "{}", "c2")),
        HandoffOutputItem(
            agent=triage,
            raw_item={"type": "function_call_output", "call_id": "c2", "output": "{}"},
            source_agent=triage,
            target_agent=billing,
        ),
        ToolCallItem(agent=billing, raw_item=call("refund", '{"id": 7}', "c3")),
    ]


def _agents_sdk_run_result() -> Any:
    from agents import Agent, RunContextWrapper
    from agents.result import RunResult

    items = _agents_sdk_items()
    return RunResult(
        input="refund order 7",
        new_items=items,
        raw_responses=[],
        final_output="Refunded.",
        input_guardrail_results=[],
        output_guardrail_results=[],
        tool_input_guardrail_results=[],
        tool_output_guardrail_results=[],
        context_wrapper=RunContextWrapper(context=None),
        _last_agent=Agent(name="billing"),
    )


def _adk_events() -> list[Any]:
    from google.genai import types

    def event(author: str, role: str, part: types.Part) -> dict[str, Any]:
        return {"author": author, "content": types.Content(role=role, parts=[part])}

    def fc(name: str, args: dict[str, Any]) -> types.Part:
        return types.Part(function_call=types.FunctionCall(name=name, args=args))

    def fr(name: str) -> types.Part:
        return types.Part(function_response=types.FunctionResponse(name=name, response={}))

    return [
        event("user", "user", types.Part(text="refund order 7")),
        event("triage", "model", fc("lookup_order", {"id": 7})),
        event("triage", "user", fr("lookup_order")),
        event("triage", "model", fc("transfer_to_agent", {"agent_name": "billing"})),
        event("triage", "user", fr("transfer_to_agent")),
        event("billing", "model", fc("refund", {"id": 7})),
    ]


def _langgraph_named_messages() -> Any:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    # langgraph-supervisor style: no transfer call, only the AI messages' names change.
    return {
        "messages": [
            HumanMessage("refund order 7"),
            AIMessage(
                "",
                name="triage",
                tool_calls=[{"name": "lookup_order", "args": {"id": 7}, "id": "1"}],
            ),
            ToolMessage("found", tool_call_id="1", name="lookup_order"),
            AIMessage(
                "", name="billing", tool_calls=[{"name": "refund", "args": {"id": 7}, "id": "2"}]
            ),
            ToolMessage("ok", tool_call_id="2", name="refund"),
            AIMessage("Refunded.", name="billing"),
        ]
    }


def _langgraph_transfer_then_name() -> Any:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    return [
        HumanMessage("refund order 7"),
        AIMessage(
            "", name="triage", tool_calls=[{"name": "lookup_order", "args": {"id": 7}, "id": "1"}]
        ),
        ToolMessage("found", tool_call_id="1", name="lookup_order"),
        AIMessage(
            "", name="triage", tool_calls=[{"name": "transfer_to_billing", "args": {}, "id": "2"}]
        ),
        ToolMessage("Transferred to billing", tool_call_id="2", name="transfer_to_billing"),
        AIMessage(
            "", name="billing", tool_calls=[{"name": "refund", "args": {"id": 7}, "id": "3"}]
        ),
    ]


def _otel_spans() -> list[dict[str, Any]]:
    def span(op: str, start: int, end: int, **attributes: Any) -> dict[str, Any]:
        return {
            "name": op,
            "startTimeUnixNano": start,
            "endTimeUnixNano": end,
            "attributes": {"gen_ai.operation.name": op, **attributes},
        }

    return [
        span("invoke_agent", 0, 30, **{"gen_ai.agent.name": "triage"}),
        span(
            "execute_tool",
            10,
            20,
            **{"gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.arguments": '{"id": 7}'},
        ),
        span("invoke_agent", 40, 80, **{"gen_ai.agent.name": "billing"}),
        span(
            "execute_tool",
            50,
            60,
            **{"gen_ai.tool.name": "refund", "gen_ai.tool.call.arguments": '{"id": 7}'},
        ),
    ]


def _otlp_export() -> dict[str, Any]:
    def value(v: Any) -> dict[str, Any]:
        return {"stringValue": v} if isinstance(v, str) else {"intValue": str(v)}

    spans = [
        {**s, "attributes": [{"key": k, "value": value(v)} for k, v in s["attributes"].items()]}
        for s in _otel_spans()
    ]
    return {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}


SHAPES: dict[str, Callable[[], Any]] = {
    "transfer_to_* calls": _transfer_calls,
    "ADK transfer_to_agent calls": _adk_calls,
    "OpenAI Agents SDK items": _agents_sdk_items,
    "OpenAI Agents SDK RunResult": _agents_sdk_run_result,
    "Google ADK events": _adk_events,
    "LangGraph named messages": _langgraph_named_messages,
    "LangGraph transfer then name": _langgraph_transfer_then_name,
    "OTel invoke_agent spans": _otel_spans,
    "OTLP JSON export": _otlp_export,
}

ALL = pytest.mark.parametrize("mode", MODES)
EACH = pytest.mark.parametrize("shape", list(SHAPES))


def test_every_mode_is_covered() -> None:
    assert set(MODES) == {"strict", "unordered", "subset", "superset"}


@EACH
@ALL
def test_the_hand_off_and_the_agent_of_each_call_match(shape: str, mode: str) -> None:
    run = SHAPES[shape]()
    match = match_trajectory([LOOKUP, {"agent": "billing"}, REFUND], run, mode=mode)
    assert match.matched, match.problems
    # One hand-off, never also a tool call.
    assert [c for c in match.actual if "agent" in c] == [{"agent": "billing"}]
    assert [c["tool"] for c in match.actual if "tool" in c] == ["lookup_order", "refund"]


@EACH
@ALL
def test_without_agent_steps_hand_offs_are_ignored(shape: str, mode: str) -> None:
    match = match_trajectory([LOOKUP, REFUND], SHAPES[shape](), mode=mode)
    assert match.matched, match.problems


@EACH
@ALL
def test_a_hand_off_to_another_agent_fails(shape: str, mode: str) -> None:
    expected = [LOOKUP, {"agent": "shipping"}, REFUND]
    match = match_trajectory(expected, SHAPES[shape](), mode=mode)
    if mode == "subset":
        # Subset allows expected leftovers, but refund was made by billing, not shipping.
        assert not match.matched
    else:
        assert not match.matched
        assert any("shipping" in p for p in match.problems), match.problems


@EACH
@ALL
def test_a_call_after_an_agent_step_must_be_made_by_that_agent(shape: str, mode: str) -> None:
    # lookup_order was made by the starting agent, before the hand-off.
    expected = [{"agent": "billing"}, LOOKUP, REFUND]
    assert not match_trajectory(expected, SHAPES[shape](), mode=mode).matched


@EACH
def test_superset_and_subset_allow_what_they_allow(shape: str) -> None:
    run = SHAPES[shape]()
    assert match_trajectory([{"agent": "billing"}, REFUND], run, mode="superset").matched
    assert match_trajectory([{"agent": "billing"}], run, mode="superset").matched
    more = [LOOKUP, {"agent": "billing"}, REFUND, {"tool": "notify"}, {"agent": "shipping"}]
    assert match_trajectory(more, run, mode="subset").matched
    assert not match_trajectory(more, run, mode="superset").matched
    # The starting agent is not a step.
    starting = [{"agent": "triage"}, LOOKUP, {"agent": "billing"}, REFUND]
    assert not match_trajectory(starting, run, mode="strict").matched


@EACH
def test_evaluate_scores_tool_calls_only_and_lists_hand_offs(shape: str) -> None:
    run = SHAPES[shape]()
    result = toolscore.evaluate([LOOKUP, REFUND], run)
    assert result.score == 1.0, result
    assert result.metrics["handoffs"] == ["billing"]
    with pytest.raises(ValueError, match="match_trajectory"):
        toolscore.evaluate([LOOKUP, {"agent": "billing"}, REFUND], run)


def test_evaluate_keeps_a_hand_off_call_the_expected_list_names() -> None:
    run = _transfer_calls()
    expected = [LOOKUP, {"tool": "transfer_to_billing", "args": {}}, REFUND]
    result = toolscore.evaluate(expected, run)
    assert result.score == 1.0
    assert result.metrics["handoffs"] == ["billing"]
    assert match_trajectory(expected, run).matched


def test_assert_trajectory_failure_names_the_agents() -> None:
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_trajectory([LOOKUP, {"agent": "shipping"}, REFUND], _transfer_calls())
    text = str(caught.value)
    assert "shipping" in text and "billing" in text


def test_a_tool_message_name_is_not_an_agent() -> None:
    history = [
        {"role": "user", "content": "refund"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "1",
                    "type": "function",
                    "function": {"name": "lookup_order", "arguments": '{"id": 7}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "1", "name": "billing", "content": "found"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "2",
                    "type": "function",
                    "function": {"name": "refund", "arguments": '{"id": 7}'},
                }
            ],
        },
    ]
    assert not match_trajectory([LOOKUP, {"agent": "billing"}, REFUND], history).matched
    assert match_trajectory([LOOKUP, REFUND], history).matched


def test_two_hand_offs_in_a_row_and_back() -> None:
    run = [
        LOOKUP,
        {"tool": "transfer_to_billing", "args": {}},
        REFUND,
        {"tool": "transfer_back_to_triage", "args": {}},
        {"tool": "notify", "args": {}},
    ]
    expected = [LOOKUP, {"agent": "billing"}, REFUND, {"agent": "triage"}, {"tool": "notify"}]
    for mode in MODES:
        assert match_trajectory(expected, run, mode=mode).matched, mode
    wrong = [LOOKUP, {"agent": "billing"}, REFUND, {"tool": "notify"}]
    assert not match_trajectory(wrong, run, mode="superset").matched


def test_a_renamed_agents_sdk_hand_off_tool_is_one_hand_off_and_no_tool_call() -> None:
    from agents import Agent
    from agents.items import HandoffCallItem, HandoffOutputItem, ToolCallItem
    from openai.types.responses import ResponseFunctionToolCall

    triage, billing = Agent(name="triage"), Agent(name="billing")

    def call(name: str, call_id: str) -> ResponseFunctionToolCall:
        return ResponseFunctionToolCall(
            type="function_call", name=name, arguments='{"id": 7}', call_id=call_id
        )

    items = [
        ToolCallItem(agent=triage, raw_item=call("lookup_order", "c1")),
        HandoffCallItem(agent=triage, raw_item=call("escalate", "c2")),  # tool_name_override
        HandoffOutputItem(
            agent=triage,
            raw_item={"type": "function_call_output", "call_id": "c2", "output": "{}"},
            source_agent=triage,
            target_agent=billing,
        ),
        ToolCallItem(agent=billing, raw_item=call("refund", "c3")),
    ]
    for mode in MODES:
        match = match_trajectory([LOOKUP, {"agent": "billing"}, REFUND], items, mode=mode)
        assert match.matched, (mode, match.problems)
    assert [c.get("tool", c.get("agent")) for c in match.actual] == [
        "lookup_order",
        "billing",
        "refund",
    ]


def test_a_failure_text_lists_the_hand_offs_it_left_out() -> None:
    with pytest.raises(ToolScoreAssertionError) as caught:
        toolscore.assert_tools([{"tool": "refund", "args": {"id": 8}}], _transfer_calls())
    text = str(caught.value)
    assert "the agent made 2" in text  # lookup_order and refund; the hand-off is no call
    assert "Hand-offs (not scored as tool calls): to 'billing'." in text
