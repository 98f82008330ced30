"""Scenarios from tool schemas, and running them against a live server.

:func:`generate_scenarios` plans, for every tool, happy paths (valid arguments: the required
ones with the author's examples and defaults first, then fuller and varied ones) and edge cases
(a missing required argument, a wrong type, a value out of range or outside the enum, null,
empty, very long and unicode strings, an unexpected argument when the schema forbids extras).
The plan depends only on the tools and the seed.

:func:`run_scenarios` runs them, several at a time. A happy path passes when the tool returns
a result that is not an error; an edge case passes when the server answers at all, with an
error or not (one that accepts bad input is noted as ``accepted``). A call that times out or a
server that crashes fails that scenario, with the server's stderr tail, and the server is
restarted for the rest (calls that were in flight beside a crash run once more, so only the
call that crashes the server again is blamed); a server that keeps dying is given up on after
``max_restarts``. An exception in the calling thread (a Ctrl-C) ends the run at once: no
scenario starts and the server is not restarted any more; the calls in flight end when the
client's owner closes it.

The scenario types and the running live in ``_scenario_runs``; this module is their public
door and the planner.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from toolscore._engine.generate.schema_values import (
    LONG_STRING_LENGTH,
    UNICODE_SAMPLE,
    SchemaValues,
    json_required,
)
from toolscore.mcp._scenario_runs import Scenario, ScenarioResult, run_scenarios
from toolscore.mcp._tokens import estimate_tokens, tool_definition_tokens
from toolscore.mcp.lint_rules import LintIssue, lint_tools

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPToolDef

__all__ = [
    "LintIssue",
    "Scenario",
    "ScenarioResult",
    "estimate_tokens",
    "generate_scenarios",
    "lint_tools",
    "run_scenarios",
    "tool_definition_tokens",
]

#: Edge cases planned per tool at most.
MAX_EDGE_CASES = 10


def _edge_cases(values: SchemaValues, schema: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    schema = values.resolve(schema)
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = json_required(schema)
    base = values.arguments(schema, 0, full=True)
    cases: list[tuple[dict[str, Any], str]] = []

    def with_value(prop: str, value: Any, what: str) -> None:
        cases.append(({**base, prop: value}, what))

    for prop in required[:2]:
        args = {k: v for k, v in base.items() if k != prop}
        cases.append((args, f"missing required argument {prop!r}"))
    for prop, sub in list(properties.items())[:3]:
        with_value(prop, values.wrong_type(sub), f"wrong type for {prop!r}")
    for prop, sub in properties.items():
        for value, what in values.out_of_range(sub)[:2]:
            with_value(prop, value, f"{prop!r} {what}")
    if required:
        with_value(required[0], None, f"null for required argument {required[0]!r}")
    strings = [p for p, sub in properties.items() if values.kind(sub) == "string"]
    if strings:
        prop = strings[0]
        with_value(prop, "", f"empty string for {prop!r}")
        with_value(prop, "x" * LONG_STRING_LENGTH, f"{LONG_STRING_LENGTH:,}-character {prop!r}")
        with_value(prop, UNICODE_SAMPLE, f"unicode text for {prop!r}")
    if schema.get("additionalProperties") is False:
        with_value("toolscore_unexpected", "x", "an argument the schema does not allow")
    unique: dict[str, tuple[dict[str, Any], str]] = {}
    for args, what in cases:
        unique.setdefault(repr(sorted(args.items(), key=lambda kv: kv[0])), (args, what))
    return list(unique.values())[:MAX_EDGE_CASES]


def generate_scenarios(
    tools: list[MCPToolDef],
    cases_per_tool: int = 3,
    include_edge_cases: bool = True,
    *,
    seed: int = 0,
) -> list[Scenario]:
    """Plan happy paths and edge cases for every tool, the same for the same seed.

    Args:
        tools: the server's tools.
        cases_per_tool: happy paths per tool (the first sends only the required arguments
            with the schema's own examples or defaults; the others fuller, varied ones).
        include_edge_cases: plan edge cases too.
        seed: varies the values; the same seed plans the same scenarios.

    Returns:
        The scenarios, tool by tool in the server's order, happy paths first. A tool whose
        schema cannot be read gets one call without arguments; a tool that can only run as a
        task gets one ``skipped`` scenario.

    Example:
        >>> from toolscore.mcp.client import MCPToolDef
        >>> tool = MCPToolDef("get_weather", "Weather for a city.", {"type": "object",
        ...     "properties": {"city": {"type": "string"}}, "required": ["city"]})
        >>> [(s.kind, s.arguments) for s in generate_scenarios([tool], 1, False)]
        [('happy', {'city': 'Paris'})]
    """
    if (
        isinstance(cases_per_tool, bool)
        or not isinstance(cases_per_tool, int)
        or cases_per_tool < 0
    ):
        raise ValueError(f"cases_per_tool must be an integer >= 0, got {cases_per_tool!r}")
    scenarios: list[Scenario] = []
    for tool in tools:
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
        if tool.task_support == "required":
            scenarios.append(Scenario(tool.name, {}, "skipped", "runs only as a task"))
            continue
        rng = random.Random(f"{seed}:{tool.name}")
        values = SchemaValues(schema, rng)
        if values.resolve(schema).get("type") != "object":
            scenarios.append(
                Scenario(tool.name, {}, "happy", "call without arguments (unreadable schema)")
            )
            continue
        planned: list[dict[str, Any]] = []
        for index in range(cases_per_tool):
            args = values.arguments(schema, index, full=index > 0)
            if args in planned and index > 0:
                args = values.arguments(schema, index + cases_per_tool, full=True)
            planned.append(args)
            what = "required arguments only" if index == 0 else f"valid arguments, variant {index}"
            scenarios.append(Scenario(tool.name, args, "happy", what))
        if include_edge_cases:
            scenarios += [Scenario(tool.name, a, "edge", w) for a, w in _edge_cases(values, schema)]
    return scenarios
