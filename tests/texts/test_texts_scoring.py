"""Scoring math and directions, through scripted custom judges."""

from __future__ import annotations

import json
import math

import pytest
from texts_judges import ScriptedJudge

from pytest_texts_score import communication
from pytest_texts_score._pipeline import evaluate_texts
from pytest_texts_score.evaluate_score import (
    MAXIMAL_RETRY_ON_ERROR,
    AggType,
    ScoreType,
    f1_score,
    score_one_side,
    scores_agg,
    texts_agg_f1,
    texts_agg_precision,
    texts_agg_recall,
    texts_evaluate_f1,
    texts_evaluate_precision,
    texts_evaluate_recall,
    texts_multiple_f1,
    texts_multiple_precision,
    texts_multiple_recall,
)

pytest_plugins = ["texts_fixtures"]

EXPECTED = "Paris is in France. The Seine flows through Paris. Paris has a tower."
GIVEN = "Paris is in France. Paris is big."


def test_constants_and_enums() -> None:
    assert MAXIMAL_RETRY_ON_ERROR == 5
    assert [a.value for a in AggType] == ["minimum", "maximum", "median", "average", "mean"]
    assert [s.value for s in ScoreType] == ["f1", "precision", "recall"]
    assert issubclass(AggType, str) and issubclass(ScoreType, str)


@pytest.mark.parametrize(
    ("p", "r", "f"),
    [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.5, 1.0, 2 / 3), (0.25, 0.75, 0.375)],
)
def test_f1_score(p: float, r: float, f: float) -> None:
    assert f1_score(p, r) == pytest.approx(f)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -0.1, 1.5, True, "0.5"])
def test_f1_score_rejects_non_scores(bad: object) -> None:
    with pytest.raises(ValueError, match="precision"):
        f1_score(bad, 0.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("how", "value"),
    [
        ("minimum", 0.2),
        ("maximum", 1.0),
        ("median", 0.6),
        ("mean", 0.6),
        ("average", 0.6),
        (AggType.MEDIAN, 0.6),
    ],
)
def test_scores_agg(how: str, value: float) -> None:
    assert scores_agg([0.6, 0.2, 1.0, 0.6], how) == pytest.approx(value)  # type: ignore[arg-type]


def test_scores_agg_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="Unknown aggregation type: 'avg'"):
        scores_agg([0.5], "avg")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^scores_agg: `scores` is empty; there is nothing"):
        scores_agg([], "mean")
    with pytest.raises(ValueError, match="finite"):
        scores_agg([0.5, math.nan], "maximum")
    # a bool is not a score (True would count as 1.0), nor is a string
    for bad in (True, "0.5", None):
        with pytest.raises(ValueError, match=r"every score must be a finite number; .* given"):
            scores_agg([0.5, bad], "mean")  # type: ignore[list-item]


def test_precision_asks_from_given_and_answers_from_expected(scripted: ScriptedJudge) -> None:
    # given: 2 facts, 1 backed by expected -> precision 0.5
    assert texts_evaluate_precision(EXPECTED, GIVEN) == 0.5
    kinds = [(c.kind, c.text) for c in scripted.calls]
    assert kinds == [("questions", GIVEN), ("answers", EXPECTED)]


def test_recall_asks_from_expected_and_answers_from_given(scripted: ScriptedJudge) -> None:
    # expected: 3 facts, 1 covered by given -> recall 1/3
    assert texts_evaluate_recall(EXPECTED, GIVEN) == pytest.approx(1 / 3)
    kinds = [(c.kind, c.text) for c in scripted.calls]
    assert kinds == [("questions", EXPECTED), ("answers", GIVEN)]


def test_f1_combines_both_sides(scripted: ScriptedJudge) -> None:
    assert texts_evaluate_f1(EXPECTED, GIVEN) == pytest.approx(f1_score(0.5, 1 / 3))
    assert scripted.count("questions") == 2
    assert scripted.count("answers") == 2


def test_score_one_side_is_questions_from_base(scripted: ScriptedJudge) -> None:
    assert score_one_side(GIVEN, EXPECTED) == 0.5  # precision
    assert score_one_side(EXPECTED, GIVEN) == pytest.approx(1 / 3)  # recall
    assert scripted.calls[0].text == GIVEN


def test_fractional_answers_are_averaged(scripted: ScriptedJudge) -> None:
    scripted.answers = {"Paris is big?": 0.25}
    assert texts_evaluate_precision(EXPECTED, GIVEN) == pytest.approx((1.0 + 0.25) / 2)


@pytest.mark.parametrize("blank", ["", "   ", "\n\t"])
def test_blank_base_text_is_vacuous_without_a_call(scripted: ScriptedJudge, blank: str) -> None:
    # Nothing claimed in `given`: precision is vacuously 1; recall of a blank `given` is 0.
    assert texts_evaluate_precision(EXPECTED, blank) == 1.0
    assert scripted.calls == []
    assert texts_evaluate_recall(EXPECTED, blank) == 0.0
    assert scripted.count("answers") == 0  # an empty text supports nothing: no call needed
    assert texts_evaluate_f1(blank, blank) == 1.0


