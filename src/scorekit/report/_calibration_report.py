"""The report of a judge calibration (``texts-score calibrate``): the calibration document
(schema ``llm-scorekit-calibration/1``, see ``pytest_texts_score._calibrate``) as text for the
terminal, and as one self-contained HTML page (it opens offline, loads nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format._rounding import format_bound, format_percent, format_score
from scorekit.format._text_table import fit_columns
from scorekit.report._html_page import card, escape, html_table, judge_cards, page_html
from scorekit.report._totals import judge_totals, plural, score_text

__all__ = ["gate_lines", "render_calibration_html", "render_calibration_text"]

#: What a domain without a name is called in the tables.
_NO_DOMAIN = "(no domain)"


def _headline(doc: Mapping[str, Any]) -> str:
    overall = doc["overall"]
    counts = doc.get("metrics") or {}
    metrics = (
        f"metric {next(iter(counts))}"
        if len(counts) == 1
        else "metrics " + ", ".join(f"{m} ({n})" for m, n in counts.items())
    )
    judge = (doc.get("judge") or {}).get("judge")
    return (
        f"{doc['source']}: {plural(int(overall['items']), 'item')} ({overall['supported']}"
        f" supported, {overall['unsupported']} not), {plural(int(doc['repeats']), 'repeat')},"
        f" judge {judge or '?'}, {metrics}"
    )


#: The figures of each group, in the columns' order.
_FIGURES = ("balanced_accuracy", "best_threshold", "balanced_accuracy_at_best", "roc_auc", "kappa")


def _table(doc: Mapping[str, Any]) -> list[list[str]]:
    t = format_bound(float(doc["threshold"]))
    repeats = int(doc["repeats"]) > 1
    header = [
        "",
        "items",
        f"bal. acc. @{t}",
        "best threshold",
        "bal. acc. @best",
        "ROC AUC",
        f"kappa @{t}",
    ]
    if repeats:
        header += ["mean |diff|", "flips"]
    rows = [header]
    groups = [("all", doc["overall"])]
    groups += [(name or _NO_DOMAIN, figures) for name, figures in doc.get("domains", {}).items()]
    for name, f in groups:
        row = [name, str(f["items"]), *(score_text(f[key]) for key in _FIGURES)]
        if repeats:
            c = f.get("consistency") or {}
            row += [score_text(c.get("mean_abs_diff")), f"{c.get('flips', 0)}/{f['items']}"]
        rows.append(row)
    return rows


def _consistency_line(doc: Mapping[str, Any]) -> str | None:
    c = doc["overall"].get("consistency")
    if not c:
        return None
    items = int(doc["overall"]["items"])
    return (
        f"self-consistency over {c['repeats']} repeats: mean |score difference|"
        f" {format_score(c['mean_abs_diff'])}; the verdict at {format_bound(doc['threshold'])}"
        f" flips on {c['flips']} of {plural(items, 'item')} ({format_percent(c['flip_rate'])})"
    )


def _disagreements(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The items whose verdict at the threshold is not their label, most wrong first."""
    wrong = [i for i in doc.get("items", []) if not i["agrees"]]
    return sorted(wrong, key=lambda i: -abs(float(i["score"]) - float(doc["threshold"])))


def _disagreement_line(doc: Mapping[str, Any]) -> str:
    wrong = _disagreements(doc)
    t = format_bound(float(doc["threshold"]))
    if not wrong:
        return f"every verdict at {t} agrees with its label"
    shown = " · ".join(
        f"{i['id']} (label {i['label']}, score {format_score(i['score'])})" for i in wrong[:5]
    )
    more = f" · {len(wrong) - 5} more" if len(wrong) > 5 else ""
    return f"verdicts at {t} against the label ({len(wrong)}): {shown}{more}"


