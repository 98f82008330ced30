"""How the local judge reads the arrangement of a statement's words (issue 35)."""

from __future__ import annotations

import pytest

from scorekit.local import LocalBackend
from scorekit.local._arrangement import arrangement, index_text, statement_pairs
from scorekit.local._lexicon import features
from scorekit.local._statements import sentences

ARTICLE = (
    "Leeds Rhinos beat Hull on Friday. The Tigers have won six matches in a row."
    " Their unbeaten run is over after the defeat."
)


def _arrangement(text: str, statement: str) -> tuple[float, ...]:
    return arrangement(features(statement), index_text([features(s) for s in sentences(text)]))


def test_a_sentence_of_the_text_holds_all_its_pairs() -> None:
    passage, anywhere, bigrams, n = _arrangement(ARTICLE, "Leeds Rhinos beat Hull on Friday.")
    assert (passage, anywhere, bigrams, n) == (1.0, 1.0, 1.0, 3.0)


def test_a_recombination_of_the_texts_words_holds_few_pairs() -> None:
    # Every content word is in the article; the claim is not.
    passage, anywhere, _, _ = _arrangement(
        ARTICLE, "Leeds Rhinos extended the unbeaten run of the Tigers to six matches."
    )
    assert anywhere <= 0.5
    assert passage <= anywhere


def test_a_reordered_clause_and_a_passive_keep_the_pairs() -> None:
    text = "The mayor of Lyon wrote the report in March."
    _, anywhere, bigrams, _ = _arrangement(text, "In March the report was written by the mayor.")
    assert anywhere == 1.0
    assert bigrams < 0.5  # word bigrams alone miss it


def test_synonyms_and_other_forms_count() -> None:
    text = "The support team answers every ticket within a day."
    _, anywhere, _, _ = _arrangement(text, "The support team responds to every ticket.")
    assert anywhere == 1.0


def test_a_fact_told_across_two_sentences_is_found_in_the_text_not_in_one_passage() -> None:
    text = (
        "The museum opened a new wing. Visitors praised the building. The wing holds the"
        " Roman coins."
    )
    passage, anywhere, _, _ = _arrangement(text, "The museum's new wing holds Roman coins.")
    assert anywhere > passage


def test_pairs_skip_up_to_three_words_and_never_pair_a_word_with_itself() -> None:
    assert statement_pairs(["a", "b", "c", "d", "e"]) == [
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("b", "e"),
        ("c", "d"), ("c", "e"), ("d", "e"),
    ]  # fmt: skip
    assert statement_pairs(["run", "run"]) == []


@pytest.fixture(scope="module")
def judge() -> LocalBackend:
    return LocalBackend()


#: A match report of eight sentences (on texts of a few sentences the fitted combiner is more
#: lenient: see docs/texts/local-judge.md, limits).
REPORT = (
    f"{ARTICLE} The match was played in front of 12,000 fans. The coach praised his defence."
    " Rain fell for most of the second half. Hull will play Wigan next week. Leeds travel to"
    " Warrington on Sunday."
)


def test_the_judge_lowers_a_recombination_and_says_why(judge: LocalBackend) -> None:
    stated, invented = judge.make_questions(
        "Leeds Rhinos beat Hull on Friday. The Tigers extended Leeds' unbeaten run to six matches."
    )
    (s_answer, s_reason), (i_answer, i_reason) = judge.explain_answers(REPORT, [stated, invented])
    assert s_answer >= 0.9 and s_reason is None
    assert i_answer < 0.5
    assert i_reason is not None and "does not put them together so" in i_reason
