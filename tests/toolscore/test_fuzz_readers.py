"""Fuzzed outside data: every toolscore reader returns a result or raises its documented error.

Readers: provider responses (``toolscore.integrations.auto_extract`` and the ``from_*``
readers, ``evaluate()`` on a response), trace and gold files (``load_trace``, ``load_gold``,
``toolscore.core.load_trace``/``load_gold_standard``, ``evaluate_trace``), MCP JSON-RPC
(recorded sessions, the recorder's relay, tool results, tool lists: lint and scenarios), BFCL
model outputs and data files. Matcher encodings round-trip, and ``canonical()`` agrees with
``values_match()``. The inputs start from the shapes real providers send and are corrupted
(:func:`fuzz_json.corrupted`); the oracle is :func:`fuzz_oracle.check_error`.
"""

from __future__ import annotations

import io
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolscore
from fuzz_json import (
    FUZZ,
    arguments,
    awkward_texts,
    corrupted,
    deep,
    json_texts,
    json_values,
    keys,
    scalars,
    tool_names,
)
from fuzz_oracle import outcome
from toolscore import bfcl, integrations
from toolscore._engine.check.evaluate_trace import (
    TraceFileError,
    evaluate_trace,
    load_gold,
    load_trace,
)
from toolscore._engine.compare.matchers import _AllOf, _AnyMatcher, _AnyOf, _Equals, _Not
from toolscore._engine.compare.rule import NOT_CANONICAL, _match_nested, canonical, values_match
from toolscore._engine.generate.schema_values import SchemaValues
from toolscore._engine.read.gold_encoding import MatcherEncodingError, encode_value
from toolscore._engine.read.gold_files import GoldFormatError, decode_value
from toolscore._engine.read.trace_files import TRACE_FORMATS
from toolscore.bfcl import BFCLDataError, BFCLDict, BFCLString, DecodeFailure
from toolscore.bfcl._data import read_records
from toolscore.integrations import MalformedArgumentsWarning
from toolscore.matchers import (
    ANY,
    Approx,
    Contains,
    IsType,
    Matcher,
    OneOf,
    Regex,
)
from toolscore.mcp import MCPToolDef, content_to_text, generate_scenarios, lint_tools
from toolscore.mcp import tool_definition_tokens as definition_tokens
from toolscore.mcp.client import _tool_def
from toolscore.mcp.recorder import MCPRecorder


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    """Malformed arguments warn by design; the fuzz inputs are full of them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MalformedArgumentsWarning)
        yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# -- provider responses -----------------------------------------------------------------

ids = st.sampled_from(["call_1", "toolu_01", "1", ""]) | st.integers(0, 9)
texts = st.text(max_size=10) | awkward_texts


def _openai_tool_call(name: str, args: Any, call_id: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


openai_chat = st.builds(
    lambda calls, content, legacy: {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": content,
                    "tool_calls": [_openai_tool_call(*c) for c in calls],
                    **({"function_call": {"name": legacy, "arguments": "{}"}} if legacy else {}),
                },
            }
        ],
    },
    st.lists(st.tuples(tool_names, arguments, ids), max_size=3),
    st.none() | texts,
    st.none() | tool_names,
)
openai_stream_chunk = st.builds(
    lambda name, args: {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"tool_calls": [_openai_tool_call(name, args, "c")]}}],
    },
    tool_names,
    arguments,
)
openai_responses = st.builds(
    lambda items: {"id": "resp_1", "object": "response", "output": items},
    st.lists(
        st.one_of(
            st.builds(
                lambda n, a: {"type": "function_call", "call_id": "c1", "name": n, "arguments": a},
                tool_names,
                arguments,
            ),
            st.builds(
                lambda n, a: {"type": "mcp_call", "name": n, "arguments": a}, tool_names, arguments
            ),
            st.builds(
                lambda n, t: {"type": "custom_tool_call", "name": n, "input": t}, tool_names, texts
            ),
            st.builds(
                lambda q: {"type": "web_search_call", "id": "ws_1", "action": {"query": q}}, texts
            ),
            st.builds(
                lambda t: {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": t}],
                },
                texts,
            ),
        ),
        max_size=3,
    ),
)
anthropic = st.builds(
    lambda blocks: {"id": "msg_1", "type": "message", "role": "assistant", "content": blocks},
    st.lists(
        st.one_of(
            st.builds(lambda t: {"type": "text", "text": t}, texts),
            st.builds(
                lambda n, a, i: {"type": "tool_use", "id": i, "name": n, "input": a},
                tool_names,
                arguments,
                ids,
            ),
            st.builds(lambda i: {"type": "tool_result", "tool_use_id": i, "content": "ok"}, ids),
            st.just("a bare string block"),
        ),
        max_size=3,
    ),
)
gemini = st.builds(
    lambda parts: {"candidates": [{"content": {"role": "model", "parts": parts}}]},
    st.lists(
        st.one_of(
            st.builds(lambda t: {"text": t}, texts),
            st.builds(lambda n, a: {"functionCall": {"name": n, "args": a}}, tool_names, arguments),
            st.builds(
                lambda n, a: {"function_call": {"name": n, "args": a}}, tool_names, arguments
            ),
        ),
        max_size=3,
    ),
)
langchain_ai = st.builds(
    lambda calls, bad: {
        "type": "ai",
        "content": "",
        "tool_calls": [{"name": n, "args": a, "id": i, "type": "tool_call"} for n, a, i in calls],
        "invalid_tool_calls": [
            {"name": n, "args": a, "id": "x", "type": "invalid_tool_call"} for n, a in bad
        ],
    },
    st.lists(st.tuples(tool_names, arguments, ids), max_size=2),
    st.lists(st.tuples(tool_names, texts), max_size=1),
)
langchain = st.one_of(
    st.builds(
        lambda ai: {
            "messages": [{"type": "human", "content": "hi"}, ai, {"type": "tool", "content": "ok"}]
        },
        langchain_ai,
    ),
    st.builds(lambda ai: [{"type": "ai", "data": ai}], langchain_ai),  # messages_to_dict
    st.builds(lambda n, i: {"tool": n, "tool_input": i, "log": ""}, tool_names, arguments),
    st.builds(lambda n, i: {"action": n, "action_input": i}, tool_names, arguments),
)
openai_agents = st.builds(
    lambda items: {"new_items": items},
    st.lists(
        st.builds(
            lambda n, a: {
                "type": "tool_call_item",
                "raw_item": {"type": "function_call", "name": n, "arguments": a},
            },
            tool_names,
            arguments,
        ),
        max_size=2,
    ),
)
pydantic_ai = st.builds(
    lambda parts: [{"kind": "response", "parts": parts}],
    st.lists(
        st.one_of(
            st.builds(
                lambda n, a: {
                    "part_kind": "tool-call",
                    "tool_name": n,
                    "args": a,
                    "tool_call_id": "x",
                },
                tool_names,
                arguments,
            ),
            st.builds(lambda t: {"part_kind": "text", "content": t}, texts),
        ),
        max_size=2,
    ),
)
crewai = st.builds(
    lambda entries: {"tools_results": entries},
    st.lists(
        st.builds(
            lambda n, a: {"tool_name": n, "tool_args": a, "result": "..."}, tool_names, arguments
        ),
        max_size=2,
    ),
)


def _attribute(key: str, value: Any) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value} if isinstance(value, str) else value}


otel_span = st.builds(
    lambda name, args, start, code: {
        "name": f"execute_tool {name}",
        "startTimeUnixNano": start,
        "endTimeUnixNano": "2000000000",
        "status": {"code": code},
        "attributes": [
            _attribute("gen_ai.operation.name", "execute_tool"),
            _attribute("gen_ai.tool.name", name),
            _attribute(
                "gen_ai.tool.call.arguments", args if isinstance(args, str) else json.dumps(args)
            ),
            _attribute("gen_ai.tool.call.result", {"arrayValue": {"values": [{"intValue": "7"}]}}),
        ],
    },
    tool_names,
    arguments,
    st.sampled_from(["1000000000", "x", 5]),
    st.sampled_from([0, 2, "STATUS_CODE_ERROR"]),
)
otel = st.one_of(
    st.builds(
        lambda spans: {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]},
        st.lists(otel_span, max_size=2),
    ),
    st.lists(otel_span, min_size=1, max_size=2),
)
custom = st.builds(
    lambda calls, wrap: {"calls": calls} if wrap else calls,
    st.lists(
        st.builds(
            lambda n, a, r: {"tool": n, "args": a, "result": r, "duration": 0.5},
            tool_names,
            arguments,
            json_values,
        ),
        max_size=3,
    ),
    st.booleans(),
)


def _jsonrpc_pair(name: str, args: Any, call_id: Any, result: Any) -> list[dict[str, Any]]:
    return [
        {
            "jsonrpc": "2.0",
            "id": call_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": args},
        },
        {"jsonrpc": "2.0", "id": call_id, "duration": 0.1, **result},
    ]


mcp_results = st.one_of(
    st.builds(
        lambda t, err, sc: {
            "result": {
                "content": [{"type": "text", "text": t}],
                "isError": err,
                "structuredContent": sc,
            }
        },
        texts,
        st.booleans(),
        json_values,
    ),
    st.builds(lambda m: {"error": {"code": -32602, "message": m}}, texts),
    st.builds(
        lambda uri: {
            "result": {"content": [{"type": "resource", "resource": {"uri": uri, "text": "x"}}]}
        },
        texts,
    ),
)
mcp_log = st.builds(
    lambda pairs, session: (
        {"format": "mcp", "messages": [m for p in pairs for m in p]}
        if session
        else [m for p in pairs for m in p]
    ),
    st.lists(st.builds(_jsonrpc_pair, tool_names, arguments, ids, mcp_results), max_size=3),
    st.booleans(),
)

PROVIDERS = {
    "openai": st.one_of(openai_chat, openai_stream_chunk, openai_responses),
    "anthropic": anthropic,
    "gemini": gemini,
    "langchain": langchain,
    "openai_agents": openai_agents,
    "pydantic_ai": pydantic_ai,
    "crewai": crewai,
    "otel": otel,
    "custom": custom,
    "mcp": mcp_log,
}
#: Any response shape, realistic or corrupted, or plain JSON, or nested very deep.
responses = (
    st.one_of(*PROVIDERS.values()).flatmap(corrupted)
    | st.one_of(*PROVIDERS.values())
    | json_values
    | st.sampled_from([200, 400, 700, 900]).map(lambda n: json.loads(deep(n)))
    | st.sampled_from([200, 400, 700, 900]).map(
        lambda n: {"choices": [{"message": {"tool_calls": json.loads(deep(n))}}]}
    )
)

EXTRACTORS = [
    integrations.auto_extract,
    integrations.from_openai,
    integrations.from_anthropic,
    integrations.from_gemini,
    integrations.from_langgraph,
    integrations.from_openai_agents,
    integrations.from_pydantic_ai,
    integrations.from_claude_agent_sdk,
    integrations.from_crewai,
    integrations.from_otel,
]


def _assert_calls(calls: Any) -> None:
    assert isinstance(calls, list)
    for call in calls:
        assert isinstance(call["tool"], str) and call["tool"]
        assert isinstance(call["args"], dict)


@FUZZ
@given(response=responses, reader=st.sampled_from(EXTRACTORS))
def test_extracting_calls_from_a_response(response: Any, reader: Any) -> None:
    result = outcome(reader, response, errors=(TypeError, ValueError))
    if not isinstance(result, BaseException):
        _assert_calls(result)


EXPECTED = [{"tool": "search", "args": {"q": Regex("c.*")}}, {"tool": "get_weather", "args": None}]


@FUZZ
@given(response=responses, strict=st.booleans())
def test_evaluating_a_response(response: Any, strict: bool) -> None:
    result = outcome(
        toolscore.evaluate, EXPECTED, response, strict=strict, errors=(TypeError, ValueError)
    )
    if not isinstance(result, BaseException):
        assert 0.0 <= result.score <= 1.0


# -- trace and gold files ---------------------------------------------------------------


def _write(folder: Path, name: str, content: Any) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def _json_lines(value: Any, ascii: bool = True) -> str:
    """JSON Lines of ``value``'s items; ``ascii=False`` writes non-ASCII characters (U+2028...)
    unescaped, as the MCP recorder does."""
    items = value if isinstance(value, list) else [value]
    return "\n".join(json.dumps(item, ensure_ascii=ascii) for item in items)


file_texts = st.one_of(
    responses.map(json.dumps),
    responses.map(_json_lines),
    responses.map(lambda value: _json_lines(value, ascii=False)),
    json_texts,
    st.binary(max_size=20),
)


@FUZZ
@given(text=file_texts, format=st.sampled_from(TRACE_FORMATS))
def test_loading_a_trace_file(folder: Path, text: Any, format: str) -> None:
    path = _write(folder, "trace.json", text)
    result = outcome(load_trace, path, format, errors=(TraceFileError,))
    if not isinstance(result, BaseException):
        assert all(isinstance(c["tool"], str) and c["tool"] for c in result)
    calls = outcome(toolscore.core.load_trace, path, format, errors=(ValueError,))
    if not isinstance(calls, BaseException):
        assert all(isinstance(c.tool, str) for c in calls)


def _matcher_json(value: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(
        [
            {"$any": True},
            {"$regex": "NYC|JFK", "flags": "i"},
            {"$approx": 72.5, "rel": 0.01},
            {"$one_of": ["a", {"$regex": "b+"}]},
            {"$contains": "x"},
            {"$type": ["int", "string"]},
            {"$all_of": [{"$type": "str"}, {"$regex": "a.*"}]},
            {"$any_of": [1, {"$approx": 2}]},
            {"$not": {"$regex": "x"}},
            {"$literal": {"$regex": "as data"}},
            {"$bfcl_string": "New York"},
            {"$bfcl_dict": {"k": ["v", ""]}},
            value,
        ]
    )


gold_values = json_values.flatmap(_matcher_json)
gold_calls = st.lists(
    st.builds(
        lambda tool, args, description: {"tool": tool, "args": args, "description": description},
        tool_names,
        st.none() | st.dictionaries(st.text(max_size=5), gold_values, max_size=3),
        texts,
    ),
    max_size=3,
)
golds = st.one_of(
    gold_calls.flatmap(corrupted),
    gold_calls.map(lambda calls: {"calls": calls}).flatmap(corrupted),
    gold_calls,
    json_values,
    st.sampled_from([200, 400, 700, 900]).map(
        lambda n: [{"tool": "t", "args": {"a": json.loads(deep(n))}}]
    ),
)


@FUZZ
@given(gold=st.one_of(golds.map(json.dumps), json_texts, st.binary(max_size=20)))
def test_loading_a_gold_file(folder: Path, gold: Any) -> None:
    path = _write(folder, "gold.json", gold)
    result = outcome(load_gold, path, errors=(TraceFileError,))
    if not isinstance(result, BaseException):
        assert all(isinstance(c["tool"], str) and c["tool"] for c in result)
    outcome(toolscore.core.load_gold_standard, path, errors=(ValueError,))


@FUZZ
@given(gold=golds, trace=responses, format=st.sampled_from(["auto", "custom", "openai", "mcp"]))
def test_evaluating_a_trace_file(folder: Path, gold: Any, trace: Any, format: str) -> None:
    gold_path = _write(folder, "gold.json", gold)
    trace_path = _write(folder, "trace.json", trace)
    result = outcome(
        evaluate_trace,
        gold_path,
        trace_path,
        format,
        validate_side_effects=False,
        errors=(ValueError,),
    )
    if not isinstance(result, BaseException):
        assert 0.0 <= result.score <= 1.0


# -- MCP: JSON-RPC messages, tool results, tool lists -----------------------------------

jsonrpc_messages = st.one_of(
    mcp_log.flatmap(corrupted),
    st.builds(lambda m: {"jsonrpc": "2.0", "method": m, "id": 1}, texts),
    json_values,
)


@FUZZ
@given(lines=st.lists(st.one_of(jsonrpc_messages.map(json.dumps), json_texts), max_size=4))
def test_the_recorder_relays_any_line(folder: Path, lines: list[str]) -> None:
    recorder = MCPRecorder(["server"], "unused.jsonl")
    recorder._file = io.StringIO()
    for line in lines:
        recorder._client_line(line.encode("utf-8", "surrogatepass"))
        recorder._server_line(line.encode("utf-8", "surrogatepass"))
    recorded = recorder._file.getvalue()
    if recorded:
        # What it recorded is an MCP trace toolscore reads (one JSON document a line).
        path = _write(folder, "session.jsonl", recorded)
        calls = outcome(load_trace, path, "mcp", errors=(TraceFileError,))
        if isinstance(calls, BaseException):
            assert "not valid JSON" not in str(calls)


content_items = (
    st.lists(
        st.one_of(
            st.builds(lambda t: {"type": "text", "text": t}, texts),
            st.builds(lambda u: {"type": "resource", "resource": {"uri": u, "text": "x"}}, texts),
            st.builds(
                lambda u: {"type": "resource", "resource": {"uri": u, "blob": "AA=="}}, texts
            ),
            st.builds(lambda u: {"type": "resource_link", "uri": u, "name": "n"}, texts),
            st.builds(lambda m: {"type": "image", "data": "AA==", "mimeType": m}, texts),
        ),
        max_size=3,
    ).flatmap(corrupted)
    | json_values
)


@FUZZ
@given(content=content_items)
def test_the_text_of_a_tool_result(content: Any) -> None:
    assert isinstance(content_to_text(content), str)


def _property_schemas() -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.builds(
            lambda t: {"type": t, "description": "d"},
            st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"]),
        ),
        st.builds(
            lambda lo, hi: {"type": "integer", "minimum": lo, "maximum": hi}, scalars, scalars
        ),
        st.builds(
            lambda lo, hi, m: {
                "type": "number",
                "exclusiveMinimum": lo,
                "exclusiveMaximum": hi,
                "multipleOf": m,
            },
            scalars,
            scalars,
            scalars,
        ),
        st.builds(
            lambda lo, hi, p, f: {
                "type": "string",
                "minLength": lo,
                "maxLength": hi,
                "pattern": p,
                "format": f,
            },
            st.integers(-3, 50) | scalars,
            st.integers(-3, 50) | scalars,
            st.sampled_from(["^[a-z]+$", "(", "\\d{3}"]) | scalars,
            st.sampled_from(["date", "email", "uri", "uuid"]) | scalars,
        ),
        st.builds(lambda e: {"enum": e}, json_values),
        st.builds(lambda c: {"const": c}, json_values),
        st.builds(
            lambda d, ex: {"type": "string", "default": d, "examples": ex}, json_values, json_values
        ),
        st.just({"$ref": "#"}),
        st.just({"$ref": "#/properties/a"}),
        st.just({"$ref": "#/$defs/x"}),
        st.builds(lambda t: {"type": t}, json_values),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(
                lambda items, lo, hi: {
                    "type": "array",
                    "items": items,
                    "minItems": lo,
                    "maxItems": hi,
                    "uniqueItems": True,
                },
                inner,
                st.integers(-2, 5) | scalars,
                st.integers(-2, 5) | scalars,
            ),
            st.builds(
                lambda props, req: {"type": "object", "properties": props, "required": req},
                st.dictionaries(st.sampled_from(["a", "b", "city", "id"]), inner, max_size=3),
                st.lists(st.sampled_from(["a", "b", "zz"]), max_size=2) | json_values,
            ),
            st.builds(lambda bs: {"anyOf": bs}, st.lists(inner, max_size=3)),
            st.builds(lambda bs: {"oneOf": bs}, st.lists(inner, max_size=3)),
            st.builds(lambda bs: {"allOf": bs}, st.lists(inner, max_size=3)),
        ),
        max_leaves=8,
    )


input_schemas = st.one_of(
    st.builds(
        lambda props, req, extra, defs: {
            "type": "object",
            "properties": props,
            "required": req,
            "additionalProperties": extra,
            "$defs": {"x": defs},
        },
        st.dictionaries(
            st.sampled_from(["a", "b", "city", "query", "id", "path"]),
            _property_schemas(),
            max_size=4,
        ),
        st.lists(st.sampled_from(["a", "b", "zz"]), max_size=3) | json_values,
        st.booleans() | json_values,
        _property_schemas(),
    ).flatmap(corrupted),
    json_values,
)
tool_lists = st.lists(
    st.builds(
        lambda name, description, schema, annotations, execution: {
            "name": name,
            "description": description,
            "inputSchema": schema,
            "annotations": annotations,
            "execution": execution,
        },
        tool_names,
        st.none() | texts,
        input_schemas,
        st.none() | st.just({"readOnlyHint": True}) | json_values,
        st.none() | st.just({"taskSupport": "required"}) | json_values,
    ),
    max_size=3,
)


@FUZZ
@given(tools=tool_lists, seed=st.integers(0, 3))
def test_planning_and_linting_a_tool_list(tools: list[dict[str, Any]], seed: int) -> None:
    defs = [_tool_def(tool) for tool in tools]
    assert all(isinstance(d, MCPToolDef) for d in defs)
    for issue in lint_tools(defs):
        assert issue.severity in ("error", "warning")
    for tool in defs:
        assert definition_tokens(tool) > 0
    for scenario in generate_scenarios(defs, 2, seed=seed):
        assert isinstance(scenario.arguments, dict)
        json.dumps(scenario.arguments)


# -- BFCL: model outputs and data files -------------------------------------------------

FUNCTIONS = [
    {
        "name": "spotify.play",
        "parameters": {
            "type": "dict",
            "properties": {
                "artist": {"type": "string"},
                "duration": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "options": {"type": "dict", "properties": {}},
                "ratio": {"type": "float"},
            },
            "required": ["artist", "duration"],
        },
    },
    {
        "name": "get_weather",
        "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}},
    },
]
ANSWERS = {
    "simple": [
        {"spotify.play": {"artist": ["Taylor Swift"], "duration": [20], "tags": [["pop"], ""]}}
    ],
    "parallel": [
        {
            "spotify.play": {
                "artist": ["Taylor Swift"],
                "duration": [20],
                "options": [{"loud": [True]}, ""],
            }
        },
        {"get_weather": {"city": ["Paris", "paris, france"]}},
    ],
    "multiple": [{"get_weather": {"city": ["Paris"]}}],
    "irrelevance": None,
}

python_values = st.recursive(
    st.one_of(
        st.integers(-(10**6), 10**6).map(str),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.text(max_size=6).map(repr),
        st.sampled_from(
            [
                "True",
                "None",
                "x",
                "math.pi",
                "2**10",
                "1/0",
                "-'a'",
                "+5",
                "...",
                "{1, 2}",
                "f'x'",
                "lambda: 1",
                "10**10**10",
                "'a' * 10**9",
                "1 << 99999999",
            ]
        ),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda v: "[" + ", ".join(v) + "]"),
        st.lists(st.tuples(inner, inner), max_size=2).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
        ),
        st.tuples(st.sampled_from(["f", "math.sqrt", "a.b.c"]), inner).map(
            lambda t: f"{t[0]}({t[1]})"
        ),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "**", "<<", "|"]), inner).map(
            lambda t: " ".join(t)
        ),
    ),
    max_leaves=6,
)
python_calls = st.lists(
    st.tuples(
        st.sampled_from(["spotify.play", "spotify_play", "get_weather", "f"]),
        st.lists(
            st.tuples(
                st.sampled_from(["artist", "duration", "tags", "options", "city", "ratio"]),
                python_values,
            ),
            max_size=3,
        ),
    ),
    max_size=3,
).map(
    lambda calls: (
        "[" + ", ".join(f"{n}({', '.join(f'{k}={v}' for k, v in kw)})" for n, kw in calls) + "]"
    )
)

bfcl_call_dicts = st.builds(
    lambda name, args: {name: args},
    st.sampled_from(["spotify.play", "get_weather", "f"]),
    st.fixed_dictionaries(
        {},
        optional={
            "artist": json_values,
            "duration": json_values,
            "city": json_values,
            "tags": json_values,
        },
    ),
)
model_outputs = st.one_of(
    python_calls,
    python_calls.map(lambda text: f"```python\n{text}\n```"),
    st.text(max_size=20),
    st.lists(bfcl_call_dicts, max_size=3).flatmap(corrupted),
    st.lists(bfcl_call_dicts.map(lambda c: {k: json.dumps(v) for k, v in c.items()}), max_size=2),
    st.lists(
        st.builds(lambda n, p: {"tool_name": n, "parameters": p}, tool_names, json_values),
        max_size=2,
    ),
    responses,
    st.binary(max_size=10),
    st.none(),
)


@FUZZ
@given(output=model_outputs, category=st.sampled_from(sorted(ANSWERS)), dots=st.booleans())
def test_bfcl_checks_any_model_output(output: Any, category: str, dots: bool) -> None:
    verdict = outcome(
        bfcl.check,
        FUNCTIONS,
        ANSWERS[category],
        output,
        underscore_to_dot=dots,
        category=category,
        errors=(TypeError,),
    )
    if not isinstance(verdict, BaseException):
        assert verdict.valid in (True, False)
        json.dumps(verdict.to_dict())
        assert str(verdict)
        if not verdict.valid:
            assert bfcl.render_failure(verdict, ANSWERS[category])
    calls = outcome(bfcl.to_calls, output, errors=(DecodeFailure, TypeError))
    if not isinstance(calls, BaseException):
        assert all(isinstance(c["args"], dict) for c in calls)


bfcl_records = st.lists(
    st.builds(
        lambda test_id, functions, truth, result: {
            "id": test_id,
            "question": [[{"role": "user", "content": "play"}]],
            "function": functions,
            "ground_truth": truth,
            "result": result,
        },
        st.sampled_from(
            [
                "simple_0",
                "parallel_1",
                "live_multiple_2-1-0",
                "irrelevance_3",
                "_0",
                "simple_java_1",
                "multi_turn_base_0",
                "",
            ]
        ),
        st.just(FUNCTIONS),
        st.sampled_from([a for a in ANSWERS.values() if a is not None]),
        model_outputs.filter(lambda o: not isinstance(o, bytes)),
    ),
    max_size=3,
).flatmap(corrupted)
bfcl_files = st.one_of(
    bfcl_records.map(_json_lines),
    bfcl_records.map(lambda records: _json_lines(records, ascii=False)),
    bfcl_records.map(json.dumps),
    json_texts,
)


@FUZZ
@given(questions=bfcl_files, answers=bfcl_files, results=bfcl_files)
def test_bfcl_reads_any_data_file(folder: Path, questions: str, answers: str, results: str) -> None:
    q = _write(folder, "questions.json", questions)
    a = _write(folder, "answers.json", answers)
    r = _write(folder, "results.json", results)
    outcome(read_records, q, "questions", errors=(BFCLDataError,))
    cases = outcome(bfcl.load, q, a, errors=(BFCLDataError,))
    outputs = outcome(bfcl.read_outputs, r, errors=(BFCLDataError,))
    if isinstance(cases, BaseException) or isinstance(outputs, BaseException):
        return
    score = outcome(bfcl.score, dict(outputs), cases, partial=True, errors=(BFCLDataError,))
    if not isinstance(score, BaseException):
        json.dumps(score.to_dict(), default=repr)


# -- matcher encodings round-trip --------------------------------------------------------


def same_matcher(a: Any, b: Any) -> bool:  # noqa: C901 (structural equality over every matcher kind)
    """Structural equality of (possibly matcher-holding) values; ``==`` would match instead."""
    if isinstance(a, Matcher) or isinstance(b, Matcher):
        if type(a) is not type(b):
            return False
        if isinstance(a, _AnyMatcher):
            return True
        if isinstance(a, Regex):
            return a.pattern == b.pattern and a._compiled.flags == b._compiled.flags
        if isinstance(a, Approx):
            return (a.value, a.rel, a.abs) == (b.value, b.rel, b.abs)
        if isinstance(a, OneOf):
            return len(a.values) == len(b.values) and all(map(same_matcher, a.values, b.values))
        if isinstance(a, Contains):
            return same_matcher(a.item, b.item)
        if isinstance(a, IsType):
            return list(dict.fromkeys(a.types)) == list(dict.fromkeys(b.types))
        if isinstance(a, (_AllOf, _AnyOf)):
            return len(a.parts) == len(b.parts) and all(map(same_matcher, a.parts, b.parts))
        if isinstance(a, _Not):
            return same_matcher(a.inner, b.inner)
        if isinstance(a, _Equals):
            return same_matcher(a.value, b.value)
        if isinstance(a, BFCLString):
            return a.value == b.value
        if isinstance(a, BFCLDict):
            return same_matcher(a.answer, b.answer)
        raise AssertionError(f"no structural equality for {a!r}")
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and a.keys() == b.keys()
            and all(same_matcher(a[k], b[k]) for k in a)
        )
    if isinstance(a, (list, tuple)):
        return isinstance(b, list) and len(a) == len(b) and all(map(same_matcher, a, b))
    return type(a) is type(b) and a == b


finite = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.integers(-(10**6), 10**6) | finite
plain_json = st.recursive(
    st.none() | st.booleans() | numbers | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=4) | st.sampled_from(["$regex", "$x", "$literal", "flags"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
patterns = st.sampled_from(["NYC|JFK", r"FL-\d+", "", "a.*", "(?P<x>y)", "[", "x{2,}"])
flags = st.sets(
    st.sampled_from([re.IGNORECASE, re.MULTILINE, re.DOTALL, re.VERBOSE, re.UNICODE, re.ASCII])
).map(lambda fs: sum(fs))
json_types = st.sampled_from([int, float, str, bool, list, dict, type(None), complex, object])


def _build(make: Any, *args: Any) -> Any:
    """A matcher, or None when its constructor refuses the arguments (documented errors)."""
    try:
        return make(*args)
    except (TypeError, ValueError):
        return None


leaf_matchers = st.one_of(
    st.just(ANY),
    st.builds(lambda p, f: _build(Regex, p, f), patterns, flags),
    st.builds(
        lambda v, r, a: _build(Approx, v, r, a),
        numbers | st.just(float("inf")),
        st.just(1e-6) | numbers | st.just(float("inf")),
        st.just(0.0) | numbers,
    ),
    st.builds(lambda ts: _build(IsType, *ts), st.lists(json_types, min_size=1, max_size=3)),
    st.builds(BFCLString, st.text(max_size=6)),
    st.builds(
        lambda d: BFCLDict(d),
        st.dictionaries(st.text(max_size=3), st.lists(plain_json, max_size=2), max_size=2),
    ),
).filter(lambda m: m is not None)
matcher_values = st.recursive(
    leaf_matchers | plain_json,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda vs: OneOf(*vs)),
        inner.map(Contains),
        st.lists(inner, min_size=2, max_size=3).map(lambda vs: _AllOf(*map(_as_matcher, vs))),
        st.lists(inner, min_size=2, max_size=3).map(lambda vs: _AnyOf(*map(_as_matcher, vs))),
        leaf_matchers.map(_Not),
        st.lists(inner, max_size=3),
        st.dictionaries(st.text(max_size=3) | st.just("$literal"), inner, max_size=3),
    ),
    max_leaves=8,
)


def _as_matcher(value: Any) -> Matcher:
    return value if isinstance(value, Matcher) else _Equals(value)


@FUZZ
@given(value=matcher_values)
def test_matcher_encodings_round_trip(value: Any) -> None:
    encoded = outcome(encode_value, value, "args", errors=(MatcherEncodingError,))
    if isinstance(encoded, BaseException):
        return
    # As a snapshot file stores it: strict JSON.
    text = json.dumps(encoded, ensure_ascii=False, allow_nan=False)
    decoded = decode_value(json.loads(text), "args")
    assert same_matcher(value, decoded), (value, encoded, decoded)


@FUZZ
@given(value=st.one_of(gold_values, golds, json_values))
def test_decoded_matchers_encode_back(value: Any) -> None:
    decoded = outcome(decode_value, value, "gold.json: args", errors=(GoldFormatError,))
    if isinstance(decoded, BaseException):
        return
    encoded = encode_value(decoded, "args")
    text = json.dumps(encoded, ensure_ascii=False, allow_nan=False)
    assert same_matcher(decode_value(json.loads(text), "args"), decoded)


# -- the comparison rule ----------------------------------------------------------------


@st.composite
def near(draw: st.DrawFn, value: Any) -> Any:
    """A value the rule may or may not take for ``value``: padded strings, int for float,
    bool for int, a dropped or an extra item, or something else altogether."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(plain_json)
    if isinstance(value, str):
        return draw(st.sampled_from([value, f" {value}", f"{value}\n", value.upper(), value + "x"]))
    if isinstance(value, bool):
        return draw(st.sampled_from([value, int(value), float(value), not value]))
    if isinstance(value, int):
        return draw(st.sampled_from([value, float(value), value + 1, bool(value % 2), str(value)]))
    if isinstance(value, float):
        options = [value, -value, value + 1.0, str(value)]
        if value.is_integer() and abs(value) < 2**63:
            options.append(int(value))
        return draw(st.sampled_from(options))
    if isinstance(value, list):
        items = [draw(near(v)) for v in value]
        if choice == 1 and items:
            items.pop()
        if choice == 2:
            items.append(draw(plain_json))
        return tuple(items) if choice == 3 else items
    if isinstance(value, dict):
        out = {k: draw(near(v)) for k, v in value.items()}
        if choice == 1 and out:
            out.pop(next(iter(out)))
        if choice == 2:
            out[draw(keys)] = draw(plain_json)
        return out
    return value