def _gate_text(gate: Mapping[str, Any], threshold: float) -> str:
    bound = float(gate["bound"])
    value = float(gate["value"])
    shown = format_score(value, bound)
    if gate["figure"] == "balanced_accuracy":
        what = f"balanced accuracy at {format_bound(threshold)} {shown}"
        sign = ">=" if gate["met"] else "<"
    else:
        what = f"flip rate {shown}"
        sign = "<=" if gate["met"] else ">"
    text = f"{what} {sign} {gate['option']} {format_bound(bound)}"
    if not gate["met"]:
        text += f" by {format_score(float(gate['by']), 0.0)}"  # never "by 0.0000"
    return text


def gate_lines(doc: Mapping[str, Any]) -> list[str]:
    """One ``PASS:`` line per bound met, then one ``FAIL:`` line naming every bound missed and
    by how much (the last line, so a CI log's last line says why the job failed).

    Example:
        >>> gate_lines({"threshold": 0.5, "gates": [{"option": "--min-balanced-accuracy",
        ...     "figure": "balanced_accuracy", "bound": 0.8, "value": 0.75, "met": False,
        ...     "by": 0.05}]})
        ['FAIL: balanced accuracy at 0.5 0.7500 < --min-balanced-accuracy 0.8 by 0.0500']
    """
    threshold = float(doc["threshold"])
    gates = doc.get("gates") or []
    lines = [f"PASS: {_gate_text(g, threshold)}" for g in gates if g["met"]]
    missed = [_gate_text(g, threshold) for g in gates if not g["met"]]
    if missed:
        lines.append("FAIL: " + "; ".join(missed))
    return lines


def render_calibration_text(doc: Mapping[str, Any], width: int | None = None) -> str:
    """The calibration as plain text for a terminal (``width``: its width) or a CI log (None);
    the gate lines are not part of it (see :func:`gate_lines`)."""
    lines = [_headline(doc), ""]
    table = _table(doc)
    fitted = fit_columns(table, width, right=range(1, len(table[0])))
    lines.extend(line for row in fitted for line in row)
    lines.append("")
    consistency = _consistency_line(doc)
    if consistency:
        lines.append(consistency)
    lines.append(_disagreement_line(doc))
    totals = judge_totals(doc.get("judge"))
    if totals is not None:
        lines.append(totals.line())
    return "\n".join(lines)


