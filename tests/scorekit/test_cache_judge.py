"""The judge layer with a cache: what is a hit, what is a miss, what is never stored, replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekit.judges import (
    CacheMissError,
    Judge,
    JudgeUnavailableError,
    PermanentJudgeError,
    TransientJudgeError,
    run_sync,
)
from scorekit.session._cache import JudgeCache

BASE_IDENTITY: dict[str, Any] = {
    "provider": "openai",
    "endpoint": "http://127.0.0.1:9/v1",
    "model": "judge-model-1",
    "prompt_version": "3",
    "temperature": 0.0,
    "max_tokens": 8192,
}


class CountingJudge:
    """A remote-like judge: it has a cache identity and counts its calls."""

    def __init__(self, **identity: Any) -> None:
        self.identity = {**BASE_IDENTITY, **identity}
        self.calls: list[tuple[str, str]] = []
        self.reply_questions: Any = None
        self.reply_answers: Any = None
        self.fail_with: Exception | None = None

    def cache_identity(self) -> dict[str, Any]:
        return dict(self.identity)

    def make_questions(self, text: str) -> Any:
        self.calls.append(("questions", text))
        if self.fail_with is not None:
            raise self.fail_with
        if self.reply_questions is not None:
            return self.reply_questions
        # A different reply per call shows whether a value came from the cache.
        return [f"Q{len(self.calls)}: does it say {text!r}?"]

    def answer_questions(self, text: str, questions: list[str]) -> Any:
        self.calls.append(("answers", text))
        if self.fail_with is not None:
            raise self.fail_with
        if self.reply_answers is not None:
            return self.reply_answers
        return [round(1.0 / len(self.calls), 6) for _ in questions]


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[JudgeCache]:
    c = JudgeCache(tmp_path / "cache")
    yield c
    c.close()


def _judge(backend: Any, cache: JudgeCache | None, mode: str = "on") -> Judge:
    j = Judge(backend, cache=cache, cache_mode=mode, max_retries=1)

    async def no_sleep(_: float) -> None:
        return None

    j._sleep = no_sleep
    return j


def _q(judge: Judge, text: str = "Paris is in France.", run: int = 0) -> list[str]:
    return run_sync(judge.questions(text, run=run))


def _a(
    judge: Judge,
    text: str = "Paris is in France.",
    questions: tuple[str, ...] = ("Is Paris in France?",),
    run: tuple[int, int] = (0, 0),
) -> list[float]:
    return run_sync(judge.answers(text, list(questions), run=run))


def test_same_request_is_served_from_the_cache(cache: JudgeCache) -> None:
    backend = CountingJudge()
    first = _judge(backend, cache)
    q, a = _q(first), _a(first)
    assert len(backend.calls) == 2
    assert first.stats.calls == 2 and first.stats.cache_hits == 0

    again = _judge(CountingJudge(), cache)  # a new session, same judge settings
    assert _q(again) == q
    assert _a(again) == a
    assert again.stats.calls == 0 and again.stats.cache_hits == 2


@pytest.mark.parametrize(
    "changed",
    [
        {"model": "judge-model-2"},
        {"provider": "azure"},
        {"endpoint": "http://127.0.0.1:10/v1"},
        {"prompt_version": "4"},
        {"temperature": 0.7},
        {"max_tokens": 100},
    ],
    ids=lambda d: next(iter(d)),
)
def test_a_changed_judge_setting_misses(cache: JudgeCache, changed: dict[str, Any]) -> None:
    _q(_judge(CountingJudge(), cache))
    _a(_judge(CountingJudge(), cache))
    other = CountingJudge(**changed)
    j = _judge(other, cache)
    _q(j)
    _a(j)
    assert len(other.calls) == 2
    assert j.stats.cache_hits == 0
    # The original setting still hits.
    same = _judge(CountingJudge(), cache)
    _q(same)
    _a(same)
    assert same.stats.calls == 0 and same.stats.cache_hits == 2


def test_a_changed_text_misses(cache: JudgeCache) -> None:
    _q(_judge(CountingJudge(), cache), "Paris is in France.")
    backend = CountingJudge()
    j = _judge(backend, cache)
    _q(j, "Paris is in Texas.")
    _a(j, "Paris is in Texas.")
    assert backend.calls == [("questions", "Paris is in Texas."), ("answers", "Paris is in Texas.")]
    assert j.stats.cache_hits == 0


def test_changed_questions_miss(cache: JudgeCache) -> None:
    _a(_judge(CountingJudge(), cache), questions=("Is Paris in France?",))
    backend = CountingJudge()
    j = _judge(backend, cache)
    _a(j, questions=("Is Paris the capital?",))
    assert len(backend.calls) == 1
    _a(j, questions=("Is Paris in France?",))
    assert len(backend.calls) == 1 and j.stats.cache_hits == 1


def test_each_run_index_is_its_own_sample(cache: JudgeCache) -> None:
    backend = CountingJudge()
    j = _judge(backend, cache)
    replies = [_q(j, run=r) for r in range(3)]
    answers = [_a(j, run=(0, r)) for r in range(3)] + [_a(j, run=(1, 0))]
    assert len(backend.calls) == 7
    assert len({tuple(r) for r in replies}) == 3  # distinct samples, not one reply reused
    again = _judge(CountingJudge(), cache)
    assert [_q(again, run=r) for r in range(3)] == replies
    assert [_a(again, run=(0, r)) for r in range(3)] + [_a(again, run=(1, 0))] == answers
    assert again.stats.calls == 0 and again.stats.cache_hits == 7


def test_a_judge_without_identity_is_never_cached(cache: JudgeCache) -> None:
    class Local:
        def __init__(self) -> None:
            self.calls = 0

        def make_questions(self, text: str) -> list[str]:
            self.calls += 1
            return ["Q?"]

        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            return [1.0]

    backend = Local()
    j = _judge(backend, cache)
    _q(j)
    _q(j)
    assert backend.calls == 2
    assert j.cache is None
    assert cache.path is None  # the database was never even opened


def test_cache_off_neither_reads_nor_writes(cache: JudgeCache) -> None:
    _q(_judge(CountingJudge(), cache))
    backend = CountingJudge()
    j = _judge(backend, cache, mode="off")
    _q(j, "Other text.")
    _q(j)
    assert len(backend.calls) == 2 and j.stats.cache_hits == 0
    assert cache.count() == 1


@pytest.mark.parametrize(
    "failure",
    [
        PermanentJudgeError("401 Unauthorized: check --llm-api-key"),
        TransientJudgeError("503 Service Unavailable"),
    ],
    ids=["permanent", "transient-exhausted"],
)
def test_failed_calls_are_not_cached(cache: JudgeCache, failure: Exception) -> None:
    backend = CountingJudge()
    backend.fail_with = failure
    j = _judge(backend, cache)
    with pytest.raises(JudgeUnavailableError):
        _q(j)
    with pytest.raises(JudgeUnavailableError):
        _a(j)
    assert cache.count() == 0
    backend.fail_with = None
    _q(j)
    assert j.stats.cache_hits == 0
    assert cache.count() == 1


@pytest.mark.parametrize(
    ("kind", "reply"),
    [("questions", []), ("questions", "not a list"), ("answers", [1.5]), ("answers", [0.5, 0.5])],
)
def test_invalid_replies_are_not_cached(cache: JudgeCache, kind: str, reply: Any) -> None:
    backend = CountingJudge()
    if kind == "questions":
        backend.reply_questions = reply
    else:
        backend.reply_answers = reply
    j = _judge(backend, cache)
    with pytest.raises(JudgeUnavailableError):
        _q(j) if kind == "questions" else _a(j)
    assert len(backend.calls) == 2  # tried, retried, gave up
    assert cache.count() == 0


def test_a_stored_value_that_fails_validation_is_a_miss(cache: JudgeCache) -> None:
    j = _judge(CountingJudge(), cache)
    good = _a(j)
    # Damage the entry behind the judge's back: a number out of range.
    key = next(iter(_keys(cache)))
    cache.put(key, [7.0])
    backend = CountingJudge()
    again = _judge(backend, cache)
    fresh = _a(again)
    assert len(backend.calls) == 1 and again.stats.cache_hits == 0
    assert fresh != [7.0] and len(fresh) == len(good)
    assert cache.get(key) == fresh  # the good reply replaced the bad one


def _keys(cache: JudgeCache) -> list[str]:
    import sqlite3

    assert cache.path is not None
    with sqlite3.connect(cache.path) as db:
        return [r[0] for r in db.execute("SELECT key FROM replies")]


# -- replay ----------------------------------------------------------------------------------


def test_replay_with_a_full_cache_makes_no_call(cache: JudgeCache) -> None:
    recorder = _judge(CountingJudge(), cache)
    q = [_q(recorder, run=r) for r in range(2)]
    a = _a(recorder, run=(1, 1))
    backend = CountingJudge()
    replay = _judge(backend, cache, mode="replay")
    assert [_q(replay, run=r) for r in range(2)] == q
    assert _a(replay, run=(1, 1)) == a
    assert backend.calls == []
    assert replay.stats.calls == 0 and replay.stats.cache_hits == 3


def test_replay_with_an_empty_cache_names_the_missing_entry(cache: JudgeCache) -> None:
    backend = CountingJudge()
    replay = _judge(backend, cache, mode="replay")
    with pytest.raises(CacheMissError) as info:
        _q(replay, "The Eiffel tower is in Paris.", run=2)
    message = str(info.value)
    assert "The Eiffel tower is in Paris." in message
    assert "questions" in message and "run 2" in message
    assert "--llm-cache=on" in message
    with pytest.raises(CacheMissError, match=r"answers .*\(run 1/3"):
        _a(replay, "Some text.", run=(1, 3))
    assert backend.calls == []
    assert cache.count() == 0


def test_replay_misses_one_entry_of_a_partly_filled_cache(cache: JudgeCache) -> None:
    _q(_judge(CountingJudge(), cache), run=0)
    backend = CountingJudge()
    replay = _judge(backend, cache, mode="replay")
    _q(replay, run=0)
    with pytest.raises(CacheMissError, match="run 1"):
        _q(replay, run=1)
    assert backend.calls == []


def test_replay_without_any_cache_says_so() -> None:
    backend = CountingJudge()
    replay = _judge(backend, None, mode="replay")
    with pytest.raises(CacheMissError, match="no judge reply cache"):
        _q(replay)
    assert backend.calls == []


# -- one reply per request, even when two calls race ----------------------------------------


def test_identical_requests_in_flight_share_one_call(cache: JudgeCache) -> None:
    """Within one judge, a request already in flight is joined, not sent twice."""
    import asyncio

    backend = CountingJudge()
    j = _judge(backend, cache)

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(j.questions("Same text."), j.questions("Same text.")))

    first, second = run_sync(both())
    assert len(backend.calls) == 1
    assert first == second


def test_racing_judges_for_one_request_agree_on_one_reply(cache: JudgeCache) -> None:
    """Two judges (as two xdist workers) both call, but both use the reply stored first."""
    import asyncio
    import threading

    barrier = threading.Barrier(2, timeout=10)
    counter = iter(range(100))

    class Racing(CountingJudge):
        def make_questions(self, text: str) -> Any:
            super().make_questions(text)
            barrier.wait()  # both calls are in flight before either stores its reply
            return [f"Reply number {next(counter)}?"]

    one, two = Racing(), Racing()
    j1, j2 = _judge(one, cache), _judge(two, cache)

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(j1.questions("Same text."), j2.questions("Same text.")))

    first, second = run_sync(both())
    assert len(one.calls) == 1 and len(two.calls) == 1
    assert first == second
    rerun = _judge(CountingJudge(), cache)
    assert _q(rerun, "Same text.") == first


def test_a_reply_stored_meanwhile_by_another_worker_wins(cache: JudgeCache) -> None:
    from scorekit.judges._keys import reply_key

    other_worker_reply = ["Q from the other worker?"]

    class SlowerThanTheOtherWorker(CountingJudge):
        def make_questions(self, text: str) -> Any:
            key = reply_key(self.cache_identity(), "questions", text, None, (0,))
            with JudgeCache(cache.path.parent if cache.path else ".") as other:
                other.put(key, other_worker_reply)
            return super().make_questions(text)

    backend = SlowerThanTheOtherWorker()
    j = _judge(backend, cache)
    assert _q(j, "Shared text.") == other_worker_reply
    assert len(backend.calls) == 1 and j.stats.calls == 1