@FUZZ
@given(data=st.data(), strict=st.booleans())
def test_canonical_forms_agree_with_the_rule(data: st.DataObject, strict: bool) -> None:
    a = data.draw(plain_json)
    b = data.draw(near(a))
    ca, cb = canonical(a, strict), canonical(b, strict)
    assert ca is not NOT_CANONICAL and cb is not NOT_CANONICAL
    hash(ca), hash(cb)
    assert (ca == cb) is values_match(a, b, strict), (a, b)
    assert values_match(a, a, strict)
    assert values_match(a, b, strict) is values_match(b, a, strict)
    # The loop that takes over past the recursion limit applies the same rule.
    assert _match_nested(a, b, strict) is values_match(a, b, strict)


@FUZZ
@given(
    depth=st.sampled_from([50, 300, 600, 900]),
    kind=st.sampled_from(["list", "dict"]),
    same=st.booleans(),
    strict=st.booleans(),
)
def test_evaluating_deeply_nested_arguments(
    depth: int, kind: str, same: bool, strict: bool
) -> None:
    text = deep(depth, kind)
    other = (
        text
        if same
        else text.replace("]", "1]", 1)
        if kind == "list"
        else text[: -depth - 1] + "2" + "}" * depth
    )
    expected = [{"tool": "t", "args": {"a": json.loads(text)}}]
    actual = [{"tool": "t", "args": {"a": json.loads(other)}}]
    result = toolscore.evaluate(expected, actual, strict=strict)
    assert (result.score == 1.0) is same
    assert values_match(json.loads(text), json.loads(other), strict) is same


