"""The judge cache end to end: real pytest runs of a small suite against the fake judge server.

Calls are counted at the server (in this process), so a run in a subprocess or an xdist worker
cannot hide a judge call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fakes.openai_server import FakeLLM, status
from scorekit.session._cache import CACHE_FILE_NAME

SUITE = """
import pytest
from pytest_texts_score import texts_agg_f1_mean, texts_expect_f1_equal, texts_expect_recall_equal

PAIRS = [
    ("Paris is the capital of France. It lies on the Seine.",
     "Paris, on the Seine, is the capital of France."),
    ("Water boils at 100 degrees. It freezes at 0 degrees.",
     "Water freezes at 0 degrees and boils at 100 degrees."),
    ("The cat sat on the mat.", "The cat sat on the mat."),
    ("Berlin is in Germany. Rome is in Italy.", "Rome is in Italy."),
]


@pytest.mark.parametrize(("expected", "given"), PAIRS)
def test_f1(expected, given):
    texts_expect_f1_equal(expected, given, target=1.0, max_delta=0.6)


def test_recall_fails():
    texts_expect_recall_equal("Berlin is in Germany. Rome is in Italy.",
                              "Madrid is in Spain.", target=1.0, max_delta=0.1)


def test_aggregated():
    texts_agg_f1_mean("Oslo is in Norway. It is cold.", "Oslo is in Norway.",
                      target=0.7, max_delta=0.3, full_runs=3)
