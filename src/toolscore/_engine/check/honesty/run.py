"""Read an agent's run into what an honesty check needs: calls with results, texts, the answer.

The call readers of ``read/`` give calls (and, for OTel spans and call dicts, results and
errors); a message history also holds the tool results, the user's words and the agent's
answer, so it is walked here message by message and each tool result is paired with its call
(by call id, else by tool name, else with the last call still waiting for one).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekit.format import shorten
from toolscore._engine.check.honesty.run_shapes import block_text, content_text, read_item
from toolscore._engine.read.inputs import is_call_list
from toolscore._engine.read.messages import message_list
from toolscore._engine.read.otel import looks_like_otel, otel_calls
from toolscore._engine.read.shapes import plain, read_arguments
from toolscore._engine.read.tool_call import ToolCall, failed_call

__all__ = ["RunCall", "RunRecord", "read_run"]

_SHAPES = (
    "a message history (OpenAI, Anthropic, Gemini, Responses API, LangChain/LangGraph, "
    "pydantic-ai, OpenAI Agents SDK), a provider response, OpenTelemetry spans, or a list "
    "of ToolCall objects / call dicts with 'tool', 'args', 'result' and 'error'"
)


@dataclass
class RunCall:
    """One tool call of a run: what was asked, what came back, whether it failed."""

    tool: str
    args: dict[str, Any]
    result: Any = None
    error: str | None = None
    failed: bool = False
    call_id: str | None = None
    answered: bool = False


@dataclass
class RunRecord:
    """The parts of a run an honesty check reads."""

    calls: list[RunCall] = field(default_factory=list)
    user_texts: list[str] = field(default_factory=list)
    assistant_texts: list[str] = field(default_factory=list)


def read_run(run: Any) -> RunRecord:
    """Read ``run`` in any shape toolscore reads (a TypeError lists them for any other)."""
    if isinstance(run, Mapping) and "run" in run and set(run) <= {"run", "answer"}:
        return read_run(run["run"])
    messages = message_list(run) if not is_call_list(run) else None
    if messages is None and isinstance(run, Mapping) and isinstance(run.get("messages"), list):
        messages = list(run["messages"])
    record = RunRecord()
    if messages is not None:
        _Walker(record).walk(messages)
        return record
    if looks_like_otel(run):
        record.calls = [_from_dict(c) for c in otel_calls(run)]
        return record
    if isinstance(run, (list, tuple)) and is_call_list(run):
        record.calls = [_from_dict(c.to_dict() if isinstance(c, ToolCall) else c) for c in run]
        return record
    if _Walker(record).walk_object(run):
        return record
    raise TypeError(
        f"check_honesty() cannot read a run from {type(run).__name__} "
        f"{shorten(repr(run), 80)}: pass {_SHAPES}"
    )


def _from_dict(item: Mapping[str, Any]) -> RunCall:
    raw_meta = item.get("metadata")
    meta = dict(raw_meta) if isinstance(raw_meta, Mapping) else {}
    for key in ("is_error", "error"):
        if item.get(key) is not None:
            meta.setdefault(key, item[key])
    tool = str(item.get("tool") or "")
    args = read_arguments(item.get("args"), tool)
    call = RunCall(tool, args, item.get("result"), _text(meta.get("error")), failed_call(meta))
    call.call_id = None if item.get("id") is None else str(item.get("id"))
    return _finished(call)


def _finished(call: RunCall) -> RunCall:
    """A call whose result is read: failure found in the result itself is marked too."""
    call.answered = True
    call.result = unwrap_result(call.result)
    if not call.failed and (why := result_failure(call.result)) is not None:
        call.failed, call.error = True, call.error or why
    elif call.failed and call.error is None:
        call.error = _text(call.result) or "the call failed"
    return call


def _text(value: Any) -> str | None:
    if value is None or value is False or value == "":
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str)


def _decoded(value: Any) -> Any:
    if isinstance(value, str) and value.strip()[:1] in "{[":
        with contextlib.suppress(ValueError):
            return json.loads(value.strip())
    return value


def unwrap_result(value: Any) -> Any:
    """An MCP ``CallToolResult`` (``content`` blocks) or a list of text blocks as its data."""
    value = _decoded(plain(value))
    if isinstance(value, Mapping) and isinstance(value.get("content"), list):
        if value.get("structuredContent") is not None:
            return value["structuredContent"]
        if (texts := _block_texts(value["content"])) is not None:
            out = _decoded(texts)
            if value.get("isError") is True or value.get("is_error") is True:
                return {"error": out}
            return out
    if isinstance(value, list) and (texts := _block_texts(value)) is not None:
        return _decoded(texts)
    return value


def _block_texts(blocks: list[Any]) -> str | None:
    """The texts of ``blocks`` when every one is a text block."""
    texts = [t for b in blocks if (t := block_text(b)) is not None]
    return "\n".join(texts) if texts and len(texts) == len(blocks) else None


_ERROR_STATUSES = {"error", "failed", "failure", "fail", "denied", "rejected", "declined"}
_ERROR_STARTS = ("error", "exception", "traceback", "failed", "failure", "fatal")


def result_failure(result: Any) -> str | None:
    """Why a tool's result reads as a failure (an ``error`` field, ``success: false``, a
    ``status`` of ``error``/``failed``, text that starts with ``Error``), else None."""
    if isinstance(result, Mapping):
        error = result.get("error") or result.get("errors") or result.get("error_message")
        if error:
            return _text(error)
        if result.get("success") is False or result.get("ok") is False:
            return _text(result.get("message") or result.get("reason")) or _text(result)
        status = result.get("status")
        if isinstance(status, str) and status.strip().lower() in _ERROR_STATUSES:
            return _text(result.get("message") or result.get("reason")) or _text(result)
        return None
    if isinstance(result, str) and result.strip().lower().startswith(_ERROR_STARTS):
        return result
    return None


class _Walker:
    """Walks messages, blocks and items of every known shape into a :class:`RunRecord`."""

    def __init__(self, record: RunRecord) -> None:
        self.record = record
        self.by_id: dict[str, RunCall] = {}

    def walk(self, messages: list[Any]) -> None:
        for n, message in enumerate(messages):
            if not self.walk_object(message):
                raise TypeError(
                    f"check_honesty(): run[{n}] is not a message of a known shape: got "
                    f"{type(message).__name__} {shorten(repr(message), 100)}; pass {_SHAPES}"
                )

    def walk_object(self, obj: Any) -> bool:
        """Read one object; False when it is of no known shape."""
        all_messages = getattr(obj, "all_messages", None)
        if callable(all_messages) and not isinstance(obj, Mapping):  # pydantic-ai result
            self.walk(list(all_messages()))
            return True
        if isinstance(obj, (list, tuple)):
            return all(self.walk_object(item) for item in obj)
        d = plain(obj)
        if not isinstance(d, Mapping):
            return False
        return read_item(self, d)

    def text(self, role: str, value: Any) -> None:
        text = content_text(value)
        if text and role == "assistant":
            self.record.assistant_texts.append(text)
        elif text and role in ("user", "system"):
            self.record.user_texts.append(text)

    def call(self, tool: Any, args: Any, call_id: Any = None) -> None:
        name = str(tool or "")
        if not name:
            return
        blank = isinstance(args, str) and not args.strip()
        call = RunCall(name, {} if blank else read_arguments(args, name))
        if call_id is not None:
            call.call_id = str(call_id)
            self.by_id[call.call_id] = call
        self.record.calls.append(call)

    def result(self, call_id: Any, tool: Any, content: Any, is_error: bool = False) -> None:
        call = self._waiting(call_id, tool)
        if call is None:  # a result with no call seen: keep it as a call of its own
            call = RunCall(str(tool or "tool"), {})
            self.record.calls.append(call)
        call.result, call.failed = content, bool(is_error)
        _finished(call)

    def _waiting(self, call_id: Any, tool: Any) -> RunCall | None:
        if call_id is not None:
            found = self.by_id.get(str(call_id))
            if found is not None and not found.answered:
                return found
        waiting = [c for c in self.record.calls if not c.answered]
        if tool and (named := [c for c in waiting if c.tool == str(tool)]):
            return named[0]
        return waiting[-1] if waiting else None
