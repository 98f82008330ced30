"""The reporting layer shared by both faces: rows, terminal summary, JSON/HTML, JUnit."""

from scorekit.report._recorder import Recorder, active_recorder, recording
from scorekit.report._rows import Evidence, RunScore, TextScoreRow, ToolScoreRow, row_from_dict
from scorekit.report._summary import Section, summary_sections
from scorekit.report._totals import JudgeTotals, judge_totals, merge_stats
from scorekit.report._write import (
    FORMATS,
    ReportError,
    render_json,
    write_html,
    write_json,
    write_markdown,
    write_report,
)

__all__ = [
    "FORMATS",
    "Evidence",
    "JudgeTotals",
    "Recorder",
    "ReportError",
    "RunScore",
    "Section",
    "TextScoreRow",
    "ToolScoreRow",
    "active_recorder",
    "judge_totals",
    "merge_stats",
    "recording",
    "render_json",
    "row_from_dict",
    "summary_sections",
    "write_html",
    "write_json",
    "write_markdown",
    "write_report",
]