def test_multiple_runs_plan_every_pair(scripted: ScriptedJudge) -> None:
    rows = texts_multiple_f1(EXPECTED, GIVEN, 3, 2, score_only=False)
    assert [(r[0], r[1]) for r in rows] == [(q, a) for q in range(3) for a in range(2)]
    for _, _, p, r, f in rows:  # type: ignore[misc]
        assert (p, r) == (0.5, pytest.approx(1 / 3))
        assert f == pytest.approx(f1_score(p, r))
    # 3 question sets per side, each answered twice.
    assert scripted.count("questions") == 6
    assert scripted.count("answers") == 12


def test_multiple_one_side_shapes(scripted: ScriptedJudge) -> None:
    assert texts_multiple_precision(EXPECTED, GIVEN, 2, 1) == [0.5, 0.5]
    detailed = texts_multiple_recall(EXPECTED, GIVEN, 1, 2, score_only=False)
    assert [(q, a) for q, a, _ in detailed] == [(0, 0), (0, 1)]  # type: ignore[misc]
    assert all(s == pytest.approx(1 / 3) for _, _, s in detailed)  # type: ignore[misc]


class RunVaryingJudge(ScriptedJudge):
    """Precision run answers alternate so per-pair F1 differs from F1 of the means."""

    def __init__(self) -> None:
        super().__init__()
        self.answer_calls: dict[str, int] = {}

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        n = self.answer_calls.get(text, 0)
        self.answer_calls[text] = n + 1
        super().answer_questions(text, questions)
        if text == "B.":  # recall side: answers from given
            return [1.0 if n % 2 == 0 else 0.0 for _ in questions]
        return [0.0 if n % 2 == 0 else 1.0 for _ in questions]


def test_f1_is_computed_per_run_pair(use_judge) -> None:  # type: ignore[no-untyped-def]
    use_judge(RunVaryingJudge())
    outcome = evaluate_texts("A.", "B.", metric="f1", question_runs=1, answer_runs=2)
    # pair 0: P=0, R=1 -> F1 0; pair 1: P=1, R=0 -> F1 0. F1 of the means would be 0.5.
    assert [r.f1 for r in outcome.runs] == [0.0, 0.0]
    assert outcome.f1 == 0.0
    assert outcome.precision == 0.5 and outcome.recall == 0.5


def test_agg_functions(scripted: ScriptedJudge) -> None:
    assert texts_agg_precision(EXPECTED, GIVEN, 2, 1, "minimum") == 0.5
    assert texts_agg_recall(EXPECTED, GIVEN, 2, 1, AggType.MAXIMUM) == pytest.approx(1 / 3)
    assert texts_agg_f1(EXPECTED, GIVEN, 2, 2, "mean") == pytest.approx(f1_score(0.5, 1 / 3))


def test_agg_rejects_unknown_type_before_calling(scripted: ScriptedJudge) -> None:
    with pytest.raises(ValueError, match="Unknown aggregation type"):
        texts_agg_f1(EXPECTED, GIVEN, 2, 1, "mode")  # type: ignore[arg-type]
    assert scripted.calls == []


def test_outcome_evidence_holds_every_question(scripted: ScriptedJudge) -> None:
    outcome = evaluate_texts(EXPECTED, GIVEN, question_runs=2, answer_runs=1)
    assert len(outcome.evidence) == 2 * (2 + 3)
    below = {(e.side, e.question) for e in outcome.evidence if e.answer < 1}
    assert below == {
        ("precision", "Paris is big?"),
        ("recall", "The Seine flows through Paris?"),
        ("recall", "Paris has a tower?"),
    }
    assert {tuple(e.run) for e in outcome.evidence} == {(0, 0), (1, 0)}
    assert outcome.judge == "scripted"


def test_make_questions_returns_numbered_json(scripted: ScriptedJudge) -> None:
    text = communication.make_questions(GIVEN)
    assert json.loads(text) == {"1": "Paris is in France?", "2": "Paris is big?"}
    assert communication.make_questions("  ") == "{}"


@pytest.mark.parametrize(
    "questions_text",
    [
        '{"1": "Paris is in France?", "2": "Paris is big?"}',
        '["Paris is in France?", "Paris is big?"]',
        '```json\n["Paris is in France?", "Paris is big?"]\n```',
        '{"list": ["Paris is in France?", "Paris is big?"]}',
    ],
)
def test_evaluate_questions_accepts_the_reply_shapes(
    scripted: ScriptedJudge, questions_text: str
) -> None:
    assert communication.evaluate_questions(EXPECTED, questions_text) == [
        {"question": "Paris is in France?", "answer": 1.0},
        {"question": "Paris is big?", "answer": 0.0},
    ]


def test_evaluate_questions_empty_and_invalid(scripted: ScriptedJudge) -> None:
    assert communication.evaluate_questions(EXPECTED, "") == []
    assert communication.evaluate_questions(EXPECTED, "{}") == []
    with pytest.raises(ValueError, match="questions_text"):
        communication.evaluate_questions(EXPECTED, "not json")
    with pytest.raises(ValueError, match="questions_text"):
        communication.evaluate_questions(EXPECTED, "[1, 2]")
    assert scripted.calls == []


def test_round_trip_through_communication(scripted: ScriptedJudge) -> None:
    answers = communication.evaluate_questions(EXPECTED, communication.make_questions(GIVEN))
    assert sum(a["answer"] for a in answers) / len(answers) == texts_evaluate_precision(
        EXPECTED, GIVEN
    )
