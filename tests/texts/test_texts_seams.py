"""The reference API's functions as seams: tests that patch them with ``unittest.mock.patch``.

Written in the style of pytest-texts-score's own suite: patch a documented function, call the
public API, check call counts, arguments, the scores computed from the patched values and the
retries. Every expected number is worked out by hand in the test. A judge that fails the test
when called (``no_judge``) proves that a patched seam really replaces the judge.
"""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock, call, patch

import pytest
from texts_judges import AGG_FUNCTIONS, RUN_BOUNDS, RUN_VALUES, InFlightJudge, ScriptedJudge

import pytest_texts_score as pts
from fakes.openai_server import FakeLLM, status
from pytest_texts_score import RetriesExhaustedError, communication
from pytest_texts_score.evaluate_score import (
    MAXIMAL_RETRY_ON_ERROR,
    score_one_side,
    texts_agg_precision,
    texts_evaluate_f1,
    texts_evaluate_precision,
    texts_evaluate_recall,
    texts_multiple_f1,
    texts_multiple_precision,
    texts_multiple_recall,
)
from scorekit.judges import (
    JudgeError,
    JudgeSettings,
    JudgeUnavailableError,
    PermanentJudgeError,
)

pytest_plugins = ["texts_fixtures"]

ES = "pytest_texts_score.evaluate_score"
WRAPPERS = "pytest_texts_score.api_wrappers"

EXPECTED = "Paris is in France. The Seine flows through Paris."
GIVEN = "Paris is in France."


class NoCalls:
    """A judge that must never be reached: the seams under test replace it."""

    name = "no-calls"

    def __init__(self) -> None:
        self.calls = 0

    def make_questions(self, text: str) -> list[str]:
        self.calls += 1
        raise AssertionError("the judge was called although the seam was patched")

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        self.calls += 1
        raise AssertionError("the judge was called although the seam was patched")


@pytest.fixture
def no_judge(use_judge: Any) -> NoCalls:
    judge = NoCalls()
    use_judge(judge)
    return judge


def answers(*values: float) -> list[dict[str, Any]]:
    return [{"question": f"Q{i}?", "answer": v} for i, v in enumerate(values, 1)]


# -- make_questions / evaluate_questions -------------------------------------------------------


def test_score_one_side_goes_through_both_seams(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="QUESTIONS") as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1, 0, 0.5)) as eq,
    ):
        assert score_one_side("base text", "answer text") == 0.5  # (1 + 0 + 0.5) / 3
    mq.assert_called_once_with("base text")
    eq.assert_called_once_with("answer text", "QUESTIONS")
    assert no_judge.calls == 0


def test_precision_and_recall_ask_and_answer_from_the_right_texts(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="Q") as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1, 0)) as eq,
    ):
        assert texts_evaluate_precision(EXPECTED, GIVEN) == 0.5
        mq.assert_called_once_with(GIVEN)
        eq.assert_called_once_with(EXPECTED, "Q")
        mq.reset_mock()
        eq.reset_mock()
        assert texts_evaluate_recall(EXPECTED, GIVEN) == 0.5
        mq.assert_called_once_with(EXPECTED)
        eq.assert_called_once_with(GIVEN, "Q")


def test_single_f1_calls_the_seams_in_the_reference_order(no_judge: NoCalls) -> None:
    seams = MagicMock()
    seams.make_questions.side_effect = ["QP", "QR"]
    seams.evaluate_questions.side_effect = [answers(1, 1), answers(1, 0)]
    with (
        patch(f"{ES}.make_questions", seams.make_questions),
        patch(f"{ES}.evaluate_questions", seams.evaluate_questions),
    ):
        # precision 1.0, recall 0.5: F1 = 2 * 1 * 0.5 / 1.5
        assert texts_evaluate_f1(EXPECTED, GIVEN) == pytest.approx(2 / 3)
    assert seams.mock_calls == [
        call.make_questions(GIVEN),
        call.evaluate_questions(EXPECTED, "QP"),
        call.make_questions(EXPECTED),
        call.evaluate_questions(GIVEN, "QR"),
    ]


