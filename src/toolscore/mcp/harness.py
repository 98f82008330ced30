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
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolscore._engine.schema_values import (
    LONG_STRING_LENGTH,
    UNICODE_SAMPLE,
    SchemaValues,
    json_required,
)
from toolscore.mcp._tokens import estimate_tokens, tool_definition_tokens
from toolscore.mcp.client import MCPError, MCPServerExitedError, MCPTimeoutError
from toolscore.mcp.lint_rules import LintIssue, lint_tools

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient, MCPToolDef

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
_DETAIL_CHARS = 300


@dataclass
class Scenario:
    """One planned tool call.

    Attributes:
        tool: the tool to call.
        arguments: the arguments to send.
        kind: ``"happy"`` (valid input: must succeed) or ``"edge"`` (bad or extreme input:
            the server must answer, an error is fine).
        description: what the scenario tries, in a few words.
    """

    tool: str
    arguments: dict[str, Any]
    kind: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (a very long string argument is shown shortened)."""
        return {
            "tool": self.tool,
            "kind": self.kind,
            "description": self.description,
            "arguments": _shorten_long(self.arguments),
        }


@dataclass
class ScenarioResult:
    """What one scenario did.

    Attributes:
        scenario: the scenario.
        ok: it passed (see the module docstring).
        is_error: the server answered with an error (or did not answer).
        duration: seconds the call took.
        detail: the error text, the failure, or ``"ok"``.
        outcome: ``"ok"`` (succeeded), ``"rejected"`` (answered with an error), ``"accepted"``
            (an edge case that succeeded), ``"timeout"``, ``"crashed"`` (the server exited or
            dropped the connection), ``"error"`` (another protocol failure) or ``"skipped"``.
        stderr_tail: the server's last stderr lines when it timed out or crashed.
    """

    scenario: Scenario
    ok: bool
    is_error: bool
    duration: float
    detail: str
    outcome: str = "ok"
    stderr_tail: str = field(default="", repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        out = self.scenario.to_dict()
        out.update(
            ok=self.ok,
            outcome=self.outcome,
            is_error=self.is_error,
            duration=round(self.duration, 6),
            detail=self.detail,
        )
        if self.stderr_tail:
            out["stderr_tail"] = self.stderr_tail
        return out


def _shorten_long(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 200:
        return f"{value[:40]}... ({len(value)} characters)"
    if isinstance(value, dict):
        return {k: _shorten_long(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten_long(v) for v in value]
    return value


def _excerpt(text: str, limit: int = _DETAIL_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# -- planning ----------------------------------------------------------------------------


def _edge_cases(values: SchemaValues, schema: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    schema = values.resolve(schema)
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = json_required(schema)
    base = values.arguments(schema, 0, full=True)
    cases: list[tuple[dict[str, Any], str]] = []

    def with_value(prop: str, value: Any, what: str) -> None:
        args = dict(base)
        args[prop] = value
        cases.append((args, what))

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
        args = dict(base)
        args["toolscore_unexpected"] = "x"
        cases.append((args, "an argument the schema does not allow"))
    unique: list[tuple[dict[str, Any], str]] = []
    seen: set[str] = set()
    for args, what in cases:
        key = repr(sorted(args.items(), key=lambda kv: kv[0]))
        if key not in seen:
            seen.add(key)
            unique.append((args, what))
    return unique[:MAX_EDGE_CASES]


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
            for args, what in _edge_cases(values, schema):
                scenarios.append(Scenario(tool.name, args, "edge", what))
    return scenarios


# -- running -----------------------------------------------------------------------------


class _Gate:
    """Calls share the server; a solo call waits for the others to end and runs alone."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._active = 0
        self._solo = False

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self._solo:
                self._cond.wait()
            self._active += 1
        try:
            yield
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            while self._solo:
                self._cond.wait()
            self._solo = True
            while self._active:
                self._cond.wait()
        try:
            yield
        finally:
            with self._cond:
                self._solo = False
                self._cond.notify_all()


class _Supervisor:
    """Restarts the server after a crash or a hang, once per failure, within a budget."""

    def __init__(self, client: MCPClient, max_restarts: int, concurrent: bool) -> None:
        self.client = client
        self.concurrent = concurrent
        self.gate = _Gate()
        self.budget = max_restarts
        self.restarts = 0
        self.lock = threading.Lock()
        self.gave_up = ""
        #: Set when the run is abandoned (a Ctrl-C): no restart from then on.
        self.halted = False
        # Generations a call saw exit. The client may still look connected for a moment
        # after a call learnt of the exit, and a solo retry sent then would be blamed for it.
        self.exited: set[int] = set()

    def recover(self, generation: int, hung: bool) -> bool:
        """Bring the server back if the failure on ``generation`` left it down; False when
        the budget is spent (then every later scenario is skipped). No call runs meanwhile."""
        if self.halted:
            return False
        with self.gate.exclusive(), self.lock:
            if self.gave_up or self.halted:
                return False
            if self.client.generation != generation:
                return True  # another thread already restarted it
            if hung and self.client.connected and self.client.ping():
                return True  # only that call hung; the server still answers
            if self.restarts >= self.budget:
                self.gave_up = (
                    f"not run: the server failed {self.restarts + 1} times"
                    f" (--max-restarts {self.budget})"
                )
                self.client.close()
                return False
            self.restarts += 1
            try:
                self.client.restart()
            except MCPError as exc:
                self.gave_up = f"not run: the server could not be restarted ({_excerpt(str(exc))})"
                return False
            if self.halted:  # abandoned while the server restarted: stop it again
                self.client.close()
                return False
            return True


