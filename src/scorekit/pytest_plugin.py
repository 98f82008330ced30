"""The shared reporting plugin: test ids on rows, JUnit properties, terminal summary, reports.

The hooks live here; what they do lives in ``scorekit._pytest``: the run's state, repeated
tests and borderline reruns (``_reruns``), the baseline gate (``_gate_options``), the report
files and the summary (``_reports``), the budget options and frozen question sets.

Registered under the ``scorekit`` entry point. It stays inert in a run that uses neither
package: no rows means no summary section, no JUnit property and no report file.

Under pytest-xdist each worker sends its rows and judge counters to the controller as plain
dicts (``workeroutput``); the controller merges them, prints one summary and writes the files.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from scorekit._pytest._gate_options import (
    add_gate_options,
    budget_caps,
    compare_with_baseline,
    load_baseline,
)
from scorekit._pytest._reports import terminal_summary, write_reports
from scorekit._pytest._reruns import (
    REPEAT_PLAN,
    REPEAT_RESULT,
    configure_max_runs,
    plan_repeats,
    run_repeated,
)
from scorekit._pytest._state import BUDGET_KEY, WORKER_KEY, is_worker, run_state
from scorekit.pytest_state import ensure_session, get_session
from scorekit.report._rows import row_from_dict
from scorekit.stats import MARKER
from scorekit.stats._repeat import junit_repeat_properties

_ROW_START = pytest.StashKey[int]()
#: The report attribute that shows a test whose judge failed as an error (as the texts plugin).
JUDGE_ERROR_ATTR = "scorekit_judge_error"


def pytest_addoption(parser: pytest.Parser) -> None:
    from scorekit._pytest._questions_plugin import add_questions_options

    add_gate_options(parser)
    add_questions_options(parser)
    group = parser.getgroup("llm-scorekit", "LLM judge (llm-scorekit)")
    help_repeat = (
        f"Run every @pytest.mark.{MARKER} test this many times (overrides the marker's runs;"
        " a nightly job runs more). Ini: llm_repeat."
    )
    help_max = (
        "Borderline reruns: when the 95 percent interval of a texts_agg_* mean or median"
        " straddles its bound after full_runs runs, add runs in waves up to this many"
        " (off by default). Ini: llm_max_runs."
    )
    for name, help_text in (("llm_repeat", help_repeat), ("llm_max_runs", help_max)):
        group.addoption("--" + name.replace("_", "-"), dest=name, default=None, help=help_text)
        parser.addini(name, help_text, default=None)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # trylast: pytest's cache (the judge cache's home) is set up by then.
    config.addinivalue_line(
        "markers",
        f"{MARKER}(runs=N, min_pass_rate=None, k=None, min_pass_k=None): run the test body N"
        " times and decide from the pass rate (Wilson interval) and pass^k.",
    )
    state = run_state(config)
    session = ensure_session(config)
    caps = budget_caps(config, session.settings)
    if caps is not None:
        from scorekit.session._budget import JudgeBudget

        workerinput = getattr(config, "workerinput", None) or {}
        path = workerinput.get(BUDGET_KEY)
        if path is None:
            import shutil
            import tempfile

            folder = tempfile.mkdtemp(prefix="scorekit-budget-")
            config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
            path = str(Path(folder) / "spend.sqlite3")
        session.budget = JudgeBudget(caps, path)
        config.add_cleanup(session.budget.close)
        state.budget_path = path
    # Workers read the baseline too: the JUnit properties of a test are added where it ran.
    load_baseline(config, state)
    configure_max_runs(config, session)
    # Audit records cost a little per judge request: collected only for a report file.
    session.audit = bool(session.settings.report or session.settings.report_html)
    from scorekit._pytest._questions_plugin import register_questions_plugin

    register_questions_plugin(config)
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(config), "scorekit-xdist-hooks")


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    plan_repeats(config, items)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``llm_repeat`` test's body N times and turn the runs into one verdict."""
    return run_repeated(pyfuncitem)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    session = get_session(item.config)
    if session is None:
        return (yield)
    recorder = session.recorder
    previous = recorder.current_test
    recorder.current_test = item.nodeid
    item.stash[_ROW_START] = len(recorder.rows)
    try:
        return (yield)
    finally:
        recorder.current_test = previous


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # The teardown report copies item.user_properties, and junitxml writes the properties
    # from it; adding them just before it is built also catches rows recorded in fixtures.
    if call.when == "teardown":
        repeated = item.stash.get(REPEAT_RESULT, None)
        if repeated is not None:
            item.user_properties.extend(junit_repeat_properties(repeated.to_dict()))
        session = get_session(item.config)
        start = item.stash.get(_ROW_START, None)
        if session is not None and start is not None:
            rows = [r for r in session.recorder.rows[start:] if r.test_id == item.nodeid]
            if rows:
                from scorekit.report._junit import junit_properties

                item.user_properties.extend(junit_properties(rows))
            state = run_state(item.config)
            if state.baseline is not None and (rows or repeated is not None):
                from scorekit.report._junit import junit_baseline_properties

                item.user_properties.extend(
                    junit_baseline_properties(
                        state.baseline,
                        item.nodeid,
                        [r.to_dict() for r in rows],
                        min_delta=state.regression_delta,
                        repeat=repeated.to_dict() if repeated is not None else None,
                    )
                )
    report = yield
    excinfo = call.excinfo
    if (
        call.when == "call"
        and excinfo is not None
        and report.failed
        and item.stash.get(REPEAT_PLAN, None) is not None
    ):
        from scorekit.judges import JudgeError

        if isinstance(excinfo.value, JudgeError):
            # Its verdict cannot be known: an error, not a failed test.
            mark_judge_error(report)
    return report