def test_multiple_f1_scores_every_pair_in_the_reference_order(no_judge: NoCalls) -> None:
    seams = MagicMock()
    seams.make_questions.side_effect = ["P1", "R1", "P2", "R2"]
    seams.evaluate_questions.side_effect = [
        answers(1),  # run 1.1 precision 1.0
        answers(1, 0),  # run 1.1 recall 0.5
        answers(1, 0),  # run 1.2 precision 0.5
        answers(1),  # run 1.2 recall 1.0
        answers(0),  # run 2.1 precision 0.0
        answers(0, 0),  # run 2.1 recall 0.0
        answers(1),  # run 2.2 precision 1.0
        answers(1, 1),  # run 2.2 recall 1.0
    ]
    with (
        patch(f"{ES}.make_questions", seams.make_questions),
        patch(f"{ES}.evaluate_questions", seams.evaluate_questions),
    ):
        runs = texts_multiple_f1(EXPECTED, GIVEN, 2, 2, score_only=False)
    assert runs == [
        (0, 0, 1.0, 0.5, pytest.approx(2 / 3)),
        (0, 1, 0.5, 1.0, pytest.approx(2 / 3)),
        (1, 0, 0.0, 0.0, 0.0),
        (1, 1, 1.0, 1.0, 1.0),
    ]
    assert seams.mock_calls == [
        call.make_questions(GIVEN),
        call.make_questions(EXPECTED),
        call.evaluate_questions(EXPECTED, "P1"),
        call.evaluate_questions(GIVEN, "R1"),
        call.evaluate_questions(EXPECTED, "P1"),
        call.evaluate_questions(GIVEN, "R1"),
        call.make_questions(GIVEN),
        call.make_questions(EXPECTED),
        call.evaluate_questions(EXPECTED, "P2"),
        call.evaluate_questions(GIVEN, "R2"),
        call.evaluate_questions(EXPECTED, "P2"),
        call.evaluate_questions(GIVEN, "R2"),
    ]


def test_multiple_one_side_call_counts(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="Q") as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1, 0, 0, 0)) as eq,
    ):
        assert texts_multiple_precision(EXPECTED, GIVEN, 3, 2) == [0.25] * 6
        assert mq.call_args_list == [call(GIVEN)] * 3
        assert eq.call_args_list == [call(EXPECTED, "Q")] * 6
        mq.reset_mock()
        eq.reset_mock()
        assert texts_multiple_recall(EXPECTED, GIVEN, 2, 1) == [0.25] * 2
        assert mq.call_args_list == [call(EXPECTED)] * 2
        assert eq.call_args_list == [call(GIVEN, "Q")] * 2


def test_a_blank_text_asks_nothing_even_when_patched(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="Q") as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1)) as eq,
    ):
        assert score_one_side("   ", "answer") == 1.0  # nothing claimed: vacuously 1.0
        assert score_one_side("base", "") == 0.0  # nothing to answer from
    mq.assert_called_once_with("base")
    eq.assert_not_called()


# -- retries -----------------------------------------------------------------------------------


def test_a_failing_make_questions_is_retried(no_judge: NoCalls) -> None:
    with (
        patch(
            f"{ES}.make_questions", side_effect=[Exception("flaky"), Exception("flaky"), "Q"]
        ) as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1)) as eq,
    ):
        assert score_one_side("base", "answer") == 1.0
    assert mq.call_count == 3
    assert eq.call_count == 1


def test_a_failing_evaluate_questions_retries_its_question_run(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="Q") as mq,
        patch(f"{ES}.evaluate_questions", side_effect=[ValueError("bad JSON"), answers(1)]) as eq,
    ):
        assert score_one_side("base", "answer") == 1.0
    # As the reference: the unit (questions, then answers) starts again.
    assert mq.call_count == 2
    assert eq.call_count == 2


def test_gives_up_after_five_retries_with_the_reference_message(no_judge: NoCalls) -> None:
    error = RuntimeError("judge down")
    with (
        patch(f"{ES}.make_questions", side_effect=error) as mq,
        patch(f"{ES}.evaluate_questions") as eq,
        pytest.raises(
            Exception, match=f"Operation failed after {MAXIMAL_RETRY_ON_ERROR + 1} retries"
        ) as info,
    ):
        score_one_side("base", "answer")
    assert str(info.value) == "Operation failed after 6 retries. Last error: judge down"
    assert info.value.__cause__ is error
    assert mq.call_count == MAXIMAL_RETRY_ON_ERROR + 1  # the first try and 5 retries
    eq.assert_not_called()


