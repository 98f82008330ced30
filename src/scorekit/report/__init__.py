"""The reporting layer shared by both faces: rows, terminal summary, JSON/HTML, JUnit."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from scorekit.report._recorder import Recorder, active_recorder, recording
from scorekit.report._rows import Evidence, RunScore, TextScoreRow, ToolScoreRow, row_from_dict
from scorekit.report._tool_metrics import TOOL_METRIC_NAMES

if TYPE_CHECKING:
    from scorekit.report._calibration_report import (
        gate_lines,
        render_calibration_html,
        render_calibration_text,
    )
    from scorekit.report._csv_report import render_csv
    from scorekit.report._dataset_report import (
        render_dataset_html,
        render_dataset_markdown,
        render_dataset_text,
    )
    from scorekit.report._document import created_stamp, finite, report_document
    from scorekit.report._prices import PRICES_PER_MILLION, estimate_cost
    from scorekit.report._summary import Section, summary_sections
    from scorekit.report._totals import JudgeTotals, judge_totals
    from scorekit.report._write import (
        FORMATS,
        ReportError,
        render_json,
        report_format,
        write_csv,
        write_dataset_report,
        write_html,
        write_json,
        write_markdown,
        write_report,
        write_text,
    )

# Every pytest run imports this package (the session records rows); the summary and the
# writers load on first use, so a run that scores nothing does not pay for them.
_LAZY = {
    "Section": "_summary",
    "summary_sections": "_summary",
    "JudgeTotals": "_totals",
    "judge_totals": "_totals",
    "FORMATS": "_write",
    "ReportError": "_write",
    "render_json": "_write",
    "write_csv": "_write",
    "write_text": "_write",
    "render_csv": "_csv_report",
    "report_document": "_document",
    "created_stamp": "_document",
    "finite": "_document",
    "PRICES_PER_MILLION": "_prices",
    "estimate_cost": "_prices",
    "gate_lines": "_calibration_report",
    "render_calibration_html": "_calibration_report",
    "render_calibration_text": "_calibration_report",
    "report_format": "_write",
    "write_html": "_write",
    "write_json": "_write",
    "write_markdown": "_write",
    "write_report": "_write",
    "write_dataset_report": "_write",
    "render_dataset_html": "_dataset_report",
    "render_dataset_markdown": "_dataset_report",
    "render_dataset_text": "_dataset_report",
}

__all__ = [
    "FORMATS",
    "PRICES_PER_MILLION",
    "TOOL_METRIC_NAMES",
    "Evidence",
    "JudgeTotals",
    "Recorder",
    "ReportError",
    "RunScore",
    "Section",
    "TextScoreRow",
    "ToolScoreRow",
    "active_recorder",
    "created_stamp",
    "estimate_cost",
    "finite",
    "gate_lines",
    "judge_totals",
    "recording",
    "render_calibration_html",
    "render_calibration_text",
    "render_csv",
    "render_dataset_html",
    "render_dataset_markdown",
    "render_dataset_text",
    "render_json",
    "report_document",
    "report_format",
    "row_from_dict",
    "summary_sections",
    "write_csv",
    "write_dataset_report",
    "write_html",
    "write_json",
    "write_markdown",
    "write_report",
    "write_text",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
