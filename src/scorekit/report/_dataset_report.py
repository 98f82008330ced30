"""The report of a dataset run (``evaluate_dataset``, ``eval-dataset``): the summary document
(schema ``llm-scorekit-dataset/1``, see ``scorekit.batch.DatasetSummary``) as text, Markdown and
one self-contained HTML page whose charts are inline SVG (it opens offline, loads nothing).

Per-row results live in the results file (Parquet or JSON lines); a report shows the whole:
every score's distribution, grades, failures by kind, errors by kind with examples, the rows
with the lowest scores and the judge's work.

The HTML page's charts are drawn by ``_dataset_charts``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format._rounding import format_score, round_score, rounded_scores
from scorekit.format._shorten import shorten
from scorekit.format._text_table import fit_columns
from scorekit.report._dataset_charts import bars_svg, count_with_share, histogram_svg, score_text
from scorekit.report._html_page import card, escape, html_table, judge_cards, page_html
from scorekit.report._markdown_report import md_cell
from scorekit.report._totals import judge_totals

__all__ = [
    "SCORE_COLUMNS",
    "dataset_json",
    "render_dataset_html",
    "render_dataset_markdown",
    "render_dataset_text",
]

#: The columns of the score table, in order: (key in the score stats, header).
SCORE_COLUMNS = (
    ("mean", "mean"),
    ("std", "std"),
    ("min", "min"),
    ("p10", "p10"),
    ("p25", "p25"),
    ("p50", "median"),
    ("p75", "p75"),
    ("p90", "p90"),
    ("max", "max"),
)


_STAT_KEYS = frozenset(("mean", "std", "min", "max")) | {k for k, _ in SCORE_COLUMNS}


def dataset_json(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The summary as a JSON report shows it: its scores (``mean``, each score's statistics,
    the lowest rows' scores) rounded as every output rounds them (``scorekit.format._rounding``).

    Example:
        >>> doc = dataset_json({"mean": 2 / 3, "scores": {"score": {"count": 3, "p50": 0.12346}},
        ...     "lowest": [{"row": 0, "id": "a", "score": 0.123456}]})
        >>> doc["mean"], doc["scores"], doc["lowest"][0]["score"]
        (0.6667, {'score': {'count': 3, 'p50': 0.1235}}, 0.1235)
    """
    out = dict(doc)
    if isinstance(out.get("mean"), (int, float)):
        out["mean"] = round_score(out["mean"])
    if out.get("scores"):
        out["scores"] = {
            name: {
                k: round_score(v) if k in _STAT_KEYS and isinstance(v, (int, float)) else v
                for k, v in stats.items()
            }
            for name, stats in out["scores"].items()
        }
    if out.get("lowest"):
        out["lowest"] = rounded_scores(out["lowest"])
    return out


def _score_table(scores: Mapping[str, Mapping[str, Any]]) -> list[list[str]]:
    table = [["score", *(h for _, h in SCORE_COLUMNS)]]
    for name, stats in scores.items():
        table.append([name, *(score_text(stats.get(k)) for k, _ in SCORE_COLUMNS)])
    return table


def _row_name(row: Mapping[str, Any]) -> str:
    return str(row["id"]) if row.get("id") is not None else f"row {row['row']}"


def _lowest_rows(doc: Mapping[str, Any]) -> list[list[object]]:
    return [[_row_name(r), r["row"], format_score(r["score"])] for r in doc["lowest"]]


def _example_rows(doc: Mapping[str, Any], width: int) -> list[list[object]]:
    return [
        [ex["row"], ex.get("id") or "–", ex["kind"], shorten(str(ex["error"]), width)]
        for ex in doc.get("error_examples") or []
    ]


def _headline(doc: Mapping[str, Any]) -> str:
    workers = int(doc["workers"])
    return (
        f"{doc['source']}: {int(doc['rows']):,} rows in {doc['seconds']:.1f} s"
        f" ({doc['rows_per_second']:,.0f} rows/s), {doc['engine']} engine,"
        f" {workers} worker{'s' if workers != 1 else ''}"
    )


