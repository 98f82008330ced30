"""The text of a failed text-score assertion: the score against its bounds, then the evidence.

Evidence is what lets a reader act on a failure: for every side, the questions the judge
answered below 1, lowest first, with their answers; for aggregated assertions every run's
scores, the aggregate, the mean and the spread. Long texts and questions are shortened and long
lists cut, saying how much was left out.
"""

from __future__ import annotations

import math
import statistics

# pytest.fail.Exception, importable under a name type checkers accept as a base class.
from _pytest.outcomes import Failed

from pytest_texts_score._pipeline import TextsOutcome
from scorekit.format import format_bound as _bound
from scorekit.format import format_score, shorten
from scorekit.report import Evidence

__all__ = ["TextsAssertionError", "failure_message", "format_score"]

#: Questions shown per side before the list is cut.
MAX_QUESTIONS_PER_SIDE = 8
#: Runs listed one by one before the list is cut.
MAX_RUNS_LISTED = 20
#: Run ids listed after a question that failed in several runs.
MAX_RUN_IDS = 5
QUESTION_WIDTH = 160
TEXT_WIDTH = 300

_SIDE_TITLES = {
    "precision": "Precision side: questions from `given`, answered from `expected`",
    "recall": "Recall side: questions from `expected`, answered from `given`",
}

_AGG_WORDS = {"min": "minimum", "max": "maximum", "mean": "mean", "median": "median"}


class TextsAssertionError(AssertionError, Failed):
    """A text score fell outside its bounds (an ordinary test failure).

    Exported as ``pytest_texts_score.TextsAssertionError``. It is an ``AssertionError`` and
    also what ``pytest.fail`` raises (``pytest.fail.Exception``), the exception the reference
    package's assertions fail with, so ``pytest.raises(AssertionError)`` and
    ``pytest.raises(pytest.fail.Exception)`` both catch it.

    Attributes:
        score: the score (or the aggregate) that was checked.
        low: the lowest score allowed.
        high: the highest score allowed.
        outcome: the full outcome, with every run and every question.
    """

    def __init__(
        self, message: str, *, score: float, low: float, high: float, outcome: TextsOutcome
    ) -> None:
        AssertionError.__init__(self, message)
        # What pytest reads of an OutcomeException: the message, and a full traceback.
        self.msg = message
        self.pytrace = True
        self.score = score
        self.low = low
        self.high = high
        self.outcome = outcome

    def __str__(self) -> str:
        return self.msg or ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.msg!r})"


# Tracebacks and pytest's summary name the class by module; show the public home.
TextsAssertionError.__module__ = "pytest_texts_score"


def _headline(
    label: str,
    aggregation: str | None,
    n_runs: int,
    score: float,
    low: float,
    high: float,
    judge: str,
) -> str:
    what = f"Text {label}"
    if aggregation is not None:
        runs = f"{n_runs} run" + ("" if n_runs == 1 else "s")
        what += f" ({_AGG_WORDS.get(aggregation, aggregation)} of {runs})"
    if score < low:
        verdict = f"below minimum: {format_score(score, low)} < {_bound(low)}"
    else:
        verdict = f"above maximum: {format_score(score, high)} > {_bound(high)}"
    return f"{what} {verdict} (allowed [{_bound(low)}, {_bound(high)}]; judge: {judge})."


def _answer(value: float) -> str:
    # Listed as below 1, so it must not read 1.00 (0.999 shows as 0.999).
    return format_score(value, 1.0)


