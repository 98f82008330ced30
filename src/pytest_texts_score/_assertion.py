"""One assertion from start to end: validate, score through the pipeline, decide, record.

Every ``texts_expect_*`` and ``texts_agg_*`` function (and their aliases) ends here, so they
all validate, fail, error and report the same way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest

import pytest_texts_score._seams as _seams
import pytest_texts_score._validation as v
from pytest_texts_score._messages import TextsAssertionError, failure_message
from pytest_texts_score._outcome import TextsOutcome, merge_outcomes
from pytest_texts_score._scores import aggregate_of, assertion_work, multiple_work
from pytest_texts_score.evaluate_score import AggType
from scorekit.judges import AuditLog, JudgeError, auditing
from scorekit.report import TextScoreRow, active_recorder
from scorekit.session import ScoreSession, audit_record, current_session, judge_facts
from scorekit.stats import AggregateStats, aggregate_stats, current_repeat_run, straddles

__all__ = ["check"]

# Bounds are compared with a little slack so float noise in a mean (0.7000000000000001)
# cannot fail a score that is, to any reader, on the bound.
_EPS = 1e-9

#: The aggregation of each name ending (``average`` is the reference's alias of ``mean``).
_AGGS = {
    "min": AggType.MINIMUM,
    "max": AggType.MAXIMUM,
    "mean": AggType.MEAN,
    "average": AggType.MEAN,
    "median": AggType.MEDIAN,
}
_ALIASES = {"completeness": "precision", "correctness": "recall"}

_AGG_NAMES = {agg: name for name, agg in _AGGS.items() if name != "average"}

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


@dataclass(frozen=True)
class _Ask:
    """One assertion, its arguments checked; the defaults are a single run."""

    function: str
    metric: str
    alias: str | None
    expected: str
    given: str
    low: float
    high: float
    retry: bool
    agg: AggType | None = None
    question_runs: int = 1
    answer_runs: int = 1

    @property
    def aggregation(self) -> str | None:
        return _AGG_NAMES[self.agg] if self.agg is not None else None


def _borderline(
    session: ScoreSession, ask: _Ask, score: float, scored: TextsOutcome
) -> tuple[float, TextsOutcome, int | None]:
    """Add waves of runs while the aggregate's interval straddles a bound (``--llm-max-runs``).

    Returns the aggregate, the outcome of every run and the question runs made when waves
    were added (None when the first ``full_runs`` settled it, or reruns are off).
    """
    __tracebackhide__ = True
    max_runs, metric, aggregation = session.max_runs, ask.metric, ask.aggregation
    if max_runs is None or aggregation not in BORDERLINE_AGGREGATIONS or ask.agg is None:
        return score, scored, None
    if not scored.evidence_known or not scored.runs:
        return score, scored, None  # a replaced function scored it: nothing to add runs to
    made = ask.question_runs
    wave = FIRST_WAVE
    stats = _stats_of(scored, metric, aggregation)
    while made < max_runs and stats is not None and straddles(stats.interval, ask.low, ask.high):
        add = min(wave, max_runs - made)
        more = multiple_work(
            metric, ask.expected, ask.given, add, ask.answer_runs, ask.retry, session, made
        )
        scored = merge_outcomes(scored, more)
        made += add
        wave *= 2
        stats = _stats_of(scored, metric, aggregation)
    if made == ask.question_runs:
        return score, scored, None
    return aggregate_of(scored, metric, ask.agg), scored, made


def _run(ask: _Ask) -> None:
    """Score checked input, record the row, raise on a score outside ``[low, high]``."""
    __tracebackhide__ = True
    started = time.perf_counter()
    session = current_session()
    metric, aggregation, expected, given = ask.metric, ask.aggregation, ask.expected, ask.given
    low, high = ask.low, ask.high

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
            audit = audit_record(
                facts=judge_facts(session),
                log=log,
                runs=scored.runs if scored else [],
                evidence=scored.evidence if scored else [],
                expected=expected,
                given=given,
                repeat_run=current_repeat_run(),
            )
        recorder.add(
            TextScoreRow(
                test_id=None,
                function=ask.function,
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
            _check_max_runs(session, aggregation, ask.question_runs)
            score, scored = assertion_work(
                metric,
                expected,
                given,
                agg=ask.agg,
                question_runs=ask.question_runs,
                answer_runs=ask.answer_runs,
                retry=ask.retry,
                session=session,
            )
            score, scored, borderline_runs = _borderline(session, ask, score, scored)
        except Exception as exc:
            # A judge failure (or a bug in a custom judge) is an error of this assertion, not a
            # score; the report shows it as such and the exception goes on unchanged.
            cause = str(exc) if isinstance(exc, JudgeError) else f"{type(exc).__name__}: {exc}"
            record("error", None, None, cause)
            raise
    passed = low - _EPS <= score <= high + _EPS
    record("passed" if passed else "failed", score, scored, None)
    if not passed:
        label = _LABELS[metric]
        message = failure_message(
            label=f"{ask.alias} ({label})" if ask.alias else label,
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


def check(function: str, args: tuple[Any, ...]) -> None:
    """Run the public assertion ``function`` on its positional ``args``.

    The name says it all: ``texts_<expect|agg>_<metric or alias>_<how>``, where an alias word
    (*completeness*, *correctness*) names precision or recall, and ``how`` is ``equal`` or
    ``range`` for a single run, or the aggregation. An alias calls the names it stands for in
    ``api_wrappers`` when a test replaced one of them, as the reference's aliases do.
    """
    __tracebackhide__ = True
    _, kind, word, how = function.split("_")
    metric = _ALIASES.get(word, word)
    chain = [f"texts_{kind}_{metric}_{how}"] if word != metric else []
    if how == "average":
        chain.append(f"texts_agg_{metric}_mean")
    replacement = _seams.first_replacement([(_seams.WRAPPERS, name) for name in chain])
    if replacement is not None:
        replacement(*args)
        return
    expected = v.check_text(args[0], "expected")
    given = v.check_text(args[1], "given")
    agg = _AGGS.get(how)
    q = a = 1
    if agg is None:
        checker = v.check_target if how == "equal" else v.check_range
        low, high = checker(args[2], args[3], v.MINIMAL_EXPECTED_MAX_DELTA, args[4])
    else:
        if agg in (AggType.MINIMUM, AggType.MAXIMUM):
            name = "lower_bound" if agg is AggType.MINIMUM else "upper_bound"
            low, high = v.check_bound(args[2], name)
        else:
            low, high = v.check_target(args[2], args[3], v.MINIMAL_EXPECTED_MAX_DELTA, False)
        q, a = v.check_runs(args[-3], args[-2])
    alias = word if word != metric else None
    _run(_Ask(function, metric, alias, expected, given, low, high, args[-1], agg, q, a))
