"""What every subcommand shares: exit codes, the one-line error, common options."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from scorekit.cli import EXIT_BAD_INPUT, EXIT_BELOW, EXIT_OK
from toolscore._engine.read.trace_files import TRACE_FORMATS

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BELOW",
    "EXIT_OK",
    "CommandError",
    "add_format_option",
    "report_format",
    "write_report",
]


class CommandError(Exception):
    """Bad input: printed as ``toolscore: error: <message>``, exit code 2."""


def add_format_option(parser: argparse.ArgumentParser, what: str = "trace file format") -> None:
    """``-f/--format``: the trace formats :func:`toolscore.core.load_trace` reads."""
    parser.add_argument(
        "--format",
        "-f",
        choices=TRACE_FORMATS,
        default="auto",
        help=f"{what} (default: auto-detect)",
    )


def report_format(
    args: argparse.Namespace, formats: tuple[str, ...] = ("json", "md", "html", "csv")
) -> str | None:
    """The report ``--report`` and ``-o`` ask for (None: no report); a mismatch is bad input."""
    from scorekit.report import report_format as chosen_format

    try:
        return chosen_format(args.report, args.output or None, formats)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def write_report(rows: list[ToolScoreRow], path: str, fmt: str, out: TextIO) -> None:
    """Write ``rows`` as a ``fmt`` report to ``path``, and say where."""
    from scorekit.report import ReportError
    from scorekit.report import write_report as write_rows

    try:
        written = write_rows(rows, None, path, fmt)
    except ReportError as exc:
        raise CommandError(str(exc)) from None
    out.write(f"{fmt} report written to {written}\n")
