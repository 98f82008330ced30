"""pytest_texts_score.evaluate_dataset: scores by hand, workers, the judge's limit and cache
across processes, judge failures."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from datasets import read_jsonl, write_jsonl
from scripted_judge import PAIRS, DownJudge, SentenceJudge, f1, pair_rows

import pytest_texts_score as pts
from scorekit.batch import JudgeOutageError
from scorekit.judges import resolve_settings
from scorekit.session._session import ScoreSession

Session = Callable[..., ScoreSession]


@pytest.fixture
def judge_session() -> Iterator[Session]:
    """Activate a scoring session with the given judge for the test (restored after)."""
    made: list[ScoreSession] = []

    def make(backend: Any = None, **settings: Any) -> ScoreSession:
        session = ScoreSession(resolve_settings(overrides=settings, env={}), backend=backend)
        session.activate()
        made.append(session)
        return session

    yield make
    for session in reversed(made):
        session.deactivate()
        session.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_scores_of_every_pair_match_the_hand_computed_ones(
    tmp_path: Path, judge_session: Session, workers: int
) -> None:
    judge_session(SentenceJudge())
    out = tmp_path / "out.jsonl"
    summary = pts.evaluate_dataset(
        write_jsonl(tmp_path / "pairs.jsonl", pair_rows(12)),
        output=out,
        workers=workers,
        batch_size=3,
        progress=False,
    )
    got = read_jsonl(out)
    assert [r["id"] for r in got] == [f"p{i}" for i in range(12)]
    for i, row in enumerate(got):
        _, _, p, r = PAIRS[i % 4]
        assert (row["precision"], row["recall"]) == (p, pytest.approx(r))
        assert row["f1"] == pytest.approx(f1(p, r))
    third = got[1]  # "A b. C d. E f." vs "A b. C d.": 3 facts, 1 missing
    assert (third["expected_questions"], third["missing"]) == (3, 1)
    assert (third["given_questions"], third["unsupported"]) == (2, 0)
    assert summary.main_score == "f1"
    expected_mean = sum(f1(p, r) for _, _, p, r in PAIRS) / 4
    assert summary.mean == pytest.approx(expected_mean)
    assert summary.failures == {
        "facts of expected missing from given": 6,  # pairs 2 and 4, three times each
        "statements of given not in expected": 6,  # pairs 3 and 4
    }
    # Two question calls and two answer calls per pair, none for nothing.
    assert summary.judge is not None and summary.judge["calls"] == 12 * 4
    assert summary.judge["judge"] == "sentences"


def test_one_side_only(judge_session: Session) -> None:
    judge_session(SentenceJudge())
    summary = pts.evaluate_dataset(pair_rows(4), metrics=["recall"], workers=1, progress=False)
    assert list(summary.scores) == ["recall"]
    assert summary.mean == pytest.approx((1 + 2 / 3 + 1 + 0) / 4)
    assert summary.judge is not None and summary.judge["calls"] == 4 * 2


def test_bad_rows_become_error_rows(judge_session: Session) -> None:
    judge_session(SentenceJudge())
    rows: list[dict[str, Any]] = [
        {"id": "ok", "expected": "A b.", "given": "A b."},
        {"id": "no-given", "expected": "A b."},
        {"id": "number", "expected": "A b.", "given": 42},
    ]
    summary = pts.evaluate_dataset(rows, workers=1, progress=False)
    assert summary.error_kinds == {"bad_value": 1, "missing_column": 1}
    assert summary.scored == 1 and summary.mean == 1.0


def test_a_judge_that_is_down_stops_the_run(tmp_path: Path, judge_session: Session) -> None:
    judge_session(DownJudge())
    out = tmp_path / "out.jsonl"
    with pytest.raises(JudgeOutageError, match=r"25 rows in a row.*revoked"):
        pts.evaluate_dataset(pair_rows(200), output=out, workers=1, batch_size=10, progress=False)
    kept = read_jsonl(out)
    assert 25 <= len(kept) < 200  # what was written stays, for --resume
    assert {r["error_kind"] for r in kept} == {"judge_error"}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="metrics must be one or more of"):
        pts.evaluate_dataset([], metrics=["bleu"])
    with pytest.raises(ValueError, match="question_runs must be a positive integer"):
        pts.evaluate_dataset([], question_runs=0)


def test_llm_judge_limit_is_shared_by_the_workers_and_the_cache_by_the_processes(
    tmp_path: Path, judge_session: Session, fake_llm: Any, fake_llm_options: dict[str, Any]
) -> None:
    fake_llm.latency = 0.15
    options = {
        **fake_llm_options,
        "max_concurrency": 4,
        "cache": "on",
        "cache_dir": str(tmp_path / "cache"),
    }
    judge_session(**options)
    texts = [
        {"id": i, "expected": f"Fact {i} holds. Other {i} too.", "given": f"Fact {i} holds."}
        for i in range(16)
    ]
    first = pts.evaluate_dataset(texts, workers=2, batch_size=4, progress=False)
    # Each of the 2 processes may have 4 // 2 = 2 calls in flight: never more than 4 in all.
    assert 2 < fake_llm.max_in_flight <= 4
    assert first.judge is not None and first.judge["calls"] == fake_llm.calls == 16 * 4
    assert first.errors == 0 and first.scores["recall"]["mean"] == 0.5
    calls = fake_llm.calls
    again = pts.evaluate_dataset(texts, workers=2, batch_size=4, progress=False)
    assert fake_llm.calls == calls  # every reply came from the shared cache
    assert again.judge is not None and again.judge["cache_hits"] == 16 * 4
    assert again.scores == first.scores


def test_a_judge_that_cannot_go_to_worker_processes_is_named_before_the_run(
    judge_session: Session,
) -> None:
    from scorekit.batch import DatasetError

    class LocalJudge(SentenceJudge):
        """Defined inside a function: pickle cannot send it to another process."""

    judge_session(LocalJudge())
    with pytest.raises(DatasetError, match=r"the task cannot be sent to worker processes \(.*"
                       r"\); use workers=1"):  # fmt: skip
        pts.evaluate_dataset(pair_rows(4), workers=2, progress=False)
    # one worker scores in this process: nothing is sent anywhere
    assert pts.evaluate_dataset(pair_rows(4), workers=1, progress=False).rows == 4
