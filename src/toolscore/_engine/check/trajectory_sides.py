"""The two sides of a trajectory check and the rules for their arguments.

A side is a call list, a message history or a provider response, read once into flat calls
(with the message steps they came from); the argument modes (``exact``, ``ignore``,
``subset``, ``superset`` or a callable, per tool if asked) become one rule per tool.

Agent steps: inside a trajectory a hand-off is a step with the pseudo tool name
:data:`AGENT_STEP` and the arguments ``{"name": key}``
(:func:`~toolscore._engine.read.handoffs.agent_key`), so every mode pairs agent steps like
calls; each call also carries the key of the agent active when it was made (``None``: the
agent that started the run), and a call pairs only with a call made under the same agent. An
expected trajectory without ``{"agent": NAME}`` steps leaves hand-offs out of the actual side
(``transfer_to_*`` calls included), unless it names such a call itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolscore._engine.compare.rule import args_satisfy, values_match
from toolscore._engine.read.handoffs import agent_key, handoff_target, read_agent_run
from toolscore._engine.read.inputs import actual_calls, expected_calls, is_call_list
from toolscore._engine.read.messages import Step, message_list, read_messages

__all__ = [
    "AGENT_STEP",
    "ARGS_MODES",
    "MODES",
    "ArgsRule",
    "Side",
    "check_mode",
    "read_side",
    "read_sides",
    "rules_for",
    "side_of_steps",
]

AGENT_STEP = "<hand-off>"  # a hand-off's pseudo tool name
MODES = ("strict", "unordered", "subset", "superset")
ARGS_MODES = ("exact", "ignore", "subset", "superset")

ArgsRule = Callable[[dict[str, Any], dict[str, Any]], bool]


@dataclass
class Side:
    """The calls of one side, flat, with the message steps they came from (if any)."""

    tools: list[str]
    args: list[dict[str, Any] | None]
    # Per message: its role and the flat indices of its calls; None for a plain call list.
    steps: list[tuple[str, list[int]]] | None = None
    # With agent steps: per call the key of the agent active when it was made; None when the
    # expected trajectory has no agent steps.
    agents: list[str | None] | None = None

    def calls(self) -> list[dict[str, Any]]:
        return [
            {"agent": (a or {}).get("name")} if t == AGENT_STEP else {"tool": t, "args": a}
            for t, a in zip(self.tools, self.args, strict=False)
        ]

    def agent(self, k: int) -> str | None:
        """The key of the agent active at call ``k`` (None: the starting one, or no agents)."""
        return self.agents[k] if self.agents is not None else None

    def groups(self) -> list[list[int]] | None:
        """Flat indices of the calls of each assistant message that makes calls."""
        return None if self.steps is None else [calls for _, calls in self.steps if calls]


def side_of_steps(steps: Sequence[Step]) -> Side:
    """A side read from message steps (the calls flattened in message order)."""
    side = Side([], [], [])
    assert side.steps is not None
    for step in steps:
        indices = []
        for call in step.calls:
            indices.append(len(side.tools))
            side.tools.append(call["tool"])
            side.args.append(call["args"])
        side.steps.append((step.role, indices))
    return side


def read_side(value: Any, name: str, expected: bool) -> Side:
    """Read ``expected`` / ``actual``: a call list, a message history or a provider response
    (a value of no known shape is a ``TypeError`` or ``ValueError`` naming ``name``)."""
    if isinstance(value, Side):
        return value
    messages = message_list(value)
    if messages is not None:
        steps = read_messages(messages, name)
        for step in steps:
            for call in step.calls:
                if not call["tool"]:
                    raise ValueError(
                        f"{name}[{step.index}] holds a tool call without a tool name: {call!r}"
                    )
        return side_of_steps(steps)
    if expected and is_call_list(value):
        gold = expected_calls(value)
        return Side(gold.tools, gold.args)
    if expected and isinstance(value, Mapping) and "tool" in value:
        raise TypeError(
            f"{name} must be a list of calls, got one call dict; wrap it in a list: [{value!r}]"
        )
    trace = actual_calls(value)
    return Side(trace.tools, trace.args)


def check_mode(mode: Any, name: str = "mode") -> str:
    """Validate a trajectory mode."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(m) for m in MODES)}, got {mode!r}; "
            "'strict' is the same calls in the same order, 'unordered' the same calls in any "
            "order, 'subset' no call beyond the expected ones, 'superset' every expected call "
            "(extras allowed)"
        )
    return mode


def _check_args_mode(value: Any, name: str) -> str:
    if not isinstance(value, str) or value not in ARGS_MODES:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(m) for m in ARGS_MODES)}, got {value!r}; "
            "'exact' compares every argument, 'ignore' none, 'subset' accepts actual arguments "
            "that are a subset of the expected ones, 'superset' actual arguments that include "
            "every expected one"
        )
    return value


def _rule(mode: str, strict: bool) -> ArgsRule | None:
    """The argument rule of a mode (None: ``ignore``)."""
    if mode == "exact":
        return lambda e, a: values_match(e, a, strict)
    if mode == "subset":
        return lambda e, a: all(k in e and values_match(e[k], v, strict) for k, v in a.items())
    if mode == "superset":
        return lambda e, a: args_satisfy(a, e, strict)
    return None