def mark_judge_error(report: pytest.TestReport) -> None:
    """Show this test as ``error`` (``E``, ``ERROR``), not ``failed``: its judge failed, so its
    verdict cannot be known. Both packages' plugins mark their reports through this."""
    setattr(report, JUDGE_ERROR_ATTR, True)


def pytest_report_teststatus(
    report: pytest.CollectReport | pytest.TestReport, config: pytest.Config
) -> tuple[str, str, str] | None:
    """The status of a report marked by :func:`mark_judge_error` (the attribute survives
    pytest-xdist's transport)."""
    if getattr(report, JUDGE_ERROR_ATTR, False):
        return ("error", "E", "ERROR")
    return None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    score_session = get_session(config)
    if score_session is None:
        return
    if is_worker(config):
        output: dict[str, Any] = config.workeroutput  # type: ignore[attr-defined]
        output[WORKER_KEY] = {
            "rows": [r.to_dict() for r in score_session.recorder.rows],
            "stats": score_session.stats.as_dict(),
            "repeats": run_state(config).repeats,
        }
        return
    state = run_state(config)
    rows = score_session.recorder.rows
    if state.merged_from_workers:
        # Workers finish in any order; sort by test id so the report reads like the suite.
        rows.sort(key=lambda r: r.test_id or "")
    if state.baseline is not None:
        compare_with_baseline(session, score_session, state)
    if not rows and not state.repeats:
        return
    write_reports(config, score_session, state)


def pytest_unconfigure(config: pytest.Config) -> None:
    # After pytest's own last line, so that the reason for exit code 1 is the last line.
    state = run_state(config)
    if state.regression_message is None:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(state.regression_message)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    terminal_summary(terminalreporter, config)


class _XdistHooks:
    """Controller-side hooks; registered only when pytest-xdist is installed."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_configure_node(self, node: Any) -> None:
        # Every worker draws on the controller's budget counter.
        path = run_state(self.config).budget_path
        if path is not None:
            node.workerinput[BUDGET_KEY] = path

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        output = getattr(node, "workeroutput", None) or {}
        data = output.get(WORKER_KEY)
        if not data:
            return
        session = ensure_session(self.config)
        run_state(self.config).repeats.update(data.get("repeats", {}))
        for row_data in data.get("rows", []):
            session.recorder.add(row_from_dict(row_data))
        counters = {k: v for k, v in data.get("stats", {}).items() if isinstance(v, (int, float))}
        if counters:
            session.stats.add(**counters)
        run_state(self.config).merged_from_workers = True
