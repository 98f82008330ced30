"""Adapters: the normalised tool-call record (:class:`toolscore.adapters.base.ToolCall`)."""

from toolscore.adapters.base import ToolCall

__all__ = ["ToolCall"]
