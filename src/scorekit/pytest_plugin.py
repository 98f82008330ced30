"""The shared reporting plugin: test ids on rows, JUnit properties, terminal summary, reports.

Registered under the ``scorekit`` entry point. It stays inert in a run that uses neither
package: no rows means no summary section, no JUnit property and no report file.

Under pytest-xdist each worker sends its rows and judge counters to the controller as plain
dicts (``workeroutput``); the controller merges them, prints one summary and writes the files.
"""

from __future__ import annotations

from collections.abc import Generator
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
    return stats


def pytest_addoption(parser: pytest.Parser) -> None:
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
    _state(config)
    session = ensure_session(config)
    session.max_runs = _whole_option(config, "llm_max_runs")
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(config), "scorekit-xdist-hooks")


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
    if not rows and not state.repeats:
        return
    _write_reports(config, score_session, state)


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
        try:
            written = writer(
                list(session.recorder.rows),
                stats,
                target,
                secrets=[session.settings.api_key],
                repeats=state.repeats,
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
    repeats = _state(config).repeats
    if repeats:
        if verbosity >= 0:
            terminalreporter.write_sep("=", f"repeated tests ({MARKER})")
        for line in repeat_lines(repeats):
            terminalreporter.write_line(line)
    for message in _state(config).messages:
        terminalreporter.write_line(message)


class _XdistHooks:
    """Controller-side hooks; registered only when pytest-xdist is installed."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

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
