"""The dataset summary as Markdown (a CI job summary): every section, cells escaped."""

from __future__ import annotations

from scorekit.report import render_dataset_markdown

DOC = {
    "source": "runs/agent.jsonl",
    "rows": 1000,
    "scored": 998,
    "errors": 2,
    "resumed": 400,
    "seconds": 2.0,
    "rows_per_second": 500.0,
    "engine": "local",
    "workers": 2,
    "output": "out/results.jsonl",
    "scores": {"score": {"mean": 0.75, "std": 0.1, "min": 0.0, "p50": 0.8, "max": 1.0}},
    "categories": {"grade": {"A": 499, "F": 499}},
    "failures": {"missing calls": 250},
    "top": {"missing tools": [["book_flight", 200], ["pay|now", 50]]},
    "error_kinds": {"invalid_trace": 2},
    "error_examples": [
        {"row": 7, "id": "case-7", "kind": "invalid_trace", "error": "not JSON"},
        {"row": 9, "kind": "invalid_trace", "error": "a <b> tag"},
    ],
    "lowest": [{"row": 3, "id": None, "score": 0.0}, {"row": 5, "id": "c5", "score": 0.25}],
    "main_score": "score",
    "stopped": "the budget of 2 errors was reached",
}


def test_every_section_of_a_full_summary() -> None:
    text = render_dataset_markdown(DOC)
    assert text.splitlines() == [
        "# Dataset score report",
        "",
        "runs/agent.jsonl: 1,000 rows in 2.0 s (500 rows/s), local engine, 2 workers.",
        "",
        "scored 998, errors 2, 400 from the earlier run (resumed).",
        "",
        "Per-row results: `out/results.jsonl`",
        "",
        "## Scores",
        "",
        "| score | mean | std | min | p10 | p25 | median | p75 | p90 | max |",
        "|---|---|---|---|---|---|---|---|---|---|",
        "| score | 0.7500 | 0.1000 | 0.0000 | - | - | 0.8000 | - | - | 1.0000 |",
        "",
        "## Grades",
        "",
        "| grade | rows |",
        "|---|---|",
        "| A | 499 (50.0%) |",
        "| F | 499 (50.0%) |",
        "",
        "## Failures by kind",
        "",
        "| rows with | rows |",
        "|---|---|",
        "| missing calls | 250 (25.1%) |",
        "",
        "## Missing tools",
        "",
        "| value | rows |",
        "|---|---|",
        "| book_flight | 200 |",
        "| pay\\|now | 50 |",  # a pipe would end the cell
        "",
        "## Errors",
        "",
        "| kind | rows |",
        "|---|---|",
        "| invalid_trace | 2 |",
        "",
        "| row | id | kind | error |",
        "|---|---|---|---|",
        "| 7 | case-7 | invalid_trace | not JSON |",
        "| 9 | – | invalid_trace | a \\<b\\> tag |",
        "",
        "## Lowest score",
        "",
        "| id | row | score |",
        "|---|---|---|",
        "| row 3 | 3 | 0.0000 |",
        "| c5 | 5 | 0.2500 |",
        "",
        "**Stopped early:** the budget of 2 errors was reached",
    ]


def test_a_bare_summary_has_the_headline_and_counts_only() -> None:
    doc = {k: DOC[k] for k in ("source", "rows", "scored", "errors", "seconds", "engine")}
    doc.update(rows_per_second=0.0, workers=1)
    assert render_dataset_markdown(doc) == (
        "# Dataset score report\n\n"
        "runs/agent.jsonl: 1,000 rows in 2.0 s (0 rows/s), local engine, 1 worker.\n\n"
        "scored 998, errors 2.\n"
    )
