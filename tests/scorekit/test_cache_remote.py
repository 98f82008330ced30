"""The cache with the real openai/azure judges against the fake HTTP server."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM, Step, content, status
from scorekit.judges import Judge, JudgeSettings, JudgeUnavailableError, run_sync
from scorekit.judges._factory import build_backend
from scorekit.session._cache import JudgeCache

TEXT = "Paris is the capital of France. It has two million inhabitants."


def _score(settings: JudgeSettings, folder: Path) -> tuple[Judge, list[str], list[float]]:
    with JudgeCache(folder) as cache:
        judge = Judge(build_backend(settings), cache=cache, cache_mode=settings.cache)
        questions = run_sync(judge.questions(TEXT))
        answers = run_sync(judge.answers("Paris is in France.", questions, run=(0, 1)))
    return judge, questions, answers


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file())


def test_openai_replies_are_cached_and_the_key_is_not(
    fake_llm: FakeLLM, fake_llm_settings: JudgeSettings, tmp_path: Path
) -> None:
    settings = fake_llm_settings.replace(cache="on")
    with JudgeCache(tmp_path) as cache:
        first = Judge(build_backend(settings), cache=cache, cache_mode="on")
        questions = run_sync(first.questions(TEXT))
        answers = run_sync(first.answers("Paris is in France.", questions, run=(0, 1)))
        assert fake_llm.calls == 2 and first.stats.calls == 2
        blobs = [_all_bytes(tmp_path)]  # while open: the WAL file holds the new pages
    blobs.append(_all_bytes(tmp_path))  # after closing: checkpointed into the database
    for blob in blobs:
        assert blob, "the cache stored nothing"
        assert FAKE_KEY.encode() not in blob
        assert b"SECRET" not in blob and b"0123456789abcdef" not in blob

    again, q2, a2 = _score(settings, tmp_path)
    assert (q2, a2) == (questions, answers)
    assert fake_llm.calls == 2  # nothing reached the server
    assert again.stats.calls == 0 and again.stats.cache_hits == 2


def test_another_key_reuses_the_replies(
    fake_llm: FakeLLM, fake_llm_settings: JudgeSettings, tmp_path: Path
) -> None:
    # The key says who pays, not what the judge answers: it is not part of the cache key.
    _score(fake_llm_settings.replace(cache="on"), tmp_path)
    other = fake_llm_settings.replace(cache="on", api_key="sk-other-key")
    _, _, _ = _score(other, tmp_path)
    assert fake_llm.calls == 2


def test_another_model_or_temperature_misses(
    fake_llm: FakeLLM, fake_llm_settings: JudgeSettings, tmp_path: Path
) -> None:
    base = fake_llm_settings.replace(cache="on")
    _score(base, tmp_path)
    _score(base.replace(model="fake-model-2"), tmp_path)
    assert fake_llm.calls == 4
    _score(base.replace(temperature=0.5), tmp_path)
    assert fake_llm.calls == 6
    _score(base.replace(max_tokens=512), tmp_path)
    assert fake_llm.calls == 8
    _score(base, tmp_path)
    assert fake_llm.calls == 8


def test_azure_deployment_and_provider_are_part_of_the_key(
    fake_llm: FakeLLM, fake_azure_settings: JudgeSettings, tmp_path: Path
) -> None:
    base = fake_azure_settings.replace(cache="on")
    _score(base, tmp_path)
    assert fake_llm.calls == 2
    _score(base.replace(deployment="fake-dep-2"), tmp_path)
    assert fake_llm.calls == 4
    _score(base, tmp_path)
    assert fake_llm.calls == 4
    # An openai judge on the same server never reads the azure entries.
    openai = base.replace(provider="openai", base_url=fake_llm.base_url, model="fake-dep")
    _score(openai, tmp_path)
    assert fake_llm.calls == 6


@pytest.mark.parametrize(
    "steps",
    [[status(401)], [content("not json at all")] * 2, [status(503)] * 2],
    ids=["auth", "invalid-reply", "server-error"],
)
def test_failed_remote_calls_are_not_stored(
    fake_llm: FakeLLM, fake_llm_settings: JudgeSettings, tmp_path: Path, steps: list[Step]
) -> None:
    fake_llm.script(*steps)
    with JudgeCache(tmp_path) as cache:
        judge = Judge(build_backend(fake_llm_settings), cache=cache, cache_mode="on", max_retries=1)

        async def no_sleep(_: float) -> None:
            return None

        judge._sleep = no_sleep
        with pytest.raises(JudgeUnavailableError):
            run_sync(judge.questions(TEXT))
        assert cache.count() == 0
        # The judge recovers: the good reply is stored, and read back on the next run.
        good = run_sync(judge.questions(TEXT))
        assert cache.count() == 1
    calls = fake_llm.calls
    judge_again, questions, _ = _score(fake_llm_settings.replace(cache="on"), tmp_path)
    assert questions == good
    assert fake_llm.calls == calls + 1  # questions from the cache, answers asked
    assert judge_again.stats.cache_hits == 1
