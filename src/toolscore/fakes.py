"""Fake tools for testing an agent: registered answers, and a record of every call.

In pytest use the ``toolscore_tools`` fixture (a :class:`FakeTools` checked at teardown);
elsewhere build :class:`FakeTools` yourself and call :meth:`FakeTools.verify` at the end.

Example:
    >>> from toolscore import ANY
    >>> from toolscore.fakes import FakeTools
    >>> tools = FakeTools()
    >>> tools.add("get_weather", {"city": ANY}, result={"temp_c": 21})
    >>> tools.add("send_email", error="SMTP is down", optional=True)
    >>> tools.call("get_weather", {"city": "Oslo"})
    {'temp_c': 21}
    >>> tools.calls[0].tool
    'get_weather'
    >>> tools.verify()
"""

from toolscore._fakes.errors import ToolError, UnexpectedToolCall
from toolscore._fakes.tools import FakeTools

__all__ = ["FakeTools", "ToolError", "UnexpectedToolCall"]
