"""The ``scorekit`` command line: ``scorekit diff OLD.json NEW.json``.

Prints the same comparison as ``--llm-baseline`` between any two JSON reports. Exit codes: 0
nothing regressed, 1 something regressed, 2 unreadable input or bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekit", description="llm-scorekit tools for CI gates."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    diff = sub.add_parser(
        "diff",
        help="compare two JSON reports (--llm-report files)",
        description="Compare the scored assertions of two JSON reports; exit 1 on regression.",
    )
    diff.add_argument("old", help="the baseline report (JSON)")
    diff.add_argument("new", help="the report to check (JSON)")
    diff.add_argument(
        "--min-delta",
        type=float,
        default=0.05,
        help="smallest score drop that counts as a regression (default 0.05)",
    )
    diff.add_argument("--json", action="store_true", help="print the comparison as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Example:
        >>> main(["diff", "missing-old.json", "missing-new.json"])  # doctest: +SKIP
        2
    """
    from scorekit.report._baseline import BaselineError, compare_reports, load_report
    from scorekit.report._comparison_text import comparison_lines

    args = _parser().parse_args(argv)
    if args.min_delta < 0 or args.min_delta != args.min_delta:
        print(f"scorekit diff: --min-delta must be >= 0, got {args.min_delta}", file=sys.stderr)
        return 2
    try:
        old = load_report(args.old, "OLD")
        new = load_report(args.new, "NEW")
    except BaselineError as exc:
        print(f"scorekit diff: {exc}", file=sys.stderr)
        return 2
    comparison = compare_reports(old, new, min_delta=args.min_delta)
    if args.json:
        print(json.dumps(comparison.to_dict(), indent=2))
    else:
        for line in comparison_lines(comparison, args.old):
            print(line)
    return 1 if comparison.regressed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
