"""One assertion from start to end: validate, score through the pipeline, decide, record.

Every ``texts_expect_*`` and ``texts_agg_*`` function (and their aliases) ends here, so they
all validate, fail, error and report the same way.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import pytest_texts_score._validation as v
from pytest_texts_score._messages import TextsAssertionError, failure_message
from pytest_texts_score._outcome import TextsOutcome, merge_outcomes
from pytest_texts_score._scores import aggregate_of, assertion_work, multiple_work
from pytest_texts_score.evaluate_score import AggType
from scorekit.judges import AuditLog, JudgeError, auditing
from scorekit.report import TextScoreRow, active_recorder
from scorekit.session import ScoreSession, current_session
from scorekit.stats import AggregateStats, aggregate_stats, straddles

__all__ = ["agg_bound", "agg_target", "expect_equal", "expect_range"]

# Bounds are compared with a little slack so float noise in a mean (0.7000000000000001)
# cannot fail a score that is, to any reader, on the bound.
_EPS = 1e-9

_AGG_NAMES = {
    AggType.MINIMUM: "min",
    AggType.MAXIMUM: "max",
    AggType.MEDIAN: "median",
    AggType.MEAN: "mean",
    AggType.AVERAGE: "mean",
}

_LABELS = {"f1": "F1", "precision": "precision", "recall": "recall"}


#: Borderline reruns: the first wave adds this many question runs, each next wave twice the last.
FIRST_WAVE = 2
#: Aggregations more runs can settle (a failed min or max cannot turn into a pass).
BORDERLINE_AGGREGATIONS = ("mean", "median")


def _stats_of(scored: TextsOutcome, metric: str, aggregation: str) -> AggregateStats | None:
    scores = scored.scores(metric) if scored.runs else []
    return aggregate_stats(scores, aggregation) if scores else None


def _check_max_runs(session: ScoreSession, aggregation: str | None, question_runs: int) -> None:
    """``--llm-max-runs`` below this assertion's ``full_runs``: a usage error, before any call."""
    __tracebackhide__ = True
    max_runs = session.max_runs
    if max_runs is None or aggregation not in BORDERLINE_AGGREGATIONS:
        return
    if max_runs < question_runs:
        # A configuration mistake, not a score: a usage error, as a bad argument is.
        given = (
            f"configure(max_runs={max_runs})"
            if "max_runs" in session.configured
            else f"--llm-max-runs {max_runs} (ini llm_max_runs)"
        )
        raise pytest.UsageError(
            f"{given} is below full_runs={question_runs} of this assertion;"
            f" borderline reruns add runs after full_runs, so give a max-runs >= {question_runs},"
            " or lower full_runs"
        )


def _borderline(
    session: ScoreSession,
    *,
    metric: str,
    expected: str,
    given: str,
    agg: AggType,
    aggregation: str,
    score: float,
    scored: TextsOutcome,
    low: float,
    high: float,
    question_runs: int,
    answer_runs: int,
    retry: bool,
) -> tuple[float, TextsOutcome, int | None]:
    """Add waves of runs while the aggregate's interval straddles a bound (``--llm-max-runs``).

    Returns the aggregate, the outcome of every run and the question runs made when waves
    were added (None when the first ``full_runs`` settled it, or reruns are off).
    """
    __tracebackhide__ = True
    max_runs = session.max_runs
    if max_runs is None or aggregation not in BORDERLINE_AGGREGATIONS:
        return score, scored, None
    if not scored.evidence_known or not scored.runs:
        return score, scored, None  # a replaced function scored it: nothing to add runs to
    made = question_runs
    wave = FIRST_WAVE
    stats = _stats_of(scored, metric, aggregation)
    while made < max_runs and stats is not None and straddles(stats.interval, low, high):
        add = min(wave, max_runs - made)
        more = multiple_work(
            metric, expected, given, add, answer_runs, retry, session=session, first_run=made
        )
        scored = merge_outcomes(scored, more)
        made += add
        wave *= 2
        stats = _stats_of(scored, metric, aggregation)
    if made == question_runs:
        return score, scored, None
    return aggregate_of(scored, metric, agg), scored, made


def _audit_of(
    session: ScoreSession,
    log: AuditLog,
    scored: TextsOutcome | None,
    expected: str,
    given: str,
) -> dict[str, Any]:
    """The row's audit object: the judge's facts, the runs, the question sets, the requests."""
    from scorekit.session import audit_record, judge_facts
    from scorekit.stats import current_repeat_run

    return audit_record(
        facts=judge_facts(session),
        log=log,
        runs=scored.runs if scored else [],
        evidence=scored.evidence if scored else [],
        expected=expected,
        given=given,
        repeat_run=current_repeat_run(),
    )


def _label(metric: str, alias: str | None) -> str:
    base = _LABELS[metric]
    return f"{alias} ({base})" if alias else base


