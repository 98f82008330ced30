"""One request to a model, read from a provider response, a message or a ``chat`` span: its
prompt and completion tokens (every provider's field names), its model and its cost field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolscore._engine.read.shapes import plain

__all__ = ["MODEL_OPERATIONS", "ModelRequest", "model_request"]

# OTel GenAI operations that are one request to a model.
MODEL_OPERATIONS = ("chat", "text_completion", "generate_content")
_PROMPT_KEYS = ("prompt_tokens", "input_tokens", "request_tokens", "prompt_token_count")
_COMPLETION_KEYS = (
    "completion_tokens",
    "output_tokens",
    "response_tokens",
    "candidates_token_count",
)
# Counted on top of the prompt / completion: Anthropic's cache tokens, Gemini's thinking.
_EXTRA_PROMPT = ("cache_creation_input_tokens", "cache_read_input_tokens")
_EXTRA_COMPLETION = ("thoughts_token_count",)


@dataclass
class ModelRequest:
    """One request to a model: its tokens (None: not reported), model name and cost field."""

    number: int
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None

    @property
    def tokens(self) -> int | None:
        if self.prompt_tokens is None or self.completion_tokens is None:
            return None
        return self.prompt_tokens + self.completion_tokens


def _int(value: Any) -> int | None:
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return int(value) if is_number else None


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


def _count(usage: Mapping[str, Any], keys: tuple[str, ...]) -> int | None:
    for key in keys:
        for name in (key, _camel(key)):
            value = _int(usage.get(name))
            if value is not None:
                return value
    return None


def _usage_of(d: Mapping[str, Any]) -> Mapping[str, Any] | None:
    for key in ("usage", "usage_metadata", "usageMetadata"):
        usage = plain(d.get(key))
        if isinstance(usage, Mapping) and usage:
            return usage
    meta = plain(d.get("response_metadata"))
    if isinstance(meta, Mapping):
        for key in ("token_usage", "usage"):
            usage = plain(meta.get(key))
            if isinstance(usage, Mapping) and usage:
                return usage
    return None


def _model_of(d: Mapping[str, Any]) -> str | None:
    for key in ("model", "model_version", "modelVersion", "model_name"):
        if isinstance(d.get(key), str):
            return str(d[key])
    meta = plain(d.get("response_metadata"))
    if isinstance(meta, Mapping) and isinstance(meta.get("model_name"), str):
        return str(meta["model_name"])
    return None


def _cost_field(d: Mapping[str, Any], usage: Mapping[str, Any] | None) -> float | None:
    for holder in (d, usage or {}):
        value = holder.get("cost")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def model_request(number: int, obj: Any) -> ModelRequest:
    """Request ``number`` read from ``obj`` (a response, a message, ``{"usage", "model"}``).

    Example:
        >>> r = model_request(1, {"model": "gpt-4o", "usage": {"input_tokens": 9,
        ...                                                    "output_tokens": 3}})
        >>> r.model, r.tokens
        ('gpt-4o', 12)
    """
    d = plain(obj)
    d = d if isinstance(d, Mapping) else {}
    usage = _usage_of(d)
    request = ModelRequest(number, _model_of(d), cost=_cost_field(d, usage))
    if usage is not None:
        prompt = _count(usage, _PROMPT_KEYS)
        completion = _count(usage, _COMPLETION_KEYS)
        if prompt is not None and completion is not None:
            request.prompt_tokens = prompt + sum(_count(usage, (k,)) or 0 for k in _EXTRA_PROMPT)
            extra = sum(_count(usage, (k,)) or 0 for k in _EXTRA_COMPLETION)
            request.completion_tokens = completion + extra
    return request
