"""The terminal summary as plain text: one section per package that was used.

Kept free of pytest so it can be tested, and reused by command lines, on plain rows. Plain text
(no colour codes) because it must read the same in a CI log, a pipe and pytester.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from scorekit.format._rounding import format_bound, format_score
from scorekit.format._text_table import fit_columns
from scorekit.report._rows import Row, TextScoreRow, ToolScoreRow
from scorekit.report._totals import (
    bounds_label,
    judge_totals,
    metric_label,
    outcome_counts,
    plural,
    run_scores,
    run_spread,
    split_rows,
)

_R = TypeVar("_R", TextScoreRow, ToolScoreRow)

TEXTS_TITLE = "text scores (pytest_texts_score)"
TOOLS_TITLE = "tool-call scores (toolscore)"
_EVIDENCE_WIDTH = 100
_EVIDENCE_LINES = 8
_METRICS_SHOWN = ("tool_f1", "argument_f1", "sequence_accuracy", "redundant_rate")


@dataclass
class Section:
    """One titled block of summary lines."""

    title: str
    lines: list[str] = field(default_factory=list)


def _clip(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: max(width - 3, 1)] + "..."


def _text_score(row: TextScoreRow) -> str:
    if row.score is None:
        return "-"
    sd = run_spread(row)
    if sd is not None:
        return f"{format_score(row.score)} ±{format_score(sd)}"
    return format_score(row.score)


def _with_details(
    table: list[list[str]],
    width: int | None,
    rows: Sequence[_R],
    details: Callable[[_R], list[str]] | None,
) -> list[str]:
    """The table (header first) with each row's lines followed by its detail lines (on a
    terminal too narrow for a row, the whole test id on one line, the rest on the next)."""
    fitted = fit_columns(table, width)
    out = list(fitted[0])
    for lines, row in zip(fitted[1:], rows, strict=True):
        out.extend(lines)
        if details is not None:
            out.extend(details(row))
    return out


def _text_lines(rows: list[TextScoreRow], verbosity: int, width: int | None) -> list[str]:
    table = [["test", "metric", "score", "bounds", "runs", "result"]]
    for row in rows:
        runs = str(len(row.runs)) if row.aggregation else ""
        score, bounds = _text_score(row), bounds_label(row)
        table.append(
            [row.test_id or "-", metric_label(row), score, bounds, runs, row.outcome.upper()]
        )
    # -v: each row followed by its runs, error and the evidence that cost points.
    return _with_details(table, width, rows, _text_details if verbosity >= 1 else None)


def _text_details(row: TextScoreRow) -> list[str]:
    details = [f"    {row.function} (judge {row.judge or '?'}, {row.seconds:.2f} s)"]
    if row.error:
        details.append("    error: " + _clip(row.error, _EVIDENCE_WIDTH))
    scores = run_scores(row)
    if row.aggregation and scores:
        details.append("    runs: " + " ".join(format_score(s) for s in scores))
    # The same question often costs points in every run: show it once, with its run count.
    grouped: dict[tuple[str, str, float], list[str]] = {}
    reasons: dict[tuple[str, str, float], str] = {}
    for ev in row.evidence:
        if ev.answer < 1.0:
            key = (ev.side, ev.question, ev.answer)
            grouped.setdefault(key, []).append("/".join(str(r) for r in ev.run))
            if ev.reason:
                reasons.setdefault(key, ev.reason)
    for shown, (key, runs) in enumerate(grouped.items()):
        if shown == _EVIDENCE_LINES:
            details.append(f"    ... {len(grouped) - shown} more (the report files have all)")
            break
        side, question, answer = key
        where = f"run {runs[0]}" if len(runs) == 1 else f"{len(runs)} runs"
        why = f" (judge: {reasons[key]})" if key in reasons else ""
        details.append(
            f"    {side} ({where}): {format_score(answer, 1.0)}  "
            + _clip(question + why, _EVIDENCE_WIDTH)
        )
    return details


def _counts_phrase(rows: Sequence[Row], noun: str) -> str:
    c = outcome_counts(rows)
    parts = [f"{c['passed']} passed", f"{c['failed']} failed"]
    if c["error"]:
        parts.append(plural(c["error"], "error"))
    return f"{plural(c['total'], noun)}: " + ", ".join(parts)


def _tool_lines(rows: list[ToolScoreRow], verbosity: int, width: int | None) -> list[str]:
    table = [["test", "score", "min", "result", "missing", "extra"]]
    for row in rows:
        table.append(
            [
                row.test_id or "-",
                format_score(row.score, row.threshold),
                "-" if row.threshold is None else format_bound(row.threshold),
                row.outcome.upper(),
                _clip(",".join(row.missing) or "-", 24),
                _clip(",".join(row.extra) or "-", 24),
            ]
        )
    return _with_details(table, width, rows, _tool_details if verbosity >= 1 else None)


def _tool_details(row: ToolScoreRow) -> list[str]:
    values = [(k, row.metrics.get(k)) for k in _METRICS_SHOWN]
    shown = [f"{k} {format_score(v)}" for k, v in values if isinstance(v, (int, float))]
    return ["    " + ", ".join([row.function, *shown])]


def summary_sections(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    *,
    verbosity: int = 0,
    width: int | None = None,
) -> list[Section]:
    """The summary: a section per package that recorded rows; none when neither was used.

    Args:
        rows: the run's rows (text and tool rows mixed, in recorded order).
        stats: judge counters (``JudgeStats.as_dict()`` plus optional ``model``/``judge``).
        verbosity: pytest's verbosity; below 0 each section is one totals line, 1 and above
            adds runs, errors and evidence.
        width: the terminal's width, or None off a terminal (a pipe, a CI log), where rows
            are never broken.

    Example:
        >>> row = ToolScoreRow("t.py::test_a", "assert_tools", 1.0, 0.9, "passed")
        >>> [s.title for s in summary_sections([row], None)]
        ['tool-call scores (toolscore)']
    """
    texts, tools = split_rows(rows)
    totals = judge_totals(stats)
    sections: list[Section] = []
    if texts:
        judge_line = totals.line() if totals is not None else "judge: n/a"
        head = "text scores: " + _counts_phrase(texts, "assertion")
        if verbosity < 0:
            sections.append(Section(TEXTS_TITLE, [f"{head}; {judge_line}"]))
        else:
            lines = _text_lines(texts, verbosity, width)
            sections.append(Section(TEXTS_TITLE, [*lines, "", head, judge_line]))
    if tools:
        mean = format_score(sum(r.score for r in tools) / len(tools))
        head = f"tool calls: {_counts_phrase(tools, 'evaluation')}; mean score {mean}"
        if verbosity < 0:
            sections.append(Section(TOOLS_TITLE, [head]))
        else:
            sections.append(Section(TOOLS_TITLE, [*_tool_lines(tools, verbosity, width), "", head]))
    return sections
