"""The shared plugin's outputs: the report files and the terminal summary sections."""

from __future__ import annotations

from typing import Any

import pytest

from scorekit._pytest._state import RunState, is_worker, run_state, stats_dict
from scorekit.pytest_state import get_session
from scorekit.session import ScoreSession
from scorekit.stats import MARKER
from scorekit.stats._repeat import repeat_lines

__all__ = ["terminal_summary", "write_reports"]


def write_reports(config: pytest.Config, session: ScoreSession, state: RunState) -> None:
    """Write ``--llm-report`` / ``--llm-report-html``; the lines saying where go to the summary."""
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


def terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The scores, the budget, the baseline comparison and the repeated tests."""
    session = get_session(config)
    if session is None or is_worker(config):
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
        from scorekit.session._budget import budget_lines

        terminalreporter.write_sep("=", "judge budget (llm-scorekit)")
        for line in budget_lines(session.budget.totals()):
            terminalreporter.write_line(line)
    state = run_state(config)
    if state.comparison is not None:
        from scorekit.report._comparison_text import comparison_lines

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
