"""Did an HTTP call succeed? Read its status code from the recorded result or metadata.

Behind :mod:`toolscore.validators.http`, which re-exports it (the same objects).
"""

from __future__ import annotations

from typing import Any

from toolscore._engine.read.inputs import as_call, recorded_int

__all__ = ["HTTPValidator"]

_STATUS_FIELDS = ("status", "status_code", "http_status")


class HTTPValidator:
    """Side-effect check ``http_ok``: the call's HTTP status code.

    The status comes from the call's ``result`` (``{"status": 200}``, ``{"status_code": 200}``
    or a bare integer) or its ``metadata`` (``http_status``). A call with no recorded status
    does not pass: nothing shows that it succeeded.

    ``expected``: ``True`` for any 2xx status, an integer for that exact status, a list of
    integers for any of them, or a string such as ``"2xx"`` / ``"404"``.

    Example:
        >>> from toolscore._engine.read.tool_call import ToolCall
        >>> HTTPValidator().validate(ToolCall("get", result={"status_code": 204}), True)
        True
        >>> HTTPValidator().validate(ToolCall("get", result={"status": 500}), "5xx")
        True
    """

    def __init__(self) -> None:
        self.success_codes = frozenset(range(200, 300))

    def status(self, call: Any) -> int | None:
        """The recorded status code of ``call``, or ``None`` when none was recorded."""
        return recorded_int(as_call(call), _STATUS_FIELDS)

    def validate(self, call: Any, expected: Any) -> bool:
        """True when the recorded status satisfies ``expected`` (see the class docs)."""
        status = self.status(call)
        if status is None:
            return False
        if expected is True:
            return status in self.success_codes
        if isinstance(expected, (list, tuple, set, frozenset)):
            return any(self._one(status, e) for e in expected)
        return self._one(status, expected)

    @staticmethod
    def _one(status: int, expected: Any) -> bool:
        if isinstance(expected, bool):
            return False
        if isinstance(expected, int):
            return status == expected
        if isinstance(expected, str):
            text = expected.strip().lower()
            if len(text) == 3 and text.endswith("xx") and text[0].isdigit():
                return status // 100 == int(text[0])
            return text.isdigit() and status == int(text)
        return False
