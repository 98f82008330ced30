"""The tool-call judge against a judge that answers every call after 200 ms.

Prints figures; it is not a test. 100 argument pairs that exact matching rejects go to the fake
OpenAI server of the test suite (tests/fakes, its own process on 127.0.0.1) through the real
``openai`` SDK. Targets (issue 13):

    100 pairs, 200 ms per call, first run   < 1.0 s  (batched 10 per call, the calls concurrent)
    the same 100 pairs again                  0 calls (the judge reply cache)

For comparison, the sequential time of one call per pair (what a judge without batching and
concurrency costs) is printed too: 100 x latency.

Run from the repository root::

    .venv/bin/python benchmarks/bench_tool_judge.py [--latency 0.2] [--pairs 100]

Timings on a shared 2-core machine are noisy: rerun on a quiet one for figures to quote.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def _fake_server() -> Iterator[str]:
    script = ROOT / "tests" / "fakes" / "openai_server.py"
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _reset(base_url: str, latency: float) -> None:
    root = base_url.removesuffix("/v1")
    req = urllib.request.Request(f"{root}/_fake/reset?latency={latency}", method="POST")
    urllib.request.urlopen(req, timeout=5).read()


def _calls(base_url: str) -> tuple[int, int]:
    root = base_url.removesuffix("/v1")
    data = json.loads(urllib.request.urlopen(f"{root}/_fake/stats", timeout=5).read())
    return int(data["calls"]), int(data["max_in_flight"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per judge call")
    parser.add_argument("--pairs", type=int, default=100, help="argument pairs to judge")
    args = parser.parse_args(argv)

    from scorekit.judges import resolve_settings
    from scorekit.session._session import ScoreSession, set_default_session
    from toolscore.metrics.llm_judge import calculate_semantic_correctness

    gold = [{"tool": "lookup", "args": {"name": f"person number {i}"}} for i in range(args.pairs)]
    trace = [{"tool": "lookup", "args": {"name": f"number {i} person"}} for i in range(args.pairs)]
    with _fake_server() as base_url, tempfile.TemporaryDirectory() as cache_dir:
        settings = resolve_settings(
            overrides={
                "provider": "openai",
                "base_url": base_url,
                "api_key": "bench-key",
                "model": "fake-model",
                "cache": "on",
                "cache_dir": cache_dir,
            },
            env={},
        )
        set_default_session(ScoreSession(settings))
        # Warm-up: import the SDK, open the connection pool (not timed, not counted).
        _reset(base_url, 0.0)
        calculate_semantic_correctness(
            [{"tool": "w", "args": {"x": "warm up one"}}], [{"tool": "w", "args": {"x": "two"}}]
        )
        _reset(base_url, args.latency)
        started = time.perf_counter()
        first = calculate_semantic_correctness(gold, trace, judge=True)
        first_s = time.perf_counter() - started
        calls, in_flight = _calls(base_url)
        set_default_session(ScoreSession(settings))  # a new session: no in-process memo
        _reset(base_url, args.latency)
        started = time.perf_counter()
        again = calculate_semantic_correctness(gold, trace, judge=True)
        again_s = time.perf_counter() - started
        rerun_calls, _ = _calls(base_url)
    assert first["equivalent_arguments"] == args.pairs, first["equivalent_arguments"]
    assert again["semantic_score"] == first["semantic_score"]
    sequential = args.pairs * args.latency
    print(f"pairs judged: {args.pairs} at {args.latency * 1000:.0f} ms per call")
    print(
        f"first run:  {first_s:.3f} s, {calls} calls, {in_flight} in flight at most"
        f"  (target < 1.0 s; one call per pair in sequence: {sequential:.1f} s,"
        f" {sequential / first_s:.0f}x slower)"
    )
    print(f"rerun:      {again_s:.3f} s, {rerun_calls} calls (target 0: the reply cache)")
    ok = first_s < 1.0 and rerun_calls == 0
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
