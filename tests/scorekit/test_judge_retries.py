"""The Judge's retry policy, on in-process backends (no HTTP): what retries, how long it waits."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scorekit.judges import (
    MAXIMAL_RETRY_ON_ERROR,
    InvalidReplyError,
    Judge,
    JudgeUnavailableError,
    PermanentJudgeError,
    Reply,
    TransientJudgeError,
    Usage,
    run_sync,
)


class Scripted:
    """A backend that raises or returns the scripted outcomes in order."""

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0

    def _next(self) -> Any:
        self.calls += 1
        outcome = self.outcomes.pop(0) if self.outcomes else ["Is it?"]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def make_questions(self, text: str) -> Any:
        return self._next()

    def answer_questions(self, text: str, questions: list[str]) -> Any:
        return self._next()


def _judge(backend: Any, **kw: Any) -> tuple[Judge, list[float]]:
    delays: list[float] = []

    async def record(seconds: float) -> None:
        delays.append(seconds)

    return Judge(backend, sleep=record, cache_mode="off", **kw), delays


def test_transient_errors_retry_up_to_the_budget() -> None:
    backend = Scripted(*[TransientJudgeError("HTTP 503")] * 10)
    judge, delays = _judge(backend)
    with pytest.raises(JudgeUnavailableError, match=r"after 6 tries: HTTP 503"):
        run_sync(judge.questions("x"))
    assert backend.calls == MAXIMAL_RETRY_ON_ERROR + 1
    assert len(delays) == MAXIMAL_RETRY_ON_ERROR
    assert judge.stats.retries == MAXIMAL_RETRY_ON_ERROR
    assert judge.stats.calls == MAXIMAL_RETRY_ON_ERROR + 1


def test_backoff_is_exponential_with_jitter_and_capped() -> None:
    backend = Scripted(*[TransientJudgeError("busy")] * 5)
    judge, delays = _judge(backend)
    judge.backoff_base, judge.backoff_cap = 1.0, 4.0
    assert run_sync(judge.questions("x")) == ["Is it?"]
    bases = [1.0, 2.0, 4.0, 4.0, 4.0]
    for delay, base in zip(delays, bases, strict=True):
        assert base / 2 <= delay <= base


def test_jitter_spreads_concurrent_retries() -> None:
    delays: set[float] = set()
    for _ in range(20):
        judge, d = _judge(Scripted(TransientJudgeError("busy")))
        run_sync(judge.questions("x"))
        delays.update(d)
    assert len(delays) > 1


def test_retry_after_wins_over_backoff() -> None:
    judge, delays = _judge(Scripted(TransientJudgeError("429", retry_after=3.0)))
    run_sync(judge.questions("x"))
    assert delays == [3.0]


def test_permanent_error_fails_at_once() -> None:
    backend = Scripted(PermanentJudgeError("HTTP 401: check --llm-api-key"))
    judge, delays = _judge(backend)
    with pytest.raises(
        JudgeUnavailableError, match="cannot be used: HTTP 401: check --llm-api-key"
    ):
        run_sync(judge.questions("x"))
    assert backend.calls == 1 and delays == []


def test_invalid_values_from_a_custom_backend_are_retried() -> None:
    backend = Scripted([], ["  "], [1.5], ["Is it?"])
    judge, delays = _judge(backend)
    assert run_sync(judge.questions("x")) == ["Is it?"]
    assert len(delays) == 3


def test_answers_validated_against_the_question_count() -> None:
    backend = Scripted([1.0], [True, 0.0], [float("nan"), 1.0], [0.0, 1])
    judge, _ = _judge(backend)
    assert run_sync(judge.answers("x", ["a?", "b?"])) == [0.0, 1.0]
    assert backend.calls == 4


def test_invalid_reply_every_time_is_an_error() -> None:
    judge, _ = _judge(Scripted(*[InvalidReplyError("not valid JSON: 'nope'")] * 6))
    with pytest.raises(JudgeUnavailableError, match="not valid JSON: 'nope'"):
        run_sync(judge.answers("x", ["a?"]))


def test_retry_false_is_one_try() -> None:
    backend = Scripted(TransientJudgeError("HTTP 500"))
    judge, delays = _judge(backend)
    with pytest.raises(JudgeUnavailableError, match="after 1 try: HTTP 500"):
        run_sync(judge.questions("x", retry=False))
    assert backend.calls == 1 and delays == []


def test_usage_of_replies_is_counted() -> None:
    judge, _ = _judge(Scripted(Reply(["Q?"], Usage(10, 3)), Reply([1.0], Usage(7, 2))))
    run_sync(judge.questions("x"))
    run_sync(judge.answers("x", ["Q?"]))
    assert (judge.stats.prompt_tokens, judge.stats.completion_tokens) == (17, 5)


def test_async_backends_and_the_limit() -> None:
    in_flight = 0
    peak = 0

    class Slow:
        async def make_questions(self, text: str) -> list[str]:
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.01)
            in_flight -= 1
            return [f"{text}?"]

        async def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            return [1.0] * len(questions)

    judge = Judge(Slow(), max_concurrency=5, cache_mode="off")

    async def many() -> list[list[str]]:
        return await asyncio.gather(*(judge.questions(str(i)) for i in range(20)))

    assert run_sync(many()) == [[f"{i}?"] for i in range(20)]
    assert peak == 5
