"""Benchmark of the judge reply cache (prints figures; not a test).

1. A suite of 20 LLM-scored assertions runs twice in a fresh pytest process against the fake
   judge server (tests/fakes) with 200 ms latency per request. The second run must make zero
   judge calls and take at most 10 % of the first run's wall time.
2. The cost of one cache lookup (hit and miss) in a cache of 10,000 replies, which must stay
   under 1 ms.

Run from the repository root::

    .venv/bin/python benchmarks/bench_cache.py
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fakes.openai_server import FakeLLM  # noqa: E402
from scorekit.judges._keys import reply_key  # noqa: E402
from scorekit.session._cache import JudgeCache  # noqa: E402

LATENCY = 0.2
N_ASSERTIONS = 20

SUITE = """
import pytest
from pytest_texts_score import texts_expect_f1_equal

FACTS = [
    "Paris is the capital of France", "Water boils at 100 degrees", "The Nile is in Africa",
    "Mars is a red planet", "Bees make honey", "Ice is frozen water", "Oslo is in Norway",
    "Copper conducts electricity", "The moon orbits the earth", "Owls hunt at night",
]
CASES = [
    (f"{FACTS[i % 10]}. {FACTS[(i + 1) % 10]}. Case {i}.", f"{FACTS[i % 10]}. Case {i}.")
    for i in range(N_CASES)
]


@pytest.mark.parametrize(("expected", "given"), CASES)
def test_llm_scored(expected, given):
    texts_expect_f1_equal(expected, given, target=0.8, max_delta=0.2)
"""


def _run_suite(folder: Path, fake: FakeLLM, *extra: str) -> tuple[float, float | None, int, str]:
    """Run the suite once; return (wall s, pytest's own session s, judge calls, last line)."""
    before = fake.calls
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:xdist",
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-bench-not-a-key",
        "--llm-model=fake-model",
        "--llm-max-concurrency=16",
        *extra,
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AZURE_OPENAI_"))}
    started = time.perf_counter()
    done = subprocess.run(args, cwd=folder, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    last = lines[-1] if lines else done.stderr.strip()[-300:]
    match = re.search(r" in ([0-9.]+)s", last)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        raise SystemExit(f"the benchmark suite did not pass (exit {done.returncode})")
    judge = [ln.strip() for ln in lines if ln.strip().startswith("judge ")]
    if judge:
        print(f"    summary: {judge[-1]}")
    return wall, float(match.group(1)) if match else None, fake.calls - before, last


def bench_suite() -> bool:
    print(
        f"1. suite of {N_ASSERTIONS} LLM-scored assertions,"
        f" fake judge latency {LATENCY * 1000:.0f} ms"
    )
    with FakeLLM() as fake, tempfile.TemporaryDirectory() as tmp:
        fake.latency = LATENCY
        folder = Path(tmp)
        (folder / "test_bench_suite.py").write_text(SUITE.replace("N_CASES", str(N_ASSERTIONS)))
        (folder / "pytest.ini").write_text("[pytest]\n")
        first = _run_suite(folder, fake)
        second = _run_suite(folder, fake)
        # Start-up floor: the same command, collection only (Python, pytest, the plugins).
        floor = min(_run_suite(folder, fake, "--collect-only")[0] for _ in range(2))
    for label, (wall, session, calls, _last) in (("first ", first), ("second", second)):
        session_txt = f"{session:.2f} s" if session is not None else "n/a"
        print(
            f"   {label} run: process wall {wall:6.2f} s, pytest session {session_txt},"
            f" judge calls {calls}"
        )
    print(f"   start-up floor (same command with --collect-only): {floor:.2f} s")
    zero = second[2] == 0
    print(f"   second run judge calls: {second[2]}  -> {'OK' if zero else 'FAIL'} (must be 0)")
    ok = zero
    if first[1] and second[1]:
        session_ratio = second[1] / first[1]
        ok &= session_ratio <= 0.10
        verdict = "OK" if session_ratio <= 0.10 else "FAIL"
        print(
            f"   second/first pytest session wall time: {session_ratio:.1%} -> {verdict} (<= 10%)"
        )
    else:
        ok = False
        print("   pytest's session time not found in the output -> FAIL")
    print(
        f"   second/first process wall time: {second[0] / first[0]:.1%}"
        f" (start-up included; beyond the floor: {(second[0] - floor) / (first[0] - floor):.1%})"
    )
    return ok


def bench_lookup(entries: int = 10_000, lookups: int = 20_000) -> bool:
    print(f"2. cache lookup cost ({entries:,} stored replies, {lookups:,} lookups each)")
    identity = {
        "provider": "openai",
        "endpoint": "http://127.0.0.1/v1",
        "model": "m",
        "prompt_version": "1",
        "temperature": 0.0,
    }
    with tempfile.TemporaryDirectory() as tmp, JudgeCache(tmp) as cache:
        keys = [
            reply_key(
                identity, "answers", f"text {i} " * 20, [f"Q{j}?" for j in range(8)], (i % 5, 0)
            )
            for i in range(entries)
        ]
        started = time.perf_counter()
        for k in keys:
            cache.put(k, [1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 0.25, 1.0])
        put_us = (time.perf_counter() - started) / entries * 1e6
        figures: dict[str, float] = {}
        for label, probe in (("hit", keys), ("miss", [k[::-1] for k in keys])):
            samples = []
            for i in range(lookups):
                t = time.perf_counter()
                cache.get(probe[i % entries])
                samples.append(time.perf_counter() - t)
            figures[label] = statistics.mean(samples) * 1e6
            p99 = sorted(samples)[int(len(samples) * 0.99)] * 1e6
            print(f"   get ({label}): mean {figures[label]:.1f} us, p99 {p99:.1f} us")
        started = time.perf_counter()
        for i in range(lookups):
            cache.get(
                reply_key(
                    identity,
                    "answers",
                    f"text {i % entries} " * 20,
                    [f"Q{j}?" for j in range(8)],
                    (i % entries % 5, 0),
                )
            )
        with_key = (time.perf_counter() - started) / lookups * 1e6
        print(f"   key + get (hit): mean {with_key:.1f} us")
        print(f"   put: mean {put_us:.1f} us")
        size = sum(p.stat().st_size for p in Path(tmp).iterdir())
        print(f"   database size: {size / 1e6:.1f} MB for {cache.count():,} replies")
    ok = max(figures.values(), default=1e9) < 1000 and with_key < 1000
    print(f"   lookup under 1 ms -> {'OK' if ok else 'FAIL'}")
    return ok


def main() -> int:
    ok = bench_lookup()
    ok = bench_suite() and ok
    print("all criteria met" if ok else "SOME CRITERIA NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
