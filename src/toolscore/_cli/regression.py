"""``toolscore regression``: compare a new trace with a saved baseline; exit 1 on regression."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from scorekit.cli import unit_interval
from toolscore._cli.common import EXIT_BELOW, EXIT_OK, CommandError, add_format_option

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``regression`` to the ``toolscore`` command."""
    p = sub.add_parser(
        "regression",
        help="compare a trace with a saved baseline; exit 1 when a metric regressed",
        description="Score TRACE against the gold file and compare every metric with the "
        "baseline saved by toolscore eval --save-baseline. Exit 0 when no metric got worse by "
        "more than --threshold (absolute: 0.05 is five percentage points), 1 when one did, 2 "
        "on bad input.",
    )
    p.add_argument("baseline_file", metavar="BASELINE", help="the saved baseline (JSON)")
    p.add_argument("trace_file", metavar="TRACE", help="the new trace")
    p.add_argument(
        "--gold-file", "-g", required=True, metavar="PATH", help="the gold file (required)"
    )
    p.add_argument(
        "--threshold",
        "-t",
        type=unit_interval,
        default=0.05,
        help="largest allowed worsening of a metric (default 0.05)",
    )
    add_format_option(p)
    p.add_argument("--output", "-o", metavar="PATH", help="also write the comparison as JSON")
    p.add_argument("--verbose", "-v", action="store_true", help="also show the new evaluation")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from scorekit.files import write_text_atomic
    from toolscore._engine.check.evaluate_trace import evaluate_trace
    from toolscore._engine.score.render import render_result
    from toolscore.baseline import compare_to_baseline, load_baseline, render_comparison

    try:
        baseline = load_baseline(args.baseline_file)
    except FileNotFoundError:
        raise CommandError(f"{args.baseline_file}: no such file") from None
    result = evaluate_trace(args.gold_file, args.trace_file, args.format)
    comparison = compare_to_baseline(result, baseline, args.threshold, args.gold_file)
    if args.verbose:
        out.write(render_result(result).rstrip() + "\n\n")
    out.write(render_comparison(comparison) + "\n")
    if args.output:
        text = json.dumps(comparison.to_dict(), indent=2) + "\n"
        out.write(f"Comparison written to {write_text_atomic(args.output, text)}\n")
    return EXIT_OK if comparison.passed else EXIT_BELOW
