"""Agent steps in trajectories: ``{"agent": NAME}`` in the expected calls, hand-offs read from
the actual run, and the active agent of every call.

Inside a trajectory a hand-off is a step with the pseudo tool name :data:`AGENT_STEP` and the
arguments ``{"name": key}`` (:func:`~toolscore._engine.read.handoffs.agent_key`), so every mode
pairs agent steps like calls; each call also carries the key of the agent active when it was
made (``None``: the agent that started the run), and a call pairs only with a call made under
the same agent. An expected trajectory without agent steps leaves hand-offs out of the actual
side (``transfer_to_*`` calls included), unless it names such a call itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.read.handoffs import agent_key, handoff_target, read_agent_run
from toolscore._engine.read.inputs import expected_calls

__all__ = [
    "AGENT_STEP",
    "Entries",
    "actual_entries",
    "expected_entries",
    "has_agent_steps",
    "is_agent_step",
    "without_handoffs",
]

AGENT_STEP = "<hand-off>"

# tools, args, active agent keys, message steps (None: not a history)
Entries = tuple[
    list[str],
    list[dict[str, Any] | None],
    list[str | None],
    list[tuple[str, list[int]]] | None,
]


def is_agent_step(item: Any) -> bool:
    """``{"agent": NAME}``: a hand-off step of an expected trajectory."""
    return isinstance(item, Mapping) and "agent" in item and "tool" not in item


def has_agent_steps(expected: Any) -> bool:
    return isinstance(expected, (list, tuple)) and any(is_agent_step(x) for x in expected)


def _agent_name(item: Mapping[str, Any], n: int) -> str:
    name = item.get("agent")
    if not isinstance(name, str) or not name.strip() or set(item) != {"agent"}:
        raise ValueError(
            f"expected[{n}] is an agent step, which is {{'agent': NAME}} with the agent's name "
            f"as a non-empty string and no other key; got {item!r}"
        )
    return name


def expected_entries(expected: list[Any] | tuple[Any, ...]) -> Entries:
    """The expected calls and agent steps, each call with the agent expected to make it."""
    tools: list[str] = []
    args: list[dict[str, Any] | None] = []
    agents: list[str | None] = []
    active: str | None = None
    for n, item in enumerate(expected):
        if is_agent_step(item):
            active = agent_key(_agent_name(item, n))
            tools.append(AGENT_STEP)
            args.append({"name": active})
            agents.append(active)
            continue
        try:
            call = expected_calls([item])
        except (TypeError, ValueError) as exc:
            raise type(exc)(str(exc).replace("expected[0]", f"expected[{n}]")) from None
        tools.append(call.tools[0])
        args.append(call.args[0])
        agents.append(active)
    return tools, args, agents, None


def actual_entries(actual: Any) -> Entries:
    """The run's hand-offs and calls, each call with the agent that made it."""
    tools: list[str] = []
    args: list[dict[str, Any] | None] = []
    agents: list[str | None] = []
    steps: list[tuple[str, list[int]]] | None = None
    last_group: Any = object()
    entries = read_agent_run(actual)
    if any(e.group is not None for e in entries):
        steps = []
    for k, entry in enumerate(entries):
        if entry.is_handoff:
            tools.append(AGENT_STEP)
            args.append({"name": agent_key(entry.agent)})
            agents.append(agent_key(entry.agent))
        else:
            tools.append(str(entry.tool))
            args.append(entry.args or {})
            agents.append(agent_key(entry.agent))
        if steps is not None:
            if not entry.is_handoff and entry.group == last_group and steps:
                steps[-1][1].append(k)
            else:
                steps.append(("handoff" if entry.is_handoff else "assistant", [k]))
            last_group = None if entry.is_handoff else entry.group
    return tools, args, agents, steps


def _named_tools(expected: Any) -> set[str]:
    """The tool names an expected call list names (a hand-off call named there is kept)."""
    if not isinstance(expected, (list, tuple)):
        return set()
    names = (
        item.get("tool") if isinstance(item, Mapping) else getattr(item, "tool", None)
        for item in expected
    )
    return {name for name in names if isinstance(name, str)}


def without_handoffs(
    expected: Any,
    tools: list[str],
    args: list[dict[str, Any] | None],
    steps: list[tuple[str, list[int]]] | None,
) -> tuple[list[str], list[dict[str, Any] | None], list[tuple[str, list[int]]] | None] | None:
    """The actual side with its hand-off calls left out, or None when there are none to
    leave out (the hand-off calls of a tool the expected trajectory names are kept)."""
    named = _named_tools(expected)
    drop = {
        k
        for k, (t, a) in enumerate(zip(tools, args, strict=False))
        if t not in named and handoff_target(t, a)
    }
    if not drop:
        return None
    new_index: dict[int, int] = {}
    kept_tools: list[str] = []
    kept_args: list[dict[str, Any] | None] = []
    for k, (tool, arg) in enumerate(zip(tools, args, strict=False)):
        if k not in drop:
            new_index[k] = len(kept_tools)
            kept_tools.append(tool)
            kept_args.append(arg)
    kept_steps = None
    if steps is not None:
        kept_steps = [(role, [new_index[k] for k in ks if k in new_index]) for role, ks in steps]
    return kept_tools, kept_args, kept_steps
