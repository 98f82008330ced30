"""The normalised record of one tool call, and the interface of trace-format adapters.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> ToolCall("search", {"q": "x"}).to_dict()
    {'tool': 'search', 'args': {'q': 'x'}}
"""

from toolscore._engine.read.tool_call import BaseAdapter, ToolCall, failed_call

__all__ = ["BaseAdapter", "ToolCall", "failed_call"]