def _counts(doc: Mapping[str, Any]) -> str:
    text = f"scored {doc['scored']:,}, errors {doc['errors']:,}"
    if doc.get("resumed"):
        text += f", {doc['resumed']:,} from the earlier run (resumed)"
    return text


def _judge_line(doc: Mapping[str, Any]) -> str | None:
    totals = judge_totals(doc.get("judge"))
    return totals.line() if totals is not None else None


# -- text ---------------------------------------------------------------------------------------


def render_dataset_text(doc: Mapping[str, Any], width: int | None = None) -> str:
    """The summary as plain text for a terminal (``width``: its width) or a CI log (None).

    Example:
        >>> print(render_dataset_text({"source": "d.jsonl", "rows": 0, "scored": 0,
        ...     "errors": 0, "seconds": 0.1, "rows_per_second": 0.0, "engine": "local",
        ...     "workers": 1}))
        d.jsonl: 0 rows in 0.1 s (0 rows/s), local engine, 1 worker
          scored 0, errors 0
    """
    lines = [_headline(doc), "  " + _counts(doc)]
    if doc.get("output"):
        lines.append(f"  results: {doc['output']}")
    if doc.get("scores"):
        lines.append("")
        table = _score_table(doc["scores"])
        fitted = fit_columns(table, width, right=range(1, len(table[0])))
        lines.extend(line for row in fitted for line in row)
    scored = int(doc["scored"])
    for name, by_value in (doc.get("categories") or {}).items():
        lines.append(
            f"{name}: "
            + " · ".join(f"{v} {count_with_share(c, scored)}" for v, c in by_value.items())
        )
    if doc.get("failures"):
        parts = [f"{k} {count_with_share(c, scored)}" for k, c in doc["failures"].items()]
        lines.append("rows with: " + " · ".join(parts))
    for label, pairs in (doc.get("top") or {}).items():
        lines.append(f"{label}: " + " · ".join(f"{v} {c:,}" for v, c in pairs))
    if doc.get("error_kinds"):
        kinds = " · ".join(f"{k} {c:,}" for k, c in doc["error_kinds"].items())
        lines.append(f"errors by kind: {kinds}")
        for ex in doc.get("error_examples") or []:
            key = f" (id {ex['id']})" if ex.get("id") is not None else ""
            lines.append(f"  row {ex['row']}{key} {ex['kind']}: {shorten(str(ex['error']), 160)}")
    if doc.get("lowest"):
        parts = [f"{_row_name(r)} {format_score(r['score'])}" for r in doc["lowest"][:5]]
        lines.append(f"lowest {doc.get('main_score', 'score')}: " + " · ".join(parts))
    judge = _judge_line(doc)
    if judge:
        lines.append(judge)
    if doc.get("stopped"):
        lines.append(f"stopped early: {doc['stopped']}")
    return "\n".join(lines)


# -- Markdown -----------------------------------------------------------------------------------


