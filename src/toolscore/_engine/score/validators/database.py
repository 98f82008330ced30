"""Did a database call return (or change) the rows it should? Read its recorded result.

Behind :mod:`toolscore.validators.database`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.read.inputs import as_call, recorded_int

__all__ = ["SQLValidator"]

_COUNT_FIELDS = ("rows_affected", "rowcount", "row_count", "count")


class SQLValidator:
    """Side-effect check ``sql_rows``: the number of rows a query returned or changed.

    Rows come from the call's ``result``: a list of rows, ``{"rows": [...]}``, a count
    (``rows_affected``, ``rowcount``, ``row_count``, ``count``, or a bare integer), or the same
    count fields in ``metadata``.

    ``expected``: ``True`` for at least one row, an integer for that exact count, or
    ``{"min": a, "max": b}`` (either bound optional).

    Args:
        where: every returned row must have these values (matchers allowed:
            ``{"status": OneOf("active", "trial")}``).
        contains_row: at least one returned row must have these values.

    Example:
        >>> from toolscore._engine.read.tool_call import ToolCall
        >>> call = ToolCall("query", result={"rows": [{"id": 1, "status": "active"}]})
        >>> SQLValidator(where={"status": "active"}).validate(call, {"min": 1})
        True
    """

    def __init__(
        self, where: dict[str, Any] | None = None, contains_row: dict[str, Any] | None = None
    ) -> None:
        self.where = where
        self.contains_row = contains_row

    @staticmethod
    def _returned(call: Any) -> list[Any] | None:
        result = as_call(call).result
        if isinstance(result, Mapping):
            result = result.get("rows")
        return result if isinstance(result, list) else None

    def rows(self, call: Any) -> list[Mapping[str, Any]] | None:
        """The returned rows of ``call`` (the mappings among them), or ``None`` if none."""
        returned = self._returned(call)
        return None if returned is None else [r for r in returned if isinstance(r, Mapping)]

    def row_count(self, call: Any) -> int | None:
        """How many rows ``call`` returned or changed, or ``None`` when it did not record it."""
        returned = self._returned(call)
        if returned is not None:
            return len(returned)
        return recorded_int(as_call(call), (*_COUNT_FIELDS, "rows"))

    @staticmethod
    def _row_matches(row: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
        from toolscore._engine.compare.rule import values_match

        return all(k in row and values_match(v, row[k]) for k, v in wanted.items())

    def validate(self, call: Any, expected: Any) -> bool:
        """True when the row count satisfies ``expected`` and the row conditions hold."""
        count = self.row_count(call)
        if count is None:
            return False
        rows = self.rows(call) or []
        if self.where and not (rows and all(self._row_matches(r, self.where) for r in rows)):
            return False
        if self.contains_row and not any(self._row_matches(r, self.contains_row) for r in rows):
            return False
        if expected is True:
            return count > 0
        if isinstance(expected, int) and not isinstance(expected, bool):
            return count == expected
        if isinstance(expected, Mapping) and set(expected) <= {"min", "max"} and expected:
            low, high = expected.get("min"), expected.get("max")
            return (low is None or count >= low) and (high is None or count <= high)
        return False