def _run(
    *,
    function: str,
    metric: str,
    alias: str | None,
    expected: str,
    given: str,
    low: float,
    high: float,
    retry_on_error: bool,
    agg: AggType | None = None,
    question_runs: int = 1,
    answer_runs: int = 1,
) -> None:
    """Score checked input, record the row, raise on a score outside ``[low, high]``.

    The defaults are a single-run assertion: one question set, answered once.
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    session = current_session()
    aggregation = _AGG_NAMES[agg] if agg is not None else None

    borderline_runs: int | None = None
    log: AuditLog | None

    def record(
        outcome: str, score: float | None, scored: TextsOutcome | None, error: str | None
    ) -> None:
        recorder = active_recorder()
        if recorder is None:
            return
        stats = _stats_of(scored, metric, aggregation) if scored and aggregation else None
        audit = None
        if log is not None:
            audit = _audit_of(session, log, scored, expected, given)
        recorder.add(
            TextScoreRow(
                test_id=None,
                function=function,
                metric=metric,
                aggregation=aggregation,
                score=score,
                low=low,
                high=high,
                outcome=outcome,
                runs=list(scored.runs) if scored else [],
                evidence=list(scored.evidence) if scored else [],
                judge=scored.judge if scored else session.judge_name,
                expected=expected,
                given=given,
                error=error,
                seconds=time.perf_counter() - started,
                mean=stats.mean if stats else None,
                stdev=stats.stdev if stats else None,
                interval=list(stats.interval) if stats and stats.interval else None,
                borderline_runs=borderline_runs,
                audit=audit,
            )
        )

    with auditing(session.audit and active_recorder() is not None) as log:
        try:
            _check_max_runs(session, aggregation, question_runs)
            score, scored = assertion_work(
                metric,
                expected,
                given,
                agg=agg,
                question_runs=question_runs,
                answer_runs=answer_runs,
                retry=retry_on_error,
                session=session,
            )
            if agg is not None and aggregation is not None:
                score, scored, borderline_runs = _borderline(
                    session,
                    metric=metric,
                    expected=expected,
                    given=given,
                    agg=agg,
                    aggregation=aggregation,
                    score=score,
                    scored=scored,
                    low=low,
                    high=high,
                    question_runs=question_runs,
                    answer_runs=answer_runs,
                    retry=retry_on_error,
                )
        except Exception as exc:
            # A judge failure (or a bug in a custom judge) is an error of this assertion, not a
            # score; the report shows it as such and the exception goes on unchanged.
            cause = str(exc) if isinstance(exc, JudgeError) else f"{type(exc).__name__}: {exc}"
            record("error", None, None, cause)
            raise
    passed = low - _EPS <= score <= high + _EPS
    record("passed" if passed else "failed", score, scored, None)
    if not passed:
        message = failure_message(
            label=_label(metric, alias),
            metric=metric,
            aggregation=aggregation,
            score=score,
            low=low,
            high=high,
            outcome=scored,
            expected=expected,
            given=given,
            borderline_runs=borderline_runs,
        )
        raise TextsAssertionError(message, score=score, low=low, high=high, outcome=scored)


def expect_range(
    metric: str,
    function: str,
    expected: Any,
    given: Any,
    min_score: Any,
    max_score: Any,
    skip_warnings: bool,
    retry_on_error: bool,
    *,
    alias: str | None = None,
) -> None:
    """A single-run assertion that the score lies in ``[min_score, max_score]``."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    low, high = v.check_range(min_score, max_score, v.MINIMAL_EXPECTED_MAX_DELTA, skip_warnings)
    _run(
        function=function,
        metric=metric,
        alias=alias,
        expected=expected,
        given=given,
        low=low,
        high=high,
        retry_on_error=retry_on_error,
    )


def expect_equal(
    metric: str,
    function: str,
    expected: Any,
    given: Any,
    target: Any,
    max_delta: Any,
    skip_warnings: bool,
    retry_on_error: bool,
    *,
    alias: str | None = None,
) -> None:
    """A single-run assertion that the score lies in ``target ± max_delta``."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    low, high = v.check_target(target, max_delta, v.MINIMAL_EXPECTED_MAX_DELTA, skip_warnings)
    _run(
        function=function,
        metric=metric,
        alias=alias,
        expected=expected,
        given=given,
        low=low,
        high=high,
        retry_on_error=retry_on_error,
    )


def agg_bound(
    metric: str,
    function: str,
    agg: AggType,
    expected: Any,
    given: Any,
    bound: Any,
    full_runs: Any,
    each_question_runs: Any,
    retry_on_error: bool,
    *,
    alias: str | None = None,
) -> None:
    """An aggregated assertion: the minimum is at least ``bound`` or the maximum at most it."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    if agg is AggType.MINIMUM:
        low, high = v.check_lower_bound(bound)
    else:
        low, high = v.check_upper_bound(bound)
    q, a = v.check_runs(full_runs, each_question_runs)
    _run(
        function=function,
        metric=metric,
        alias=alias,
        agg=agg,
        expected=expected,
        given=given,
        low=low,
        high=high,
        question_runs=q,
        answer_runs=a,
        retry_on_error=retry_on_error,
    )


def agg_target(
    metric: str,
    function: str,
    agg: AggType,
    expected: Any,
    given: Any,
    target: Any,
    max_delta: Any,
    full_runs: Any,
    each_question_runs: Any,
    retry_on_error: bool,
    *,
    alias: str | None = None,
) -> None:
    """An aggregated assertion: the mean or median lies in ``target ± max_delta``."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    low, high = v.check_target(target, max_delta, v.MINIMAL_EXPECTED_MAX_DELTA, False)
    q, a = v.check_runs(full_runs, each_question_runs)
    _run(
        function=function,
        metric=metric,
        alias=alias,
        agg=agg,
        expected=expected,
        given=given,
        low=low,
        high=high,
        question_runs=q,
        answer_runs=a,
        retry_on_error=retry_on_error,
    )
