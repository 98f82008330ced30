"""Hand-offs between agents: ``{"agent": NAME}`` steps in expected trajectories, read from
each source shape (OpenAI Agents SDK items, Google ADK events, LangGraph / chat histories named
by agent, OpenTelemetry ``invoke_agent`` spans, ``transfer_to_*`` calls)."""

from __future__ import annotations

from typing import Any

import pytest

import toolscore
from toolscore import ToolScoreAssertionError, assert_trajectory, match_trajectory

EXPECTED = [
    {"tool": "lookup_order", "args": {"id": 7}},
    {"agent": "billing"},
    {"tool": "refund", "args": {"id": 7}},
]


# -- transfer_to_* calls in a call list ------------------------------------------------------
CALLS = [
    {"tool": "lookup_order", "args": {"id": 7}},
    {"tool": "transfer_to_billing", "args": {}},
    {"tool": "refund", "args": {"id": 7}},
]


@pytest.mark.parametrize("mode", ["strict", "unordered", "subset", "superset"])
def test_agent_steps_match_in_every_mode(mode: str) -> None:
    match = match_trajectory(EXPECTED, CALLS, mode=mode)
    assert match.matched, match.problems
    assert match.actual[1] == {"agent": "billing"}


@pytest.mark.parametrize("mode", ["strict", "unordered", "subset", "superset"])
def test_a_call_must_be_made_by_the_agent_active_in_the_expectation(mode: str) -> None:
    # The refund came before the hand-off: the starting agent made it, not billing.
    actual = [CALLS[0], CALLS[2], CALLS[1]]
    match = match_trajectory(EXPECTED, actual, mode=mode)
    assert not match.matched
    if mode == "subset":  # expected calls may be left over: the refund is the extra call
        assert match.problems == (
            "Actual call #2 refund(id=7) is extra: no expected call is left for it.",
        )
        return
    assert any(
        "refund(id=7) by 'billing' has no partner" in p
        and "were made while the starting agent was active, not 'billing'" in p
        for p in match.problems
    ), match.problems


@pytest.mark.parametrize("mode", ["unordered", "superset"])
def test_a_missing_hand_off_fails_naming_the_ones_made(mode: str) -> None:
    match = match_trajectory([{"agent": "sales"}], CALLS, mode=mode)
    assert not match.matched
    assert "the run never handed off to 'sales' (its hand-offs: #2 to 'billing')" in match.reason


def test_an_expectation_without_agent_steps_ignores_hand_offs() -> None:
    expected = [{"tool": "lookup_order", "args": {"id": 7}}, {"tool": "refund", "args": {"id": 7}}]
    assert match_trajectory(expected, CALLS).matched
    # ... unless it names the transfer call itself, as before agent steps existed.
    assert match_trajectory([{"tool": c["tool"]} for c in CALLS], CALLS).matched


def test_assert_trajectory_reports_the_agent_and_scores_tool_calls_only() -> None:
    with pytest.raises(ToolScoreAssertionError) as caught:
        assert_trajectory([{"agent": "billing"}, *EXPECTED], CALLS)
    text = str(caught.value)
    assert "Expected call #1 hand-off to 'billing'" not in text  # it pairs with the one made
    assert "lookup_order(id=7) by 'billing' has no partner" in text
    assert "made while the starting agent was active" in text
    assert "refund(id=7)" in text


def test_bad_agent_steps_are_refused() -> None:
    with pytest.raises(ValueError, match=r"expected\[0\] is an agent step, which is \{'agent'"):
        match_trajectory([{"agent": ""}], CALLS)
    with pytest.raises(ValueError, match=r"expected\[1\] is an agent step"):
        match_trajectory([{"agent": "a"}, {"agent": "b", "args": {}}], CALLS)


def test_evaluate_takes_no_agent_steps_and_lists_hand_offs_in_its_details() -> None:
    with pytest.raises(ValueError, match=r"expected\[1\] is an agent step .* match_trajectory"):
        toolscore.evaluate(EXPECTED, CALLS)
    result = toolscore.evaluate([{"tool": "refund", "args": {"id": 7}}], CALLS)
    assert result.metrics["handoffs"] == ["billing"]
    assert "handoffs" not in toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}]).metrics


def test_adk_transfer_to_agent_calls_are_hand_offs() -> None:
    actual = [
        {"tool": "lookup_order", "args": {"id": 7}},
        {"tool": "transfer_to_agent", "args": {"agent_name": "billing"}},
        {"tool": "refund", "args": {"id": 7}},
    ]
    assert match_trajectory(EXPECTED, actual).matched


# -- OpenAI Agents SDK ---------------------------------------------------------------------
def test_openai_agents_sdk_items() -> None:
    from agents import Agent
    from agents.items import HandoffCallItem, HandoffOutputItem, MessageOutputItem, ToolCallItem
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    triage, billing = Agent(name="Triage"), Agent(name="Billing agent")

    def call(name: str, args: str, call_id: str) -> ResponseFunctionToolCall:
        return ResponseFunctionToolCall(
            type="function_call", name=name, arguments=args, call_id=call_id
        )

    items = [
        ToolCallItem(agent=triage, raw_item=call("lookup_order", '{"id": 7}', "c1")),
        HandoffCallItem(agent=triage, raw_item=call("transfer_to_billing_agent", "{}", "c2")),
        HandoffOutputItem(
            agent=triage,
            raw_item={"type": "function_call_output", "call_id": "c2", "output": "{}"},
            source_agent=triage,
            target_agent=billing,
        ),
        ToolCallItem(agent=billing, raw_item=call("refund", '{"id": 7}', "c3")),
        MessageOutputItem(
            agent=billing,
            raw_item=ResponseOutputMessage(
                id="m",
                type="message",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text="Done.", annotations=[])],
            ),
        ),
    ]
    expected = [EXPECTED[0], {"agent": "Billing agent"}, EXPECTED[2]]
    match = match_trajectory(expected, {"new_items": items})
    assert match.matched, match.problems
    assert [c for c in match.actual if "agent" in c] == [{"agent": "billing_agent"}]  # once
    assert not match_trajectory([{"agent": "Triage"}, *expected], items, mode="superset").matched


