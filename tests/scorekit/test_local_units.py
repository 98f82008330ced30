"""The content units of a statement, checked one by one (no model needed: exact words only)."""

from __future__ import annotations

import json

import pytest

from scorekit.local._lexicon import features, normalise, stem, word_table
from scorekit.local._statements import focus, split_detail, statements
from scorekit.local._support import CONFLICT_SIGNALS, SIGNALS, SUPPORT_SIGNALS, Match
from scorekit.local._units import (
    ANTONYMS_FILE,
    SYNONYMS_FILE,
    UnitCheck,
    check_units,
    opposites,
    synonyms,
)
from scorekit.local._verdict import WEIGHTS_FILE, Weights, read_weights, reason


def check(statement: str, text: str) -> UnitCheck:
    p = features(text)
    s = features(statement)
    return check_units(s, p, (p,), p.content, p.numbers, p.words, None, None)


@pytest.mark.parametrize(
    ("statement", "text", "kind", "why"),
    [
        ("John will present the budget.", "Maria will present the budget.", "name",
         "'John' is not in the text; it names Maria"),
        ("the mayor of nantes resigned.", "the mayor of lyon resigned.", "swap",
         "'nantes' is not in the text; it says 'lyon'"),
        ("It was built in 1887.", "It was built in 1889.", "number",
         "'1887' is not in the text; it says 1889"),
        ("The tank holds 40 gallons.", "The tank holds 40 litres.", "number",
         "'40 gallons' is not in the text; it says 40 litres"),
        ("The flight takes two hours.", "The flight takes 90 minutes.", "number",
         "'2 hours' is not in the text; it says 90 minutes"),
        ("Sales fell in May.", "Sales rose in May.", "opposite",
         "'fell' is not in the text; it says 'rose'"),
        ("Check out after noon.", "Check out before noon.", "opposite",
         "'after' is not in the text; it says 'before'"),
        ("The refund was not approved.", "The refund was approved.", "polarity",
         "the text states the opposite (this negates it)"),
        ("The firm may cut 200 jobs.", "The firm will cut 200 jobs.", "modality",
         "'cut' is hedged here; the text states it as certain"),
        ("Some staff can work from home.", "All staff can work from home.", "quantifier",
         "'some' where the text says 'all'"),
        ("Chelsea beat Arsenal in the final.", "Arsenal beat Chelsea in the final.", "relation",
         "the text states the relation the other way round"),
        ("Support for Android 8 was dropped.", "Android 8 is supported.", "polarity",
         "the text states the opposite ('drop' on one side only)"),
        ("The new policy is unpopular with teachers.", "The new policy is popular with teachers.",
         "opposite", "'unpopular' is not in the text; it says 'popular'"),
        ("A woman was arrested at the scene.", "A man was arrested at the scene.", "opposite",
         "'woman' is not in the text; it says 'man'"),
        ("The flights to Oslo were cancelled.", "The flights to Oslo went ahead.", "polarity",
         "the text states the opposite ('cancel' on one side only)"),
        ("she works in the nantes office.", "she works in the lyon office.", "swap",
         "'nantes' is not in the text; it says 'lyon'"),
        ("The warranty lasts two months.", "The warranty lasts two years.", "number",
         "'2 months' is not in the text; it says 2 years"),
        ("Valencia beat Real Madrid 3-1.", "Real Madrid beat Valencia 3-1.", "relation",
         "the text states the relation the other way round"),
        ("Real Madrid lost to Valencia.", "Real Madrid beat Valencia.", "opposite",
         "'lost' is not in the text; it says 'beat'"),
        ("The concert starts at 8 am.", "The concert starts at 8 pm.", "number",
         "'8:00' is not in the text; it says 20:00"),
        ("The film was directed by Greta Lee.", "The film was directed by Greta Gerwig.",
         "name", "'Lee' is not in the text; it names Gerwig"),
        ("The film was directed by Sofia Gerwig.", "The film was directed by Greta Gerwig.",
         "name", "'Sofia' is not in the text; it names Greta"),
    ],
    ids=["name-at-start", "lowercase-name", "year", "unit", "duration", "opposite",
         "before-after", "negation", "modality", "quantifier", "roles", "privative",
         "wordnet-antonym", "wordnet-antonym-noun", "privative-noun-side", "name-after-article",
         "months-years", "roles-two-word-name", "opposite-same-sides",
         "am-pm", "surname-changed", "given-name-changed"],
)  # fmt: skip
def test_a_changed_unit_is_a_conflict(statement: str, text: str, kind: str, why: str) -> None:
    assert check(statement, text).conflicts.get(kind) == why


