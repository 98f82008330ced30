"""Statement extraction of the local judge (no model needed)."""

from __future__ import annotations

import pytest

from scorekit.local._lexicon import features
from scorekit.local._statements import (
    clauses,
    question_for,
    sentences,
    statement_of,
    statements,
)


def test_sentences_split_on_full_stops_but_not_decimals_or_abbreviations() -> None:
    text = "Version 4.1 adds sync. Orders before 2 p.m. ship today! Dr. Ames agrees."
    assert sentences(text) == ["Version 4.1 adds sync.", "Orders before 2 p.m. ship today!",
                               "Dr. Ames agrees."]  # fmt: skip


def test_list_items_are_statements_of_their_own() -> None:
    text = "Changes:\n- Faster export to PDF\n- Offline sync for notebooks\n1. Android 8 dropped"
    assert statements(text) == [
        "Changes",
        "Faster export to PDF",
        "Offline sync for notebooks",
        "Android 8 dropped",
    ]


def test_lowercase_news_text_is_split_into_sentences() -> None:
    assert sentences("the man was arrested. he denies it.") == [
        "the man was arrested.",
        "he denies it.",
    ]


def test_clauses_split_coordinated_facts_and_keep_short_pieces_joined() -> None:
    assert clauses("Adult tickets cost 12 euros, and children under 10 get in free.") == [
        "Adult tickets cost 12 euros",
        "children under 10 get in free",
    ]
    assert clauses("Tea and coffee reduce how much iron the body absorbs.") == [
        "Tea and coffee reduce how much iron the body absorbs"
    ]
    assert clauses("The deposit is due; the keys are handed over on Monday.") == [
        "The deposit is due",
        "the keys are handed over on Monday",
    ]


def test_duplicate_statements_are_asked_once() -> None:
    assert statements("It rains. It rains. It snows.") == ["It rains", "It snows"]


def test_very_long_sentences_are_cut_into_pieces() -> None:
    text = " ".join(f"word{i}" for i in range(150))
    pieces = statements(text)
    assert len(pieces) == 3
    assert all(len(p.split()) <= 60 for p in pieces)


@pytest.mark.parametrize("statement", ["Bikes ride free", "Is it 3.5 mm?", "It's 'quoted'"])
def test_question_and_statement_round_trip(statement: str) -> None:
    assert statement_of(question_for(statement)) == statement


def test_foreign_questions_are_read_as_statements() -> None:
    assert statement_of("Is the sky blue?") == "Is the sky blue?"


def test_features_find_numbers_names_and_negation() -> None:
    f = features("Mara Lindqvist did not win 21,000 dollars in twenty-five days at 22:10.")
    # 25 days as written, and in seconds for comparing durations across units.
    assert f.numbers == {"21000", "25", str(25 * 86400), "22:10"}
    assert (str(25 * 86400), "duration") in f.quantities
    assert "lindqvist" in f.names  # a capital at a sentence start alone proves nothing
    assert f.negated == 1
    assert features("a $ 10 million fee").numbers == {"10000000"}
    assert features("It runs twice a day").numbers == features("two runs a day").numbers