def _side_lines(outcome: TextsOutcome, side: str) -> list[str]:
    items = [e for e in outcome.evidence if e.side == side]
    mean = getattr(outcome, side)
    title = _SIDE_TITLES[side]
    several = outcome.question_runs * outcome.answer_runs > 1
    score_word = "mean " if several else ""
    if not items:
        why = "blank text" if outcome.evidence_known else f"scores from {outcome.judge}"
        return [f"{title}: {score_word}{side} {format_score(mean)}; no questions ({why})."]
    below = sorted((e for e in items if e.answer < 1.0), key=lambda e: (e.answer, e.run))
    head = (
        f"{title}: {score_word}{side} {format_score(mean)};"
        f" {len(below)} of {len(items)} answers below 1"
    )
    if not below:
        return [head + "."]
    lines = [head + ":"]
    if not several:
        shown = [
            f"  {_answer(e.answer)}  {shorten(e.question, QUESTION_WIDTH)}{_because(e.reason)}"
            for e in below
        ]
    else:
        # Runs often ask the same question; one line per question with the runs it failed in.
        groups: dict[str, list[Evidence]] = {}
        for e in below:
            groups.setdefault(e.question, []).append(e)
        ordered = sorted(groups.values(), key=lambda g: (min(e.answer for e in g), -len(g)))
        shown = []
        for group in ordered:
            runs = [f"{e.run[0] + 1}.{e.run[1] + 1}" for e in group]
            listed = ", ".join(runs[:MAX_RUN_IDS]) + (", ..." if len(runs) > MAX_RUN_IDS else "")
            answers = [e.answer for e in group]
            value = (
                _answer(min(answers))
                if len(set(answers)) == 1
                else f"{_answer(min(answers))}-{_answer(max(answers))}"
            )
            reason = next((e.reason for e in group if e.reason), None)
            shown.append(
                f"  {value}  {shorten(group[0].question, QUESTION_WIDTH)}"
                f"  [{len(group)} run{'s' if len(group) > 1 else ''}: {listed}]{_because(reason)}"
            )
    lines.extend(shown[:MAX_QUESTIONS_PER_SIDE])
    if len(shown) > MAX_QUESTIONS_PER_SIDE:
        lines.append(f"  ... and {len(shown) - MAX_QUESTIONS_PER_SIDE} more")
    return lines


def _because(reason: str | None) -> str:
    """The judge's reason for a low answer, as the end of its line ("" when there is none)."""
    return f" (judge: {shorten(reason, QUESTION_WIDTH)})" if reason else ""


def _runs_lines(outcome: TextsOutcome, metric: str, label: str) -> list[str]:
    names = [m for m in ("precision", "recall", "f1") if getattr(outcome, m) is not None]
    titles = " / ".join("F1" if m == "f1" else m for m in names)
    lines = [f"Runs (question run.answer run: {titles}):"]
    for run in outcome.runs[:MAX_RUNS_LISTED]:
        values = " / ".join(format_score(float(getattr(run, m))) for m in names)
        lines.append(f"  {run.question_run + 1}.{run.answer_run + 1}  {values}")
    if len(outcome.runs) > MAX_RUNS_LISTED:
        lines.append(f"  ... and {len(outcome.runs) - MAX_RUNS_LISTED} more runs")
    scores = outcome.scores(metric)
    spread = max(scores) - min(scores)
    stdev = statistics.pstdev(scores) if len(scores) > 1 else 0.0
    lines.append(
        f"{label}: mean {format_score(math.fsum(scores) / len(scores))},"
        f" median {format_score(statistics.median(scores))},"
        f" min {format_score(min(scores))}, max {format_score(max(scores))},"
        f" spread {format_score(spread)} (max - min), stdev {format_score(stdev)}"
    )
    return lines


def failure_message(
    *,
    label: str,
    metric: str,
    aggregation: str | None,
    score: float,
    low: float,
    high: float,
    outcome: TextsOutcome,
    expected: str,
    given: str,
    borderline_runs: int | None = None,
) -> str:
    """The message of a failed assertion.

    ``label`` names the metric as the user called it (``F1``, ``completeness (precision)``);
    ``borderline_runs``: question runs made when borderline reruns added some.
    """
    n_runs = len(outcome.runs) or outcome.question_runs * outcome.answer_runs
    lines = [_headline(label, aggregation, n_runs, score, low, high, outcome.judge)]
    if aggregation is not None and outcome.runs:
        lines.extend(_runs_lines(outcome, metric, label))
        from scorekit.stats import aggregate_stats

        stats = aggregate_stats(outcome.scores(metric), aggregation)
        lines.append(f"{label}: {stats.describe(aggregation)}")
        if borderline_runs is not None:
            lines.append(f"borderline: {borderline_runs} runs")
    for side in ("precision", "recall"):
        if getattr(outcome, side) is not None:
            lines.extend(_side_lines(outcome, side))
    lines.append(f"`expected`: {shorten(expected, TEXT_WIDTH)!r}")
    lines.append(f"`given`: {shorten(given, TEXT_WIDTH)!r}")
    return "\n".join(lines)
