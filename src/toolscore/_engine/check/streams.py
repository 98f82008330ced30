"""``assert_stream_matches()``: a streamed response against the non-streamed answer.

The reassembly itself is :mod:`toolscore._engine.read.streams`; this is the assertion on top.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from toolscore._engine.check.failure import ToolScoreAssertionError, record_row
from toolscore._engine.compare.rule import values_match
from toolscore._engine.read.inputs import actual_calls
from toolscore._engine.read.streams import from_stream
from toolscore._engine.score.evaluate import evaluate_calls
from toolscore._engine.score.render import format_call, format_value

__all__ = ["assert_stream_matches"]


def _difference(streamed: dict[str, Any], final: dict[str, Any], strict: bool) -> list[str]:
    """What the streamed arguments lost or changed relative to the final ones."""
    if not streamed and final:
        return [f"its arguments are empty; the final response has {format_value(final)}"]
    out = []
    lost = [k for k in final if k not in streamed]
    if lost:
        out.append(f"argument(s) {', '.join(map(repr, lost))} are missing (truncated)")
    for k, value in final.items():
        if k in streamed and not values_match(value, streamed[k], strict):
            got = streamed[k]
            cut = isinstance(value, str) and isinstance(got, str) and value.startswith(got)
            out.append(
                f"argument {k!r} is {format_value(got)}, final {format_value(value)}"
                + (" (truncated)" if cut else "")
            )
    added = [k for k in streamed if k not in final]
    if added:
        out.append(f"argument(s) {', '.join(map(repr, added))} are not in the final response")
    return out


def _listed(calls: list[dict[str, Any]]) -> str:
    return ", ".join(format_call(c["tool"], c["args"]) for c in calls) or "none"


def assert_stream_matches(
    stream_events: Iterable[Any], final_response: Any, *, strict: bool = False
) -> list[dict[str, Any]]:
    """Check a streamed response against the non-streamed answer to the same request.

    The streamed calls (:func:`from_stream`) are paired with the final response's calls tool by
    tool, in order; every dropped call, emptied or truncated argument and extra call is named.

    Args:
        stream_events: the events of the streamed response.
        final_response: the non-streamed response (any shape :func:`toolscore.evaluate`
            reads), or its calls.
        strict: compare argument values by exact type.

    Returns:
        The streamed calls, when they agree.

    Raises:
        ToolScoreAssertionError: the stream lost, changed or added calls or arguments.
        TypeError / ValueError: as :func:`from_stream`.

    Example:
        >>> from toolscore import assert_stream_matches
        >>> events = [
        ...     {"type": "content_block_start", "index": 0,
        ...      "content_block": {"type": "tool_use", "id": "t1", "name": "ping", "input": {}}},
        ...     {"type": "content_block_stop", "index": 0},
        ... ]
        >>> assert_stream_matches(events, [{"tool": "ping", "args": {}}])
        [{'tool': 'ping', 'args': {}}]
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    streamed = from_stream(stream_events)
    final = actual_calls(final_response)
    final_calls: list[dict[str, Any]] = [
        {"tool": t, "args": a} for t, a in zip(final.tools, final.args, strict=False)
    ]
    by_tool: dict[str, deque[int]] = {}
    for j, call in enumerate(streamed):
        by_tool.setdefault(call["tool"], deque()).append(j)
    problems: list[str] = []
    paired: set[int] = set()
    for i, call in enumerate(final_calls):
        tool = call["tool"]
        left = by_tool.get(tool)
        if not left:
            problems.append(
                f"Call #{i + 1} of the final response, {format_call(tool, call['args'])}, is "
                "missing from the stream (dropped)."
            )
            continue
        j = left.popleft()
        paired.add(j)
        diffs = _difference(streamed[j]["args"], call["args"] or {}, strict)
        if diffs:
            where = f"Streamed call #{j + 1} ({tool!r}, call #{i + 1} of the final response)"
            problems.append(f"{where}: {'; '.join(diffs)}.")
    for j, call in enumerate(streamed):
        if j not in paired:
            problems.append(
                f"Streamed call #{j + 1}, {format_call(call['tool'], call['args'])}, is extra: "
                "the final response has no such call."
            )
    result = evaluate_calls(final_calls, streamed, strict=strict)
    record_row("assert_stream_matches", result, None, not problems, started)
    if problems:
        lines = [
            f"The stream does not match the final response: {len(problems)} problem(s).",
            *(f"  - {p}" for p in problems),
            "",
            f"Streamed calls: {_listed(streamed)}.",
            f"Final calls: {_listed(final_calls)}.",
            "Hint: calls or arguments that the final response has and the stream lacks point at "
            "the serving stack's streaming tool-call parser (it dropped deltas), not at the model.",
        ]
        raise ToolScoreAssertionError("\n".join(lines), result=result)
    return streamed
