"""Validators: check what a tool call did (side effects) and what it passed (argument schemas).

Side-effect validators look at a call's recorded ``result`` and ``metadata``; a gold call asks
for them under ``side_effects`` (``{"http_ok": true}``, ``{"file_exists": "out.txt"}``,
``{"sql_rows": {"min": 1}}``). Each has ``validate(call, expected) -> bool``.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> from toolscore.validators import HTTPValidator, validate_argument_schema
    >>> HTTPValidator().validate(ToolCall("fetch", {"url": "u"}, result={"status": 201}), True)
    True
    >>> validate_argument_schema(ToolCall("search", {"q": ""}), {"q": {"type": "string",
    ...     "minLength": 1}})
    (False, ["Argument 'q' is too short: 0 < 1"])
"""

from toolscore.validators.database import SQLValidator
from toolscore.validators.filesystem import FileSystemValidator
from toolscore.validators.http import HTTPValidator
from toolscore.validators.schema import (
    SchemaValidationError,
    calculate_schema_validation_metrics,
    validate_argument_schema,
)

__all__ = [
    "FileSystemValidator",
    "HTTPValidator",
    "SQLValidator",
    "SchemaValidationError",
    "calculate_schema_validation_metrics",
    "validate_argument_schema",
]
