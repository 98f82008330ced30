"""``from_stream()``: the tool calls of a streamed response, reassembled from its events.

Read, as SDK objects or their dicts:

* OpenAI Chat Completions chunks: ``choices[].delta.tool_calls[]`` fragments, joined by
  ``(choice index, tool call index)`` (and the legacy ``delta.function_call``);
* OpenAI Responses stream events: ``response.output_item.added`` opens a call,
  ``response.function_call_arguments.delta`` adds text, ``...arguments.done`` and
  ``response.output_item.done`` give the final text (used when present);
* Anthropic Messages stream events: ``content_block_start`` with a ``tool_use`` block,
  ``content_block_delta`` with ``input_json_delta``, ``content_block_stop`` (the SDK's own
  derived events, ``text``, ``input_json`` ..., repeat these and are skipped);
* Gemini ``generate_content_stream`` chunks: each ``function_call`` part is a whole call.

A call streamed with no argument text at all reads as ``{}`` (as Anthropic's SDK reads it).
Argument text that is not a JSON object raises ``ValueError`` naming the call and quoting the
text received so far: a broken stream is never turned into a wrong call.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from scorekit.format import shorten
from toolscore._engine.read.shapes import get_field as _f

__all__ = ["from_stream"]

_ANTHROPIC_EVENTS = frozenset(
    (
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
        "error",
        # Derived events of the Anthropic SDK's MessageStream (they repeat the raw ones).
        "text",
        "input_json",
        "citation",
        "thinking",
        "signature",
    )
)
_ANTHROPIC_TOOL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")


class _Call:
    __slots__ = ("done", "name", "parts", "start_args", "where")

    def __init__(self, where: str) -> None:
        self.where = where
        self.name = ""
        self.parts: list[str] = []
        self.done: str | None = None  # the final argument text, when the stream gives it
        self.start_args: Any = None  # arguments given whole (Gemini; a non-empty start input)

    def add_name(self, name: Any) -> None:
        if isinstance(name, str) and name and name != self.name:
            self.name = name if not self.name else self.name + name

    def add_text(self, text: Any) -> None:
        if text:
            self.parts.append(text)


def _open(calls: dict[Any, _Call], key: Any, where: str) -> _Call:
    """The call under ``key``, opened (as ``where``) on first sight."""
    call = calls.get(key)
    if call is None:
        call = calls[key] = _Call(where)
    return call


def _event_kind(event: Any, n: int) -> str:
    kind = _f(event, "type")
    if isinstance(kind, str):
        if kind.startswith("response."):
            return "responses"
        if kind in _ANTHROPIC_EVENTS:
            return "anthropic"
    if _f(event, "choices") is not None:
        return "chat"
    if _f(event, "candidates") is not None:
        return "gemini"
    raise TypeError(
        f"stream event #{n + 1} is of no known shape: got {type(event).__name__} "
        f"{shorten(repr(event), 100)}; from_stream() reads OpenAI chat completion chunks, OpenAI "
        "Responses stream events, Anthropic Messages stream events and Gemini "
        "generate_content_stream chunks"
    )


def _chat(event: Any, calls: dict[Any, _Call]) -> None:
    for choice in _f(event, "choices") or ():
        delta = _f(choice, "delta")
        if delta is None:
            continue
        c = _f(choice, "index") or 0
        fragments = _f(delta, "tool_calls")
        if fragments:
            for fragment in fragments:
                i = _f(fragment, "index")
                i = i if i is not None else 0
                call = _open(calls, (0, c, i), f"choice {c}, tool call index {i}")
                fn = _f(fragment, "function")
                if fn is not None:
                    call.add_name(_f(fn, "name"))
                    call.add_text(_f(fn, "arguments"))
        legacy = _f(delta, "function_call")
        if legacy is not None:
            call = _open(calls, (1, c, 0), f"choice {c}, function_call")
            call.add_name(_f(legacy, "name"))
            call.add_text(_f(legacy, "arguments"))


def _responses(event: Any, calls: dict[Any, _Call], ids: dict[str, Any]) -> None:
    kind = _f(event, "type")
    if kind in ("response.output_item.added", "response.output_item.done"):
        item = _f(event, "item")
        if _f(item, "type") != "function_call":
            return
        index = _f(event, "output_index")
        key = index if index is not None else _f(item, "id")
        call = _open(calls, key, f"output index {key}")
        item_id = _f(item, "id")
        if isinstance(item_id, str):
            ids[item_id] = key
        call.add_name(_f(item, "name"))
        text = _f(item, "arguments")
        if kind.endswith(".done") and isinstance(text, str):
            call.done = text
        return
    if kind not in (
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
    ):
        return
    index = _f(event, "output_index")
    item_id = _f(event, "item_id")
    key = index if index is not None else ids.get(item_id, item_id)
    call = _open(calls, key, f"output index {key}")
    if kind.endswith(".delta"):
        call.add_text(_f(event, "delta"))
    elif isinstance(text := _f(event, "arguments"), str):
        call.done = text


def _anthropic(event: Any, calls: dict[Any, _Call]) -> None:
    kind = _f(event, "type")
    if kind == "content_block_start":
        block = _f(event, "content_block")
        if _f(block, "type") not in _ANTHROPIC_TOOL_BLOCKS:
            return
        key = _f(event, "index")
        call = calls[key] = _Call(f"content block {key}")
        call.add_name(_f(block, "name"))
        call.start_args = _f(block, "input") or None
    elif kind == "content_block_delta":
        delta = _f(event, "delta")
        if _f(delta, "type") != "input_json_delta":
            return
        open_call = calls.get(_f(event, "index"))
        if open_call is None:
            raise ValueError(
                f"the stream sends tool input for content block {_f(event, 'index')} before any "
                "content_block_start opened it; the stream is incomplete or out of order"
            )
        open_call.add_text(_f(delta, "partial_json"))


def _gemini(event: Any, calls: dict[Any, _Call]) -> None:
    for candidate in _f(event, "candidates") or ():
        content = _f(candidate, "content")
        for part in _f(content, "parts") or ():
            fc = _f(part, "function_call")
            if fc is None and isinstance(part, Mapping):
                fc = part.get("functionCall")
            if fc is None:
                continue
            key = len(calls)
            call = calls[key] = _Call(f"function call {key}")
            call.add_name(_f(fc, "name"))
            args = _f(fc, "args")
            call.start_args = dict(args) if args else {}


def _arguments(call: _Call, n: int) -> dict[str, Any]:
    text = call.done if call.done is not None else "".join(call.parts)
    if not text.strip():
        return dict(call.start_args) if isinstance(call.start_args, Mapping) else {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        problem = f"are not valid JSON ({exc}); text received so far"
    else:
        if isinstance(value, dict):
            return value
        problem = "are JSON but not an object; text received"
    raise ValueError(
        f"the streamed arguments of call #{n + 1} ({call.name or 'no name'}, {call.where}) "
        f"{problem}: {shorten(repr(text), 300)}"
    )


def from_stream(events: Iterable[Any]) -> list[dict[str, Any]]:
    """Reassemble the tool calls of a streamed response.

    Args:
        events: the stream's chunks or events, in order (a list, or the SDK's stream object
            iterated once): OpenAI chat completion chunks, OpenAI Responses stream events,
            Anthropic Messages stream events or Gemini ``generate_content_stream`` chunks (SDK
            objects or dicts).

    Returns:
        ``[{"tool": name, "args": {...}}, ...]`` in the response's order.

    Raises:
        TypeError: ``events`` is not an iterable of events, an event is of no known shape, or
            events of two providers are mixed.
        ValueError: a call's argument text is not a JSON object (the message names the call
            and quotes the text received so far), or a call never got its name.

    Example:
        >>> from toolscore import from_stream
        >>> chunks = [
        ...     {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1",
        ...         "function": {"name": "search", "arguments": '{"q": "ca'}}]}}]},
        ...     {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        ...         "function": {"arguments": 'ts"}'}}]}}]},
        ... ]
        >>> from_stream(chunks)
        [{'tool': 'search', 'args': {'q': 'cats'}}]
    """
    if isinstance(events, (str, bytes, Mapping)) or not isinstance(events, Iterable):
        raise TypeError(
            "events must be an iterable of stream events (a list of chunks, or the SDK's "
            f"stream object), got {type(events).__name__}"
        )
    calls: dict[Any, _Call] = {}
    ids: dict[str, Any] = {}
    provider: str | None = None
    known: dict[type, str] = {}  # SDK event classes already seen (a missing attribute is slow)
    for n, event in enumerate(events):
        cls = type(event)
        kind = known.get(cls) if cls is not dict else None
        if kind is None:
            kind = _event_kind(event, n)
            if cls is not dict and kind in ("chat", "gemini"):
                known[cls] = kind  # these classes are one kind whatever their values
        if provider is None:
            provider = kind
        elif kind != provider:
            raise TypeError(
                f"stream event #{n + 1} is a {kind} event in a {provider} stream; pass the "
                "events of one streamed response"
            )
        if kind == "chat":
            _chat(event, calls)
        elif kind == "responses":
            _responses(event, calls, ids)
        elif kind == "anthropic":
            _anthropic(event, calls)
        else:
            _gemini(event, calls)
    out: list[dict[str, Any]] = []
    # Integer indices sort numerically; an id (no index given) keeps its first-seen place.
    order = sorted(calls, key=lambda key: (0, key) if isinstance(key, (int, tuple)) else (1, 0))
    for n, key in enumerate(order):
        call = calls[key]
        args = _arguments(call, n)
        if not call.name:
            raise ValueError(
                f"streamed call #{n + 1} ({call.where}) never received its tool name; the "
                "stream is incomplete"
            )
        out.append({"tool": call.name, "args": args})
    return out
