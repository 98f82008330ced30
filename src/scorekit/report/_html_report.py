"""The HTML report: one self-contained page (inline CSS, SVG and a small script, no network).

Every piece of text from a run (texts under test, questions, test ids, error messages) is
data and goes through :func:`html.escape`; the page also carries a Content-Security-Policy
that forbids loading anything, so even a missed escape could not fetch or run outside code.

The page's frame (styles, script, policy) is ``_html_page``; the audit details live in
``_html_audit``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format._rounding import format_bound, format_score
from scorekit.report._html_audit import audit_details, baseline_cells, baseline_section
from scorekit.report._html_page import card, escape, page_html
from scorekit.report._rows import Row, TextScoreRow, ToolScoreRow
from scorekit.report._tool_metrics import TOOL_METRIC_NAMES
from scorekit.report._totals import (
    bound_or_dash,
    bounds_label,
    judge_totals,
    metric_label,
    outcome_counts,
    row_findings,
    run_scores,
    score_or_dash,
    split_rows,
    spread,
)

_TEXT_LIMIT = 20_000


def _x(value: float) -> float:
    # Scores live in [0, 1]; the plot area spans x = 20 .. 500 of a 520-wide view box.
    return 20 + 480 * min(max(value, 0.0), 1.0)


def _chart(row: TextScoreRow) -> str:
    """Each run's score as a dot, the bounds as a band, the aggregate as a bar."""
    scores = run_scores(row)
    if not scores and row.score is not None:
        scores = [row.score]
    if not scores:
        return ""
    label = (
        f"{row.metric} per run: {', '.join(format_score(s) for s in scores)}; "
        f"bounds {format_bound(row.low)} to {format_bound(row.high)}"
    )
    parts = [
        f'<svg class="chart" viewBox="0 0 520 92" role="img" aria-label="{escape(label)}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<rect class="bounds" x="{_x(row.low):.1f}" y="8" '
        f'width="{max(_x(row.high) - _x(row.low), 1.5):.1f}" height="56" fill="#d7f0dc"/>',
        '<line x1="20" y1="64" x2="500" y2="64" stroke="#57606a"/>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = _x(tick)
        parts.append(f'<line x1="{x:.1f}" y1="64" x2="{x:.1f}" y2="69" stroke="#57606a"/>')
        parts.append(
            f'<text x="{x:.1f}" y="84" font-size="17" text-anchor="middle" '
            f'fill="#57606a">{tick:g}</text>'
        )
    for i, s in enumerate(scores):
        inside = row.low <= s <= row.high
        y = 16 + (i % 6) * 8
        parts.append(
            f'<circle class="run" cx="{_x(s):.1f}" cy="{y}" r="6" '
            f'fill="{"#1a7f37" if inside else "#c62828"}" fill-opacity="0.8">'
            f"<title>run {i + 1}: {format_score(s)}</title></circle>"
        )
    if row.score is not None:
        x = _x(row.score)
        ok = row.outcome == "passed"
        parts.append(
            f'<line class="aggregate" x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="64" '
            f'stroke="{"#1a7f37" if ok else "#c62828"}" stroke-width="3">'
            f"<title>{escape(row.aggregation or 'score')}: {format_score(row.score)}</title></line>"
        )
    parts.append("</svg>")
    parts.append(
        '<p class="muted legend">green band: bounds · dots: runs · bar: '
        + escape(row.aggregation or "score")
        + "</p>"
    )
    return "".join(parts)


def _facts(pairs: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in pairs)
    return f'<dl class="facts">{items}</dl>'


def _pre(text: str) -> str:
    if len(text) > _TEXT_LIMIT:
        more = len(text) - _TEXT_LIMIT
        return (
            f"<pre>{escape(text[:_TEXT_LIMIT])}</pre><p class=muted>… {more:,} more characters</p>"
        )
    return f"<pre>{escape(text)}</pre>"


def _text_article(row: TextScoreRow, index: int, change: Any = None) -> str:
    scores = run_scores(row)
    sd = spread(scores)
    score = score_or_dash(row.score)
    if row.aggregation and sd is not None:
        score += f" (±{format_score(sd)} over {len(scores)} runs)"
    facts = _facts(
        [
            ("function", f"<code>{escape(row.function)}</code>"),
            ("metric", escape(metric_label(row))),
            ("score", escape(score)),
            ("bounds", escape(bounds_label(row))),
            ("judge", escape(row.judge or "?")),
            ("time", escape(f"{row.seconds:.2f} s")),
        ]
        + ([("vs baseline", baseline_cells(change))] if change is not None else [])
    )
    body = [facts]
    if row.error:
        body.append(f'<p class="error-msg">{escape(row.error)}</p>')
    body.append(_chart(row))
    body.append(
        "<details><summary>Texts</summary><h4>expected</h4>"
        + _pre(row.expected)
        + "<h4>given</h4>"
        + _pre(row.given)
        + "</details>"
    )
    if row.runs:
        trs = "".join(
            f'<tr><td class="num">{r.question_run}</td><td class="num">{r.answer_run}</td>'
            f'<td class="num">{score_or_dash(r.precision)}</td>'
            f'<td class="num">{score_or_dash(r.recall)}</td>'
            f'<td class="num">{score_or_dash(r.f1)}</td></tr>'
            for r in row.runs
        )
        body.append(
            f"<details><summary>Runs ({len(row.runs)})</summary><div class=scroll><table>"
            "<tr><th>question run</th><th>answer run</th><th>precision</th><th>recall</th>"
            f"<th>F1</th></tr>{trs}</table></div></details>"
        )
    if row.evidence:
        trs = "".join(
            f"<tr><td>{escape(ev.side)}</td><td class=num>{escape('/'.join(map(str, ev.run)))}</td>"
            f'<td class="num">{format_score(ev.answer, 1.0)}</td><td>{escape(ev.question)}'
            + (f'<br><small class="reason">{escape(ev.reason)}</small>' if ev.reason else "")
            + "</td></tr>"
            for ev in row.evidence
        )
        is_open = " open" if row.outcome != "passed" else ""
        body.append(
            f"<details{is_open}><summary>Evidence ({len(row.evidence)} questions)</summary>"
            "<div class=scroll><table><tr><th>side</th><th>run</th><th>answer</th>"
            f"<th>question</th></tr>{trs}</table></div></details>"
        )
    body.append(audit_details(row.audit))
    return _article("text", index, row.outcome, row.test_id, "".join(body))


def _article(kind: str, index: int, outcome: str, test_id: str | None, body: str) -> str:
    cls = outcome if outcome in ("passed", "failed", "error") else "error"
    return (
        f'<article class="row {kind}" id="{kind}-{index}" data-outcome="{cls}">'
        f'<h3><span class="badge {cls}">{escape(cls.upper())}</span>'
        f"<code>{escape(test_id or '(outside pytest)')}</code></h3>{body}</article>"
    )


def _tool_article(row: ToolScoreRow, index: int, change: Any = None) -> str:
    facts = _facts(
        [
            ("function", f"<code>{escape(row.function)}</code>"),
            ("score", escape(score_or_dash(row.score))),
            ("minimum", escape(bound_or_dash(row.threshold))),
            ("missing calls", escape(", ".join(row.missing) or "none")),
            ("extra calls", escape(", ".join(row.extra) or "none")),
        ]
        + ([("time", escape(f"{row.seconds:.2f} s"))] if row.seconds else [])
        + ([("vs baseline", baseline_cells(change))] if change is not None else [])
    )
    metrics = [
        (k, row.metrics[k])
        for k in TOOL_METRIC_NAMES
        if isinstance(row.metrics.get(k), (int, float))
    ]
    table = ""
    if metrics:
        trs = "".join(
            f'<tr><td>{escape(k)}</td><td class="num">{score_or_dash(float(v))}</td></tr>'
            for k, v in metrics
        )
        table = f"<details><summary>Metrics</summary><table>{trs}</table></details>"
    body = facts + _findings(row) + table + _pairs(row)
    return _article("tool", index, row.outcome, row.test_id, body)


def _findings(row: ToolScoreRow) -> str:
    """Behaviour and safety findings a tool row carries (forbidden calls, credentials...)."""
    items = row_findings(row)
    if not items:
        return ""
    lis = "".join(
        f'<li class="finding {escape(sev)}"><b>{escape(sev.upper())}</b> {escape(msg)}</li>'
        for sev, msg in items
    )
    return '<ul class="findings">' + lis + "</ul>"


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 200 else text[:197] + "..."


def _pairs(row: ToolScoreRow) -> str:
    """The per-call, per-argument comparison, when the row carries it (``toolscore eval``)."""
    pairs = row.details.get("pairs") if isinstance(row.details, dict) else None
    if not isinstance(pairs, list) or not pairs:
        return ""
    trs = []
    for pair in pairs:
        if not isinstance(pair, dict):
            continue
        head = (
            f"expected #{pair.get('expected_index')} ↔ actual #{pair.get('actual_index')}: "
            f"{pair.get('tool')}"
        )
        mark = "ok" if pair.get("ok") else "differs"
        trs.append(f'<tr><th colspan="3">{escape(head)} ({escape(mark)})</th></tr>')
        for arg in pair.get("arguments") or []:
            if isinstance(arg, dict):
                ok = arg.get("status") == "ok"
                sign = "✓" if ok else "✗"
                trs.append(
                    f'<tr class="{"ok" if ok else "bad"}"><td>{sign} '
                    f"<code>{escape(arg.get('name'))}</code>"
                    f'<br><span class="muted">{escape(arg.get("status"))}</span></td>'
                    f"<td>{escape(_short(arg.get('expected')))}</td>"
                    f"<td>{escape(_short(arg.get('actual')))}</td></tr>"
                )
    is_open = " open" if row.outcome != "passed" else ""
    return (
        f'<details{is_open}><summary>Calls and arguments</summary><div class="scroll"><table>'
        "<tr><th>argument</th><th>expected</th><th>actual</th></tr>"
        + "".join(trs)
        + "</table></div></details>"
    )


def _repeat_section(repeats: Mapping[str, Mapping[str, Any]]) -> str:
    from scorekit.stats._repeat import repeat_lines

    items = "".join(f"<li><code>{escape(line)}</code></li>" for line in repeat_lines(repeats))
    return f'<section id="repeats"><h2>Repeated tests (llm_repeat)</h2><ul>{items}</ul></section>'


def render_html(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    *,
    repeats: Mapping[str, Mapping[str, Any]] | None = None,
    comparison: Any = None,
    baseline: str | None = None,
) -> str:
    """The whole report page as a string (``repeats``: ``llm_repeat`` results by test id;
    ``comparison``: the ``scorekit.report._baseline.Comparison`` with the baseline named
    ``baseline``, for the "vs baseline" column of each assertion and the section listing them).

    Example:
        >>> page = render_html([ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")], None)
        >>> page.startswith("<!doctype html>") and "http://" not in page.replace(
        ...     'xmlns="http://www.w3.org/2000/svg"', "")
        True
    """
    texts, tools = split_rows(rows)
    totals = judge_totals(stats)
    cards = []
    for group, label in ((texts, "text assertions"), (tools, "tool evaluations")):
        c = outcome_counts(group)
        if c["total"]:
            err = f", {c['error']} error" if c["error"] else ""
            cards.append(card(label, f"{c['passed']}/{c['total']} passed{err}"))
    if totals is not None and texts:
        cards.append(card("judge calls", f"{totals.calls} (+{totals.cache_hits} cached)"))
        cards.append(card("judge time", f"{totals.judge_seconds:.2f} s"))
        cards.append(card("tokens", "n/a" if totals.tokens is None else f"{totals.tokens:,}"))
        cost = "n/a" if totals.cost_usd is None else f"~${totals.cost_usd:.4f}"
        cards.append(card("est. cost", cost))
    sections = []
    changes: dict[tuple[str, int], Any] = {}
    if comparison is not None:
        from scorekit.report._baseline import changes_by_row
        from scorekit.report._document import report_document

        changes = changes_by_row(report_document(rows, stats, repeats=repeats), comparison)
        sections.append(baseline_section(comparison.changes, baseline, float(comparison.min_delta)))
    if texts:
        arts = "".join(
            _text_article(r, i, changes.get(("texts", i - 1))) for i, r in enumerate(texts, 1)
        )
        sections.append(f'<section id="texts"><h2>Text scores</h2>{arts}</section>')
    if tools:
        arts = "".join(
            _tool_article(r, i, changes.get(("tools", i - 1))) for i, r in enumerate(tools, 1)
        )
        sections.append(f'<section id="tools"><h2>Tool-call scores</h2>{arts}</section>')
    if repeats:
        sections.append(_repeat_section(repeats))
    if not sections:
        sections.append('<p class="muted">No scored assertions in this run.</p>')
    total = len(texts) + len(tools)
    judge = escape(totals.line()) if totals is not None and texts else ""
    header = (
        f'<div class="cards">{"".join(cards)}</div>'
        f'<p class="muted">{judge}</p>'
        '<div class="controls"><label><input type="checkbox" id="only-failures">'
        "Only failures and errors</label>"
        f'<span id="shown" class="muted">{total} of {total} shown</span></div>'
    )
    return page_html("LLM score report", header, "".join(sections), script=True)
