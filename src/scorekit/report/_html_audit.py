"""The HTML report's folded parts of a scored assertion: its audit record and its change
against the baseline (``--llm-baseline``).

Every value is data and goes through :func:`html.escape`, as in the rest of the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format._rounding import format_score
from scorekit.report._html_page import escape

__all__ = ["audit_details", "baseline_cells", "baseline_section"]

_JUDGE_FACTS = (
    ("provider", "provider"),
    ("model", "model"),
    ("deployment", "deployment"),
    ("endpoint_host", "endpoint host"),
    ("api_version", "API version"),
    ("temperature", "temperature"),
    ("max_tokens", "max tokens"),
    ("prompt_version", "prompt version"),
    ("prompt_hash", "prompt hash"),
)


def _or_dash(value: object) -> str:
    return "–" if value is None else escape(value)


def _totals_line(totals: Mapping[str, Any]) -> str:
    parts = [
        f"{totals.get('calls', 0)} judge calls",
        f"{totals.get('cache_hits', 0)} cached",
    ]
    if totals.get("shared"):
        parts.append(f"{totals['shared']} shared")
    tokens = totals.get("tokens")
    parts.append("tokens n/a" if tokens is None else f"{tokens:,} tokens")
    cost = totals.get("estimated_cost_usd")
    parts.append("cost n/a" if cost is None else f"~${cost:.4f}")
    return ", ".join(parts)


def _calls_table(calls: Sequence[Mapping[str, Any]]) -> str:
    if not calls:
        return '<p class="muted">No judge request (blank texts, or a replaced function).</p>'
    trs = "".join(
        "<tr>"
        f"<td>{escape(c.get('kind'))}</td><td>{_or_dash(c.get('side'))}</td>"
        f"<td class=num>{escape('/'.join(str(x) for x in c.get('run') or []))}</td>"
        f"<td>{escape(c.get('source'))}</td><td class=num>{escape(c.get('tries', 0))}</td>"
        f"<td class=num>{_or_dash(c.get('prompt_tokens'))}</td>"
        f"<td class=num>{_or_dash(c.get('completion_tokens'))}</td>"
        f"<td class=num>{float(c.get('seconds') or 0.0):.2f}</td>"
        + (
            f'<td class="error-msg">{escape(c["error"])}</td>'
            if c.get("error")
            else "<td class=muted>–</td>"
        )
        + "</tr>"
        for c in calls
    )
    return (
        "<div class=scroll><table><tr><th>kind</th><th>side</th><th>run</th><th>source</th>"
        "<th>tries</th><th>prompt tokens</th><th>completion tokens</th><th>s</th>"
        f"<th>error</th></tr>{trs}</table></div>"
    )


def _question_set(item: Mapping[str, Any]) -> str:
    questions = list(item.get("questions") or [])
    answer_runs = list(item.get("answers") or [])
    head = "".join(f"<th>answer run {escape(a.get('answer_run'))}</th>" for a in answer_runs)
    trs = []
    for i, question in enumerate(questions):
        cells = []
        for a in answer_runs:
            values = a.get("answers") or []
            reasons = a.get("reasons") or []
            value = values[i] if i < len(values) else None
            reason = reasons[i] if i < len(reasons) else None
            text = "–" if value is None else format_score(float(value), 1.0)
            if reason:
                text += f'<br><small class="reason">{escape(reason)}</small>'
            cells.append(f'<td class="num">{text}</td>')
        trs.append(f"<tr><td>{escape(question)}</td>{''.join(cells)}</tr>")
    title = f"{item.get('side')}, question run {item.get('question_run')}"
    return (
        f"<h4>{escape(title)}</h4><div class=scroll><table><tr><th>question</th>{head}</tr>"
        f"{''.join(trs)}</table></div>"
    )


def audit_details(audit: Mapping[str, Any] | None) -> str:
    """A folded ``<details>`` with the audit record of a text assertion ("" without one).

    Example:
        >>> audit = {"judge": {"provider": "openai", "model": "gpt-4o-mini"}, "calls": [],
        ...          "question_sets": [], "totals": {"calls": 0, "cache_hits": 0}}
        >>> audit_details(audit).startswith('<details class="audit"><summary>Audit record')
        True
    """
    if not isinstance(audit, Mapping):
        return ""
    judge = audit.get("judge") or {}
    facts = "".join(
        f"<dt>{escape(label)}</dt><dd>{_or_dash(judge.get(key))}</dd>"
        for key, label in _JUDGE_FACTS
        if key in judge
    )
    totals = audit.get("totals") or {}
    sets = "".join(_question_set(item) for item in audit.get("question_sets") or [])
    return (
        f'<details class="audit"><summary>Audit record ({escape(_totals_line(totals))})</summary>'
        f'<dl class="facts">{facts}</dl>'
        f"<h4>Judge requests</h4>{_calls_table(audit.get('calls') or [])}"
        + (f"<h4>Question sets</h4>{sets}" if sets else "")
        + "</details>"
    )


def _delta(change: Any) -> str:
    delta = getattr(change, "delta", None)
    return "–" if delta is None else f"{delta:+.4f}"


def baseline_cells(change: Any) -> str:
    """The "vs baseline" fact of an article: status and delta (with the old score)."""
    old = getattr(change, "old", None)
    status = str(getattr(change, "status", ""))
    was = "" if old is None else f" (baseline {format_score(float(old))})"
    text = f"{status} {_delta(change)}"
    return f'<span class="delta {escape(status)}">{escape(text)}</span>{escape(was)}'


def baseline_section(changes: Sequence[Any], baseline: str | None, min_delta: float) -> str:
    """The "vs baseline" table: one row per compared assertion, with its delta column,
    regressions first (by the biggest fall), then improved, new, gone and unchanged."""
    order = {"regressed": 0, "improved": 1, "new": 2, "gone": 3, "unchanged": 4}

    def key(c: Any) -> tuple[int, float, str]:
        sign = 1.0 if c.status == "regressed" else -1.0
        return (order.get(c.status, 5), sign * (c.delta or 0.0), c.key)

    trs = "".join(
        f'<tr class="{"bad" if c.status == "regressed" else ""}"><td>{escape(c.status)}</td>'
        f"<td><code>{escape(c.key)}</code></td>"
        f'<td class="num">{"–" if c.old is None else format_score(float(c.old))}</td>'
        f'<td class="num">{"–" if c.new is None else format_score(float(c.new))}</td>'
        f'<td class="num delta">{escape(_delta(c))}</td>'
        '<td class="num">'
        f"{'–' if c.p_value is None else escape(f'{c.test} p={c.p_value:.4f}')}</td>"
        "</tr>"
        for c in sorted(changes, key=key)
    )
    where = f"baseline {escape(baseline)} · " if baseline else ""
    return (
        '<section id="baseline"><h2>vs baseline</h2>'
        f'<p class="muted">{where}min delta {escape(f"{min_delta:g}")}</p>'
        "<div class=scroll><table><tr><th>status</th><th>assertion</th><th>baseline</th>"
        f"<th>now</th><th>delta</th><th>test</th></tr>{trs}</table></div></section>"
    )
