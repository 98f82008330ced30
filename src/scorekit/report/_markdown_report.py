"""The Markdown report: tables a CI job can post as a comment or a job summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.report._document import report_document
from scorekit.report._rows import TextScoreRow, ToolScoreRow
from scorekit.report._totals import judge_totals, run_scores, split_rows, spread

Row = TextScoreRow | ToolScoreRow


def _cell(value: object) -> str:
    # A table cell is one line; pipes and markup characters would break the table.
    text = " ".join(str(value).split())
    for ch in ("\\", "|", "`", "*", "_", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def render_markdown(rows: Sequence[Row], stats: Mapping[str, Any] | None) -> str:
    """The report as Markdown.

    Example:
        >>> md = render_markdown([ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")], None)
        >>> "| t::a | assert\\\\_tools | 1.000 | 0.90 | passed |" in md
        True
    """
    doc = report_document(rows, stats)
    texts, tools = split_rows(rows)
    out = ["# LLM score report", "", f"Created {doc['created']}.", ""]
    if texts:
        c = doc["summary"]["texts"]
        out += [
            "## Text scores",
            "",
            f"{c['total']} assertions: {c['passed']} passed, {c['failed']} failed, "
            f"{c['error']} with errors.",
            "",
            "| test | metric | score | spread | bounds | runs | result |",
            "|---|---|---:|---:|---|---:|---|",
        ]
        for r in texts:
            metric = f"{r.metric} {r.aggregation}" if r.aggregation else r.metric
            sd = spread(run_scores(r)) if r.aggregation else None
            out.append(
                f"| {_cell(r.test_id or '-')} | {_cell(metric)} | {_num(r.score)} | "
                f"{_num(sd)} | [{r.low:.2f}, {r.high:.2f}] | "
                f"{len(r.runs) if r.aggregation else ''} | {r.outcome} |"
            )
        totals = judge_totals(stats)
        if totals is not None:
            out += ["", _cell(totals.line())]
        out.append("")
    if tools:
        c = doc["summary"]["tools"]
        out += [
            "## Tool-call scores",
            "",
            f"{c['total']} evaluations: {c['passed']} passed, {c['failed']} failed.",
            "",
            "| test | function | score | min | result | missing | extra |",
            "|---|---|---:|---:|---|---|---|",
        ]
        for t in tools:
            out.append(
                f"| {_cell(t.test_id or '-')} | {_cell(t.function)} | {_num(t.score)} | "
                f"{_num(t.threshold, 2)} | {t.outcome} | {_cell(', '.join(t.missing) or '-')} | "
                f"{_cell(', '.join(t.extra) or '-')} |"
            )
        out.append("")
    if not texts and not tools:
        out += ["No scored assertions in this run.", ""]
    return "\n".join(out)
