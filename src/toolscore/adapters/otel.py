"""The ``otel`` trace format: OpenTelemetry GenAI tool spans (see :func:`toolscore.from_otel`).

Example:
    >>> span = {"attributes": {"gen_ai.operation.name": "execute_tool",
    ...                        "gen_ai.tool.name": "search"}, "status": {"code": 2}}
    >>> [(c.tool, c.is_error) for c in OTelAdapter().parse([span])]
    [('search', True)]
"""

from __future__ import annotations

from typing import Any

from toolscore._engine.read.formats import FormatAdapter
from toolscore._engine.read.otel import is_tool_span, looks_like_otel, otel_calls

__all__ = ["OTelAdapter", "is_tool_span", "looks_like_otel", "tool_calls_from_otel"]


def tool_calls_from_otel(data: Any) -> list[dict[str, Any]]:
    """One call dict per tool span (see :func:`toolscore.integrations.from_otel`)."""
    return otel_calls(data)


class OTelAdapter(FormatAdapter):
    """Reads an OTLP/JSON export or a span list into ``ToolCall`` objects (format ``"otel"``)."""

    format = "otel"
