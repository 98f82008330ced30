"""from_stream / assert_stream_matches on streams built with the real SDKs' types, the
argument text split at random points."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from toolscore import ToolScoreAssertionError, assert_stream_matches, from_stream
from toolscore.integrations import from_stream as from_stream_in_integrations

CALLS = [
    {"tool": "get_weather", "args": {"city": "São Paulo", "unit": "celsius", "days": [1, 2]}},
    {"tool": "get_time", "args": {"zone": "America/Sao_Paulo", "note": 'a "quoted" {brace}'}},
    {"tool": "ping", "args": {}},
]


def _pieces(text: str, rng: random.Random) -> list[str]:
    """``text`` cut at random points (possibly inside an escape or a multi-byte character)."""
    if not text:
        return []
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(1, 8))))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def _text(call: dict[str, Any]) -> str:
    return json.dumps(call["args"], ensure_ascii=False) if call["args"] else ""


# --- event builders, one per provider (dicts in each SDK's wire shape) ----------------------


def chat_chunks(calls: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    out = [chunk({"role": "assistant", "content": None})]
    for i, call in enumerate(calls):
        first = {"index": i, "id": f"call_{i}", "type": "function"}
        first["function"] = {"name": call["tool"], "arguments": ""}
        out.append(chunk({"tool_calls": [first]}))
        for piece in _pieces(_text(call), rng):
            out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    out.append(chunk({}, "tool_calls"))
    return out


def responses_events(
    calls: list[dict[str, Any]], rng: random.Random, done: bool = True
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"type": "response.in_progress", "sequence_number": 0, "response": _response()}
    ]
    for i, call in enumerate(calls):
        item = {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": f"call_{i}",
            "name": call["tool"],
            "arguments": "",
            "status": "in_progress",
        }
        out.append(
            {
                "type": "response.output_item.added",
                "output_index": i,
                "item": item,
                "sequence_number": len(out),
            }
        )
        for piece in _pieces(_text(call), rng):
            out.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": f"fc_{i}",
                    "output_index": i,
                    "delta": piece,
                    "sequence_number": len(out),
                }
            )
        if done:
            out.append(
                {
                    "type": "response.function_call_arguments.done",
                    "item_id": f"fc_{i}",
                    "output_index": i,
                    "arguments": _text(call),
                    "name": call["tool"],
                    "sequence_number": len(out),
                }
            )
            final = dict(item, arguments=_text(call), status="completed")
            out.append(
                {
                    "type": "response.output_item.done",
                    "output_index": i,
                    "item": final,
                    "sequence_number": len(out),
                }
            )
    return out


def _response() -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "m",
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "status": "in_progress",
    }


def anthropic_events(calls: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 0},
    ]
    for n, call in enumerate(calls, start=1):
        block = {"type": "tool_use", "id": f"toolu_{n}", "name": call["tool"], "input": {}}
        out.append({"type": "content_block_start", "index": n, "content_block": block})
        for piece in _pieces(_text(call), rng):
            delta = {"type": "input_json_delta", "partial_json": piece}
            out.append({"type": "content_block_delta", "index": n, "delta": delta})
        out.append({"type": "content_block_stop", "index": n})
    out.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 9},
        }
    )
    out.append({"type": "message_stop"})
    return out


def gemini_chunks(calls: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    out = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Checking."}]}}]}]
    for n, call in enumerate(calls):
        part = {"function_call": {"id": f"f{n}", "name": call["tool"], "args": call["args"]}}
        out.append({"candidates": [{"content": {"role": "model", "parts": [part]}}]})
    return out


# --- the real SDK types ---------------------------------------------------------------------


def _as_openai_chunks(events: list[dict[str, Any]]) -> list[Any]:
    chat = pytest.importorskip("openai.types.chat")
    return [chat.ChatCompletionChunk.model_validate(e) for e in events]


def _as_responses_events(events: list[dict[str, Any]]) -> list[Any]:
    pydantic = pytest.importorskip("pydantic")
    responses = pytest.importorskip("openai.types.responses")
    adapter = pydantic.TypeAdapter(responses.ResponseStreamEvent)
    return [adapter.validate_python(e) for e in events]


def _as_anthropic_events(events: list[dict[str, Any]]) -> list[Any]:
    pydantic = pytest.importorskip("pydantic")
    types = pytest.importorskip("anthropic.types")
    adapter = pydantic.TypeAdapter(types.RawMessageStreamEvent)
    return [adapter.validate_python(e) for e in events]


def _as_gemini_chunks(events: list[dict[str, Any]]) -> list[Any]:
    types = pytest.importorskip("google.genai.types")
    return [types.GenerateContentResponse.model_validate(e) for e in events]


BUILDERS: dict[str, tuple[Callable[..., list[dict[str, Any]]], Callable[..., list[Any]]]] = {
    "openai-chat": (chat_chunks, _as_openai_chunks),
    "openai-responses": (responses_events, _as_responses_events),
    "anthropic": (anthropic_events, _as_anthropic_events),
    "gemini": (gemini_chunks, _as_gemini_chunks),
}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("provider", sorted(BUILDERS))
def test_sdk_objects_split_at_random_points(provider: str, seed: int) -> None:
    build, to_sdk = BUILDERS[provider]
    events = build(CALLS, random.Random(seed))
    objects = to_sdk(events)
    assert type(objects[1]).__module__.split(".")[0] in ("openai", "anthropic", "google")
    assert from_stream(objects) == CALLS
    assert from_stream(events) == CALLS  # their dicts read alike
    assert from_stream(iter(objects)) == CALLS  # a stream is iterated once


def test_the_public_homes() -> None:
    assert from_stream_in_integrations is from_stream


def test_responses_without_done_events_uses_the_deltas() -> None:
    events = responses_events(CALLS, random.Random(1), done=False)
    assert from_stream(_as_responses_events(events)) == CALLS


def test_responses_done_text_wins_over_the_deltas() -> None:
    events = responses_events(CALLS[:1], random.Random(2))
    events = [e for e in events if e["type"] != "response.output_item.done"]
    deltas = [e for e in events if e["type"].endswith(".delta")]
    deltas[-1]["delta"] = deltas[-1]["delta"] + "garbage"
    assert from_stream(events) == CALLS[:1]


def test_openai_parallel_calls_interleaved_and_several_choices() -> None:
    def chunk(choice: int, index: int, **fn: str) -> dict[str, Any]:
        tc = {"index": index, "function": fn}
        return {"choices": [{"index": choice, "delta": {"tool_calls": [tc]}}]}

    events = [
        chunk(0, 0, name="a", arguments='{"x"'),
        chunk(0, 1, name="b", arguments=""),
        chunk(1, 0, name="c", arguments="{}"),
        chunk(0, 1, arguments='{"y": 2}'),
        chunk(0, 0, arguments=": 1}"),
    ]
    assert from_stream(_as_openai_chunks([_full_chunk(e) for e in events])) == [
        {"tool": "a", "args": {"x": 1}},
        {"tool": "b", "args": {"y": 2}},
        {"tool": "c", "args": {}},
    ]


def _full_chunk(e: dict[str, Any]) -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m", **e}


def test_legacy_function_call_deltas() -> None:
    events = [
        {"choices": [{"index": 0, "delta": {"function_call": {"name": "f", "arguments": '{"a"'}}}]},
        {"choices": [{"index": 0, "delta": {"function_call": {"arguments": ": 1}"}}}]},
    ]
    assert from_stream(events) == [{"tool": "f", "args": {"a": 1}}]


def test_a_call_with_no_argument_text_reads_as_empty() -> None:
    for provider, (build, to_sdk) in BUILDERS.items():
        calls = [{"tool": "ping", "args": {}}]
        assert from_stream(to_sdk(build(calls, random.Random(0)))) == calls, provider


def test_anthropic_sdk_derived_events_are_skipped() -> None:
    events = anthropic_events(CALLS[:1], random.Random(3))
    derived = [{"type": "input_json", "partial_json": "{", "snapshot": {}}, {"type": "text"}]
    assert from_stream(events[:5] + derived + events[5:]) == CALLS[:1]


# --- errors ---------------------------------------------------------------------------------


def test_invalid_json_names_the_call_and_the_text_so_far() -> None:
    events = chat_chunks(CALLS[:2], random.Random(4))
    cut = list(events)
    # Drop the last argument fragment of the second call.
    last = max(i for i, e in enumerate(cut) if _chat_fragment(e, 1))
    del cut[last]
    with pytest.raises(ValueError) as info:
        from_stream(_as_openai_chunks(cut))
    text = str(info.value)
    assert text.startswith(
        "the streamed arguments of call #2 (get_time, choice 0, tool call index 1) are not valid "
        "JSON"
    )
    assert 'text received so far: \'{"zone"' in text


def _chat_fragment(event: dict[str, Any], index: int) -> bool:
    delta = event["choices"][0]["delta"]
    return any(
        tc["index"] == index and tc.get("function", {}).get("arguments")
        for tc in delta.get("tool_calls") or []
    )


def test_json_that_is_not_an_object() -> None:
    events = [
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "[1]"}}]
                    }
                }
            ]
        }
    ]
    with pytest.raises(ValueError, match=r"are JSON but not an object; text received: '\[1\]'"):
        from_stream(events)


def test_a_call_without_a_name() -> None:
    events = [
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}}]}
    ]
    with pytest.raises(
        ValueError,
        match=r"streamed call #1 \(choice 0, tool call index 0\) never received its tool name",
    ):
        from_stream(events)


def test_anthropic_delta_before_its_block() -> None:
    events = [
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": "{}"},
        }
    ]
    with pytest.raises(ValueError, match="before any content_block_start opened it"):
        from_stream(events)


def test_bad_events() -> None:
    with pytest.raises(TypeError, match="events must be an iterable of stream events"):
        from_stream("data: {}")
    with pytest.raises(TypeError, match="events must be an iterable"):
        from_stream(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"stream event #2 is of no known shape: got dict"):
        from_stream([{"choices": []}, {"hello": 1}])
    mixed = [{"choices": []}, {"type": "message_stop"}]
    with pytest.raises(TypeError, match=r"stream event #2 is a anthropic event in a chat stream"):
        from_stream(mixed)


# --- parity with the final response ---------------------------------------------------------


def _chat_response(calls: list[dict[str, Any]]) -> Any:
    chat = pytest.importorskip("openai.types.chat")
    return chat.ChatCompletion.model_validate(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": f"call_{i}",
                                "type": "function",
                                "function": {"name": c["tool"], "arguments": json.dumps(c["args"])},
                            }
                            for i, c in enumerate(calls)
                        ],
                    },
                }
            ],
        }
    )


def test_a_stream_that_matches_its_final_response() -> None:
    stream = _as_openai_chunks(chat_chunks(CALLS, random.Random(5)))
    assert assert_stream_matches(stream, _chat_response(CALLS)) == CALLS


def test_parity_names_every_dropped_call_emptied_truncated_and_extra() -> None:
    final = [
        {"tool": "search", "args": {"q": "weather in Paris", "limit": 5}},
        {"tool": "lookup", "args": {"id": 7}},
        {"tool": "book", "args": {"room": "A1"}},
        {"tool": "notify", "args": {"to": "ops"}},
    ]
    streamed = [
        {"tool": "search", "args": {"q": "weather in Pa"}},  # truncated, limit lost
        {"tool": "lookup", "args": {}},  # emptied (a "valid" call with no arguments)
        {"tool": "notify", "args": {"to": "ops", "cc": "me"}},
        {"tool": "notify", "args": {"to": "ops"}},  # extra
    ]  # book dropped
    events = anthropic_events(streamed, random.Random(6))
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_stream_matches(_as_anthropic_events(events), final)
    lines = str(info.value).splitlines()
    assert lines[0] == "The stream does not match the final response: 5 problem(s)."
    assert lines[1:6] == [
        "  - Streamed call #1 ('search', call #1 of the final response): argument(s) 'limit' are "
        "missing (truncated); argument 'q' is 'weather in Pa', final 'weather in Paris' "
        "(truncated).",
        "  - Streamed call #2 ('lookup', call #2 of the final response): its arguments are empty; "
        "the final response has {'id': 7}.",
        "  - Call #3 of the final response, book(room='A1'), is missing from the stream (dropped).",
        "  - Streamed call #3 ('notify', call #4 of the final response): argument(s) 'cc' are not "
        "in the final response.",
        "  - Streamed call #4, notify(to='ops'), is extra: the final response has no such call.",
    ]
    assert lines[-1].startswith("Hint: ")
    assert info.value.result is not None


def test_parity_with_every_provider_response_shape() -> None:
    gemini = pytest.importorskip("google.genai.types")
    response = gemini.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"function_call": {"name": c["tool"], "args": c["args"]}} for c in CALLS
                        ],
                    }
                }
            ]
        }
    )
    stream = _as_gemini_chunks(gemini_chunks(CALLS, random.Random(0)))
    assert assert_stream_matches(stream, response) == CALLS
    with pytest.raises(ToolScoreAssertionError, match="is missing from the stream"):
        assert_stream_matches(stream[:-1], response)
