"""What the commands of both packages share: option types, terminal output, exit codes.

Example:
    >>> from scorekit.cli import unit_interval
    >>> unit_interval("0.5")
    0.5
"""

from scorekit.cli._arg_types import unit_interval, whole_number
from scorekit.cli._command_output import (
    EXIT_READER_LEFT,
    output_console,
    reader_left,
    warnings_as_lines,
)
from scorekit.cli._exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_BELOW,
    EXIT_INTERRUPTED,
    EXIT_JUDGE_FAILED,
    EXIT_OK,
    JUDGE_ERRORS,
    fail,
    judge_exit,
)

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BELOW",
    "EXIT_INTERRUPTED",
    "EXIT_JUDGE_FAILED",
    "EXIT_OK",
    "EXIT_READER_LEFT",
    "JUDGE_ERRORS",
    "fail",
    "judge_exit",
    "output_console",
    "reader_left",
    "unit_interval",
    "warnings_as_lines",
    "whole_number",
]
