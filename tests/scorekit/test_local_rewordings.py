"""Rewordings the local judge accepts: number words, units written out, acronyms, and the
sentence and clause splits behind them (unit checks with exact words only; no model).

Each expected value is worked out by hand from the sentence pair (a number written as a word
is the same number; an abbreviation spelled out names the same thing; a changed value or a
different abbreviation in the same place is a contradiction).
"""

from __future__ import annotations

import pytest

from scorekit.local._lexicon import features
from scorekit.local._statements import statements
from scorekit.local._units import UnitCheck, check_units


def check(statement: str, text: str) -> UnitCheck:
    p = features(text)
    s = features(statement)
    return check_units(s, p, (p,), p.content, p.numbers, p.words, None, None)


@pytest.mark.parametrize(
    ("statement", "text"),
    [
        ("The box holds twelve eggs.", "The box holds 12 eggs."),
        ("The box holds a dozen eggs.", "The box holds 12 eggs."),
        ("He scored eighteen goals last season.", "He scored 18 goals last season."),
        ("The trip covers 40 km.", "The trip covers 40 kilometres."),
        ("Water boils at 100 °C at sea level.", "Water boils at 100 degrees Celsius at sea level."),
        ("A bus comes every half hour.", "A bus comes every 30 minutes."),
        ("The EU fined the company.", "The company was fined by the European Union."),
        ("The company was fined by the European Union.", "The EU fined the company."),
        ("The endpoint answers with HTTP 429.", "The endpoint responds with status 429."),
        ("The CEO resigned in March.", "The chief executive resigned in March."),
    ],
    ids=["number-word", "dozen", "eighteen", "km", "degrees", "half-hour", "acronym",
         "expansion", "generic-acronym", "ceo"],
)  # fmt: skip
def test_a_rewording_has_no_conflict_and_no_missing_unit(statement: str, text: str) -> None:
    c = check(statement, text)
    assert c.conflicts == {}
    assert c.missing == {}


@pytest.mark.parametrize(
    ("statement", "text", "kind", "why"),
    [
        ("The box holds a dozen eggs.", "The box holds 10 eggs.", "number",
         "'12 eggs' is not in the text; it says 10 eggs"),
        ("The trip covers 40 km.", "The trip covers 40 miles.", "number",
         "'40 km' is not in the text; it says 40 miles"),
        ("The CEO resigned in March.", "The CFO resigned in March.", "name",
         "'CEO' is not in the text; it names CFO"),
        ("The EU fined the company.", "The US fined the company.", "name",
         "'EU' is not in the text; it names US"),
    ],
    ids=["dozen-vs-10", "km-vs-miles", "ceo-vs-cfo", "eu-vs-us"],
)  # fmt: skip
def test_another_value_or_abbreviation_in_its_place_is_a_conflict(
    statement: str, text: str, kind: str, why: str
) -> None:
    assert check(statement, text).conflicts.get(kind) == why


def test_a_name_acronym_found_nowhere_is_still_missing() -> None:
    # "NATO" is no abbreviation of a common noun: a text without it does not state it.
    c = check("NATO approved the plan.", "The council approved the plan.")
    assert c.missing == {"name": "'NATO' is not in the text"}
    # "API" is one: the text may call it an interface.
    assert check("The API approved the plan.", "The council approved the plan.").missing == {}


def test_clock_times_end_sentences_and_ranges_stay_whole() -> None:
    text = "Night buses run between midnight and 5 a.m. Tickets cost 3 euros."
    assert statements(text) == [
        "Night buses run between midnight and 5 a.m",
        "Tickets cost 3 euros",
    ]