def test_the_message_is_exact_and_chained_to_the_last_error(no_judge: NoCalls) -> None:
    last = KeyError("answer")
    errors = [ValueError("first"), TimeoutError("second"), *[OSError("middle")] * 3, last]
    with (
        patch(f"{ES}.make_questions", side_effect=errors) as mq,
        patch(f"{ES}.evaluate_questions"),
        pytest.raises(RetriesExhaustedError) as info,
    ):
        score_one_side("base", "answer")
    assert str(info.value) == "Operation failed after 6 retries. Last error: 'answer'"
    assert info.value.__cause__ is last
    assert info.value.last_error is last
    assert info.value.retries == 6
    assert info.value.what == "score_one_side"
    assert type(info.value).__mro__[1] is Exception  # a plain Exception to the reference's tests
    assert mq.call_count == 6


def test_a_failing_evaluate_questions_gives_up_with_its_error(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", return_value="Q") as mq,
        patch(f"{ES}.evaluate_questions", side_effect=ValueError("not JSON")) as eq,
        pytest.raises(RetriesExhaustedError) as info,
    ):
        texts_multiple_recall(EXPECTED, GIVEN, 1, 1)
    assert str(info.value) == "Operation failed after 6 retries. Last error: not JSON"
    assert isinstance(info.value.__cause__, ValueError)
    assert info.value.what == "texts_multiple_recall"
    # Every try of the unit asks for questions again, then fails answering them.
    assert mq.call_count == eq.call_count == 6
    assert eq.call_args_list == [call(GIVEN, "Q")] * 6


@pytest.mark.parametrize(
    "score",
    [
        lambda: texts_multiple_f1(EXPECTED, GIVEN, 1, 1),
        lambda: texts_multiple_precision(EXPECTED, GIVEN, 2, 1),
        lambda: texts_evaluate_recall(EXPECTED, GIVEN),
        lambda: texts_evaluate_f1(EXPECTED, GIVEN),
        lambda: pts.texts_expect_f1_equal(EXPECTED, GIVEN),
        lambda: pts.texts_agg_recall_mean(EXPECTED, GIVEN, target=0.5, full_runs=3),
    ],
    ids=["multiple_f1", "multiple_precision", "evaluate_recall", "evaluate_f1", "expect", "agg"],
)
def test_every_public_call_gives_up_with_the_reference_message(
    no_judge: NoCalls, score: Any
) -> None:
    with (
        patch(f"{ES}.make_questions", side_effect=Exception("Always fails")) as mq,
        patch(f"{ES}.evaluate_questions") as eq,
        pytest.raises(RetriesExhaustedError) as info,
    ):
        score()
    assert str(info.value) == "Operation failed after 6 retries. Last error: Always fails"
    assert not isinstance(info.value, AssertionError)  # an error of the test, not a failure
    assert str(info.value.__cause__) == "Always fails"
    assert mq.call_count == MAXIMAL_RETRY_ON_ERROR + 1
    eq.assert_not_called()


def test_no_retry_without_retry_on_error(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.make_questions", side_effect=Exception("once")) as mq,
        patch(f"{ES}.evaluate_questions"),
        pytest.raises(Exception, match=r"^once$"),
    ):
        texts_evaluate_recall(EXPECTED, GIVEN, retry_on_error=False)
    assert mq.call_count == 1


def test_the_retry_limit_is_read_at_call_time(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.MAXIMAL_RETRY_ON_ERROR", 2),
        patch(f"{ES}.make_questions", side_effect=Exception("down")) as mq,
        patch(f"{ES}.evaluate_questions"),
        pytest.raises(Exception, match=r"^Operation failed after 3 retries\. Last error: down$"),
    ):
        score_one_side("base", "answer")
    assert mq.call_count == 3


def test_question_runs_share_one_retry_budget(no_judge: NoCalls) -> None:
    flaky = [Exception("1"), "Q"] + [Exception("n")] * 10
    with (
        patch(f"{ES}.make_questions", side_effect=flaky) as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1)),
        pytest.raises(Exception, match=r"^Operation failed after 6 retries\. Last error: n$"),
    ):
        texts_multiple_precision(EXPECTED, GIVEN, 3, 1)
    # Run 1 fails once (retry 1) then succeeds; run 2 fails with retries 2, 3, 4 and 5 spent,
    # and its fifth failure would be retry 6: 2 + 5 calls. (A budget per run would allow 8.)
    assert mq.call_count == 7