def rules_for(
    args: Any, per_tool: Any, strict: bool
) -> tuple[str, ArgsRule | None, dict[str, tuple[str, ArgsRule | None]]]:
    """The default mode and rule, and per tool ``(mode or "callable", rule or None)``."""
    default = _check_args_mode(args, "args")
    overrides: dict[str, tuple[str, ArgsRule | None]] = {}
    if per_tool is not None:
        if not isinstance(per_tool, Mapping):
            raise TypeError(
                "per_tool must be a dict of tool name -> args mode or callable, got "
                f"{type(per_tool).__name__}; e.g. per_tool={{'search': 'ignore'}}"
            )
        for tool, value in per_tool.items():
            if not isinstance(tool, str):
                raise TypeError(f"per_tool keys must be tool names (str), got {tool!r}")
            if isinstance(value, str):
                mode = _check_args_mode(value, f"per_tool[{tool!r}]")
                overrides[tool] = (mode, _rule(mode, strict))
            elif callable(value):
                overrides[tool] = ("callable", value)
            else:
                raise TypeError(
                    f"per_tool[{tool!r}] must be an args mode ({', '.join(map(repr, ARGS_MODES))}) "
                    "or a callable(expected_args, actual_args) -> bool, got "
                    f"{type(value).__name__} {value!r}"
                )
    return default, _rule(default, strict), overrides


def _is_agent_step(item: Any) -> bool:
    """``{"agent": NAME}``: a hand-off step of an expected trajectory."""
    return isinstance(item, Mapping) and "agent" in item and "tool" not in item


def _agent_name(item: Mapping[str, Any], n: int) -> str:
    name = item.get("agent")
    if not isinstance(name, str) or not name.strip() or set(item) != {"agent"}:
        raise ValueError(
            f"expected[{n}] is an agent step, which is {{'agent': NAME}} with the agent's name "
            f"as a non-empty string and no other key; got {item!r}"
        )
    return name


def read_sides(expected: Any, actual: Any) -> tuple[Side, Side]:
    """Both sides; with agent steps expected, the run's hand-offs and each call's agent,
    else the run without its hand-off calls."""
    if isinstance(expected, (list, tuple)) and any(_is_agent_step(x) for x in expected):
        return _expected_side(expected), _actual_side(actual)
    e = read_side(expected, "expected", True)
    return e, _without_handoffs(expected, read_side(actual, "actual", False))


def _expected_side(expected: list[Any] | tuple[Any, ...]) -> Side:
    """The expected calls and agent steps, each call with the agent expected to make it."""
    tools: list[str] = []
    args: list[dict[str, Any] | None] = []
    agents: list[str | None] = []
    active: str | None = None
    for n, item in enumerate(expected):
        if _is_agent_step(item):
            active = agent_key(_agent_name(item, n))
            tools.append(AGENT_STEP)
            args.append({"name": active})
        else:
            try:
                call = expected_calls([item])
            except (TypeError, ValueError) as exc:
                raise type(exc)(str(exc).replace("expected[0]", f"expected[{n}]")) from None
            tools.append(call.tools[0])
            args.append(call.args[0])
        agents.append(active)
    return Side(tools, args, None, agents)


def _actual_side(actual: Any) -> Side:
    """The run's hand-offs and calls, each call with the agent that made it."""
    tools: list[str] = []
    args: list[dict[str, Any] | None] = []
    agents: list[str | None] = []
    entries = read_agent_run(actual)
    grouped = any(e.group is not None for e in entries)
    steps: list[tuple[str, list[int]]] | None = [] if grouped else None
    last_group: Any = object()
    for k, entry in enumerate(entries):
        key = agent_key(entry.agent)
        tools.append(AGENT_STEP if entry.is_handoff else str(entry.tool))
        args.append({"name": key} if entry.is_handoff else entry.args or {})
        agents.append(key)
        if steps is not None:
            if not entry.is_handoff and entry.group == last_group and steps:
                steps[-1][1].append(k)
            else:
                steps.append(("handoff" if entry.is_handoff else "assistant", [k]))
            last_group = None if entry.is_handoff else entry.group
    return Side(tools, args, steps, agents)


def _without_handoffs(expected: Any, side: Side) -> Side:
    """The actual side without its hand-off calls (those of a tool the expected trajectory
    names are kept)."""
    named: set[str] = set()
    if isinstance(expected, (list, tuple)):
        names = (
            item.get("tool") if isinstance(item, Mapping) else getattr(item, "tool", None)
            for item in expected
        )
        named = {name for name in names if isinstance(name, str)}
    calls = zip(side.tools, side.args, strict=False)
    kept = [k for k, (t, a) in enumerate(calls) if t in named or not handoff_target(t, a)]
    if len(kept) == len(side.tools):
        return side
    new_index = {k: n for n, k in enumerate(kept)}
    steps = side.steps
    if steps is not None:
        steps = [(role, [new_index[k] for k in ks if k in new_index]) for role, ks in steps]
    return Side([side.tools[k] for k in kept], [side.args[k] for k in kept], steps)