@pytest.mark.parametrize(
    ("statement", "text"),
    [
        ("Android 8 is no longer supported.", "Support for Android 8 was dropped."),
        ("Chelsea were beaten by Arsenal in the final.", "Arsenal beat Chelsea in the final."),
        ("France's capital is Paris.", "Paris is the capital of France."),
        ("The course lasts 2 weeks.", "The course lasts two weeks."),
        ("The flight takes an hour and a half.", "The flight takes 90 minutes."),
        ("The renovation cost 4 million dollars.", "The renovation cost $4 million."),
        ("The budget grew by 12%.", "The budget grew by 12 per cent."),
        ("No page holds more than 50 entries.", "Each page contains at most 50 items."),
        ("The rocket did not reach orbit.", "The rocket failed to reach orbit."),
        ("The museum reopened in may.", "the museum reopened in may after a renovation."),
        ("Lopes would be keen to stay.", "Lopes would be keen to stay if he is not sure."),
        ("Flights to Oslo were cancelled.", "The storm forced the cancellation of flights."),
        ("The feature was removed in version 3.", "Version 3 saw the removal of the feature."),
        ("50 percent of the students passed.", "Half of the students passed."),
        ("The museum is closed on Mondays.", "On Mondays the museum does not open."),
        ("On Mondays the museum does not open.", "The museum is closed on Mondays."),
        ("On Sunday Valencia lost 3-1 to Real Madrid.", "Real Madrid beat Valencia 3-1 on Sunday."),
        ("Lunch is after the meeting.", "The meeting is before lunch."),
        ("The concert starts at 8 pm.", "The concert begins at 20:00."),
        ("Tours start at eleven in the morning.", "Tours start at 11 a.m."),
        ("The film was directed by Greta Gerwig.", "Gerwig directed the film."),
    ],
    ids=["privative", "passive", "possessive", "number-word", "spelled-duration", "currency",
         "percent", "bounds", "failed-to", "month-may", "other-clause-negation", "privative-noun",
         "privative-noun-2", "half",
         "denied-opposite", "denied-opposite-2", "converse", "direction-sides-swapped",
         "clock", "given-name-left-out", "clock-words"],
)  # fmt: skip
def test_an_accepted_paraphrase_is_no_conflict(statement: str, text: str) -> None:
    assert check(statement, text).conflicts == {}


def test_a_unit_found_nowhere_is_unsupported_not_contradicted() -> None:
    c = check("The Eiffel Tower was completed in 1889 by Gustave Eiffel.", "It stands in Paris.")
    assert c.conflicts == {}
    assert c.missing == {
        "name": "'Eiffel' is not in the text",
        "number": "'1889' is not in the text",
    }
    assert (c.missing_names, c.missing_numbers) == (3, 1)  # Eiffel, Tower, Gustave; 1889


def test_content_credit_is_the_weakest_link_and_the_share() -> None:
    c = check("The museum reopened after a costly renovation.", "The museum reopened.")
    assert c.credit == pytest.approx(
        2 / 4
    )  # museum, reopened of museum, reopened, costly, renovation
    assert c.weakest == 0.0
    assert c.weakest_word in {"costly", "renovation"}


@pytest.mark.parametrize(
    ("a", "b"),
    [("page", "pages"), ("take", "taking"), ("take", "took"), ("child", "children"),
     ("buy", "bought"), ("tyre", "tyres"), ("charge", "charged")],
)  # fmt: skip
def test_forms_of_one_word_share_a_stem(a: str, b: str) -> None:
    assert stem(a) == stem(b)


@pytest.mark.parametrize(("a", "b"), [("found", "find"), ("left", "leave"), ("page", "pig")])
def test_words_of_their_own_keep_their_stem(a: str, b: str) -> None:
    assert stem(a) != stem(b)


@pytest.mark.parametrize(
    ("statement", "text"),
    [
        ("The endpoint responds with status 429.", "The endpoint answers with status 429."),
        ("Buyers can purchase the kettle online.", "Buyers can buy the kettle online."),
        ("The shop opens at noon.", "The store opens at noon."),
    ],
    ids=["verb", "verb-2", "noun"],
)
def test_a_synonym_counts_as_the_word(statement: str, text: str) -> None:
    c = check(statement, text)
    assert (c.credit, c.weakest, c.conflicts) == (1.0, 1.0, {})


@pytest.mark.parametrize(
    ("statement", "text"),
    [
        ("The cat sleeps on the sofa.", "The dog sleeps on the sofa."),
        ("The soup is hot.", "The soup is cold."),
        ("The doctor signed the form.", "The nurse signed the form."),
    ],
    ids=["kind-of-thing", "antonym", "neighbour"],
)
def test_a_neighbour_of_the_same_kind_is_no_synonym(statement: str, text: str) -> None:
    assert check(statement, text).credit < 1.0


def test_a_noun_of_ending_counts_as_its_verb() -> None:
    c = check(
        "Flights to Oslo were cancelled.", "The storm caused the cancellation of flights to Oslo."
    )
    assert (c.credit, c.conflicts) == (1.0, {})


