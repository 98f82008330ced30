"""``toolscore validate``: check that a trace (or gold) file can be read, and show its calls."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from toolscore._cli.common import EXIT_OK, add_format_option

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``validate`` to the ``toolscore`` command."""
    p = sub.add_parser(
        "validate",
        help="check that a trace file (or, with --gold, a gold file) can be read",
        description="Check that a trace file can be read and list the tool calls found in it "
        "(with --gold: that a gold file and its matchers can be read). Exit 0 when it can, "
        "2 with a one-line reason when it cannot.",
    )
    p.add_argument("trace_file", metavar="FILE", help="the trace (or gold) file")
    add_format_option(p)
    p.add_argument("--gold", action="store_true", help="FILE is a gold file of expected calls")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.check.evaluate_trace import load_gold, load_trace
    from toolscore._engine.compare.rule import contains_matcher
    from toolscore._engine.score.render import format_call

    if args.gold:
        calls = load_gold(args.trace_file)
        with_matchers = sum(1 for c in calls if contains_matcher(c["args"]))
        out.write(
            f"OK: {args.trace_file} is a valid gold file: {len(calls)} expected call(s), "
            f"{with_matchers} with argument matchers.\n"
        )
    else:
        calls = load_trace(args.trace_file, args.format)
        out.write(f"OK: {args.trace_file} is a valid trace file: {len(calls)} tool call(s).\n")
    for i, call in enumerate(calls, 1):
        out.write(f"  {i}. {format_call(call['tool'], call['args'])}\n")
    return EXIT_OK
