"""The local judge's encoder: batching, vectors shared between threads, failures while shared."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scorekit.judges import JudgeConfigError
from scorekit.local import _model
from scorekit.local._model import Encoder, load_encoder


@pytest.mark.parametrize(
    "lengths",
    [[], [5], [3, 3, 3], [12, 4, 30, 4, 5, 90, 7, 7, 8, 200], [9] * 300, list(range(1, 120))],
)
def test_batches_hold_every_text_once_shortest_first_within_the_token_bound(
    lengths: list[int],
) -> None:
    batches = _model._batches(lengths)
    flat = [i for batch in batches for i in batch]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)
    for batch in batches:
        width = max(lengths[i] for i in batch)
        assert len(batch) == 1 or len(batch) * width <= _model._BATCH_TOKENS


def test_threads_sharing_texts_get_the_vectors_of_a_lone_run() -> None:
    encoder = load_encoder()
    words = ["tower", "river", "kettle", "ferry", "bridge", "garden", "window", "market"]
    groups = [
        [f"The {w} is near the {v}." for w in words for v in words[:3]],
        [f"The {w} is near the {v}." for w in reversed(words) for v in words[:2]],
        [*words, "The tower is near the river."],
    ]
    encoder._cache.clear()
    start = threading.Barrier(len(groups))

    def embed(texts: list[str]) -> Any:
        start.wait()
        return encoder.embed(texts)

    with ThreadPoolExecutor(len(groups)) as pool:
        results = list(pool.map(embed, groups))
    for texts, vectors in zip(groups, results, strict=True):
        alone = np.stack([encoder._encode([t])[0] for t in texts])
        assert np.array_equal(vectors, alone)
    assert not encoder._pending


class _Encoding:
    def __init__(self, text: str) -> None:
        self.ids = [101, *range(1000, 1000 + len(text.split())), 102]


class _Tokenizer:
    def encode_batch(self, texts: list[str]) -> list[_Encoding]:
        return [_Encoding(t) for t in texts]


class _Input:
    def __init__(self, name: str) -> None:
        self.name = name


class _BrokenSession:
    """Fails every run, after a pause that lets a second thread wait for the first."""

    def __init__(self) -> None:
        self.started = threading.Event()

    def get_inputs(self) -> list[_Input]:
        return [_Input("input_ids"), _Input("attention_mask")]

    def run(self, names: Any, feeds: dict[str, Any]) -> Any:
        self.started.set()
        threading.Event().wait(0.05)
        raise RuntimeError("bad allocation\nmore detail")


def test_a_failed_run_is_an_error_in_every_thread_that_waited_for_it() -> None:
    session = _BrokenSession()
    encoder = Encoder(session, _Tokenizer(), Path("broken.onnx"))
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(encoder.embed, ["a shared sentence"])
        session.started.wait(5)
        second = pool.submit(encoder.embed, ["a shared sentence"])
        for future in (first, second):
            with pytest.raises(JudgeConfigError, match=r"failed to run: bad allocation$"):
                future.result(timeout=10)
    assert not encoder._pending