# -- Google ADK events (google-adk is not installed here: its Event fields, as its docs show,
# with real google-genai Content objects inside) ----------------------------------------------
def test_google_adk_events() -> None:
    from google.genai import types

    def event(author: str, role: str, part: types.Part) -> dict[str, Any]:
        return {"author": author, "content": types.Content(role=role, parts=[part])}

    def fc(name: str, args: dict[str, Any]) -> types.Part:
        return types.Part(function_call=types.FunctionCall(name=name, args=args))

    def fr(name: str) -> types.Part:
        return types.Part(function_response=types.FunctionResponse(name=name, response={}))

    events = [
        event("user", "user", types.Part(text="refund order 7")),
        event("triage", "model", fc("lookup_order", {"id": 7})),
        event("triage", "user", fr("lookup_order")),
        event("triage", "model", fc("transfer_to_agent", {"agent_name": "billing"})),
        event("triage", "user", fr("transfer_to_agent")),  # authored by the caller
        event("billing", "model", fc("refund", {"id": 7})),
        event("billing", "model", types.Part(text="Refunded.")),
    ]
    match = match_trajectory(EXPECTED, events)
    assert match.matched, match.problems
    assert len([c for c in match.actual if "agent" in c]) == 1


# -- LangGraph / chat histories named by agent ------------------------------------------------
def test_langgraph_messages_named_by_agent() -> None:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    history = [
        HumanMessage("refund order 7"),
        AIMessage(
            "",
            name="supervisor",
            tool_calls=[{"name": "lookup_order", "args": {"id": 7}, "id": "1"}],
        ),
        ToolMessage("found", tool_call_id="1", name="lookup_order"),
        AIMessage(
            "",
            name="supervisor",
            tool_calls=[{"name": "transfer_to_billing", "args": {}, "id": "2"}],
        ),
        ToolMessage("Transferred", tool_call_id="2", name="transfer_to_billing"),
        AIMessage(
            "", name="billing", tool_calls=[{"name": "refund", "args": {"id": 7}, "id": "3"}]
        ),
        ToolMessage("ok", tool_call_id="3", name="refund"),
        AIMessage("Refunded.", name="billing"),
    ]
    match = match_trajectory(EXPECTED, {"messages": history})
    assert match.matched, match.problems
    assert [c for c in match.actual if "agent" in c] == [{"agent": "billing"}]


def test_a_change_of_assistant_name_alone_is_a_hand_off_and_tool_names_are_not() -> None:
    history = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "name": "triage",
            "content": None,
            "tool_calls": [
                {
                    "id": "1",
                    "type": "function",
                    "function": {"name": "lookup_order", "arguments": '{"id": 7}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "1", "name": "billing", "content": "x"},
        {
            "role": "assistant",
            "name": "billing",
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
    assert match_trajectory(EXPECTED, history).matched
    # A tool message named like an agent changes nothing.
    assert not match_trajectory(EXPECTED, history[:3]).matched


# -- OpenTelemetry invoke_agent spans --------------------------------------------------------
def _span(op: str, start: int, end: int, **attributes: Any) -> dict[str, Any]:
    return {
        "name": op,
        "startTimeUnixNano": start,
        "endTimeUnixNano": end,
        "attributes": {"gen_ai.operation.name": op, **attributes},
    }


def test_otel_invoke_agent_spans() -> None:
    spans = [
        _span("invoke_agent", 0, 100, **{"gen_ai.agent.name": "triage"}),
        _span(
            "execute_tool",
            10,
            20,
            **{"gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.arguments": '{"id": 7}'},
        ),
        _span("execute_tool", 30, 35, **{"gen_ai.tool.name": "transfer_to_billing"}),
        _span("invoke_agent", 40, 80, **{"gen_ai.agent.name": "billing"}),
        _span(
            "execute_tool",
            50,
            60,
            **{"gen_ai.tool.name": "refund", "gen_ai.tool.call.arguments": '{"id": 7}'},
        ),
        _span(
            "execute_tool",
            90,
            95,
            **{"gen_ai.tool.name": "notify", "gen_ai.tool.call.arguments": "{}"},
        ),
    ]
    expected = [*EXPECTED, {"agent": "triage"}, {"tool": "notify"}]
    match = match_trajectory(expected, spans)
    assert match.matched, match.problems
    # transfer_to_billing and the billing span are one hand-off; back in triage is another.
    assert [c["agent"] for c in match.actual if "agent" in c] == ["billing", "triage"]


def test_docstring_examples() -> None:
    import doctest
    import importlib

    module = importlib.import_module("toolscore._engine.read.handoffs")
    outcome = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0 and outcome.failed == 0