def test_an_opposite_the_whole_statement_says_is_no_contradiction() -> None:
    # The detail "which followed 2,000 patients" is checked as the focus of its statement; the
    # passage's "led" is the statement's own word, not the opposite of "followed".
    text = features("Dr Chen led the study, which tracked 2,000 patients.")
    whole = features("Dr Chen led the study, which followed 2,000 patients.")
    detail = features(focus("Dr Chen led the study, which followed 2,000 patients."))
    args = (text, (text,), text.content, text.numbers, text.words, None, None)
    assert "opposite" not in check_units(detail, *args, whole).conflicts
    assert "opposite" in check_units(detail, *args).conflicts


def test_the_antonym_table_pairs_opposites_both_ways() -> None:
    pairs = word_table(ANTONYMS_FILE)
    assert len(pairs) > 1_000 and all(len(p) == 2 and p[0] < p[1] for p in pairs)
    assert stem("unpopular") in opposites(stem("popular"))
    assert stem("popular") in opposites(stem("unpopular"))
    assert stem("large") not in opposites(stem("big"))


def test_the_synonym_table_holds_word_groups_and_no_opposites() -> None:
    groups = word_table(SYNONYMS_FILE)
    assert len(groups) > 10_000
    assert all(
        len(set(g)) == len(g) >= 2 and all(w.isalpha() and w.islower() for w in g) for g in groups
    )
    assert not any(opposites(w) & set(g) for g in groups for w in g)
    assert "answer" in synonyms(stem("responds")) and "dog" not in synonyms("cat")


def test_normalise_writes_currencies_percentages_and_negations_one_way() -> None:
    assert normalise("The U.K. spent £3 million, up 4 pct; it is no longer cheap.") == (
        "The UK spent 3 million pound, up 4%; it is not cheap."
    )


def test_sentence_start_names_and_instructions() -> None:
    assert features("Maria will present the budget.").maybe_names == {"maria"}
    assert features("Leave the chickpeas in water.").maybe_names == frozenset()
    assert features("Most voters agreed.").maybe_names == frozenset()
    assert features("The keynote is by Priya Raman.").names == {"priya", "raman"}


def test_trailing_details_become_statements_of_their_own() -> None:
    text = "The museum reopened in May after a two-year renovation costing 4 million euros."
    assert statements(text) == [
        "The museum reopened in May",
        "The museum reopened in May after a two-year renovation costing 4 million euros",
    ]
    assert focus(statements(text)[1]) == "after a two-year renovation costing 4 million euros"
    assert split_detail("Maria, who joined in 2019, will present the budget") == (
        "Maria will present the budget",
        "who joined in 2019",
    )
    assert split_detail("The cafe closes an hour before the museum") is None


def test_the_packaged_weights_are_monotone_and_readable() -> None:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert tuple(data["support_signals"]) + tuple(data["conflict_signals"]) == SIGNALS
    w = read_weights()
    assert all(c >= 0 for c in w.coef)  # more support never lowers an answer
    assert all(0.0 <= v < 1.0 for v in w.vetoes)
    assert data["held_out_figures"]  # the fit records its held-out figures beside the weights


def test_a_conflict_keeps_only_part_of_the_support() -> None:
    w = Weights(coef=(1.0,) * len(SUPPORT_SIGNALS), intercept=0.0,
                vetoes=(0.5,) * len(CONFLICT_SIGNALS), version="t")  # fmt: skip
    clean = (1.0,) * len(SUPPORT_SIGNALS) + (0.0,) * len(CONFLICT_SIGNALS)
    one = clean[: len(SUPPORT_SIGNALS)] + (1.0,) + (0.0,) * (len(CONFLICT_SIGNALS) - 1)
    assert w.probability(one) == pytest.approx(w.probability(clean) / 2)
    lower = (0.5, *clean[1:])
    assert w.probability(lower) < w.probability(clean)


def test_weights_for_other_signals_are_refused(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "w.json"  # type: ignore[operator]
    path.write_text(json.dumps({"support_signals": ["cosine"], "conflict_signals": [], "coef": [1],
                                "intercept": 0, "vetoes": [], "version": "x"}))  # fmt: skip
    with pytest.raises(ValueError, match=r"Refit with benchmarks/fit_local_judge\.py"):
        read_weights(path)


def test_reasons_prefer_a_contradiction_over_a_missing_unit() -> None:
    c = check("John was born in 1887.", "Maria was born in 1889.")
    found = Match(signals=(0.0,) * len(SIGNALS), check=c, passage="Maria was born in 1889.")
    assert reason(found, 0.1) == "'John' is not in the text; it names Maria"
    assert reason(found, 0.9) is None
