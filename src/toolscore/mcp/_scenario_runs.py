"""The harness's scenarios (one planned tool call each) and what running one did, and running
them against a live server, several at a time, restarting it after a crash or a hang within a
budget (see :mod:`toolscore.mcp.harness`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolscore.mcp.client import MCPError, MCPServerExitedError, MCPTimeoutError

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient

__all__ = ["Scenario", "ScenarioResult", "excerpt", "run_scenarios"]

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
        ok: it passed (see :mod:`toolscore.mcp.harness`).
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


def excerpt(text: str, limit: int = _DETAIL_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters (an error detail of a result)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class _Gate:
    """Calls share the server; a solo call waits for the others to end and runs alone."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._active = 0
        self._solo = False

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._solo)
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
            self._cond.wait_for(lambda: not self._solo)
            self._solo = True
            self._cond.wait_for(lambda: not self._active)
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
                self.gave_up = f"not run: the server could not be restarted ({excerpt(str(exc))})"
                return False
            if self.halted:  # abandoned while the server restarted: stop it again
                self.client.close()
                return False
            return True


def _judge(scenario: Scenario, answer: Any) -> ScenarioResult:
    error, happy = answer.is_error, scenario.kind == "happy"
    detail = excerpt(answer.text or "error without a message") if error else "ok"
    outcome = "rejected" if error else "ok" if happy else "accepted"
    return ScenarioResult(scenario, not (happy and error), error, answer.duration, detail, outcome)


class _ServerDown(Exception):
    """A solo retry found the server still down from another call's crash."""


def _run_one(sup: _Supervisor, scenario: Scenario, timeout: float | None) -> ScenarioResult:
    client = sup.client
    if scenario.kind == "skipped":
        return ScenarioResult(scenario, True, False, 0.0, scenario.description, "skipped")
    limit = timeout if timeout is not None else client.timeout
    solo = False  # the retry after a crash runs alone, so that it cannot be collateral again
    while True:
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
            detail, outcome, tail = f"no answer within {limit:g} s", "timeout", client.stderr_tail()
        except MCPServerExitedError as exc:
            detail, outcome, tail = "the server exited during the call", "crashed", exc.stderr_tail
        except MCPError as exc:
            detail, outcome, tail = excerpt(str(exc)), "error", ""
        hung = outcome == "timeout"
        result = ScenarioResult(
            scenario, False, True, limit if hung else 0.0, detail, outcome, tail
        )
        # A call cut short because another failure restarted the server is run once more,
        # alone: run beside the other calls, a second crash of theirs would be blamed on it.
        interrupted = sup.lock.locked() or client.generation != generation
        retry = not solo and interrupted and outcome != "timeout"
        if not retry and outcome != "error":
            recovered = sup.recover(generation, hung)
            # With calls in flight together, a crash takes down every one of them: each runs
            # once more on the restarted server, so only the call that crashes it again is
            # blamed.
            retry = not solo and recovered and outcome == "crashed" and sup.concurrent
        if not retry:
            return result
        solo = True


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