def test_f1_of_one_run_gives_each_side_its_own_budget(no_judge: NoCalls) -> None:
    # The reference scores one F1 run as two score_one_side calls, each with 5 retries.
    flaky = [Exception("p")] * 5 + ["QP"] + [Exception("r")] * 5 + ["QR"]
    with (
        patch(f"{ES}.make_questions", side_effect=flaky) as mq,
        patch(f"{ES}.evaluate_questions", return_value=answers(1)),
    ):
        assert texts_evaluate_f1(EXPECTED, GIVEN) == 1.0
    assert mq.call_count == 12


@pytest.mark.parametrize(
    "error",
    [
        JudgeUnavailableError("the judge is down"),
        PermanentJudgeError("HTTP 401: the key was rejected"),
        pytest.UsageError("bad argument"),
    ],
    ids=["judge-error", "permanent-judge-error", "usage-error"],
)
def test_our_own_errors_are_not_retried_at_the_seam(no_judge: NoCalls, error: Exception) -> None:
    with (
        patch(f"{ES}.make_questions", side_effect=error) as mq,
        patch(f"{ES}.evaluate_questions"),
        pytest.raises(type(error)) as info,
    ):
        score_one_side("base", "answer")
    assert info.value is error
    assert mq.call_count == 1


@pytest.fixture
def http_judge(use_judge: Any, fake_llm: FakeLLM, fake_llm_settings: JudgeSettings) -> FakeLLM:
    use_judge(
        None,
        **{k: v for k, v in vars(fake_llm_settings).items() if k not in ("sources", "surface")},
    )
    return fake_llm


def test_a_rejected_key_is_retried_neither_in_the_judge_layer_nor_at_the_seam(
    http_judge: FakeLLM,
) -> None:
    http_judge.expected_key = "another key"  # every request gets HTTP 401
    with (
        patch(f"{ES}.evaluate_questions", return_value=answers(1)),
        pytest.raises(JudgeError, match="401"),
    ):
        score_one_side("Paris is in France.", "Paris is in France.")
    assert http_judge.calls == 1


def test_a_rejected_key_behind_a_patched_make_questions_fails_at_once(
    http_judge: FakeLLM,
) -> None:
    # make_questions is replaced, evaluate_questions is the real door to the judge: its 401 is
    # permanent, so neither the judge layer nor the seam tries again.
    http_judge.expected_key = "another key"
    with (
        patch(f"{ES}.make_questions", return_value='["Is Paris in France?"]') as mq,
        pytest.raises(JudgeError, match="401") as info,
    ):
        texts_multiple_recall("Paris is in France.", "Paris is in France.", 1, 1)
    assert not isinstance(info.value, RetriesExhaustedError)
    assert http_judge.calls == 1
    assert mq.call_count == 1


def test_transient_errors_retry_in_the_judge_layer_only(http_judge: FakeLLM) -> None:
    http_judge.script(*[status(503)] * 10)
    with (
        patch(f"{ES}.evaluate_questions", return_value=answers(1)) as eq,
        pytest.raises(JudgeError, match="503"),
    ):
        score_one_side("Paris is in France.", "Paris is in France.")
    # 1 try + 5 retries in the judge layer; the seam does not multiply them.
    assert http_judge.calls == 6
    eq.assert_not_called()


# -- texts_multiple_* under the aggregated assertions --------------------------------------------


def test_agg_assertions_take_their_runs_from_texts_multiple(no_judge: NoCalls) -> None:
    with patch(f"{ES}.texts_multiple_f1", return_value=[1, 1, 0, 0]) as multiple:
        pts.texts_agg_f1_mean(EXPECTED, GIVEN, target=0.5, max_delta=0.1)
        multiple.assert_called_once_with(
            expected=EXPECTED,
            given=GIVEN,
            generate_questions=5,
            generate_answers_per_questions=1,
            score_only=True,
            retry_on_error=True,
        )
        with pytest.raises(AssertionError) as info:
            pts.texts_agg_f1_mean(EXPECTED, GIVEN, target=0.9, max_delta=0.1)
    message = str(info.value)
    assert message.startswith("Text F1 (mean of 4 runs) below minimum: 0.5000 < 0.8")
    assert "judge: replaced texts_multiple_f1" in message


