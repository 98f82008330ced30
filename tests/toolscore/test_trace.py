"""evaluate_trace: gold files with JSON matchers, every trace format, and bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolscore._engine.check.evaluate_trace import (
    TraceFileError,
    evaluate_trace,
    load_gold,
    load_trace,
)
from toolscore.matchers import ANY, Approx, Contains, IsType, OneOf, Regex

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "toolscore"


def _write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


# --- gold files -------------------------------------------------------------------------


def test_every_json_matcher_decodes_to_the_matcher_object(tmp_path: Path) -> None:
    gold = _write(
        tmp_path / "gold.json",
        [
            {
                "tool": "t",
                "args": {
                    "a": {"$any": True},
                    "b": {"$regex": "ab+", "flags": "i"},
                    "c": {"$approx": 2.0, "rel": 0.1, "abs": 0.5},
                    "d": {"$one_of": ["x", {"$regex": "y+"}]},
                    "e": {"$contains": "wifi"},
                    "f": {"$type": ["int", "float"]},
                    "g": {"$literal": {"$not": "a matcher"}},
                    "h": {"nested": [{"$type": "str"}]},
                },
            }
        ],
    )
    (call,) = load_gold(gold)
    args = call["args"]
    assert args["a"] is ANY
    assert isinstance(args["b"], Regex) and args["b"] == "ABBB" and args["b"] != "ac"
    assert isinstance(args["c"], Approx) and args["c"] == 2.4 and args["c"] != 2.6
    assert isinstance(args["d"], OneOf) and args["d"] == "yy" and args["d"] != "z"
    assert isinstance(args["e"], Contains) and args["e"] == ["gym", "wifi"]
    assert isinstance(args["f"], IsType) and args["f"] == 1.5 and args["f"] != True  # noqa: E712
    assert args["g"] == {"$not": "a matcher"}
    assert args["h"]["nested"][0] == "text"


def test_gold_args_omitted_means_unchecked_and_empty_means_none(tmp_path: Path) -> None:
    gold = _write(tmp_path / "g.json", {"calls": [{"tool": "a"}, {"tool": "b", "args": {}}]})
    assert load_gold(gold) == [{"tool": "a", "args": None}, {"tool": "b", "args": {}}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"x": {"$regexp": "a"}}, r"\[0\]\.args\.x: unknown matcher key '\$regexp'; use one of"),
        ({"x": {"$regex": "a", "$any": True}}, r"unexpected key '\$any' next to '\$regex'"),
        ({"x": {"$regex": "("}}, r"\$regex '\(' is not a valid pattern"),
        ({"x": {"$approx": "1"}}, r"\$approx needs a number, got '1'"),
        ({"x": {"$approx": 1, "tol": 2}}, r"unexpected key 'tol' next to '\$approx'"),
        ({"x": {"$type": "integer32"}}, r"\$type 'integer32' is not a known type name"),
        ({"x": {"$one_of": []}}, r"\$one_of needs a non-empty list"),
        ({"x": {"$any": False}}, r"\$any takes true"),
        ({"x": [{"$nope": 1}]}, r"\.args\.x\[0\]: unknown matcher key '\$nope'"),
    ],
)
def test_bad_matchers_name_the_file_the_place_and_the_key(
    tmp_path: Path, args: dict[str, Any], message: str
) -> None:
    gold = _write(tmp_path / "gold.json", [{"tool": "t", "args": args}])
    with pytest.raises(TraceFileError, match=re.escape(str(gold)) + ": .*" + message):
        load_gold(gold)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"tool": "t"}', "a gold file holds a list"),
        ('[{"args": {}}]', r'\[0\]: each expected call needs a "tool" name'),
        (
            '[{"tool": "t", "arguments": {}}]',
            r"unknown key 'arguments' \(a call has",
        ),
        ('[{"tool": "t", "args": [1]}]', r"\[0\]\.args: must be an object or null"),
        ('"just text"', "a gold file holds a list of calls, got str"),
    ],
)
def test_bad_gold_shapes(tmp_path: Path, content: str, message: str) -> None:
    gold = _write(tmp_path / "gold.json", content)
    with pytest.raises(TraceFileError, match=message):
        load_gold(gold)


# --- files that are not usable ----------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("", "the file is empty"),
        ("  \n\n", "the file is empty"),
        ('[{"tool": "a",', r"not valid JSON \(Expecting .* at line 1, column \d+\)"),
        ('{"a": 1}\n{"b": 2\n', r"line 2 is not valid JSON"),
    ],
)
def test_unusable_files_name_the_file_and_the_problem(
    tmp_path: Path, content: str | None, message: str
) -> None:
    trace = tmp_path / "trace.json"
    if content is not None:
        trace.write_text(content)
    with pytest.raises(TraceFileError, match=re.escape(str(trace)) + ": " + message):
        load_trace(trace)


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(TraceFileError, match="is a folder"):
        load_trace(tmp_path)


def test_unknown_format_name_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"Unsupported format: 'bedrock'; use one of auto, openai"):
        load_trace(_write(tmp_path / "t.json", []), format="bedrock")


# --- trace formats ----------------------------------------------------------------------


def test_custom_list_and_calls_object(tmp_path: Path) -> None:
    calls = [{"tool": "a", "args": {"x": 1}}, {"tool": "b"}]
    assert [c["tool"] for c in load_trace(_write(tmp_path / "l.json", calls))] == ["a", "b"]
    wrapped = _write(tmp_path / "w.json", {"calls": calls})
    assert [c["tool"] for c in load_trace(wrapped, format="custom")] == ["a", "b"]


def test_empty_list_is_an_agent_that_called_nothing(tmp_path: Path) -> None:
    gold = _write(tmp_path / "g.json", [{"tool": "a"}])
    result = evaluate_trace(gold, _write(tmp_path / "t.json", []))
    assert result.score < 1.0 and [c["tool"] for c in result.missing_calls] == ["a"]


def test_mcp_requests_one_per_line_responses_skipped_errors_marked(tmp_path: Path) -> None:
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"q": "x"}},
        },
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": True}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "fetch"}},
    ]
    trace = _write(tmp_path / "t.jsonl", "\n".join(json.dumps(m) for m in lines) + "\n")
    calls = load_trace(trace)
    assert [(c["tool"], c["args"]) for c in calls] == [("search", {"q": "x"}), ("fetch", {})]
    # The response is merged into its request: the call failed, and says so.
    assert calls[0]["is_error"] is True and calls[0]["error"] == "the tool reported an error"
    assert "is_error" not in calls[1]  # no response recorded for "b"


def test_mcp_as_a_json_list_and_as_a_batch(tmp_path: Path) -> None:
    req = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "a"}}
    assert len(load_trace(_write(tmp_path / "l.json", [req, req]), format="mcp")) == 2
    assert len(load_trace(_write(tmp_path / "b.json", [[req, req], req]))) == 3


def test_mcp_format_rejects_other_messages(tmp_path: Path) -> None:
    trace = _write(tmp_path / "t.json", [{"tool": "a"}])
    with pytest.raises(TraceFileError, match=r"message 0 is not a JSON-RPC message"):
        load_trace(trace, format="mcp")


def test_mcp_call_without_a_name(tmp_path: Path) -> None:
    trace = _write(
        tmp_path / "t.json", [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}]
    )
    with pytest.raises(TraceFileError, match=r"message 0: tools/call without params.name"):
        load_trace(trace)


def test_unknown_shape_is_an_error_naming_the_file(tmp_path: Path) -> None:
    trace = _write(tmp_path / "weird.json", {"hello": "world"})
    with pytest.raises(
        TraceFileError, match=re.escape(str(trace)) + ": Cannot auto-detect the trace format"
    ):
        load_trace(trace)


@pytest.mark.parametrize(
    ("name", "fmt", "score"),
    [
        ("trace_openai.json", "openai", 1.0),
        ("trace_langchain.json", "langchain", 1.0),
        ("trace_mcp.jsonl", "mcp", 1.0),
    ],
)
def test_example_traces_that_match_the_gold_file_score_one(
    name: str, fmt: str, score: float
) -> None:
    gold = EXAMPLES / "gold.json"
    assert evaluate_trace(gold, EXAMPLES / name).score == score
    assert evaluate_trace(gold, EXAMPLES / name, format=fmt).score == score


def test_example_anthropic_trace_loses_on_three_arguments() -> None:
    result = evaluate_trace(EXAMPLES / "gold.json", EXAMPLES / "trace_anthropic.json")
    assert result.tool_f1 == 1.0 and result.sequence_accuracy == 1.0
    bad = {(p.tool, a.name) for p in result.pairs for a in p.arguments if not a.ok}
    assert bad == {
        ("get_weather", "unit"),
        ("search_hotels", "max_price"),
        ("search_hotels", "amenities"),
    }
    assert result.score < 0.9


def test_example_gemini_trace_misses_the_hotel_search() -> None:
    result = evaluate_trace(EXAMPLES / "gold.json", EXAMPLES / "trace_gemini.json", "gemini")
    assert [c["tool"] for c in result.missing_calls] == ["search_hotels"]
    assert result.argument_precision == 1.0


def test_example_custom_trace_has_a_wrong_call_and_a_right_one() -> None:
    result = evaluate_trace(EXAMPLES / "gold.json", EXAMPLES / "trace_custom.json")
    assert [c["tool"] for c in result.missing_calls] == ["search_hotels"]
    assert [c["index"] for c in result.extra_calls] == [0]  # Boston/"3"/kelvin left unpaired


def test_strict_mode_reaches_the_comparison(tmp_path: Path) -> None:
    gold = _write(tmp_path / "g.json", [{"tool": "a", "args": {"n": 3}}])
    trace = _write(tmp_path / "t.json", [{"tool": "a", "args": {"n": 3.0}}])
    assert evaluate_trace(gold, trace).score == 1.0
    assert evaluate_trace(gold, trace, strict=True).argument_f1 == 0.0


def test_evaluate_trace_is_public() -> None:
    import toolscore

    assert toolscore.evaluate_trace is evaluate_trace
    assert "evaluate_trace" in toolscore.__all__
