"""The shared reporting plugin: test ids on rows, JUnit properties, terminal summary, reports.

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

from scorekit._repeat import (
    MARKER,
    RepeatPlan,
    RepeatResult,
    first_line,
    junit_repeat_properties,
    make_plan,
    repeat_lines,
    repeat_run,
)
from scorekit._session import ScoreSession
from scorekit.pytest_state import ensure_session, get_session
from scorekit.report._rows import TextScoreRow, row_from_dict

WORKER_KEY = "scorekit_report"
BUDGET_KEY = "scorekit_budget_db"
_ROW_START = pytest.StashKey[int]()
_RUN_STATE = pytest.StashKey["_RunState"]()
_REPEAT_PLAN = pytest.StashKey[RepeatPlan]()
_REPEAT_RESULT = pytest.StashKey[RepeatResult]()
#: The report attribute that shows a test whose judge failed as an error (as the texts plugin).
JUDGE_ERROR_ATTR = "scorekit_judge_error"


class _RunState:
    """What the plugin itself keeps for one run (in ``config.stash``)."""

    def __init__(self) -> None:
        self.merged_from_workers = False
        self.messages: list[str] = []
        #: The shared budget counter's file (``--llm-budget-*``), or None.
        self.budget_path: str | None = None
        #: ``--llm-baseline``: the earlier report, its path, the delta and the comparison.
        self.baseline: dict[str, Any] | None = None
        self.baseline_path: str | None = None
        self.regression_delta = 0.05
        self.fail_on_regression = False
        self.comparison: Any = None
        self.regression_message: str | None = None
        #: ``repeat`` objects of the ``llm_repeat`` tests, by test id.
        self.repeats: dict[str, dict[str, Any]] = {}


def _state(config: pytest.Config) -> _RunState:
    state = config.stash.get(_RUN_STATE, None)
    if state is None:
        state = config.stash[_RUN_STATE] = _RunState()
    return state


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def stats_dict(session: ScoreSession) -> dict[str, Any]:
    """The session's judge counters plus the judge's name and model (for the cost estimate)."""
    stats: dict[str, Any] = dict(session.stats.as_dict())
    # The rows know the judge that actually ran (a custom judge's class name).
    names = [r.judge for r in session.recorder.rows if isinstance(r, TextScoreRow) and r.judge]
    stats["judge"] = ", ".join(dict.fromkeys(names)) or session.judge_name
    stats["model"] = session.settings.model or session.settings.deployment
    if session.budget is not None:
        stats["budget"] = session.budget.totals()
    return stats


def pytest_addoption(parser: pytest.Parser) -> None:
    from scorekit._gate_options import add_gate_options
    from scorekit._questions_plugin import add_questions_options

    add_gate_options(parser)
    add_questions_options(parser)
    group = parser.getgroup("llm-scorekit", "LLM judge (llm-scorekit)")
    help_repeat = (
        f"Run every @pytest.mark.{MARKER} test this many times (overrides the marker's runs;"
        " a nightly job runs more). Ini: llm_repeat."
    )
    group.addoption("--llm-repeat", dest="llm_repeat", default=None, help=help_repeat)
    parser.addini("llm_repeat", help_repeat, default=None)
    help_max = (
        "Borderline reruns: when the 95 percent interval of a texts_agg_* mean or median"
        " straddles its bound after full_runs runs, add runs in waves up to this many"
        " (off by default). Ini: llm_max_runs."
    )
    group.addoption("--llm-max-runs", dest="llm_max_runs", default=None, help=help_max)
    parser.addini("llm_max_runs", help_max, default=None)


def _whole_option(config: pytest.Config, name: str) -> int | None:
    """A positive whole number from ``--llm-<name>`` or ini ``llm_<name>``, or None."""
    raw = config.getoption(name, None)
    source = "--" + name.replace("_", "-")
    if raw in (None, ""):
        raw = config.getini(name)
        source = f"ini {name}"
    if raw in (None, "", []):
        return None
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = 0
    if value < 1:
        raise pytest.UsageError(f"{source}: expected a whole number of runs >= 1; got {raw!r}")
    return value


def _repeat_override(config: pytest.Config) -> int | None:
    return _whole_option(config, "llm_repeat")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # trylast: pytest's cache (the judge cache's home) is set up by then.
    config.addinivalue_line(
        "markers",
        f"{MARKER}(runs=N, min_pass_rate=None, k=None, min_pass_k=None): run the test body N"
        " times and decide from the pass rate (Wilson interval) and pass^k.",
    )
    state = _state(config)
    session = ensure_session(config)
    from scorekit._gate_options import budget_caps

    caps = budget_caps(config, session.settings)
    if caps is not None:
        from scorekit._budget import JudgeBudget

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
    _load_baseline(config, state)
    _configure_max_runs(config, session)
    # Audit records cost a little per judge request: collected only for a report file.
    session.audit = bool(session.settings.report or session.settings.report_html)
    from scorekit._questions_plugin import register_questions_plugin

    register_questions_plugin(config)
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(config), "scorekit-xdist-hooks")


#: The ``full_runs`` of every ``texts_agg_*`` function unless a test gives its own.
DEFAULT_FULL_RUNS = 5


def _configure_max_runs(config: pytest.Config, session: ScoreSession) -> None:
    """``--llm-max-runs`` (unless ``configure(max_runs=...)`` gave it): below the default
    ``full_runs`` it is a usage error now; below a test's own ``full_runs``, when it runs."""
    value = _whole_option(config, "llm_max_runs")
    if value is None or "max_runs" in session.configured:
        return
    if value < DEFAULT_FULL_RUNS:
        raise pytest.UsageError(
            f"--llm-max-runs {value} (ini llm_max_runs) is below the default"
            f" full_runs={DEFAULT_FULL_RUNS} of the texts_agg_* assertions; borderline reruns"
            f" add runs after full_runs, so give --llm-max-runs >= {DEFAULT_FULL_RUNS}"
        )
    session.max_runs = value


