"""Latency of the text assertions against a judge that answers every call after 200 ms.

Prints figures; it is not a test. The fake OpenAI server of the test suite (tests/fakes) runs on
127.0.0.1 with a fixed per-request latency; the assertions run through the real ``openai`` SDK.
The physical limit is two round trips (questions, then answers): about 0.4 s plus overhead.

Targets (issue 3) and the reference implementation's sequential call counts:

    texts_expect_f1_equal                         < 0.5 s   (reference: 4 calls, 0.8 s)
    texts_agg_f1_mean(full_runs=5)                < 0.6 s   (reference: 20 calls, 4.1 s)
    texts_agg_f1_mean(full_runs=20), 64 in flight < 1.0 s   (reference: 80 calls, ~16.4 s)

Run from the repository root::

    .venv/bin/python benchmarks/bench_texts_latency.py [--latency 0.2] [--repeat 5]

Each figure is the median of ``--repeat`` timed runs after one untimed warm-up (the warm-up pays
for importing the SDK and opening connections; its time is printed separately). The fake server
runs in its own process, as a real judge would (``--in-process`` runs it in a thread of this
process instead, where it competes with the client for the GIL).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import pytest_texts_score as pts  # noqa: E402
from fakes.openai_server import FakeLLM  # noqa: E402

EXPECTED = (
    "The Eiffel Tower is in Paris. It was completed in 1889. It is 330 metres tall. "
    "Gustave Eiffel's company built it. It was the world's tallest structure until 1930."
)
GIVEN = (
    "The Eiffel Tower is in Paris. It was completed in 1889. It is 330 metres tall. "
    "Gustave Eiffel's company built it."
)

#: Sequential calls the reference makes (2 question + 2 answer calls per run) at 200 ms each.
REFERENCE_CALLS = {"f1_equal": 4, "agg_mean_5": 20, "agg_mean_20": 80}


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    started = time.perf_counter()
    fn()
    warm_up = time.perf_counter() - started
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return warm_up, statistics.median(times)


class _Server:
    """The fake judge: a thread of this process or a separate process, same controls."""

    def __init__(self, base_url: str, fake: FakeLLM | None) -> None:
        self.base_url = base_url
        self._fake = fake

    def reset(self, latency: float) -> None:
        if self._fake is not None:
            self._fake.reset()
            self._fake.latency = latency
            return
        root = self.base_url.removesuffix("/v1")
        req = urllib.request.Request(f"{root}/_fake/reset?latency={latency}", method="POST")
        urllib.request.urlopen(req, timeout=5).read()

    def stats(self) -> tuple[int, int]:
        if self._fake is not None:
            return self._fake.calls, self._fake.max_in_flight
        root = self.base_url.removesuffix("/v1")
        data = json.loads(urllib.request.urlopen(f"{root}/_fake/stats", timeout=5).read())
        return int(data["calls"]), int(data["max_in_flight"])


@contextlib.contextmanager
def _serve(in_process: bool) -> Iterator[_Server]:
    if in_process:
        with FakeLLM() as fake:
            yield _Server(fake.base_url, fake)
        return
    script = ROOT / "tests" / "fakes" / "openai_server.py"
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert proc.stdout is not None
        yield _Server(proc.stdout.readline().strip(), None)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per judge call")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (median)")
    parser.add_argument(
        "--reference-python",
        default="/tmp/ref-texts/bin/python",
        help="python of a separate environment with pytest-texts-score, to time it too",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="run the fake server in a thread, not a process"
    )
    args = parser.parse_args(argv)

    cases: list[tuple[str, str, int, float, Callable[[], object]]] = [
        (
            "f1_equal",
            "texts_expect_f1_equal",
            16,
            0.5,
            lambda: pts.texts_expect_f1_equal(EXPECTED, GIVEN, target=0.85, max_delta=0.15),
        ),
        (
            "agg_mean_5",
            "texts_agg_f1_mean(full_runs=5)",
            16,
            0.6,
            lambda: pts.texts_agg_f1_mean(EXPECTED, GIVEN, target=0.85, max_delta=0.15),
        ),
        (
            "agg_mean_20",
            "texts_agg_f1_mean(full_runs=20), max concurrency 64",
            64,
            1.0,
            lambda: pts.texts_agg_f1_mean(
                EXPECTED, GIVEN, target=0.85, max_delta=0.15, full_runs=20
            ),
        ),
    ]
    where = "in this process" if args.in_process else "in its own process"
    print(f"fake judge {where}, {args.latency * 1000:.0f} ms per call; median of {args.repeat}")
    print(
        f"{'case':<52} {'calls':>5} {'peak':>4} {'warm-up':>8} {'median':>7} {'target':>7}"
        f" {'reference':>9} {'speed-up':>8}"
    )
    failed = 0
    medians: list[tuple[str, float]] = []
    with _serve(args.in_process) as fake:
        for key, label, concurrency, target, fn in cases:
            pts.configure(
                provider="openai",
                base_url=fake.base_url,
                api_key="test",
                model="fake",
                cache="off",
                max_concurrency=concurrency,
            )
            fake.reset(args.latency)
            warm_up, median = _time(fn, args.repeat)
            calls, peak = fake.stats()
            calls_per_run = calls // (args.repeat + 1)
            reference = REFERENCE_CALLS[key] * args.latency
            ok = median < target
            failed += not ok
            medians.append((key, median))
            print(
                f"{label:<52} {calls_per_run:>5} {peak:>4} {warm_up:>7.3f}s"
                f" {median:>6.3f}s {target:>6.1f}s {reference:>8.1f}s {reference / median:>7.1f}x"
                f"{'' if ok else '  ABOVE TARGET'}"
            )
        print(
            "reference = its sequential calls x latency (the reference makes every judge call in"
            " sequence); peak = most requests in flight at the fake server"
        )
        ours = {key: median for key, median in medians}
        ref_python = Path(args.reference_python)
        if ref_python.exists():
            fake.reset(args.latency)
            measured = _run_reference(ref_python, fake.base_url.removesuffix("/v1"))
            print(f"\nmeasured with pytest-texts-score ({ref_python}), one timed run each:")
            for key, seconds in measured.items():
                print(
                    f"{key:<12} reference {seconds:>6.3f}s  ours {ours[key]:>6.3f}s"
                    f"  ratio {seconds / ours[key]:>5.1f}x"
                )
        else:
            print(f"\n(no reference environment at {ref_python}; measured comparison skipped)")
    return 1 if failed else 0


_REFERENCE_TEST = """
import time
from pytest_texts_score import texts_agg_f1_mean, texts_expect_f1_equal