# -- what the fuzz tests found: the minimal examples, as plain regression tests ----------


def _nested_list(depth: int) -> Any:
    """A list nested ``depth`` levels deep, built without recursion (past any JSON parser)."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "response",
    [
        {"choices": 1},  # was TypeError: 'int' object is not iterable
        {"choices": "ab"},  # was AttributeError: 'str' object has no attribute 'get'
        {"choices": [{"message": {"role": "assistant", "tool_calls": ["x"]}}]},  # AttributeError
        {"role": "assistant", "tool_calls": 5},  # was TypeError: Value after * must be iterable
        {"candidates": [{"content": 5}]},  # was AttributeError
        {"candidates": [5]},  # was AttributeError
        {"new_items": 5},  # was TypeError
        {"type": "tool_call_item", "raw_item": 5},  # was AttributeError
    ],
)
def test_a_field_of_the_wrong_kind_is_an_unknown_shape(folder: Path, response: Any) -> None:
    with pytest.raises(TypeError, match="Cannot auto-detect the provider format") as info:
        integrations.auto_extract(response)
    assert "not a list" in str(info.value) or "not an object" in str(info.value)
    # A trace file of that shape names the problem, not Python's error.
    with pytest.raises(TraceFileError) as file_error:
        load_trace(_write(folder, "trace.json", response), "openai")
    assert "object has no attribute" not in str(file_error.value)
    assert "is not iterable" not in str(file_error.value)


def test_malformed_otel_exports_hold_no_calls() -> None:
    # Each was a TypeError, an AttributeError or an OverflowError from inside the reader.
    assert integrations.auto_extract({"resourceSpans": True}) == []
    assert integrations.from_otel({"resourceSpans": [{"scopeSpans": [{"spans": 5}]}]}) == []
    span = {
        "name": "execute_tool search",
        "startTimeUnixNano": 1e400,  # what JSON's 1e400 reads as: infinity
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "search",
            "gen_ai.tool.call.result": {"arrayValue": [1]},
        },
    }
    (call,) = integrations.from_otel([span])
    assert call["tool"] == "search" and call["duration"] is None
    # Was OverflowError: a 400-digit timestamp minus another, divided into seconds.
    span.update(startTimeUnixNano=10**400, endTimeUnixNano="2000000000")
    (call,) = integrations.from_otel([span])
    assert call["duration"] is None


def test_a_response_nested_past_the_recursion_limit_is_a_value_error() -> None:
    # Was RecursionError.
    with pytest.raises(ValueError, match="nested this deeply"):
        integrations.auto_extract(_nested_list(5000))
    with pytest.raises(ValueError, match="nested this deeply"):
        toolscore.evaluate([], _nested_list(5000))


def test_deeply_nested_arguments_are_compared() -> None:
    # Was RecursionError: comparing two 300-level arguments that differ at the bottom, and
    # hashing (canonical) or comparing equal ones past the recursion limit.
    text = deep(300, "dict")
    expected = [{"tool": "t", "args": {"a": json.loads(text)}}]
    assert toolscore.evaluate(expected, [{"tool": "t", "args": {"a": json.loads(text)}}]).score == 1
    other = [{"tool": "t", "args": {"a": json.loads(text.replace("1", "2"))}}]
    assert toolscore.evaluate(expected, other).score < 1
    very = [{"tool": "t", "args": {"a": _nested_list(5000)}}]
    assert toolscore.evaluate(very, [{"tool": "t", "args": {"a": _nested_list(5000)}}]).score == 1
    assert canonical(_nested_list(5000)) is NOT_CANONICAL
    assert values_match(_nested_list(5000), _nested_list(5000))
    assert not values_match(_nested_list(5000), _nested_list(4999))


def test_files_nested_past_the_recursion_limit_are_refused(folder: Path) -> None:
    # Was RecursionError (from the JSON parser) out of load_gold and load_trace.
    path = _write(folder, "nested.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(TraceFileError, match="nested too deeply"):
        load_gold(path)
    with pytest.raises(TraceFileError, match="nested too deeply"):
        load_trace(path)
    lines = _write(folder, "nested.jsonl", "[]\n" + "[" * 100_000)
    with pytest.raises(TraceFileError, match="line 2: the JSON is nested too deeply"):
        load_trace(lines, "custom")


def test_gold_arguments_nested_past_the_recursion_limit_are_refused(folder: Path) -> None:
    # Was RecursionError (decoding the matchers, level by level).
    gold = json.dumps([{"tool": "t", "args": {"a": 1}}]).replace("1", deep(900))
    with pytest.raises(GoldFormatError, match="nested too deeply"):
        load_gold(_write(folder, "gold.json", gold))


def test_a_deep_trace_read_as_a_provider_response_is_refused(folder: Path) -> None:
    # Was RecursionError (unwrapping LangChain's message dicts, level by level).
    with pytest.raises(TraceFileError, match="nested too deeply"):
        load_trace(_write(folder, "deep.json", deep(900)))


def test_a_gold_approx_of_a_huge_integer() -> None:
    # Was OverflowError (int too large to convert to float) from Approx's NaN check.
    matcher = decode_value({"$approx": 10**400}, "gold.json: [0].args.n")
    assert matcher == 10**400
    assert Approx(10**400) == 10**400


@pytest.mark.parametrize(
    "matcher", [Approx(1, rel=float("inf")), Approx(float("-inf")), ~Approx(1, abs=float("inf"))]
)
def test_an_infinite_approx_has_no_json_form(matcher: Matcher) -> None:
    # Was encoded as {"$approx": 1, "rel": inf}, which a snapshot file (strict JSON) then
    # failed to write with json's ValueError.
    with pytest.raises(MatcherEncodingError, match="is not a finite number"):
        encode_value(matcher, "calls[0].args.x")


@pytest.mark.parametrize(
    ("matcher", "encoded"),
    [
        (BFCLString("New York"), {"$bfcl_string": "New York"}),
        (BFCLDict({"k": ["v", ""]}), {"$bfcl_dict": {"k": ["v", ""]}}),
        (
            BFCLString("a") | BFCLString("b"),
            {"$any_of": [{"$bfcl_string": "a"}, {"$bfcl_string": "b"}]},
        ),
    ],
)
def test_bfcl_matchers_round_trip(matcher: Matcher, encoded: Any) -> None:
    # Was MatcherEncodingError ("a custom matcher, which has no JSON form"), though gold
    # files and decode_value read these encodings.
    assert encode_value(matcher, "args") == encoded
    assert same_matcher(decode_value(encoded, "args"), matcher)


def test_a_bfcl_id_without_a_category_is_a_data_error(folder: Path) -> None:
    # Was TypeError: category must be a BFCL category name, got ''.
    questions = _write(folder, "q.json", json.dumps({"id": "_0", "function": [], "question": []}))
    with pytest.raises(BFCLDataError, match="names no category"):
        bfcl.load(questions)


def test_a_bfcl_file_nested_past_the_recursion_limit_is_a_data_error(folder: Path) -> None:
    # Was RecursionError from json.loads.
    path = _write(folder, "q.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(BFCLDataError, match="nested too deeply"):
        read_records(path, "questions")
    with pytest.raises(BFCLDataError, match="nested too deeply"):
        read_records(_write(folder, "r.json", "{}\n" + "[" * 100_000), "model outputs")


def test_lint_reads_unhashable_required_names_and_types() -> None:
    # Was TypeError: unhashable type 'list' / 'dict'.
    tool = MCPToolDef(
        "find",
        "Find a thing by its name, in the catalogue.",
        {"type": "object", "properties": {"q": {"type": [{}]}}, "required": [["q"]]},
    )
    rules = {issue.rule for issue in lint_tools([tool])}
    assert "required-unknown" in rules and "schema-invalid" in rules


@pytest.mark.parametrize(
    "schema",
    [
        {
            "type": "object",
            "properties": {"a": {"anyOf": [{"$ref": "#/properties/a"}]}},
        },  # RecursionError
        {"type": "object", "required": 5},  # TypeError: 'int' object is not iterable
        {"type": "object", "properties": {"a": {"enum": {"x": 1}}}},  # KeyError: 0
        {
            "type": "object",
            "properties": {"a": {"type": "integer", "minimum": 10, "maximum": 5}},
        },  # ValueError from random
        {
            "type": "object",
            "properties": {"a": {"type": "integer", "minimum": float("inf")}},
        },  # OverflowError
        {
            "type": "object",
            "properties": {"a": {"type": "integer", "maximum": 10**400}},
        },  # OverflowError
        {
            "type": "object",
            "properties": {"a": {"type": "string", "maxLength": 10**400}},
        },  # OverflowError
        {
            "type": "object",
            "properties": {"a": {"type": "number", "multipleOf": 1e-320, "minimum": 1e300}},
        },  # OverflowError
        {
            "type": "object",
            "allOf": [{"properties": 5, "required": 5}],
            "properties": {},
            "required": [],
        },  # TypeError
    ],
)
def test_any_input_schema_gets_scenarios(schema: dict[str, Any]) -> None:
    scenarios = generate_scenarios([MCPToolDef("t", "A tool that does things.", schema)], 2)
    assert scenarios and all(isinstance(s.arguments, dict) for s in scenarios)


def test_a_recursive_all_of_is_followed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Was 2**21 resolutions for two self-references (3**20, no end in sight, for three).
    calls = []
    resolve = SchemaValues.resolve

    def counted(self: SchemaValues, *args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(1)
        return resolve(self, *args, **kwargs)

    monkeypatch.setattr(SchemaValues, "resolve", counted)
    schema = {"type": "object", "allOf": [{"$ref": "#"}] * 2, "properties": {"a": {}}}
    (happy,) = generate_scenarios([MCPToolDef("t", "A tool that does things.", schema)], 1, False)
    assert happy.arguments == {}
    assert len(calls) < 100


def test_the_recorder_skips_a_line_nested_past_the_recursion_limit() -> None:
    # Was RecursionError: the relay thread died (a client line) or the recorder (a server line).
    recorder = MCPRecorder(["server"], "unused.jsonl")
    recorder._file = io.StringIO()
    recorder._client_line(b"[" * 100_000)
    recorder._server_line(b"[" * 100_000)
    assert recorder.calls_recorded == 0


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1c", "\x0b"])
def test_json_lines_may_hold_unicode_line_separators(folder: Path, separator: str) -> None:
    # Was "line 1 is not valid JSON (Unterminated string...)": str.splitlines() broke the
    # line at the separator inside a string, as the MCP recorder writes them (unescaped).
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search"}}
    request["params"]["arguments"] = {"q": f"a{separator}b"}
    response = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x"}]}}
    lines = "\n".join(json.dumps(m, ensure_ascii=False) for m in (request, response)) + "\n"
    (call,) = load_trace(_write(folder, "session.jsonl", lines))
    assert call["args"] == {"q": f"a{separator}b"}
    records = json.dumps({"id": f"simple_{separator}"}, ensure_ascii=False) + "\n{}"
    with pytest.raises(BFCLDataError, match="line 2: each"):  # the first line read whole
        read_records(_write(folder, "results.json", records), "model outputs")
