"""The two sides of a trajectory check and the rules for their arguments.

A side is a call list, a message history or a provider response, read once into flat calls
(with the message steps they came from); the argument modes (``exact``, ``ignore``,
``subset``, ``superset`` or a callable, per tool if asked) become one rule per tool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolscore._engine.check.trajectory_agents import AGENT_STEP
from toolscore._engine.compare.rule import args_satisfy, values_match
from toolscore._engine.read.inputs import actual_calls, expected_calls, is_call_list
from toolscore._engine.read.messages import Step, message_list, read_messages

__all__ = [
    "ARGS_MODES",
    "MODES",
    "ArgsRule",
    "Side",
    "check_mode",
    "read_side",
    "rules_for",
    "side_of_steps",
]

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
    # With agent steps: per call the key of the agent active when it was made (see
    # trajectory_agents); None when the expected trajectory has no agent steps.
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
        if self.steps is None:
            return None
        return [calls for _, calls in self.steps if calls]


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
    """Read ``expected`` / ``actual``: a call list, a message history or a provider response.

    Raises:
        TypeError / ValueError: the value has no known shape (the message names ``name``).
    """
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


# --- argument rules ------------------------------------------------------------------------


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
) -> tuple[str, ArgsRule | None, dict[str, Any]]:
    """The default rule and the per-tool rules (each a rule, or None for ``ignore``)."""
    default = _check_args_mode(args, "args")
    overrides: dict[str, Any] = {}
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
                overrides[tool] = ("mode", mode, _rule(mode, strict))
            elif callable(value):
                overrides[tool] = ("callable", None, value)
            else:
                raise TypeError(
                    f"per_tool[{tool!r}] must be an args mode ({', '.join(map(repr, ARGS_MODES))}) "
                    "or a callable(expected_args, actual_args) -> bool, got "
                    f"{type(value).__name__} {value!r}"
                )
    return default, _rule(default, strict), overrides