def _strip_svg(doc: Mapping[str, Any]) -> str:
    """Each item's score as a dot on [0, 1], one row per label, the threshold a dashed line;
    dots of (nearly) equal scores stack up and down from the row's line."""
    items = doc.get("items") or []
    if not items:
        return ""
    left, width, gap = 130, 380, 60
    t = float(doc["threshold"])
    height = 30 + 2 * gap
    parts = [
        f'<svg class="chart" viewBox="0 0 530 {height}" role="img" aria-label="scores by label"'
        ' xmlns="http://www.w3.org/2000/svg"><title>scores by label</title>'
    ]
    for row, (label, name) in enumerate(((1, "label 1 (supported)"), (0, "label 0 (not)"))):
        y = 30 + gap * row
        parts.append(
            f'<text x="{left - 10}" y="{y + 4}" font-size="12" text-anchor="end">{name}</text>'
            f'<line x1="{left}" y1="{y}" x2="{left + width}" y2="{y}" stroke="#d0d7de"/>'
        )
        stacked: dict[int, int] = {}
        for item in items:
            if item["label"] != label:
                continue
            score = min(max(float(item["score"]), 0.0), 1.0)
            slot = round(score * 60)
            k = stacked.get(slot, 0)
            stacked[slot] = k + 1
            # 0, +1, -1, +2, -2, ... dots away from the line, at most 3 each way.
            step = min((k + 1) // 2, 3) * (1 if k % 2 else -1)
            colour = "#1a7f37" if item["agrees"] else "#c62828"
            parts.append(
                f'<circle class="dot" cx="{left + width * score:.1f}" cy="{y + 7 * step}" r="4"'
                f' fill="{colour}" fill-opacity="0.7"><title>{escape(item["id"])}:'
                f" {format_score(item['score'])}</title></circle>"
            )
    x = left + width * t
    parts.append(
        f'<line x1="{x:.1f}" y1="6" x2="{x:.1f}" y2="{30 + gap + 26}" stroke="#57606a"'
        f' stroke-dasharray="4 3"><title>threshold {format_bound(t)}</title></line>'
    )
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<text x="{left + width * tick:.1f}" y="{height - 6}" font-size="12"'
            f' text-anchor="middle" fill="#57606a">{tick:g}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _item_rows(items: Sequence[Mapping[str, Any]], more: tuple[str, ...]) -> list[list[object]]:
    """A table of items: id, line, domain, the ``more`` columns, label, score and run scores."""
    rows: list[list[object]] = [["id", "line", "domain", *more, "label", "score", "runs"]]
    for i in items:
        runs = ", ".join(format_score(r) for r in i["runs"])
        extra = [i[key] for key in more]
        score = score_text(i["score"])
        rows.append([i["id"], i["line"], i["domain"] or "", *extra, i["label"], score, runs])
    return rows


def render_calibration_html(doc: Mapping[str, Any]) -> str:
    """The calibration as one self-contained HTML page.

    Example:
        >>> page = render_calibration_html({"source": "l.jsonl", "threshold": 0.5,
        ...     "repeats": 1, "metrics": {"precision": 2}, "domains": {}, "gates": [],
        ...     "judge": None, "schema": "llm-scorekit-calibration/1",
        ...     "overall": {"items": 2, "supported": 1, "unsupported": 1,
        ...         "balanced_accuracy": 1.0, "best_threshold": 0.9,
        ...         "balanced_accuracy_at_best": 1.0, "roc_auc": 1.0, "kappa": 1.0},
        ...     "items": [{"id": "a", "label": 1, "score": 0.9, "runs": [0.9], "agrees": True,
        ...         "domain": None, "metric": "precision", "verdict": 1, "line": 1},
        ...         {"id": "b", "label": 0, "score": 0.1, "runs": [0.1], "agrees": True,
        ...         "domain": None, "metric": "precision", "verdict": 0, "line": 2}]})
        >>> page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
        True
    """
    overall = doc["overall"]
    t = format_bound(float(doc["threshold"]))
    cards = [
        card("items", f"{overall['items']} ({overall['supported']} / {overall['unsupported']})"),
        card(f"balanced accuracy @{t}", score_text(overall["balanced_accuracy"])),
        card("best threshold", score_text(overall["best_threshold"])),
        card("balanced accuracy @best", score_text(overall["balanced_accuracy_at_best"])),
        card("ROC AUC", score_text(overall["roc_auc"])),
        card(f"kappa @{t}", score_text(overall["kappa"])),
    ]
    c = overall.get("consistency")
    if c:
        cards.append(card("flip rate", format_percent(c["flip_rate"])))
        cards.append(card("mean |diff|", score_text(c["mean_abs_diff"])))
    totals = judge_totals(doc.get("judge"))
    cards += judge_cards(totals)
    notes = [_consistency_line(doc), totals.line() if totals is not None else None]
    notes += gate_lines(doc)
    header = (
        f'<p class="muted">{escape(_headline(doc))}</p>'
        f'<div class="cards">{"".join(cards)}</div>'
        + "".join(f'<p class="muted">{escape(n)}</p>' for n in notes if n)
    )
    sections = [
        f'<section id="figures"><h2>Figures</h2>{html_table(_table(doc))}'
        f'<figure class="plot"><figcaption>Scores by label (red: verdict at {escape(t)} against'
        f" the label)</figcaption>{_strip_svg(doc)}</figure></section>"
    ]
    wrong = _disagreements(doc)
    if wrong:
        sections.append(
            f'<section id="disagreements"><h2>Verdicts at {escape(t)} against the label</h2>'
            f"{html_table(_item_rows(wrong, ()), numeric=3)}</section>"
        )
    rows = _item_rows(doc.get("items") or [], ("metric",))
    sections.append(f'<section id="items"><h2>Items</h2>{html_table(rows, numeric=4)}</section>')
    return page_html(
        "Judge calibration report", header, "".join(sections), schema=str(doc.get("schema", ""))
    )