def _judge(scenario: Scenario, answer: Any) -> ScenarioResult:
    detail = "ok" if not answer.is_error else _excerpt(answer.text or "error without a message")
    if scenario.kind == "happy":
        outcome = "rejected" if answer.is_error else "ok"
        return ScenarioResult(
            scenario, not answer.is_error, answer.is_error, answer.duration, detail, outcome
        )
    outcome = "rejected" if answer.is_error else "accepted"
    return ScenarioResult(scenario, True, answer.is_error, answer.duration, detail, outcome)


class _ServerDown(Exception):
    """A solo retry found the server still down from another call's crash."""


def _run_one(sup: _Supervisor, scenario: Scenario, timeout: float | None) -> ScenarioResult:
    client = sup.client
    if scenario.kind == "skipped":
        return ScenarioResult(scenario, True, False, 0.0, scenario.description, "skipped")
    limit = timeout if timeout is not None else client.timeout
    result: ScenarioResult | None = None
    solo = False  # the retry after a crash runs alone, so that it cannot be collateral again
    attempt = 0
    while attempt < 2:
        with sup.lock:  # wait while another thread restarts the server
            gave_up = sup.gave_up or ("not run: the run was interrupted" if sup.halted else "")
        if gave_up:
            return ScenarioResult(scenario, False, True, 0.0, gave_up, "skipped")
        generation = client.generation
        try:
            with sup.gate.exclusive() if solo else sup.gate.shared():
                generation = client.generation  # no restart runs while the gate is held
                if solo and (not client.connected or generation in sup.exited):
                    raise _ServerDown
                try:
                    answer = client.call_tool(scenario.tool, scenario.arguments, timeout)
                except MCPServerExitedError:
                    sup.exited.add(generation)  # before the gate lets a solo retry in
                    raise
            return _judge(scenario, answer)
        except _ServerDown:
            # Another call crashed the server and has not restarted it yet: a retry that ran
            # now would be blamed for that crash, so bring the server back first.
            sup.recover(generation, hung=False)
            continue
        except MCPTimeoutError:
            result = ScenarioResult(
                scenario,
                False,
                True,
                limit,
                f"no answer within {limit:g} s",
                "timeout",
                client.stderr_tail(),
            )
            hung = True
        except MCPServerExitedError as exc:
            result = ScenarioResult(
                scenario,
                False,
                True,
                0.0,
                "the server exited during the call",
                "crashed",
                exc.stderr_tail,
            )
            hung = False
        except MCPError as exc:
            result = ScenarioResult(scenario, False, True, 0.0, _excerpt(str(exc)), "error")
            hung = False
        # A call cut short because another failure restarted the server is run once more,
        # alone: run beside the other calls, a second crash of theirs would be blamed on it.
        interrupted = sup.lock.locked() or client.generation != generation
        if attempt == 0 and interrupted and result.outcome != "timeout":
            solo = True
            attempt += 1
            continue
        if result.outcome != "error":
            recovered = sup.recover(generation, hung)
            # With calls in flight together, a crash takes down every one of them: each runs
            # once more on the restarted server, so only the call that crashes it again is
            # blamed.
            if attempt == 0 and recovered and result.outcome == "crashed" and sup.concurrent:
                solo = True
                attempt += 1
                continue
        return result
    assert result is not None
    return result


def run_scenarios(
    client: MCPClient,
    scenarios: list[Scenario],
    *,
    concurrency: int = 4,
    timeout: float | None = None,
    max_restarts: int = 6,
) -> list[ScenarioResult]:
    """Run every scenario against a started client; one failure never stops the run.

    Args:
        client: a started :class:`~toolscore.mcp.client.MCPClient`.
        scenarios: what to run.
        concurrency: calls in flight at once (MCP servers answer requests concurrently).
        timeout: seconds per call (default: the client's timeout).
        max_restarts: restarts allowed after crashes and hangs before the remaining
            scenarios are skipped. With ``concurrency > 1`` a crash ends every call in flight,
            so each crashed scenario runs once more on the restarted server (a crash costs up
            to two restarts).

    Returns:
        One result per scenario, in the scenarios' order.
    """
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be an integer >= 1, got {concurrency!r}")
    sup = _Supervisor(client, max_restarts, concurrency > 1 and len(scenarios) > 1)
    if not sup.concurrent:
        return [_run_one(sup, s, timeout) for s in scenarios]
    pool = ThreadPoolExecutor(concurrency, thread_name_prefix="toolscore-mcp")
    try:
        results = list(pool.map(lambda s: _run_one(sup, s, timeout), scenarios))
    except BaseException:
        # A Ctrl-C: waiting for the calls in flight could take their whole timeout.
        sup.halted = True
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results
