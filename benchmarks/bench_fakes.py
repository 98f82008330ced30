"""Fake tools: the cost of a fake call, and how fast ``serve_mcp()`` starts.

Run (from the repository root, in the dev environment; ``serve_mcp`` needs the mcp extra):
    python benchmarks/bench_fakes.py
    python benchmarks/bench_fakes.py --calls 20000 --repeat 9

1. Per-call overhead. ``FakeTools.call`` on a registry of five tools (the answering one is the
   last registered, with a ``Regex`` and an ``ANY`` in its arguments, so every call walks the
   registrations and applies matchers), minus the cost of the loop calling a plain function.
   Best and median of ``--repeat`` rounds of ``--calls`` calls. Target: < 20 us a call.
2. Throughput. 10,000 calls answered and recorded (``calls`` holds a ``ToolCall`` each), CPU
   time of the process (``time.process_time``). Target: < 0.5 s.
3. ``serve_mcp()`` start: from entering the context to the URL being served (uvicorn listening,
   the app's lifespan started), after the SDK's first import (which is timed apart and not
   counted). Best and median of ``--repeat`` starts; each stop is timed too. Target: < 1 s.
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from toolscore import ANY, Regex
from toolscore.fakes import FakeTools

ARGS = {"city": "NYC", "days": 3}


def _fakes() -> FakeTools:
    tools = FakeTools()
    for name in ("search", "open_page", "send_email", "convert"):
        tools.add(name, {"q": ANY}, result="x")
    tools.add("get_weather", {"city": Regex("NYC|JFK"), "days": ANY}, result={"temp_c": 21})
    return tools


def per_call(calls: int, repeat: int) -> tuple[float, float]:
    def plain(tool: str, args: dict[str, object]) -> object:
        return args

    rounds = []
    for _ in range(repeat):
        tools = _fakes()
        started = time.perf_counter()
        for _ in range(calls):
            plain("get_weather", ARGS)
        loop = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(calls):
            tools.call("get_weather", ARGS)
        rounds.append((time.perf_counter() - started - loop) / calls)
    return min(rounds), median(rounds)


def throughput(calls: int = 10_000) -> tuple[float, int]:
    tools = _fakes()
    started = time.process_time()
    for _ in range(calls):
        tools.call("get_weather", ARGS)
    cpu = time.process_time() - started
    return cpu, len(tools.calls)


def mcp_start(repeat: int) -> tuple[float, list[float], list[float]]:
    started = time.perf_counter()
    import mcp.server  # noqa: F401  (the SDK's first import, timed apart)
    import uvicorn  # noqa: F401

    first_import = time.perf_counter() - started
    starts, stops = [], []
    for _ in range(repeat):
        tools = _fakes()
        started = time.perf_counter()
        context = tools.serve_mcp()
        context.__enter__()
        starts.append(time.perf_counter() - started)
        started = time.perf_counter()
        context.__exit__(None, None, None)
        stops.append(time.perf_counter() - started)
    return first_import, starts, stops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()

    best, mid = per_call(options.calls, options.repeat)
    print(
        f"fake call overhead: best {best * 1e6:.2f} us, median {mid * 1e6:.2f} us a call "
        f"({options.repeat} rounds of {options.calls:,}; target < 20 us)"
    )
    cpu, recorded = throughput()
    print(
        f"10,000 calls answered and recorded ({recorded:,} in calls): {cpu:.3f} s CPU "
        "(target < 0.5 s)"
    )
    try:
        first_import, starts, stops = mcp_start(options.repeat)
    except ImportError:
        print("serve_mcp: skipped (the mcp extra is not installed)")
        return
    print(f"serve_mcp: SDK first import {first_import:.3f} s (not counted)")
    print(
        f"serve_mcp start: best {min(starts):.3f} s, median {median(starts):.3f} s, worst "
        f"{max(starts):.3f} s over {len(starts)} starts (target < 1 s); stop: median "
        f"{median(stops):.3f} s"
    )


if __name__ == "__main__":
    main()
