"""Pass/fail decisions, failure evidence, judge errors and report rows of the assertions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from texts_judges import (
    AGG_FUNCTIONS,
    RUN_BOUNDS,
    RUN_VALUES,
    InFlightJudge,
    ScriptedJudge,
    VaryingJudge,
)

import pytest_texts_score as pts
from pytest_texts_score import evaluate_score
from scorekit.judges import JudgeError, JudgeUnavailableError
from scorekit.report import active_recorder
from scorekit.session._session import ScoreSession

pytest_plugins = ["texts_fixtures"]

EXPECTED = "Paris is in France. The Seine flows through Paris. Paris has a tower."
GIVEN = "Paris is in France. Paris is big."
# precision = 1/2, recall = 1/3, F1 = 0.4


def test_identical_texts_pass_everything(scripted: ScriptedJudge) -> None:
    for name, fn in pts.ASSERTIONS.items():
        if name.endswith("_equal"):
            fn(EXPECTED, EXPECTED)
        elif name.endswith("_range"):
            fn(EXPECTED, EXPECTED, 0.9, 1.0)
        elif name.endswith("_min"):
            fn(EXPECTED, EXPECTED, 0.9, full_runs=2)
        elif name.endswith("_max"):
            with pytest.warns(UserWarning, match="`upper_bound` is 1"):
                fn(EXPECTED, EXPECTED, 1.0, full_runs=2)
        else:
            fn(EXPECTED, EXPECTED, 0.95, full_runs=2)


@pytest.mark.parametrize(
    ("call", "passes"),
    [
        (lambda: pts.texts_expect_precision_equal(EXPECTED, GIVEN, 0.5, 0.05), True),
        (lambda: pts.texts_expect_precision_equal(EXPECTED, GIVEN, 0.6, 0.05), False),
        (lambda: pts.texts_expect_completeness_range(EXPECTED, GIVEN, 0.45, 0.55), True),
        (lambda: pts.texts_expect_recall_range(EXPECTED, GIVEN, 0.3, 0.4), True),
        (lambda: pts.texts_expect_correctness_equal(EXPECTED, GIVEN, 0.5, 0.1), False),
        (lambda: pts.texts_expect_f1_equal(EXPECTED, GIVEN, 0.4, 0.05), True),
        (lambda: pts.texts_expect_f1_range(EXPECTED, GIVEN, 0.5, 1.0), False),
        (lambda: pts.texts_agg_f1_mean(EXPECTED, GIVEN, 0.4, 0.05, full_runs=3), True),
        (lambda: pts.texts_agg_f1_average(EXPECTED, GIVEN, 0.6, 0.05, full_runs=3), False),
        (lambda: pts.texts_agg_precision_median(EXPECTED, GIVEN, 0.5, full_runs=3), True),
        (lambda: pts.texts_agg_recall_min(EXPECTED, GIVEN, 0.3, full_runs=2), True),
        (lambda: pts.texts_agg_correctness_min(EXPECTED, GIVEN, 0.4, full_runs=2), False),
        (lambda: pts.texts_agg_completeness_max(EXPECTED, GIVEN, 0.5, full_runs=2), True),
        (lambda: pts.texts_agg_precision_max(EXPECTED, GIVEN, 0.4, full_runs=2), False),
    ],
)
def test_pass_and_fail(scripted: ScriptedJudge, call: Callable[[], None], passes: bool) -> None:
    if passes:
        call()
    else:
        with pytest.raises(AssertionError):
            call()


def test_equal_bounds_are_clipped_and_inclusive(scripted: ScriptedJudge) -> None:
    # 1.0 - 0.5 == 0.5 exactly: a score on the bound passes.
    pts.texts_expect_precision_equal(EXPECTED, GIVEN, target=1.0, max_delta=0.5)
    pts.texts_expect_precision_range(EXPECTED, GIVEN, 0.5, 0.5, skip_warnings=True)


def test_single_run_failure_message_shows_evidence(scripted: ScriptedJudge) -> None:
    with pytest.raises(AssertionError) as info:
        pts.texts_expect_f1_equal(EXPECTED, GIVEN, target=1.0, max_delta=0.2)
    message = str(info.value)
    lines = message.splitlines()
    assert lines[0] == (
        "Text F1 below minimum: 0.4000 < 0.8 (allowed [0.8, 1.0]; judge: scripted)."
    )
    assert (
        "Precision side: questions from `given`, answered from `expected`: precision 0.5000;"
        " 1 of 2 answers below 1:" in lines
    )
    assert "  0.0000  Paris is big?" in lines
    assert (
        "Recall side: questions from `expected`, answered from `given`: recall 0.3333;"
        " 2 of 3 answers below 1:" in lines
    )
    assert "  0.0000  The Seine flows through Paris?" in lines
    assert "  0.0000  Paris has a tower?" in lines
    assert "Paris is in France?" not in message  # fully supported questions are not noise
    assert lines[-2] == f"`expected`: {EXPECTED!r}"
    assert lines[-1] == f"`given`: {GIVEN!r}"


def test_above_maximum_message(scripted: ScriptedJudge) -> None:
    with pytest.raises(AssertionError, match=r"^Text recall above maximum: 1.0000 > 0.5 "):
        pts.texts_expect_recall_range(EXPECTED, EXPECTED, 0.0, 0.5)


def test_alias_names_both_words(scripted: ScriptedJudge) -> None:
    with pytest.raises(AssertionError, match=r"^Text correctness \(recall\) below minimum"):
        pts.texts_expect_correctness_equal(EXPECTED, GIVEN)
    with pytest.raises(AssertionError, match=r"^Text completeness \(precision\) below minimum"):
        pts.texts_expect_completeness_equal(EXPECTED, GIVEN)


def test_close_scores_show_enough_digits(scripted: ScriptedJudge) -> None:
    scripted.answers = {"Paris is big?": 0.5998}
    # precision = (1 + 0.5998) / 2 = 0.7999
    with pytest.raises(AssertionError, match=r"below minimum: 0.7999 < 0.8 "):
        pts.texts_expect_precision_equal(EXPECTED, GIVEN)


def test_aggregated_failure_message_lists_runs_and_spread(use_judge: Any) -> None:
    class Drifting(ScriptedJudge):
        """Answers 'Paris is big?' with 0.0, 0.5, 1.0, ... on successive answer calls."""

        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            out = super().answer_questions(text, questions)
            if "Paris is big?" in questions:
                with self._lock:
                    value = [0.0, 0.5, 1.0][self.n % 3]
                    self.n += 1
                out[questions.index("Paris is big?")] = value
            return out

    use_judge(Drifting())
    with pytest.raises(AssertionError) as info:
        pts.texts_agg_precision_mean(EXPECTED, GIVEN, target=1.0, max_delta=0.1, full_runs=3)
    lines = str(info.value).splitlines()
    assert lines[0] == (
        "Text precision (mean of 3 runs) below minimum: 0.7500 < 0.9"
        " (allowed [0.9, 1.0]; judge: scripted)."
    )
    assert lines[1] == "Runs (question run.answer run: precision):"
    # Which run got which answer depends on arrival order; the set of scores does not.
    assert [line.split()[0] for line in lines[2:5]] == ["1.1", "2.1", "3.1"]
    assert sorted(line.split()[1] for line in lines[2:5]) == ["0.5000", "0.7500", "1.0000"]
    assert lines[5] == (
        "precision: mean 0.7500, median 0.7500, min 0.5000, max 1.0000, spread 0.5000 (max - min),"
        " stdev 0.2041"
    )
    # mean 0.75, sample sd 0.25, t(0.975, 2) = 4.3027: 0.75 +- 0.6211.
    assert lines[6] == "precision: 95% interval of the mean 0.129-1 (t, sample sd 0.25)"
    assert lines[7] == (
        "Precision side: questions from `given`, answered from `expected`: mean precision 0.7500;"
        " 2 of 6 answers below 1:"
    )
    assert lines[8].startswith("  0.0000-0.5000  Paris is big?  [2 runs: ")


def test_long_texts_and_many_questions_are_cut(scripted: ScriptedJudge) -> None:
    long_expected = " ".join(f"Fact number {i} holds." for i in range(30))
    with pytest.raises(AssertionError) as info:
        pts.texts_expect_recall_equal(long_expected, "Nothing.")
    message = str(info.value)
    assert "30 answers below 1" in message.replace("30 of 30", "30")
    assert "  ... and 22 more" in message
    expected_line = next(x for x in message.splitlines() if x.startswith("`expected`"))
    assert len(expected_line) < 330 and expected_line.endswith("…'")


class Broken:
    name = "broken"

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.calls = 0

    def make_questions(self, text: str) -> list[str]:
        self.calls += 1
        raise self.exc

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        raise AssertionError("never reached")


def test_judge_outage_is_an_error_not_a_failure(use_judge: Any) -> None:
    backend = Broken(JudgeUnavailableError("service down"))
    use_judge(backend)
    with pytest.raises(JudgeError, match="service down") as info:
        pts.texts_expect_f1_equal(EXPECTED, GIVEN)
    assert not isinstance(info.value, AssertionError)


def test_invalid_replies_are_retried_then_an_error(use_judge: Any) -> None:
    class Nonsense(ScriptedJudge):
        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            super().answer_questions(text, questions)
            return [float("nan")] * len(questions)

    judge = Nonsense()
    use_judge(judge)
    with pytest.raises(JudgeError, match="outside \\[0, 1\\]"):
        pts.texts_expect_precision_equal(EXPECTED, GIVEN)
    assert judge.count("answers") == 1 + pts.evaluate_score.MAXIMAL_RETRY_ON_ERROR


def test_retry_on_error_false_makes_one_try(use_judge: Any) -> None:
    class Nonsense(ScriptedJudge):
        def make_questions(self, text: str) -> list[str]:
            super().make_questions(text)
            return []

    judge = Nonsense()
    use_judge(judge)
    with pytest.raises(JudgeError):
        pts.texts_expect_precision_equal(EXPECTED, GIVEN, retry_on_error=False)
    assert judge.count("questions") == 1


def test_a_transient_glitch_is_retried_to_the_right_score(use_judge: Any) -> None:
    class Glitchy(ScriptedJudge):
        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            out = super().answer_questions(text, questions)
            return out[:-1] if self.count("answers") == 1 else out  # first reply too short

    judge = Glitchy()
    use_judge(judge)
    pts.texts_expect_precision_equal(EXPECTED, GIVEN, target=0.5, max_delta=0.05)
    assert judge.count("answers") == 2


def test_rows_are_recorded(use_judge: Any) -> None:
    session: ScoreSession = use_judge(ScriptedJudge())
    pts.texts_expect_f1_equal(EXPECTED, EXPECTED)
    with pytest.raises(AssertionError):
        pts.texts_agg_correctness_median(EXPECTED, GIVEN, 0.9, full_runs=2)
    recorder = active_recorder()
    assert recorder is session.recorder
    passed, failed = recorder.rows
    assert (passed.function, passed.metric, passed.aggregation, passed.outcome) == (
        "texts_expect_f1_equal", "f1", None, "passed"
    )  # fmt: skip
    assert (passed.score, passed.low, passed.high) == (1.0, 0.8, 1.0)
    assert passed.judge == "scripted" and passed.seconds >= 0
    assert len(passed.runs) == 1 and passed.runs[0].f1 == 1.0
    assert (failed.function, failed.metric, failed.aggregation, failed.outcome) == (
        "texts_agg_correctness_median", "recall", "median", "failed"
    )  # fmt: skip
    assert failed.score == pytest.approx(1 / 3)
    assert (failed.low, failed.high) == (0.8, 1.0)
    assert [(r.question_run, r.answer_run) for r in failed.runs] == [(0, 0), (1, 0)]
    assert {e.side for e in failed.evidence} == {"recall"}
    assert len(failed.evidence) == 6  # all questions, not only those below 1
    assert failed.to_dict()["kind"] == "texts"


def test_error_rows_are_recorded(use_judge: Any) -> None:
    session: ScoreSession = use_judge(Broken(JudgeUnavailableError("down")))
    with pytest.raises(JudgeError):
        pts.texts_expect_recall_equal(EXPECTED, GIVEN)
    (row,) = session.recorder.rows
    assert row.outcome == "error" and row.score is None and "down" in (row.error or "")
    assert row.judge == "broken"


def test_usage_errors_are_not_recorded(use_judge: Any) -> None:
    session: ScoreSession = use_judge(ScriptedJudge())
    with pytest.raises(pytest.UsageError):
        pts.texts_expect_recall_equal(EXPECTED, GIVEN, target=3)
    assert session.recorder.rows == []


# -- concurrency: counted by the judge, never timed ---------------------------------------


def test_calls_of_one_assertion_are_in_flight_together(use_judge: Any) -> None:
    judge = InFlightJudge(questions=10, answers=10)
    use_judge(judge)
    pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0, full_runs=5)
    assert judge.calls == {"questions": 10, "answers": 10}
    assert judge.max_in_flight == {"questions": 10, "answers": 10}


def test_answer_runs_are_in_flight_together(use_judge: Any) -> None:
    judge = InFlightJudge(questions=2, answers=6)
    use_judge(judge)
    pts.texts_agg_f1_median(EXPECTED, EXPECTED, 1.0, full_runs=1, each_question_runs=3)
    assert judge.max_in_flight == {"questions": 2, "answers": 6}


def test_the_concurrency_limit_holds(use_judge: Any) -> None:
    judge = InFlightJudge(questions=3, answers=3, patience=0.5)
    use_judge(judge, max_concurrency=3)
    pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0, full_runs=4)
    assert judge.max_in_flight == {"questions": 3, "answers": 3}


def test_a_failing_call_cancels_its_siblings(use_judge: Any) -> None:
    class FailFirst(InFlightJudge):
        async def make_questions(self, text: str) -> list[str]:
            if self.calls["questions"] == 0:
                self.calls["questions"] += 1
                raise JudgeUnavailableError("first call failed")
            return await super().make_questions(text)

    judge = FailFirst(questions=100, answers=100, patience=5.0)
    use_judge(judge)
    with pytest.raises(JudgeError, match="first call failed"):
        pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0, full_runs=5)
    assert judge.calls["answers"] == 0  # nothing of the failed run went on to be scored


def test_custom_judges_can_ask_for_a_retry(use_judge: Any) -> None:
    from pytest_texts_score.backends import TransientJudgeError

    class Flaky(ScriptedJudge):
        def make_questions(self, text: str) -> list[str]:
            questions = super().make_questions(text)
            if self.count("questions") <= 2:
                raise TransientJudgeError("rate limited, try again")
            return questions

    judge = Flaky()
    use_judge(judge)
    pts.texts_expect_precision_equal(EXPECTED, GIVEN, target=0.5, max_delta=0.05)
    assert judge.count("questions") == 3


def test_a_crashing_custom_judge_is_recorded_as_an_error(use_judge: Any) -> None:
    session: ScoreSession = use_judge(Broken(KeyError("oops")))
    with pytest.raises(JudgeUnavailableError) as info:
        pts.texts_expect_f1_equal(EXPECTED, GIVEN)
    assert isinstance(info.value.__cause__, KeyError)
    (row,) = session.recorder.rows
    assert row.outcome == "error"
    assert row.error is not None
    assert row.error.startswith(
        "The broken judge raised KeyError: 'oops' (test_texts_assertions.py:"
    )


# -- every aggregation, over runs that differ ------------------------------------------------------

#: F1 of each run is 2t / (1 + t) with the other side at 1.0, for t in RUN_VALUES: 2/11, 18/19,
#: 8/9, 34/37, 1/3; sorted 0.1818, 0.3333, 0.8889, 0.9189, 0.9474: min 0.1818, max 0.9474,
#: median 0.8889, mean (2/11 + 1/3 + 8/9 + 34/37 + 18/19) / 5 = 0.6541. Bounds as RUN_BOUNDS'.
F1_BOUNDS = {
    "min": ({"lower_bound": 0.18}, {"lower_bound": 0.19}),
    "max": ({"upper_bound": 0.95}, {"upper_bound": 0.94}),
    "median": ({"target": 0.89, "max_delta": 0.05}, {"target": 0.65, "max_delta": 0.05}),
    "mean": ({"target": 0.65, "max_delta": 0.05}, {"target": 0.89, "max_delta": 0.05}),
}


@pytest.mark.parametrize(("function", "metric", "how"), AGG_FUNCTIONS)
def test_every_aggregation_over_runs_that_differ(
    use_judge: Callable[..., ScoreSession], function: str, metric: str, how: str
) -> None:
    # Questions written from the varying text differ from run to run; recall writes them
    # from `expected`, precision (and F1's precision side) from `given`.
    varying = EXPECTED if metric == "recall" else GIVEN
    use_judge(VaryingJudge(varying, RUN_VALUES))
    passing, failing = (F1_BOUNDS if metric == "f1" else RUN_BOUNDS)[how]
    assertion = getattr(pts, function)
    assertion(EXPECTED, GIVEN, **passing)
    with pytest.raises(AssertionError):
        assertion(EXPECTED, GIVEN, **failing)


def test_range_rows_carry_the_function_and_both_texts(use_judge: Any) -> None:
    session: ScoreSession = use_judge(ScriptedJudge())
    pts.texts_expect_f1_range(EXPECTED, GIVEN, 0.3, 0.5)
    (row,) = session.recorder.rows
    assert (row.function, row.metric, row.outcome) == ("texts_expect_f1_range", "f1", "passed")
    assert (row.expected, row.given) == (EXPECTED, GIVEN)
    assert row.score == pytest.approx(0.4)


def test_an_alias_range_failure_names_the_alias_and_its_metric(scripted: ScriptedJudge) -> None:
    # completeness is the precision side: 1 of the given text's 2 facts is in the expected one
    with pytest.raises(
        AssertionError, match=r"^Text completeness \(precision\) below minimum: 0\.5000"
    ):
        pts.texts_expect_completeness_range(EXPECTED, GIVEN, 0.9, 1.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda e, g: pts.texts_expect_f1_range(e, g, 0.1, 0.9),
        lambda e, g: pts.texts_expect_f1_equal(e, g, 0.5),
        lambda e, g: pts.texts_agg_f1_min(e, g, 0.5, full_runs=2),
        lambda e, g: pts.texts_agg_f1_mean(e, g, 0.5, full_runs=2),
        lambda e, g: evaluate_score.texts_evaluate_f1(e, g),
        lambda e, g: evaluate_score.texts_evaluate_precision(e, g),
        lambda e, g: evaluate_score.texts_evaluate_recall(e, g),
    ],
)
def test_a_text_that_is_not_a_str_is_named(
    scripted: ScriptedJudge, call: Callable[[Any, Any], None]
) -> None:
    with pytest.raises(pytest.UsageError, match=r"^`expected` must be a str .*; int given\.$"):
        call(12, GIVEN)
    with pytest.raises(pytest.UsageError, match=r"^`given` must be a str .*; NoneType given\.$"):
        call(EXPECTED, None)
    assert scripted.count("questions") == 0  # checked before the judge is asked anything
