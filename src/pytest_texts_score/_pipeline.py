"""The one path from two texts to scores: plan the judge calls, make them, score.

The plan: for ``question_runs`` x ``answer_runs`` runs, each side writes ``question_runs``
question sets (``evaluate_score.make_questions``), and each set is answered ``answer_runs``
times (``evaluate_score.evaluate_questions``). A blank text asks nothing (its side scores 1.0)
and a blank answering text supports nothing (0.0), without a call. F1 is computed per
(question run, answer run) pair from that pair's precision and recall.

One pipeline (:func:`_scored`) makes the calls of a plan through one of two callers:

* **the judge** (the two seams are the real ones): every side run of every question run starts
  at once, and each set's answer calls start as soon as its questions arrive; an assertion
  costs two judge round trips however many runs it has (``llm_max_concurrency`` permitting).
* **the seams** (a test replaced ``make_questions`` or ``evaluate_questions``): the thin
  adapter ``_seams.SeamCalls`` calls the names on ``evaluate_score`` as they are at call time,
  one after the other in the reference's order (a replacement is a test double that counts
  calls and hands out ``side_effect`` lists in order). It never waits, so the pipeline runs to
  its end in the calling thread (where the real seams may use the judge loop).

A failed unit of work (one question run; for a single run of both sides, one side) is retried
as the reference document says (see :mod:`pytest_texts_score._seams`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import pytest_texts_score._seams as _seams
from pytest_texts_score._outcome import SideRun, TextsOutcome, answer_dicts, assemble, score_answers
from scorekit.judges import Judge, JudgeConfigError, reasons_of, run_sync
from scorekit.session import ScoreSession, current_session

__all__ = ["Metric", "TextsOutcome", "aevaluate_texts", "evaluate_texts", "judge_of"]

Metric = Literal["precision", "recall", "f1"]
#: ``run``: a unit per question run holding every side, one retry budget for the call
#: (``texts_multiple_*``); ``side``: a unit per side, each with its own budget (a single run of
#: both sides, which the reference scores as two ``score_one_side`` calls).
Grouping = Literal["run", "side"]
_METRICS = ("precision", "recall", "f1")

T = TypeVar("T")


def judge_of(session: ScoreSession | None = None) -> Judge:
    """The judge of ``session`` (default: the current session), built on first use.

    Raises:
        JudgeConfigError: the judge cannot be built (unknown provider, missing setting, the
            local judge's model or runtime missing).
    """
    __tracebackhide__ = True
    session = session or current_session()
    try:
        return session.judge()
    except ImportError as exc:
        raise JudgeConfigError(
            f"the {session.judge_name} judge cannot be loaded: {exc}. Configure another judge"
            f" ({session.settings.label('provider')})."
        ) from exc


async def _all(aws: Sequence[Awaitable[T]]) -> list[T]:
    """``asyncio.gather`` that cancels the siblings when one call fails.

    A failed run then stops spending judge calls, and nothing of it is scored.
    """
    tasks = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def _blank(text: str) -> bool:
    return not text.strip()


@dataclass(frozen=True)
class _Plan:
    expected: str
    given: str
    metric: str
    question_runs: int
    answer_runs: int
    retry: bool
    grouping: Grouping
    what: str
    first_run: int = 0

    def sides(self) -> tuple[str, ...]:
        return ("precision", "recall") if self.metric == "f1" else (self.metric,)

    def texts(self, side: str) -> tuple[str, str]:
        """``(base, answer)``: the text questions come from and the one answering them."""
        return (self.given, self.expected) if side == "precision" else (self.expected, self.given)

    def units(self) -> list[tuple[tuple[int, tuple[str, ...]], _seams.RetryBudget]]:
        """Each unit of work (question run, sides) with the retry budget it draws on."""
        if self.grouping == "side":
            return [((0, (s,)), _seams.RetryBudget(self.retry, self.what)) for s in self.sides()]
        shared = _seams.RetryBudget(self.retry, self.what)
        first = self.first_run
        return [((q, self.sides()), shared) for q in range(first, first + self.question_runs)]


def _check_plan(metric: str, question_runs: int, answer_runs: int, grouping: str) -> None:
    __tracebackhide__ = True
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {', '.join(_METRICS)}; {metric!r} given.")
    for name, value in (("question_runs", question_runs), ("answer_runs", answer_runs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; {value!r} given.")
    if grouping not in ("run", "side") or (grouping == "side" and question_runs != 1):
        raise ValueError(f"grouping {grouping!r} needs 'run', or 'side' with one question run.")


class _JudgeCalls:
    """The judge layer's calls: every call started at once, in the plan's order."""

    def __init__(self, judge: Judge, retry: bool) -> None:
        self.judge = judge
        self.retry = retry

    def start(self, coro: Coroutine[Any, Any, T]) -> Awaitable[T]:
        return asyncio.ensure_future(coro)

    async def gather(self, aws: Sequence[Awaitable[T]]) -> list[T]:
        return await _all(aws)

    side_by_side = gather

    async def discard(self, started: Sequence[Awaitable[Any]]) -> None:
        for task in started:
            task.cancel()  # type: ignore[attr-defined]
        await asyncio.gather(*started, return_exceptions=True)

    async def questions(self, base: str, q: int) -> tuple[object, list[str] | None]:
        questions = await self.judge.questions(base, run=q, retry=self.retry)
        return questions, questions

    async def answers(
        self, answer: str, asked: object, questions: list[str] | None, run: tuple[int, int]
    ) -> object:
        assert questions is not None  # the judge layer always returns its questions
        answers = await self.judge.answers(answer, questions, run=run, retry=self.retry)
        # The judge's reason per answer, when it gives them (the local judge does).
        return answer_dicts(questions, answers, reasons_of(answers))


_Calls = _JudgeCalls | _seams.SeamCalls


async def _side(calls: _Calls, plan: _Plan, side: str, q: int) -> SideRun:
    """One question set of one side and its answer runs."""
    __tracebackhide__ = True
    base, answer = plan.texts(side)
    if _blank(base):
        # Nothing is claimed, so nothing can be missing or unsupported: vacuously 1.0, no call.
        return SideRun(side, q, [1.0] * plan.answer_runs, [])
    asked, questions = await calls.questions(base, q)
    runs = [(q, a) for a in range(plan.answer_runs)]
    if _blank(answer):
        # An empty text supports no question; asking a judge would only add noise and cost.
        zeros = answer_dicts(questions or [], [0.0] * len(questions or []))
        scored = [
            score_answers(zeros, questions, side, run) if zeros else (0.0, []) for run in runs
        ]
    else:
        replies = await calls.gather([calls.answers(answer, asked, questions, run) for run in runs])
        scored = [
            score_answers(r, questions, side, run) for run, r in zip(runs, replies, strict=True)
        ]
    scores = [score for score, _ in scored]
    evidence = [ev for _, evs in scored for ev in evs]
    return SideRun(side, q, scores, evidence)


async def _unit(
    calls: _Calls,
    plan: _Plan,
    q: int,
    sides: tuple[str, ...],
    started: list[Awaitable[SideRun]],
    budget: _seams.RetryBudget,
) -> list[SideRun]:
    """One unit of work; when it fails and the budget allows, its side runs start again."""
    __tracebackhide__ = True
    while True:
        try:
            return await calls.side_by_side(started)
        except Exception as exc:
            budget.absorb(exc)
            started = [calls.start(_side(calls, plan, s, q)) for s in sides]


async def _scored(calls: _Calls, plan: _Plan) -> list[SideRun]:
    """Every side run of the plan: started side by side, question run by question run (the
    order the judge sees them in, whatever the retry units are), gathered unit by unit."""
    __tracebackhide__ = True
    units = plan.units()
    started = {
        (side, q): calls.start(_side(calls, plan, side, q))
        for side in plan.sides()
        for (q, sides), _ in units
        if side in sides
    }
    try:
        done = await calls.gather(
            [
                _unit(calls, plan, q, sides, [started[(s, q)] for s in sides], budget)
                for (q, sides), budget in units
            ]
        )
    except BaseException:
        await calls.discard(list(started.values()))
        raise
    return [side_run for unit in done for side_run in unit]


def _seam_judge_name(session: ScoreSession | None) -> str:
    swapped = [
        n
        for n in ("make_questions", "evaluate_questions")
        if _seams.is_replaced(_seams.EVALUATE_SCORE, n)
    ]
    if len(swapped) == 2:
        return "replaced make_questions/evaluate_questions"
    return f"replaced {swapped[0]} + {(session or current_session()).judge_name}"


async def aevaluate_texts(
    expected: str,
    given: str,
    *,
    judge: Judge,
    metric: Metric | str = "f1",
    question_runs: int = 1,
    answer_runs: int = 1,
    retry_on_error: bool = True,
    grouping: Grouping = "run",
) -> TextsOutcome:
    """Coroutine form of :func:`evaluate_texts` for a judge already built (calls together,
    straight to the judge layer; the seams of ``evaluate_score`` are not consulted).

    Run it on the judge loop (``scorekit.judges.run_sync``), e.g. to score many pairs at once:
    ``run_sync(asyncio.gather(*(aevaluate_texts(e, g, judge=j) for e, g in pairs)))``.
    """
    metric = str(metric)
    _check_plan(metric, question_runs, answer_runs, grouping)
    plan = _Plan(
        expected, given, metric, question_runs, answer_runs, bool(retry_on_error), grouping, ""
    )
    side_runs = await _scored(_JudgeCalls(judge, plan.retry), plan)
    return assemble(metric, side_runs, question_runs, answer_runs, judge.name)


def evaluate_texts(
    expected: str,
    given: str,
    *,
    metric: Metric | str = "f1",
    question_runs: int = 1,
    answer_runs: int = 1,
    retry_on_error: bool = True,
    session: ScoreSession | None = None,
    grouping: Grouping = "run",
    what: str = "scoring",
    first_run: int = 0,
) -> TextsOutcome:
    """Score ``given`` against ``expected`` with the session's judge.

    ``metric`` ``f1`` scores both sides; ``what`` names the public function in retry log
    lines; ``first_run`` numbers the question runs after those already scored (borderline
    reruns: each new run has its own judge calls and cache entries).

    Raises:
        scorekit.judges.JudgeError: the judge could not be built or could not give a valid
            reply (after the retries); no partial scores are returned.

    Example:
        >>> from scorekit.session._session import ScoreSession
        >>> from scorekit.judges import resolve_settings
        >>> class Yes:
        ...     def make_questions(self, text): return ["Is it so?"]
        ...     def answer_questions(self, text, qs): return [1.0] * len(qs)
        >>> s = ScoreSession(resolve_settings(env={}), backend=Yes())
        >>> evaluate_texts("It is so.", "It is so.", session=s).f1
        1.0
    """
    __tracebackhide__ = True
    metric = str(metric)
    _check_plan(metric, question_runs, answer_runs, grouping)
    plan = _Plan(
        expected,
        given,
        metric,
        question_runs,
        answer_runs,
        bool(retry_on_error),
        grouping,
        what,
        first_run,
    )
    if _seams.is_replaced(_seams.EVALUATE_SCORE, "make_questions", "evaluate_questions"):
        side_runs = _seams.run_inline(_scored(_seams.SeamCalls(plan.retry, session), plan))
        name = _seam_judge_name(session)
    else:
        judge = judge_of(session)
        side_runs = run_sync(_scored(_JudgeCalls(judge, plan.retry), plan))
        name = judge.name
    return assemble(metric, side_runs, question_runs, answer_runs, name, first_run=first_run)