@pytest.mark.parametrize(("function", "metric", "how"), AGG_FUNCTIONS)
def test_every_aggregation_over_patched_runs_that_differ(
    no_judge: NoCalls, function: str, metric: str, how: str
) -> None:
    passing, failing = RUN_BOUNDS[how]
    with patch(f"{ES}.texts_multiple_{metric}", return_value=RUN_VALUES) as multiple:
        getattr(pts, function)(EXPECTED, GIVEN, **passing)
        with pytest.raises(AssertionError):
            getattr(pts, function)(EXPECTED, GIVEN, **failing)
    assert multiple.call_count == 2


def test_evaluate_score_agg_uses_texts_multiple_and_scores_agg(no_judge: NoCalls) -> None:
    with patch(f"{ES}.texts_multiple_precision", return_value=[0.2, 0.4]) as multiple:
        assert texts_agg_precision(EXPECTED, GIVEN, 2, 1, "maximum") == 0.4
    multiple.assert_called_once_with(
        expected=EXPECTED,
        given=GIVEN,
        generate_questions=2,
        generate_answers_per_questions=1,
        score_only=True,
        retry_on_error=True,
    )
    with (
        patch(f"{ES}.texts_multiple_precision", return_value=[0.2, 0.4]),
        patch(f"{ES}.scores_agg", return_value=0.75) as agg,
    ):
        assert texts_agg_precision(EXPECTED, GIVEN, 2, 1, "median") == 0.75
    agg.assert_called_once_with([0.2, 0.4], pts.evaluate_score.AggType.MEDIAN)


def test_an_error_of_a_patched_function_reaches_the_user_unchanged(no_judge: NoCalls) -> None:
    error = ValueError("quota exceeded")
    with (
        patch(f"{ES}.texts_multiple_f1", side_effect=error) as multiple,
        pytest.raises(ValueError) as info,
    ):
        pts.texts_agg_f1_min(EXPECTED, GIVEN, lower_bound=0.5)
    assert info.value is error
    assert multiple.call_count == 1  # the reference does not retry at this level


def test_a_replacement_returning_no_scores_is_a_clear_error(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.texts_multiple_recall", return_value=[]),
        pytest.raises(ValueError, match=r"texts_multiple_recall returned \[\]; expected a non-"),
    ):
        pts.texts_agg_recall_max(EXPECTED, GIVEN, upper_bound=0.5)


# -- texts_evaluate_* under the single-run assertions ---------------------------------------------


@pytest.mark.parametrize("module", [ES, "pytest_texts_score.api"])
@pytest.mark.parametrize("metric", ["f1", "precision", "recall"])
def test_expect_assertions_take_their_score_from_texts_evaluate(
    no_judge: NoCalls, module: str, metric: str
) -> None:
    with patch(f"{module}.texts_evaluate_{metric}", return_value=0.3) as evaluate:
        getattr(pts, f"texts_expect_{metric}_equal")(EXPECTED, GIVEN, target=0.3, max_delta=0.1)
        evaluate.assert_called_once_with(EXPECTED, GIVEN, retry_on_error=True)
        with pytest.raises(AssertionError, match=r"below minimum: 0\.3000 < 0\.5"):
            getattr(pts, f"texts_expect_{metric}_range")(EXPECTED, GIVEN, 0.5, 1.0)


def test_evaluate_precision_and_recall_go_through_score_one_side(no_judge: NoCalls) -> None:
    with patch(f"{ES}.score_one_side", return_value=0.25) as side:
        assert texts_evaluate_precision(EXPECTED, GIVEN) == 0.25
        side.assert_called_once_with(GIVEN, EXPECTED, retry_on_error=True)
        side.reset_mock()
        pts.texts_expect_recall_equal(EXPECTED, GIVEN, target=0.25, max_delta=0.1)
        side.assert_called_once_with(EXPECTED, GIVEN, retry_on_error=True)