def _load_baseline(config: pytest.Config, state: _RunState) -> None:
    from scorekit._gate_options import fail_on_regression, gate_value

    path = gate_value(config, "llm_baseline")
    delta = gate_value(config, "llm_regression_delta")
    state.fail_on_regression = fail_on_regression(config)
    if path is None:
        if state.fail_on_regression:
            raise pytest.UsageError(
                "--llm-fail-on-regression needs --llm-baseline PATH (an earlier run's"
                " --llm-report JSON file)."
            )
        return
    from scorekit.report._baseline import BaselineError, load_report

    try:
        state.baseline = load_report(
            config.invocation_params.dir / path, "--llm-baseline", shown=path
        )
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None
    state.baseline_path = path
    if delta is not None:
        state.regression_delta = float(delta)


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    override = _repeat_override(config)
    for item in items:
        marker = item.get_closest_marker(MARKER)
        if marker is None:
            continue
        try:
            plan = make_plan(marker.args, marker.kwargs, where=item.nodeid, override=override)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
        item.stash[_REPEAT_PLAN] = plan


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``llm_repeat`` test's body N times and turn the runs into one verdict.

    A failed assertion or any exception of the test's code is a failed run; a judge error
    (``JudgeError``) propagates, so the item is an error; a skip skips the item.
    """
    plan = pyfuncitem.stash.get(_REPEAT_PLAN, None)
    if plan is None:
        return None
    from scorekit.judges import JudgeError

    function = pyfuncitem.obj
    argnames = pyfuncitem._fixtureinfo.argnames
    args = {name: pyfuncitem.funcargs[name] for name in argnames}
    result = RepeatResult(plan)
    for index in range(plan.runs):
        with repeat_run(index):
            try:
                function(**args)
            except JudgeError:
                raise
            except (Exception, pytest.fail.Exception) as exc:
                result.failures.append((index, first_line(exc)))
    pyfuncitem.stash[_REPEAT_RESULT] = result
    _state(pyfuncitem.config).repeats[pyfuncitem.nodeid] = result.to_dict()
    if result.missed():
        pytest.fail(result.message(), pytrace=False)
    return True


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
        repeated = item.stash.get(_REPEAT_RESULT, None)
        if repeated is not None:
            item.user_properties.extend(junit_repeat_properties(repeated.to_dict()))
        session = get_session(item.config)
        start = item.stash.get(_ROW_START, None)
        if session is not None and start is not None:
            rows = [r for r in session.recorder.rows[start:] if r.test_id == item.nodeid]
            if rows:
                from scorekit.report._junit import junit_properties

                item.user_properties.extend(junit_properties(rows))
            state = _state(item.config)
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
        and item.stash.get(_REPEAT_PLAN, None) is not None
    ):
        from scorekit.judges import JudgeError

        if isinstance(excinfo.value, JudgeError):
            # Its verdict cannot be known: an error, not a failed test.
            setattr(report, JUDGE_ERROR_ATTR, True)
    return report


def pytest_report_teststatus(
    report: pytest.CollectReport | pytest.TestReport, config: pytest.Config
) -> tuple[str, str, str] | None:
    if getattr(report, JUDGE_ERROR_ATTR, False):
        return ("error", "E", "ERROR")
    return None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    score_session = get_session(config)
    if score_session is None:
        return
    if _is_worker(config):
        output: dict[str, Any] = config.workeroutput  # type: ignore[attr-defined]
        output[WORKER_KEY] = {
            "rows": [r.to_dict() for r in score_session.recorder.rows],
            "stats": score_session.stats.as_dict(),
            "repeats": _state(config).repeats,
        }
        return
    state = _state(config)
    rows = score_session.recorder.rows
    if state.merged_from_workers:
        # Workers finish in any order; sort by test id so the report reads like the suite.
        rows.sort(key=lambda r: r.test_id or "")
    if state.baseline is not None:
        _compare_with_baseline(session, score_session, state)
    if not rows and not state.repeats:
        return
    _write_reports(config, score_session, state)


def _compare_with_baseline(
    session: pytest.Session, score_session: ScoreSession, state: _RunState
) -> None:
    from scorekit.report._baseline import compare_reports, regression_message
    from scorekit.report._document import report_document

    assert state.baseline is not None
    current = report_document(
        list(score_session.recorder.rows), stats_dict(score_session), repeats=state.repeats
    )
    state.comparison = compare_reports(state.baseline, current, min_delta=state.regression_delta)
    if state.fail_on_regression and state.comparison.regressed:
        state.regression_message = regression_message(state.comparison)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    # After pytest's own last line, so that the reason for exit code 1 is the last line.
    state = config.stash.get(_RUN_STATE, None)
    if state is None or state.regression_message is None:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(state.regression_message)


def _write_reports(config: pytest.Config, session: ScoreSession, state: _RunState) -> None:
    from scorekit.report._write import ReportError, write_html, write_json

    targets = (
        ("JSON", session.settings.report, write_json),
        ("HTML", session.settings.report_html, write_html),
    )
    stats = stats_dict(session)
    for label, path, writer in targets:
        if not path:
            continue
        target = config.invocation_params.dir / path
        # The HTML report shows each assertion's change against --llm-baseline.
        extra: dict[str, Any] = (
            {"comparison": state.comparison, "baseline": state.baseline_path}
            if writer is write_html and state.comparison is not None
            else {}
        )
        try:
            written = writer(
                list(session.recorder.rows),
                stats,
                target,
                secrets=[session.settings.api_key],
                repeats=state.repeats,
                **extra,
            )
        except ReportError as exc:
            state.messages.append(f"scorekit: {exc}")
        else:
            state.messages.append(f"scorekit: {label} report written to {written}")


def _terminal_width(tw: Any) -> int | None:
    """The terminal's width, or None when the summary goes to a pipe or a file (a CI log),
    where nothing wraps and a row is best kept whole."""
    stream = getattr(tw, "_file", None)
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()):
        return None
    return int(getattr(tw, "fullwidth", 80) or 80)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    session = get_session(config)
    if session is None or _is_worker(config):
        return
    from scorekit.report._summary import summary_sections
    from scorekit.report._write import redact

    verbosity = config.get_verbosity()
    tw = getattr(terminalreporter, "_tw", None)
    width = _terminal_width(tw)
    sections = summary_sections(
        list(session.recorder.rows), stats_dict(session), verbosity=verbosity, width=width
    )
    secrets = [session.settings.api_key]
    for section in sections:
        if verbosity >= 0:
            terminalreporter.write_sep("=", section.title)
        for line in section.lines:
            terminalreporter.write_line(redact(line, secrets))
    if session.budget is not None:
        from scorekit._budget import budget_lines

        terminalreporter.write_sep("=", "judge budget (llm-scorekit)")
        for line in budget_lines(session.budget.totals()):
            terminalreporter.write_line(line)
    state = _state(config)
    if state.comparison is not None:
        from scorekit.report._baseline import comparison_lines

        terminalreporter.write_sep("=", "vs baseline (llm-scorekit)")
        for line in comparison_lines(state.comparison, state.baseline_path):
            terminalreporter.write_line(redact(line, secrets))
    repeats = state.repeats
    if repeats:
        if verbosity >= 0:
            terminalreporter.write_sep("=", f"repeated tests ({MARKER})")
        for line in repeat_lines(repeats):
            terminalreporter.write_line(line)
    for message in state.messages:
        terminalreporter.write_line(message)


class _XdistHooks:
    """Controller-side hooks; registered only when pytest-xdist is installed."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_configure_node(self, node: Any) -> None:
        # Every worker draws on the controller's budget counter.
        path = _state(self.config).budget_path
        if path is not None:
            node.workerinput[BUDGET_KEY] = path

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        output = getattr(node, "workeroutput", None) or {}
        data = output.get(WORKER_KEY)
        if not data:
            return
        session = ensure_session(self.config)
        _state(self.config).repeats.update(data.get("repeats", {}))
        for row_data in data.get("rows", []):
            session.recorder.add(row_from_dict(row_data))
        counters = {k: v for k, v in data.get("stats", {}).items() if isinstance(v, (int, float))}
        if counters:
            session.stats.add(**counters)
        _state(self.config).merged_from_workers = True