E = {expected!r}
G = {given!r}


def _timed(fn):
    started = time.perf_counter()
    try:
        fn()
    except AssertionError:
        pass
    return time.perf_counter() - started


def test_latency():
    _timed(lambda: texts_expect_f1_equal(E, G, target=0.85, max_delta=0.15))  # warm-up
    cases = [
        ("f1_equal", lambda: texts_expect_f1_equal(E, G, target=0.85, max_delta=0.15)),
        ("agg_mean_5", lambda: texts_agg_f1_mean(E, G, target=0.85, max_delta=0.15)),
        ("agg_mean_20", lambda: texts_agg_f1_mean(E, G, target=0.85, max_delta=0.15,
                                                  full_runs=20)),
    ]
    for key, fn in cases:
        print(f"REFERENCE-TIME {{key}} {{_timed(fn):.4f}}")
"""


def _run_reference(python: Path, endpoint: str) -> dict[str, float]:
    """Time the reference implementation (Azure settings) against the same fake server."""
    with tempfile.TemporaryDirectory() as tmp:
        test = Path(tmp) / "test_reference_latency.py"
        test.write_text(_REFERENCE_TEST.format(expected=EXPECTED, given=GIVEN))
        out = subprocess.run(
            [
                str(python),
                "-m",
                "pytest",
                "-q",
                "-s",
                "-p",
                "no:cacheprovider",
                str(test),
                "--llm-api-key=test",
                f"--llm-endpoint={endpoint}",
                "--llm-deployment=fake",
                "--llm-model=fake",
                "--llm-api-version=2024-05-01",
            ],
            capture_output=True,
            text=True,
            cwd=tmp,
            timeout=600,
            check=False,
        )
    times = dict(re.findall(r"REFERENCE-TIME (\S+) ([0-9.]+)", out.stdout))
    if not times:
        print(out.stdout[-2000:], out.stderr[-2000:])
    return {key: float(value) for key, value in times.items()}


if __name__ == "__main__":
    raise SystemExit(main())
