"""Hypothesis strategies and settings shared by the fuzz tests of the readers of outside data.

The fuzz tests feed every reader realistic shapes (provider responses, trace and gold files,
judge replies, JSON-RPC messages) with fields randomly replaced by values of the wrong type,
dropped, or nested deeper, and arbitrary JSON beside them. :func:`corrupted` does the
replacing, so a strategy starts from what a real provider sends and wanders off from there.

Every run is deterministic (``derandomize=True``, no example database), so CI sees the same
examples every time. ``SCOREKIT_FUZZ_EXAMPLES=5000`` asks for more examples on a developer's
machine (then random ones, not the CI's).
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

_EXAMPLES = os.environ.get("SCOREKIT_FUZZ_EXAMPLES")

#: The settings of every fuzz test: modest, deterministic, without a database.
FUZZ = settings(
    max_examples=int(_EXAMPLES) if _EXAMPLES else 200,
    deadline=None,
    derandomize=not _EXAMPLES,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Keys the readers look for, so that random objects hit their branches, not only misses.
READER_KEYS = (
    "tool",
    "args",
    "name",
    "arguments",
    "input",
    "type",
    "role",
    "content",
    "text",
    "parts",
    "choices",
    "message",
    "delta",
    "tool_calls",
    "invalid_tool_calls",
    "function",
    "function_call",
    "functionCall",
    "candidates",
    "output",
    "messages",
    "data",
    "new_items",
    "raw_item",
    "part_kind",
    "tool_name",
    "tool_args",
    "tools_results",
    "tool_input",
    "action",
    "action_input",
    "id",
    "jsonrpc",
    "method",
    "params",
    "result",
    "error",
    "isError",
    "structuredContent",
    "calls",
    "expected",
    "resourceSpans",
    "scopeSpans",
    "spans",
    "attributes",
    "key",
    "value",
    "stringValue",
    "intValue",
    "status",
    "code",
    "ground_truth",
    "question",
    "answer",
    "equivalent",
    "reason",
    "$regex",
    "$any",
    "$literal",
    "$not",
    "$one_of",
)

#: Text that str.splitlines() would break (U+2028, U+0085...), and other awkward characters.
awkward_texts = st.sampled_from(
    ["a\u2028b", "\x85", "x\u2029", "\x1c", "cr\rlf", "\x00", "é\u0301"]
)

keys = st.sampled_from(READER_KEYS) | st.text(max_size=6) | awkward_texts

#: JSON scalars, numbers from tiny to huge (a 400-digit integer is valid JSON).
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, -1, 10**400, -(10**400), 2**53 + 1])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", " ", "{}", "[]", "null", '{"a": 1}', "not json", "tool_use"])
    | awkward_texts
)

#: Any JSON value (recursive: lists and objects of JSON values).
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=16,
)


@st.composite
def corrupted(draw: st.DrawFn, value: Any, rate: int = 8) -> Any:
    """``value`` with, about one node in ``rate``, the node replaced by any JSON value; keys
    dropped or added and list items dropped at the same rate."""
    if draw(st.integers(0, rate - 1)) == 0:
        return draw(json_values)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if draw(st.integers(0, rate - 1)) == 0:
                continue  # the field goes missing
            out[k] = draw(corrupted(v, rate))
        if draw(st.integers(0, rate - 1)) == 0:
            out[draw(keys)] = draw(json_values)
        return out
    if isinstance(value, list):
        items = [draw(corrupted(v, rate)) for v in value]
        if items and draw(st.integers(0, rate - 1)) == 0:
            del items[draw(st.integers(0, len(items) - 1))]
        return items
    return value


def deep(depth: int, kind: str = "list") -> str:
    """JSON text nested ``depth`` levels deep (``[[[...]]]`` or ``{"a": {"a": ...}}``)."""
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


#: JSON text of any value, or text that is not quite JSON, or nested past any limit.
json_texts = (
    json_values.map(json.dumps)
    | st.text(max_size=30)
    | st.sampled_from(["", "   ", "\ufeff", "[", "{", '{"a": 1} {"b": 2}', "1 2", "NaN"])
    | st.sampled_from([deep(100_000), deep(100_000, "dict"), deep(3_000), deep(3_000, "dict")])
)

tool_names = st.sampled_from(["search", "get_weather", "book_flight", "a.b", "x"]) | st.text(
    max_size=8
)

#: Arguments as a provider sends them: an object, JSON text of one, or something else.
arguments = (
    st.dictionaries(st.text(max_size=6), json_values, max_size=3)
    | st.dictionaries(st.text(max_size=6), json_values, max_size=3).map(json.dumps)
    | json_values
)