def test_evaluate_f1_combines_the_patched_sides(no_judge: NoCalls) -> None:
    with (
        patch(f"{ES}.texts_evaluate_precision", return_value=1.0) as precision,
        patch(f"{ES}.texts_evaluate_recall", return_value=0.5) as recall,
    ):
        assert texts_evaluate_f1(EXPECTED, GIVEN, retry_on_error=False) == pytest.approx(2 / 3)
    precision.assert_called_once_with(EXPECTED, GIVEN, False)
    recall.assert_called_once_with(EXPECTED, GIVEN, False)


# -- the api_wrappers aliases --------------------------------------------------------------------

ALIASES = [
    # (alias, the api_wrappers name it calls, arguments given, arguments passed on)
    ("texts_agg_f1_average", "texts_agg_f1_mean", (0.5,), (0.5, 0.1, 5, 1, True)),
    ("texts_agg_precision_average", "texts_agg_precision_mean", (0.5,), (0.5, 0.1, 5, 1, True)),
    ("texts_agg_recall_average", "texts_agg_recall_mean", (0.5,), (0.5, 0.1, 5, 1, True)),
]
for _alias, _metric in (("completeness", "precision"), ("correctness", "recall")):
    ALIASES += [
        (f"texts_agg_{_alias}_min", f"texts_agg_{_metric}_min", (0.5,), (0.5, 5, 1, True)),
        (f"texts_agg_{_alias}_max", f"texts_agg_{_metric}_max", (0.5, 3), (0.5, 3, 1, True)),
        (
            f"texts_agg_{_alias}_median",
            f"texts_agg_{_metric}_median",
            (0.5, 0.2),
            (0.5, 0.2, 5, 1, True),
        ),
        (f"texts_agg_{_alias}_mean", f"texts_agg_{_metric}_mean", (0.5,), (0.5, 0.1, 5, 1, True)),
        (
            f"texts_agg_{_alias}_average",
            f"texts_agg_{_metric}_average",
            (0.5,),
            (0.5, 0.1, 5, 1, True),
        ),
        (
            f"texts_agg_{_alias}_average",
            f"texts_agg_{_metric}_mean",
            (0.5,),
            (0.5, 0.1, 5, 1, True),
        ),
        (
            f"texts_expect_{_alias}_equal",
            f"texts_expect_{_metric}_equal",
            (),
            (1.0, 0.2, False, True),
        ),
        (
            f"texts_expect_{_alias}_range",
            f"texts_expect_{_metric}_range",
            (0.2, 0.8),
            (0.2, 0.8, False, True),
        ),
    ]


@pytest.mark.parametrize(("alias", "target", "given_args", "passed_args"), ALIASES)
def test_aliases_call_what_they_alias_through_api_wrappers(
    no_judge: NoCalls,
    alias: str,
    target: str,
    given_args: tuple[Any, ...],
    passed_args: tuple[Any, ...],
) -> None:
    with patch(f"{WRAPPERS}.{target}") as aliased:
        getattr(pts, alias)(EXPECTED, GIVEN, *given_args)
    aliased.assert_called_once_with(EXPECTED, GIVEN, *passed_args)


def test_the_fixture_calls_the_aliases_too(no_judge: NoCalls, texts_score: dict[str, Any]) -> None:
    with patch(f"{WRAPPERS}.texts_agg_recall_mean") as aliased:
        texts_score["agg_correctness_mean"](EXPECTED, GIVEN, 0.7)
    aliased.assert_called_once_with(EXPECTED, GIVEN, 0.7, 0.1, 5, 1, True)


# -- what a patched judge shows, and what the real path does ---------------------------------------


def test_a_failure_shows_the_patched_answers_and_their_reasons(no_judge: NoCalls) -> None:
    questions = '["Is Paris in France?", "Does the Seine flow through Paris?"]'
    replies = [
        {"question": "Is Paris in France?", "answer": 1},
        {"answer": 0, "reason": "the text does not mention the Seine"},
    ]
    with (
        patch(f"{ES}.make_questions", return_value=questions),
        patch(f"{ES}.evaluate_questions", return_value=replies),
        pytest.raises(AssertionError) as info,
    ):
        pts.texts_expect_recall_equal(EXPECTED, GIVEN, target=1.0, max_delta=0.1)
    assert str(info.value).splitlines()[:3] == [
        "Text recall below minimum: 0.5000 < 0.9 (allowed [0.9, 1.0];"
        " judge: replaced make_questions/evaluate_questions).",
        "Recall side: questions from `expected`, answered from `given`: recall 0.5000;"
        " 1 of 2 answers below 1:",
        "  0.0000  Does the Seine flow through Paris? (judge: the text does not mention the Seine)",
    ]


