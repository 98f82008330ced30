"""Running the harness's scenarios against a live server, several at a time, restarting it
after a crash or a hang within a budget (see :mod:`toolscore.mcp.harness`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from toolscore.mcp._scenario import Scenario, ScenarioResult, excerpt
from toolscore.mcp.client import MCPError, MCPServerExitedError, MCPTimeoutError

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient

__all__ = ["run_scenarios"]


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
                self.gave_up = f"not run: the server could not be restarted ({excerpt(str(exc))})"
                return False
            if self.halted:  # abandoned while the server restarted: stop it again
                self.client.close()
                return False
            return True


def _judge(scenario: Scenario, answer: Any) -> ScenarioResult:
    detail = "ok" if not answer.is_error else excerpt(answer.text or "error without a message")
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
            result = ScenarioResult(scenario, False, True, 0.0, excerpt(str(exc)), "error")
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