def _md_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(md_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return [*out, ""]


def render_dataset_markdown(doc: Mapping[str, Any]) -> str:
    """The summary as Markdown tables (a CI job summary or a pull-request comment)."""
    out = ["# Dataset score report", "", md_cell(_headline(doc)) + ".", "", _counts(doc) + ".", ""]
    if doc.get("output"):
        out += [f"Per-row results: `{doc['output']}`", ""]
    if doc.get("scores"):
        table = _score_table(doc["scores"])
        out += ["## Scores", "", *_md_table(table[0], table[1:])]
    scored = int(doc["scored"])
    for name, by_value in (doc.get("categories") or {}).items():
        rows = [[v, count_with_share(c, scored)] for v, c in by_value.items()]
        out += [f"## {name.capitalize()}s", "", *_md_table([name, "rows"], rows)]
    if doc.get("failures"):
        rows = [[k, count_with_share(c, scored)] for k, c in doc["failures"].items()]
        out += ["## Failures by kind", "", *_md_table(["rows with", "rows"], rows)]
    for label, pairs in (doc.get("top") or {}).items():
        out += [f"## {label.capitalize()}", "", *_md_table(["value", "rows"], pairs)]
    if doc.get("error_kinds"):
        out += ["## Errors", "", *_md_table(["kind", "rows"], list(doc["error_kinds"].items()))]
        out += _md_table(["row", "id", "kind", "error"], _example_rows(doc, 200))
    if doc.get("lowest"):
        lowest = _md_table(["id", "row", "score"], _lowest_rows(doc))
        out += [f"## Lowest {doc.get('main_score', 'score')}", "", *lowest]
    judge = _judge_line(doc)
    if judge:
        out += [f"_{md_cell(judge)}_", ""]
    if doc.get("stopped"):
        out += [f"**Stopped early:** {md_cell(doc['stopped'])}", ""]
    return "\n".join(out).rstrip() + "\n"


# -- HTML ---------------------------------------------------------------------------------------


def render_dataset_html(doc: Mapping[str, Any]) -> str:
    """The summary as one self-contained HTML page with SVG charts.

    Example:
        >>> page = render_dataset_html({"source": "d.jsonl", "rows": 1, "scored": 1,
        ...     "errors": 0, "seconds": 0.1, "rows_per_second": 10.0, "engine": "local",
        ...     "workers": 1, "main_score": "score", "mean": 1.0,
        ...     "scores": {"score": {"count": 1, "mean": 1.0, "p50": 1.0,
        ...                          "histogram": [0] * 19 + [1]}}})
        >>> page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
        True
    """
    scored = int(doc["scored"])
    main = doc.get("main_score") or "score"
    cards = [
        card("rows", f"{int(doc['rows']):,}"),
        card("scored", f"{scored:,}"),
        card("errors", f"{int(doc['errors']):,}"),
        card(f"mean {main}", score_text(doc.get("mean"))),
        card("rows/s", f"{doc['rows_per_second']:,.0f}"),
    ]
    totals = judge_totals(doc.get("judge"))
    cards += judge_cards(totals)
    header = (
        f'<p class="muted">{escape(_headline(doc))}</p>'
        f'<div class="cards">{"".join(cards)}</div>'
        + (f'<p class="muted">{escape(totals.line())}</p>' if totals is not None else "")
        + (
            f'<p class="error-msg">Stopped early: {escape(doc["stopped"])}</p>'
            if doc.get("stopped")
            else ""
        )
    )
    sections = []
    if doc.get("output"):
        sections.append(f"<p>Per-row results: <code>{escape(doc['output'])}</code></p>")
    scores = doc.get("scores") or {}
    if scores:
        table = _score_table(scores)
        charts = "".join(
            f'<figure class="plot"><figcaption><code>{escape(name)}</code></figcaption>'
            f"{histogram_svg(name, stats)}</figure>"
            for name, stats in scores.items()
        )
        sections.append(
            f'<section id="scores"><h2>Scores</h2>{html_table(table)}'
            f'<h2>Distributions</h2><div class="grid">{charts}</div></section>'
        )
    for name, by_value in (doc.get("categories") or {}).items():
        sections.append(
            f'<section id="{escape(name)}"><h2>{escape(name.capitalize())}s</h2>'
            f"{bars_svg(name, list(by_value.items()), scored)}</section>"
        )
    if doc.get("failures"):
        sections.append(
            '<section id="failures"><h2>Failures by kind</h2>'
            f"{bars_svg('rows with', list(doc['failures'].items()), scored)}</section>"
        )
    for label, pairs in (doc.get("top") or {}).items():
        items = [(str(v), int(c)) for v, c in pairs]
        title = escape(label.capitalize())
        sections.append(f"<section><h2>{title}</h2>{bars_svg(label, items, scored)}</section>")
    if doc.get("error_kinds"):
        examples = _example_rows(doc, 300)
        sections.append(
            '<section id="errors"><h2>Errors</h2>'
            f"{bars_svg('errors by kind', list(doc['error_kinds'].items()), int(doc['rows']))}"
            f"{html_table([['row', 'id', 'kind', 'error'], *examples], numeric=99)}</section>"
        )
    if doc.get("lowest"):
        sections.append(
            f'<section id="lowest"><h2>Lowest {escape(main)}</h2>'
            f"{html_table([['id', 'row', main], *_lowest_rows(doc)])}</section>"
        )
    return page_html(
        "Dataset score report", header, "".join(sections), schema=str(doc.get("schema", ""))
    )
