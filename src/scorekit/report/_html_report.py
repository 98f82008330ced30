"""The HTML report: one self-contained page (inline CSS, SVG and a small script, no network).

Every piece of text from a run (texts under test, questions, test ids, error messages) is
data and goes through :func:`html.escape`; the page also carries a Content-Security-Policy
that forbids loading anything, so even a missed escape could not fetch or run outside code.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorekit._rounding import format_bound, format_score
from scorekit._tool_metrics import TOOL_METRIC_NAMES
from scorekit.report._document import SCHEMA, created_stamp
from scorekit.report._html_audit import audit_details, baseline_cells, baseline_section
from scorekit.report._rows import Row, TextScoreRow, ToolScoreRow
from scorekit.report._totals import (
    bounds_label,
    judge_totals,
    metric_label,
    outcome_counts,
    row_findings,
    run_scores,
    split_rows,
    spread,
)

_TEXT_LIMIT = 20_000

_CSS = """
:root{--ok:#1a7f37;--bad:#c62828;--err:#8250df;--mut:#57606a;--bg:#fff;--fg:#1f2328;
--band:#d7f0dc;--line:#d0d7de;--card:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--fg);background:var(--bg)}
header,main{max-width:960px;margin:0 auto;padding:12px 14px}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.2rem 0 .4rem}
h3{font-size:1rem;margin:0 0 .3rem;display:flex;gap:.5rem;align-items:baseline;flex-wrap:wrap}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
h3 code{overflow-wrap:anywhere}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:.6rem 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:6px 10px}
.card b{display:block;font-size:1.1rem}
.controls{display:flex;flex-wrap:wrap;gap:12px;align-items:center;position:sticky;top:0;
background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);z-index:1}
.controls label{display:flex;gap:6px;align-items:center;min-height:44px;cursor:pointer}
.controls input{width:20px;height:20px}
article{border:1px solid var(--line);border-left:5px solid var(--ok);border-radius:8px;
padding:10px 12px;margin:10px 0}
article[data-outcome=failed]{border-left-color:var(--bad)}
article[data-outcome=error]{border-left-color:var(--err)}
.badge{font-size:.75rem;font-weight:700;color:#fff;border-radius:4px;padding:1px 6px;
background:var(--ok)}
.badge.failed{background:var(--bad)}.badge.error{background:var(--err)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:.3rem 0}
dl.facts dt{color:var(--mut)}dl.facts dd{margin:0;overflow-wrap:anywhere}
svg.chart{width:100%;max-width:520px;height:auto;display:block;margin:.4rem 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
figure.plot{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:0}
figure.plot figcaption{font-weight:600}
details{margin:.3rem 0}summary{cursor:pointer;min-height:32px;padding:4px 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);padding:8px;
border-radius:6px;margin:.2rem 0;max-height:24rem;overflow:auto}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem;width:100%}
th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.error-msg{color:var(--err);white-space:pre-wrap;overflow-wrap:anywhere}
.findings{list-style:none;padding:0;margin:.3rem 0}
.finding{border-left:4px solid #bf8700;background:#fff8c5;padding:4px 8px;margin:3px 0;
border-radius:4px;overflow-wrap:anywhere}
.finding.error{border-left-color:var(--bad);background:#ffebe9}
.muted{color:var(--mut)}tr.bad td:first-child{color:var(--bad)}.legend{font-size:.8rem;margin:0}
.delta.regressed{color:var(--bad);font-weight:700}.delta.improved{color:var(--ok)}
@media (max-width:520px){body{font-size:14px}header,main{padding:8px}}
"""

_JS = """
(function () {
  var box = document.getElementById("only-failures");
  var rows = Array.prototype.slice.call(document.querySelectorAll("article.row"));
  var shown = document.getElementById("shown");
  function apply() {
    var n = 0;
    rows.forEach(function (r) {
      var hide = box.checked && r.getAttribute("data-outcome") === "passed";
      r.hidden = hide;
      if (!hide) { n += 1; }
    });
    shown.textContent = n + " of " + rows.length + " shown";
  }
  if (location.hash === "#failures") { box.checked = true; }
  box.addEventListener("change", apply);
  apply();
  document.body.setAttribute("data-filter-ready", "1");
  // Lets a headless browser check confirm that nothing overflows a phone-wide screen.
  var fits = document.documentElement.scrollWidth <= window.innerWidth + 1;
  document.body.setAttribute("data-fits-width", fits ? "1" : "0");
})();
"""


# Only this exact script may run: a script smuggled in through a text under test would be
# blocked by the browser even if an escape were ever missed.
_JS_HASH = base64.b64encode(hashlib.sha256(_JS.encode()).digest()).decode()


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _score(value: float | None) -> str:
    # The one rounding rule of every output (scorekit._rounding).
    return "–" if value is None else format_score(value)


def _bound(value: float | None) -> str:
    return "–" if value is None else format_bound(value)


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
        f'<svg class="chart" viewBox="0 0 520 92" role="img" aria-label="{_e(label)}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{_e(label)}</title>",
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
            f"<title>{_e(row.aggregation or 'score')}: {format_score(row.score)}</title></line>"
        )
    parts.append("</svg>")
    parts.append(
        '<p class="muted legend">green band: bounds · dots: runs · bar: '
        + _e(row.aggregation or "score")
        + "</p>"
    )
    return "".join(parts)


def _facts(pairs: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in pairs)
    return f'<dl class="facts">{items}</dl>'


def _pre(text: str) -> str:
    if len(text) > _TEXT_LIMIT:
        more = len(text) - _TEXT_LIMIT
        return f"<pre>{_e(text[:_TEXT_LIMIT])}</pre><p class=muted>… {more:,} more characters</p>"
    return f"<pre>{_e(text)}</pre>"


def _text_article(row: TextScoreRow, index: int, change: Any = None) -> str:
    scores = run_scores(row)
    sd = spread(scores)
    score = _score(row.score)
    if row.aggregation and sd is not None:
        score += f" (±{format_score(sd)} over {len(scores)} runs)"
    facts = _facts(
        [
            ("function", f"<code>{_e(row.function)}</code>"),
            ("metric", _e(metric_label(row))),
            ("score", _e(score)),
            ("bounds", _e(bounds_label(row))),
            ("judge", _e(row.judge or "?")),
            ("time", _e(f"{row.seconds:.2f} s")),
        ]
        + ([("vs baseline", baseline_cells(change))] if change is not None else [])
    )
    body = [facts]
    if row.error:
        body.append(f'<p class="error-msg">{_e(row.error)}</p>')
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
            f'<td class="num">{_score(r.precision)}</td><td class="num">{_score(r.recall)}</td>'
            f'<td class="num">{_score(r.f1)}</td></tr>'
            for r in row.runs
        )
        body.append(
            f"<details><summary>Runs ({len(row.runs)})</summary><div class=scroll><table>"
            "<tr><th>question run</th><th>answer run</th><th>precision</th><th>recall</th>"
            f"<th>F1</th></tr>{trs}</table></div></details>"
        )
    if row.evidence:
        trs = "".join(
            f"<tr><td>{_e(ev.side)}</td><td class=num>{_e('/'.join(map(str, ev.run)))}</td>"
            f'<td class="num">{format_score(ev.answer, 1.0)}</td><td>{_e(ev.question)}'
            + (f'<br><small class="reason">{_e(ev.reason)}</small>' if ev.reason else "")
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
        f'<h3><span class="badge {cls}">{_e(cls.upper())}</span>'
        f"<code>{_e(test_id or '(outside pytest)')}</code></h3>{body}</article>"
    )


def _tool_article(row: ToolScoreRow, index: int, change: Any = None) -> str:
    facts = _facts(
        [
            ("function", f"<code>{_e(row.function)}</code>"),
            ("score", _e(_score(row.score))),
            ("minimum", _e(_bound(row.threshold))),
            ("missing calls", _e(", ".join(row.missing) or "none")),
            ("extra calls", _e(", ".join(row.extra) or "none")),
        ]
        + ([("time", _e(f"{row.seconds:.2f} s"))] if row.seconds else [])
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
            f'<tr><td>{_e(k)}</td><td class="num">{_score(float(v))}</td></tr>' for k, v in metrics
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
        f'<li class="finding {_e(sev)}"><b>{_e(sev.upper())}</b> {_e(msg)}</li>'
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
        trs.append(f'<tr><th colspan="3">{_e(head)} ({_e(mark)})</th></tr>')
        for arg in pair.get("arguments") or []:
            if isinstance(arg, dict):
                ok = arg.get("status") == "ok"
                sign = "✓" if ok else "✗"
                trs.append(
                    f'<tr class="{"ok" if ok else "bad"}"><td>{sign} '
                    f"<code>{_e(arg.get('name'))}</code>"
                    f'<br><span class="muted">{_e(arg.get("status"))}</span></td>'
                    f"<td>{_e(_short(arg.get('expected')))}</td>"
                    f"<td>{_e(_short(arg.get('actual')))}</td></tr>"
                )
    is_open = " open" if row.outcome != "passed" else ""
    return (
        f'<details{is_open}><summary>Calls and arguments</summary><div class="scroll"><table>'
        "<tr><th>argument</th><th>expected</th><th>actual</th></tr>"
        + "".join(trs)
        + "</table></div></details>"
    )


def _card(title: str, value: str) -> str:
    return f'<div class="card">{_e(title)}<b>{_e(value)}</b></div>'


def _repeat_section(repeats: Mapping[str, Mapping[str, Any]]) -> str:
    from scorekit._repeat import repeat_lines

    items = "".join(f"<li><code>{_e(line)}</code></li>" for line in repeat_lines(repeats))
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
            cards.append(_card(label, f"{c['passed']}/{c['total']} passed{err}"))
    if totals is not None and texts:
        cards.append(_card("judge calls", f"{totals.calls} (+{totals.cache_hits} cached)"))
        cards.append(_card("judge time", f"{totals.judge_seconds:.2f} s"))
        cards.append(_card("tokens", "n/a" if totals.tokens is None else f"{totals.tokens:,}"))
        cost = "n/a" if totals.cost_usd is None else f"~${totals.cost_usd:.4f}"
        cards.append(_card("est. cost", cost))
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
    judge = _e(totals.line()) if totals is not None and texts else ""
    header = (
        f'<div class="cards">{"".join(cards)}</div>'
        f'<p class="muted">{judge}</p>'
        '<div class="controls"><label><input type="checkbox" id="only-failures">'
        "Only failures and errors</label>"
        f'<span id="shown" class="muted">{total} of {total} shown</span></div>'
    )
    return page_html("LLM score report", header, "".join(sections), script=True)


def page_html(
    title: str, header: str, main: str, *, script: bool = False, schema: str = SCHEMA
) -> str:
    """One self-contained report page: the shared style, a Content-Security-Policy that loads
    nothing from outside, ``header`` under the title, ``main`` below it. ``script`` adds the
    row filter's script (the only one the policy lets run)."""
    scripts = f"script-src 'sha256-{_JS_HASH}'" if script else "script-src 'none'"
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"style-src 'unsafe-inline'; {scripts}; img-src data:\">"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head>"
        f'<body data-filter-ready="0"><header><h1>{_e(title)}</h1>'
        f'<p class="muted">{_e(created_stamp())} · {_e(schema)}</p>'
        f"{header}</header>"
        f"<main>{main}</main>{f'<script>{_JS}</script>' if script else ''}</body></html>\n"
    )
