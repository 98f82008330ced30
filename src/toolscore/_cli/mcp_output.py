"""How ``toolscore mcp test`` and ``toolscore demo`` give the scorecard: on screen or as
JSON, as a report file (``--report json|md -o PATH``), and in a CI step summary (``--ci``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from toolscore._cli.common import CommandError

if TYPE_CHECKING:
    from toolscore.mcp.scorecard import MCPScorecard

__all__ = ["REPORT_FORMATS", "ci_summary", "report_format", "show", "write_report"]

REPORT_FORMATS = ("json", "md")


def report_format(args: argparse.Namespace) -> str | None:
    """The report ``--report``/``-o`` ask for (None: no report); a mismatch is bad input."""
    from scorekit.report import report_format as chosen_format

    try:
        return chosen_format(args.report, args.output or None, REPORT_FORMATS)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def write_report(
    card: MCPScorecard, fmt: str | None, args: argparse.Namespace, out: TextIO
) -> None:
    """Write the ``fmt`` report to ``-o PATH`` (nothing when ``fmt`` is None)."""
    from toolscore.mcp.scorecard import scorecard_to_json, scorecard_to_markdown

    if not fmt:
        return
    text = (
        json.dumps(scorecard_to_json(card), indent=2, ensure_ascii=False) + "\n"
        if fmt == "json"
        else scorecard_to_markdown(card)
    )
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"-o {args.output}: cannot write ({exc.strerror or exc})") from None
    out.write(f"{fmt} report written to {args.output}\n")


def _blocking(card: MCPScorecard) -> list[str]:
    from toolscore.mcp.scorecard import build_fix_list

    return [f"{f.tool}: {f.problem}" for f in build_fix_list(card) if f.priority <= 2]


def show(card: MCPScorecard, args: argparse.Namespace, out: TextIO) -> None:
    """The scorecard on ``out``: JSON with ``--json``, else the rich table."""
    from toolscore.mcp.scorecard import print_scorecard, scorecard_to_json

    if getattr(args, "json", False):
        out.write(json.dumps(scorecard_to_json(card), indent=2, ensure_ascii=False) + "\n")
        return
    from scorekit.cli import output_console

    # Off a terminal nothing wraps (a CI log keeps each "Fix first" item on one line); on one,
    # rich fits its width.
    print_scorecard(card, output_console(out, highlight=False))


def ci_summary(card: MCPScorecard) -> int:
    """``--ci``: the Markdown scorecard appended to ``$GITHUB_STEP_SUMMARY``; 1 on a
    blocking problem."""
    from toolscore.mcp.scorecard import scorecard_to_markdown

    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(scorecard_to_markdown(card) + "\n")
    blocking = _blocking(card)
    if blocking:
        sys.stderr.write(f"toolscore mcp: {len(blocking)} blocking problem(s) (--ci)\n")
        return 1
    return 0
