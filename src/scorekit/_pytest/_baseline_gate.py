"""The baseline gate: ``--llm-baseline`` read at start-up, the run compared with it at the end
(``--llm-fail-on-regression`` turns a regression into exit code 1)."""

from __future__ import annotations

import pytest

from scorekit._pytest._state import RunState, stats_dict
from scorekit.session import ScoreSession

__all__ = ["compare_with_baseline", "load_baseline"]


def load_baseline(config: pytest.Config, state: RunState) -> None:
    """Read ``--llm-baseline`` (a usage error when it cannot be used)."""
    from scorekit._pytest._gate_options import fail_on_regression, gate_value

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


def compare_with_baseline(
    session: pytest.Session, score_session: ScoreSession, state: RunState
) -> None:
    """Compare the run with the baseline; fail the session on a regression when asked."""
    from scorekit.report._baseline import compare_reports
    from scorekit.report._comparison_text import regression_message
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