"""

#: test_f1 x4 and test_aggregated pass; test_recall_fails fails (a real failure, not an error).
OUTCOMES = {"passed": 5, "failed": 1}


def _args(fake: FakeLLM, *extra: str) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-e2e-not-a-real-key",
        "--llm-model=fake-model",
        "--llm-timeout=5",
        "-p",
        "no:randomly",
        *extra,
    ]


def _db(pytester: pytest.Pytester) -> Path:
    return pytester.path / ".pytest_cache" / "d" / "llm-scorekit" / CACHE_FILE_NAME


def _scores(report: Path) -> list[tuple[str, str]]:
    """(test id, JSON of its outcome, score, runs and evidence) per text row of a report, sorted."""
    rows = json.loads(report.read_text())["texts"]
    assert rows, f"{report} holds no scored assertion"
    keep = ("outcome", "score", "runs", "evidence")
    return sorted(
        (str(row["test_id"]), json.dumps({k: row.get(k) for k in keep}, sort_keys=True))
        for row in rows
    )


def test_second_xdist_run_makes_no_judge_call(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    pytester.makepyfile(test_suite=SUITE)
    first = pytester.runpytest_subprocess(*_args(fake_llm, "-n", "2", "--llm-report=r1.json"))
    first.assert_outcomes(**OUTCOMES)
    calls_first = fake_llm.calls
    assert calls_first > 0
    assert _db(pytester).is_file()
    # The counts add up over both workers (a repeated text may already hit within the run).
    first.stdout.fnmatch_lines([f"*judge openai (fake-model): {calls_first} calls, *"])

    second = pytester.runpytest_subprocess(*_args(fake_llm, "-n", "2", "--llm-report=r2.json"))
    second.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls == calls_first  # not one request reached the judge
    second.stdout.fnmatch_lines(["*judge openai (fake-model): 0 calls, * cache hits*"])
    assert _scores(pytester.path / "r1.json") == _scores(pytester.path / "r2.json")
    assert "JudgeCacheWarning" not in second.stdout.str()


def test_replay_then_cache_clear(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    pytester.makepyfile(test_suite=SUITE)
    pytester.runpytest_subprocess(*_args(fake_llm)).assert_outcomes(**OUTCOMES)
    per_run = fake_llm.calls
    # replay with a full cache: no judge at all. Any request that still reached the server
    # would now break the run.
    fake_llm.script(*[status(500)] * 50)
    replay = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-cache=replay"))
    replay.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls == per_run
    replay.stdout.fnmatch_lines(["*judge openai (fake-model): 0 calls, * cache hits*"])
    fake_llm.reset()
    # --cache-clear empties pytest's cache, the judge cache with it (also when every xdist
    # worker clears at start-up: they all do so before the first test runs).
    cleared = pytester.runpytest_subprocess(*_args(fake_llm, "--cache-clear", "-n", "2"))
    cleared.assert_outcomes(**OUTCOMES)
    # Everything is asked again; a text repeated across tests may still hit within the run,
    # depending on which worker ran it.
    assert fake_llm.calls >= per_run
    cleared.stdout.fnmatch_lines([f"*judge openai (fake-model): {fake_llm.calls} calls, *"])
    again = pytester.runpytest_subprocess(*_args(fake_llm))
    again.assert_outcomes(**OUTCOMES)
    again.stdout.fnmatch_lines(["*judge openai (fake-model): 0 calls, * cache hits*"])


def test_replay_with_an_empty_cache_errors_naming_the_entry(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-cache=replay"))
    result.assert_outcomes(errors=6)  # an error, not a failed assertion
    assert fake_llm.calls == 0
    result.stdout.fnmatch_lines(
        [
            "*--llm-cache=replay: no cached questions reply of the openai judge for text*",
            "*run once with --llm-cache=on to record it*",
        ]
    )


def test_cache_off_calls_every_time(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    pytester.makepyfile(test_suite=SUITE)
    pytester.makeini("[pytest]\nllm_cache = off\n")
    pytester.runpytest_subprocess(*_args(fake_llm)).assert_outcomes(**OUTCOMES)
    per_run = fake_llm.calls
    assert per_run > 0
    assert not _db(pytester).exists()
    off = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-cache=off"))
    off.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls == 2 * per_run
    off.stdout.fnmatch_lines([f"*judge openai (fake-model): {per_run} calls, 0 cache hits*"])
    assert not _db(pytester).exists()


def test_corrupted_database_costs_a_warning_not_a_score(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    baseline = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-report=good.json"))
    baseline.assert_outcomes(**OUTCOMES)
    per_run = fake_llm.calls
    db = _db(pytester)
    db.write_bytes(b"\x00garbage, not SQLite\x00" * 500)
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    damaged = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-report=damaged.json"))
    damaged.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls - per_run >= per_run  # every reply requested anew
    damaged.stdout.fnmatch_lines(
        [
            f"*JudgeCacheWarning*{db}*damaged*--cache-clear*",
            "*judge openai (fake-model): * calls, 0 cache hits*",
        ]
    )
    assert _scores(pytester.path / "good.json") == _scores(pytester.path / "damaged.json")
    # Warnings as errors: the one warning becomes an error of the first test that used the
    # judge (an error, not a failure); the other tests run on without the cache.
    strict = pytester.runpytest_subprocess(*_args(fake_llm, "-W", "error::UserWarning"))
    strict.assert_outcomes(passed=4, failed=1, errors=1)
    strict.stdout.fnmatch_lines(
        ["*ERROR at call of test_f1*", "test_suite.py:*: JudgeCacheError: scorekit judge cache: *"]
    )


def test_unwritable_cache_folder_costs_a_warning(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    # Tests may run as root, which ignores permission bits: a folder below a regular file
    # cannot be created by anyone.
    (pytester.path / "not-a-folder").write_text("x")
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-cache-dir=not-a-folder/cache"))
    result.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls > 0
    result.stdout.fnmatch_lines(["*JudgeCacheWarning*not-a-folder*writable*"])


def test_unwritable_pytest_cache_dir_costs_a_warning(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    (pytester.path / "blocked").write_text("x")
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "-o", "cache_dir=blocked/cache"))
    result.assert_outcomes(**OUTCOMES)
    result.stdout.fnmatch_lines(["*JudgeCacheWarning*"])


def test_explicit_cache_dir_is_shared_and_survives_cache_clear(
    pytester: pytest.Pytester, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    folder = tmp_path / "team-cache"
    pytester.makepyfile(test_suite=SUITE)
    pytester.runpytest_subprocess(*_args(fake_llm, f"--llm-cache-dir={folder}"))
    per_run = fake_llm.calls
    assert (folder / CACHE_FILE_NAME).is_file()
    assert not _db(pytester).exists()
    again = pytester.runpytest_subprocess(
        *_args(fake_llm, f"--llm-cache-dir={folder}", "--cache-clear")
    )
    again.assert_outcomes(**OUTCOMES)
    assert fake_llm.calls == per_run


def test_nested_inline_runs_keep_their_own_cache(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    from scorekit.session._session import current_session

    outer = current_session()
    outer_stats = outer.stats.as_dict()
    pytester.makepyfile(test_suite=SUITE)
    pytester.runpytest(*_args(fake_llm)).assert_outcomes(**OUTCOMES)
    per_run = fake_llm.calls
    pytester.runpytest(*_args(fake_llm)).assert_outcomes(**OUTCOMES)
    assert fake_llm.calls == per_run
    assert current_session() is outer  # the inner sessions are gone
    assert outer.stats.as_dict() == outer_stats  # the inner runs counted in their own


def test_outside_pytest_the_cache_needs_a_folder(
    pytester: pytest.Pytester, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    script = pytester.makepyfile(
        run_me=f"""
import sys
from pytest_texts_score import configure, texts_expect_f1_equal
configure(provider="openai", base_url={fake_llm.base_url!r}, api_key="sk-x", model="m",
          cache_dir=sys.argv[1] if len(sys.argv) > 1 else None)
texts_expect_f1_equal("Paris is in France.", "Paris is in France.")
print("ok")
"""
    )
    folder = tmp_path / "plain"
    first = pytester.run(sys.executable, str(script), str(folder))
    first.stdout.fnmatch_lines(["ok"])
    per_run = fake_llm.calls
    assert per_run > 0
    assert (folder / CACHE_FILE_NAME).is_file()
    pytester.run(sys.executable, str(script), str(folder)).stdout.fnmatch_lines(["ok"])
    assert fake_llm.calls == per_run
