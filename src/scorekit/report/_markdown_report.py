"""The Markdown report: tables a CI job can post as a comment or a job summary."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.report._document import created_stamp
from scorekit.report._rows import Row, ToolScoreRow
from scorekit.report._totals import (
    bound_or_dash,
    bounds_label,
    judge_totals,
    metric_label,
    outcome_counts,
    row_findings,
    run_spread,
    score_or_dash,
    split_rows,
)


def md_cell(value: object) -> str:
    """``value`` as one Markdown table cell: one line, pipes and markup characters escaped."""
    text = " ".join(str(value).split())
    # "_" stays: intra-word underscores (test_names) do not emphasise in CommonMark.
    for ch in ("\\", "|", "`", "*", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text


def _finding_lines(row: ToolScoreRow) -> list[str]:
    items = row_findings(row)
    if not items:
        return []
    out = [f"**Findings for {md_cell(row.test_id or row.function)}:**", ""]
    out += [f"- **{sev}**: {md_cell(msg)}" for sev, msg in items]
    return [*out, ""]


def _pair_lines(row: ToolScoreRow) -> list[str]:
    """Per-argument comparison of a row that carries details (``toolscore eval``)."""
    pairs = row.details.get("pairs") if isinstance(row.details, dict) else None
    if not isinstance(pairs, list) or not pairs:
        return []
    out = [
        f"### {md_cell(row.test_id or '-')}",
        "",
        "| call | argument | expected | actual | status |",
        "|---|---|---|---|---|",
    ]
    for pair in pairs:
        if not isinstance(pair, dict):
            continue
        call = f"#{pair.get('expected_index')} {pair.get('tool')}"
        args = [a for a in pair.get("arguments") or [] if isinstance(a, dict)]
        if not args:
            out.append(f"| {md_cell(call)} | – | – | – | {'ok' if pair.get('ok') else 'differs'} |")
        for a in args:
            cells = (call, a.get("name"), _json(a.get("expected")), _json(a.get("actual")))
            out.append("| " + " | ".join(md_cell(c) for c in (*cells, a.get("status"))) + " |")
    out.append("")
    return out


def _json(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


def render_markdown(rows: Sequence[Row], stats: Mapping[str, Any] | None) -> str:
    """The report as Markdown.

    Example:
        >>> md = render_markdown([ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")], None)
        >>> "| t::a | assert_tools | 1.0000 | 0.9 | passed |" in md
        True
    """
    texts, tools = split_rows(rows)
    out = ["# LLM score report", "", f"Created {created_stamp()}.", ""]
    if texts:
        c = outcome_counts(texts)
        out += [
            "## Text scores",
            "",
            f"{c['total']} assertion{'' if c['total'] == 1 else 's'}: "
            f"{c['passed']} passed, {c['failed']} failed, {c['error']} with errors.",
            "",
            "| test | metric | score | spread | bounds | runs | result |",
            "|---|---|---:|---:|---|---:|---|",
        ]
        for r in texts:
            out.append(
                f"| {md_cell(r.test_id or '-')} | {md_cell(metric_label(r))} | "
                f"{score_or_dash(r.score)} | {score_or_dash(run_spread(r))} | {bounds_label(r)} | "
                f"{len(r.runs) if r.aggregation else ''} | {r.outcome} |"
            )
        totals = judge_totals(stats)
        if totals is not None:
            out += ["", md_cell(totals.line())]
        out.append("")
    if tools:
        c = outcome_counts(tools)
        out += [
            "## Tool-call scores",
            "",
            f"{c['total']} evaluation{'' if c['total'] == 1 else 's'}: "
            f"{c['passed']} passed, {c['failed']} failed.",
            "",
            "| test | function | score | min | result | missing | extra |",
            "|---|---|---:|---:|---|---|---|",
        ]
        for t in tools:
            out.append(
                f"| {md_cell(t.test_id or '-')} | {md_cell(t.function)} | "
                f"{score_or_dash(t.score)} | {bound_or_dash(t.threshold)} | {t.outcome} | "
                f"{md_cell(', '.join(t.missing) or '-')} | {md_cell(', '.join(t.extra) or '-')} |"
            )
        out.append("")
        for t in tools:
            out += _finding_lines(t)
            out += _pair_lines(t)
    if not texts and not tools:
        out += ["No scored assertions in this run.", ""]
    return "\n".join(out)