def test_a_spy_on_the_real_door_sees_every_call(scripted: ScriptedJudge) -> None:
    with patch(f"{ES}.make_questions", wraps=communication.make_questions) as spy:
        pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0, full_runs=3)
    assert spy.call_args_list == [call(EXPECTED)] * 6
    assert scripted.count("questions") == 6
    assert scripted.count("answers") == 6


class CachedJudge(ScriptedJudge):
    def cache_identity(self) -> dict[str, str]:
        return {"provider": "scripted-test"}


def test_the_real_door_keeps_runs_distinct_under_the_cache(use_judge: Any, tmp_path: Any) -> None:
    judge = CachedJudge()
    use_judge(judge, cache="on", cache_dir=str(tmp_path))
    with patch(f"{ES}.evaluate_questions", return_value=answers(1)):
        texts_multiple_precision(EXPECTED, GIVEN, 3, 1)
    # Each question run is its own sample: three calls, not one call and two cache hits.
    assert judge.count("questions") == 3
    with patch(f"{ES}.evaluate_questions", return_value=answers(1)):
        texts_multiple_precision(EXPECTED, GIVEN, 3, 1)
    assert judge.count("questions") == 3  # the second time, all from the cache


@pytest.mark.parametrize(
    ("run", "questions", "answer_sets"),
    [
        (lambda: pts.texts_expect_f1_equal(EXPECTED, GIVEN, 0.8, 0.2), 2, 2),
        (lambda: pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0), 10, 10),
        (lambda: pts.texts_agg_completeness_min(EXPECTED, EXPECTED, 0.9, 3, 2), 3, 6),
        (lambda: texts_multiple_recall(EXPECTED, GIVEN, 4, 1), 4, 4),
    ],
    ids=["expect_f1", "agg_f1_mean_5", "agg_completeness_3x2", "multiple_recall_4"],
)
def test_unpatched_calls_go_together_as_before(
    use_judge: Any, run: Any, questions: int, answer_sets: int
) -> None:
    judge = InFlightJudge(questions=questions, answers=answer_sets)
    use_judge(judge)
    run()
    assert judge.calls == {"questions": questions, "answers": answer_sets}
    # Every question set at once, then every answer set at once: two round trips.
    assert judge.max_in_flight == {"questions": questions, "answers": answer_sets}


def test_a_failed_assertion_is_also_what_pytest_fail_raises(no_judge: NoCalls) -> None:
    # The reference fails its assertions with pytest.fail; tests written for it catch that.
    with (
        patch(f"{ES}.texts_multiple_f1", return_value=[0.2]),
        pytest.raises(pytest.fail.Exception) as info,
    ):
        pts.texts_agg_f1_min(EXPECTED, GIVEN, lower_bound=0.5, full_runs=1)
    assert isinstance(info.value, AssertionError)
    assert str(info.value).startswith("Text F1 (minimum of 1 run) below minimum: 0.2000 < 0.5")


class OrderJudge:
    """An async judge that records the text of each call in the order the calls start."""

    name = "order"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def make_questions(self, text: str) -> list[str]:
        self.calls.append(("questions", text))
        return [text + "?"]

    async def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        self.calls.append(("answers", text))
        return [1.0] * len(questions)


def test_unpatched_calls_start_in_the_same_order_as_before(use_judge: Any) -> None:
    judge = OrderJudge()
    use_judge(judge)
    pts.texts_agg_f1_mean(EXPECTED, GIVEN, 1.0, full_runs=3)
    # Every question set first, side by side (precision: from `given`), run by run; then each
    # set's answers as its questions arrive.
    assert judge.calls == [
        *[("questions", GIVEN)] * 3,
        *[("questions", EXPECTED)] * 3,
        *[("answers", EXPECTED)] * 3,
        *[("answers", GIVEN)] * 3,
    ]
