"""Speed of ``toolscore.match_trajectory()`` on 1,000 calls and ``toolscore.from_stream()`` on
10,000 chunks (targets: under 20 ms and under 50 ms).

Run:
    .venv/bin/python benchmarks/bench_trajectory.py

The trajectory: 1,000 calls over 20 tool names, 4 arguments each (a unique id, a query text,
a page number, a unit). Cases: ``strict`` on an identical trace (the positional check);
``unordered`` on the same calls shuffled (pairing by hashing); ``superset`` with ``args="superset"``
on the shuffled trace plus 100 extra calls (the augmenting-path pairing, no hashing); and
``unordered`` with a ``Regex`` matcher in every expected call (matchers rule out hashing). Each
time includes reading both sides; the ``evaluate`` score the result carries is computed when
first read, timed on the line below each case.

The streams: 10,000 chunks or events carrying 100 calls (about 100 argument fragments each), as
plain dicts and as the SDKs' own objects (OpenAI ``ChatCompletionChunk``, Anthropic stream
events; the SDKs are the ``test-sdks`` extra), built before timing.

Printed: the best wall time and the best process CPU time of several runs per case, and
whether the result is as built.
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections.abc import Callable
from typing import Any

import toolscore

N_CALLS = 1_000
N_TOOLS = 20
N_CHUNKS = 10_000
STREAM_CALLS = 100
RUNS = 7


def best_ms(fn: Callable[[], Any], runs: int = RUNS) -> float:
    """The best wall time of ``runs`` runs, in milliseconds."""
    fn()  # warm-up
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def best_cpu_ms(fn: Callable[[], Any], runs: int = RUNS) -> float:
    """The best process CPU time of ``runs`` runs, in milliseconds (what the wall time would be
    on an idle machine; on a loaded one the wall time also counts waiting for a core)."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times) * 1000


def trajectory() -> list[dict[str, Any]]:
    return [
        {
            "tool": f"tool_{i % N_TOOLS}",
            "args": {"id": i, "query": f"query number {i}", "page": i % 10, "unit": "metric"},
        }
        for i in range(N_CALLS)
    ]


def bench_match() -> None:
    expected = trajectory()
    same = [dict(c, args=dict(c["args"])) for c in expected]
    shuffled = list(same)
    random.Random(0).shuffle(shuffled)
    extras = [{"tool": "tool_0", "args": {"id": -k, "note": "extra"}} for k in range(100)]
    with_extras = [dict(c, args={**c["args"], "trace": True}) for c in shuffled] + extras
    random.Random(1).shuffle(with_extras)
    with_matchers = [
        {"tool": c["tool"], "args": {**c["args"], "query": toolscore.Regex(r"query number \d+")}}
        for c in expected
    ]
    cases = [
        ("strict, identical trace", expected, same, {"mode": "strict"}),
        ("unordered, shuffled", expected, shuffled, {"mode": "unordered"}),
        (
            "superset + args=superset, shuffled + 100 extras",
            expected,
            with_extras,
            {"mode": "superset", "args": "superset"},
        ),
        ("unordered, a Regex in every call", with_matchers, shuffled, {"mode": "unordered"}),
    ]
    print(f"match_trajectory on {N_CALLS:,} calls (target < 20 ms):")
    for name, e, a, options in cases:
        result = toolscore.match_trajectory(e, a, **options)
        run = lambda e=e, a=a, options=options: toolscore.match_trajectory(e, a, **options)  # noqa: E731
        print(
            f"  {name:<50} {best_ms(run):8.2f} ms wall {best_cpu_ms(run):8.2f} ms CPU   "
            f"matched={result.matched} pairs={len(result.pairs)}"
        )
        scored = lambda run=run: run().score  # noqa: E731
        print(
            f"  {'  ... and reading .score (runs evaluate)':<50} {best_ms(scored):8.2f} ms wall "
            f"{best_cpu_ms(scored):8.2f} ms CPU"
        )
    result = toolscore.match_trajectory(expected, shuffled, mode="strict")
    run = lambda: toolscore.match_trajectory(expected, shuffled, mode="strict")  # noqa: E731
    print(
        f"  {'strict, shuffled (fails: every position listed)':<50} {best_ms(run):8.2f} ms wall "
        f"{best_cpu_ms(run):8.2f} ms CPU   matched={result.matched} "
        f"problems={len(result.problems)}"
    )


def pieces(text: str, n: int) -> list[str]:
    size = max(1, -(-len(text) // n))
    return [text[k : k + size] for k in range(0, len(text), size)]


def stream_calls() -> list[dict[str, Any]]:
    return [
        {"tool": f"tool_{k % N_TOOLS}", "args": {"id": k, "text": "lorem ipsum dolor " * 30}}
        for k in range(STREAM_CALLS)
    ]


def chat_chunks(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    per_call = N_CHUNKS // len(calls) - 1
    out = []
    for i, call in enumerate(calls):
        head = {
            "index": i,
            "id": f"c{i}",
            "type": "function",
            "function": {"name": call["tool"], "arguments": ""},
        }
        out.append(_chunk({"tool_calls": [head]}))
        for piece in pieces(json.dumps(call["args"]), per_call):
            out.append(_chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    return out


def _chunk(delta: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }


def anthropic_events(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    per_call = N_CHUNKS // len(calls) - 2
    out: list[dict[str, Any]] = []
    for n, call in enumerate(calls):
        block = {"type": "tool_use", "id": f"t{n}", "name": call["tool"], "input": {}}
        out.append({"type": "content_block_start", "index": n, "content_block": block})
        for piece in pieces(json.dumps(call["args"]), per_call):
            delta = {"type": "input_json_delta", "partial_json": piece}
            out.append({"type": "content_block_delta", "index": n, "delta": delta})
        out.append({"type": "content_block_stop", "index": n})
    return out


def bench_streams() -> None:
    calls = stream_calls()
    chat = chat_chunks(calls)
    anthropic = anthropic_events(calls)
    cases: list[tuple[str, list[Any]]] = [
        ("OpenAI chat chunks, dicts", chat),
        ("Anthropic events, dicts", anthropic),
    ]
    try:
        from openai.types.chat import ChatCompletionChunk

        cases.append(
            (
                "OpenAI ChatCompletionChunk objects",
                [ChatCompletionChunk.model_validate(c) for c in chat],
            )
        )
    except ImportError:
        print("  (openai not installed: SDK chunk objects skipped)")
    try:
        import pydantic
        from anthropic.types import RawMessageStreamEvent

        adapter: Any = pydantic.TypeAdapter(RawMessageStreamEvent)
        cases.append(
            ("Anthropic stream event objects", [adapter.validate_python(e) for e in anthropic])
        )
    except ImportError:
        print("  (anthropic not installed: SDK event objects skipped)")
    print(f"from_stream on about {N_CHUNKS:,} chunks, {STREAM_CALLS} calls (target < 50 ms):")
    for name, events in cases:
        ok = toolscore.from_stream(events) == calls
        run = lambda events=events: toolscore.from_stream(events)  # noqa: E731
        print(
            f"  {name:<50} {best_ms(run):8.2f} ms wall {best_cpu_ms(run):8.2f} ms CPU   "
            f"{len(events):,} events, as built: {ok}"
        )


if __name__ == "__main__":
    bench_match()
    bench_streams()
