"""An example suite for pytest_texts_score that runs offline with the embedded judge.

Run it with ``pytest examples/texts``: no key, no network. The ``local`` judge checks semantic
coverage, numbers, names and negation; for contradictions of ordinary words ("nurse" for
"teacher") configure an LLM judge (``--llm-provider openai ...``).
"""

from __future__ import annotations

from pathlib import Path

from pytest_texts_score import (
    texts_expect_f1_range,
    texts_expect_precision_range,
    texts_expect_recall_range,
)

HERE = Path(__file__).parent
EXPECTED = (HERE / "expected.txt").read_text(encoding="utf-8")


def summarise(notes: str) -> str:
    """Stands in for the LLM feature under test: a release-notes summariser."""
    return (
        "Quillpad 4.1 brings offline sync to shared notebooks and makes PDF export about twice"
        " as fast. It also fixes tags being duplicated on import, and Android 8 is no longer"
        " supported."
    )


def test_summary_keeps_every_fact() -> None:
    texts_expect_recall_range(EXPECTED, summarise(EXPECTED), min_score=0.8, max_score=1.0)


def test_summary_adds_nothing_unsupported() -> None:
    texts_expect_precision_range(EXPECTED, summarise(EXPECTED), min_score=0.8, max_score=1.0)


def test_a_wrong_version_number_costs_a_fact() -> None:
    wrong = EXPECTED.replace("Android 8", "Android 9")
    texts_expect_f1_range(EXPECTED, wrong, min_score=0.6, max_score=0.85)


def test_the_shipped_example_files_differ_by_one_fact() -> None:
    given = (HERE / "given.txt").read_text(encoding="utf-8")
    texts_expect_f1_range(EXPECTED, given, min_score=0.6, max_score=0.9)


def test_fixture_style(texts_score: dict) -> None:  # type: ignore[type-arg]
    texts_score["expect_f1_equal"](EXPECTED, EXPECTED, target=1.0, max_delta=0.05)
