"""The adapters of the built-in trace formats: one reader per format, shared with
``evaluate_trace`` and ``auto_extract``."""

from __future__ import annotations

from typing import Any, ClassVar

from toolscore._engine.read.inputs import actual_calls
from toolscore._engine.read.tool_call import BaseAdapter, ToolCall
from toolscore._engine.read.trace_files import trace_calls

__all__ = ["FormatAdapter"]


class FormatAdapter(BaseAdapter):
    """An adapter for one of the built-in formats (``format`` names it)."""

    format: ClassVar[str] = "auto"

    def parse(self, trace_data: dict[str, Any] | list[Any]) -> list[ToolCall]:
        """The calls in ``trace_data``, with their run data (result, failure, duration).

        Raises:
            ValueError: the data is not in this adapter's format (the message says why).
        """
        self._validate_trace_data(trace_data)
        calls = trace_calls(trace_data, self.format, f"{type(self).__name__} input")
        out = actual_calls(calls).tool_calls()
        for call in out:
            assert call.metadata is not None
            call.metadata.setdefault("format", self.format)
        return out
