"""The batch layer's parts: score distributions, resumed-id lookups, progress output."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from scorekit.batch._distribution import BINS, EXACT_LIMIT, ScoreDistribution
from scorekit.batch._done import DoneIds
from scorekit.batch._progress import LineProgress, RichProgress, make_progress


def test_quantiles_are_exact_while_values_repeat() -> None:
    rng = random.Random(7)
    values = [rng.choice([0.0, 0.1, 0.25, 1 / 3, 0.5, 2 / 3, 0.9, 1.0]) for _ in range(5001)]
    d = ScoreDistribution()
    for start in range(0, len(values), 333):  # batched as the driver does
        d.add(np.array(values[start : start + 333]))
    assert d.exact and d.count == 5001
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        assert d.quantile(q) == pytest.approx(float(np.quantile(values, q)), abs=1e-12)
    assert d.mean == pytest.approx(float(np.mean(values)), abs=1e-12)
    assert d.std == pytest.approx(float(np.std(values)), abs=1e-12)
    assert sum(d.histogram()) == 5001


def test_many_distinct_values_move_into_bins_within_half_a_bin() -> None:
    rng = np.random.default_rng(3)
    values = rng.beta(5, 2, size=50_000)
    d = ScoreDistribution()
    for chunk in np.array_split(values, 40):
        d.add(chunk)
    assert not d.exact and EXACT_LIMIT < 50_000
    for q in (0.1, 0.5, 0.9):
        assert abs(d.quantile(q) - float(np.quantile(values, q))) <= 1 / BINS  # type: ignore[operator]
    assert d.mean == pytest.approx(float(values.mean()), rel=1e-9)
    assert (d.minimum, d.maximum) == (float(values.min()), float(values.max()))


@pytest.mark.parametrize("distinct", [12, 50_000], ids=["exact", "binned"])
def test_buffered_batches_give_what_one_whole_add_gives(distinct: int) -> None:
    # Batches are folded PENDING values at a time; every reading folds what is pending.
    rng = np.random.default_rng(3)
    values = rng.integers(0, distinct, 40_000) / distinct
    values[::97] = np.nan  # rows without this score
    whole, batched = ScoreDistribution(), ScoreDistribution()
    whole.add(values.copy())
    for start in range(0, values.size, 512):
        batched.add(values[start : start + 512])
        if start == 512 * 20:  # a reading in the middle changes nothing
            assert batched.count == np.count_nonzero(~np.isnan(values[: start + 512]))
    expected, got = whole.to_dict(), batched.to_dict()
    assert got.pop("mean") == pytest.approx(expected.pop("mean"), abs=1e-12)
    assert got.pop("std") == pytest.approx(expected.pop("std"), abs=1e-12)
    assert got == expected
    assert got["count"] == np.count_nonzero(~np.isnan(values))
    assert got["exact"] is (distinct < EXACT_LIMIT)


def test_rows_without_a_score_are_left_out() -> None:
    d = ScoreDistribution()
    d.add(np.array([np.nan, 0.5, np.nan]))
    assert (d.count, d.mean, d.quantile(0.5)) == (1, 0.5, 0.5)
    assert ScoreDistribution().mean is None and ScoreDistribution().quantile(0.5) is None


def test_done_ids_skip_by_id_and_by_position() -> None:
    done = DoneIds.of([f"id-{i}" for i in range(1000)], positions=[5, 9])
    assert len(done) == 1002
    mask = done.skip_mask(["id-3", "id-1000", None, None, "id-999"], start=7)
    assert mask == [True, False, True, False, True]  # positions 9 (done) and 10 (not)
    assert done.skip_mask([None], start=None) == [False]  # unknown position: scored again
    assert done.done_positions([4, 5, 9, 10]) == [False, True, True, False]


def test_plain_progress_lines_off_a_terminal() -> None:
    out = io.StringIO()
    progress = make_progress(None, "data.jsonl", 1000, "bytes", stream=out, interval=0.0)
    assert isinstance(progress, LineProgress)
    progress.update(rows=10, errors=1, skipped=0, nbytes=250)
    progress.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("data.jsonl: 10 rows, 1 errors, ")
    assert "25% done, ETA " in lines[0]
    assert len(lines) == 2


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_rich_bar_on_a_terminal_and_silence_on_request() -> None:
    out = _Terminal()
    progress = make_progress(None, "data.jsonl", 100, "rows", stream=out)
    assert isinstance(progress, RichProgress)
    progress.update(rows=40, errors=0, skipped=10, nbytes=0)
    progress.close()
    text = out.getvalue()
    assert "data.jsonl" in text and "40 rows" in text and "rows/s" in text
    silent = io.StringIO()
    quiet = make_progress(False, "x", None, "rows", stream=silent)
    quiet.update(rows=5, errors=0, skipped=0, nbytes=0)
    quiet.close()
    assert silent.getvalue() == ""
