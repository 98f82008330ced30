"""``toolscore bfcl``: score a model's BFCL result file the way the leaderboard does.

Prints the accuracy per category and overall, then every failing id with BFCL's error type
and the reasons. Exit codes: 0 done (and the accuracy meets ``--min-accuracy``), 1 below
``--min-accuracy``, 2 bad input, with one line naming the file and the problem.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any, TextIO

from scorekit.cli import fail
from scorekit.format import fitted_lines, format_percent
from toolscore._cli.common import (
    EXIT_BAD_INPUT,
    EXIT_BELOW,
    EXIT_OK,
    CommandError,
    report_format,
    write_report,
)

if TYPE_CHECKING:
    from toolscore.bfcl._score import BFCLScore

__all__ = ["register"]

_ERRORS_SHOWN = 4
_REPORT_FORMATS = ("json", "md", "html")


def _accuracy(text: str) -> float:
    raw = text.strip()
    percent = raw.endswith("%")
    try:
        value = float(raw[:-1] if percent else raw)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--min-accuracy must be a number like 0.9 or 90%, got {text!r}"
        ) from None
    if percent:
        value /= 100
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(
            f"--min-accuracy must be between 0 and 1 (or 0% and 100%), got {text}"
        )
    return value


def register(subparsers: Any) -> None:
    """Add the ``bfcl`` subcommand to the ``toolscore`` command's subparsers."""
    p = subparsers.add_parser(
        "bfcl",
        help="score a BFCL result file with the leaderboard's AST checker (Python rules)",
        description='Score a model\'s BFCL result file (JSON lines of {"id", "result"}) '
        "with the Berkeley Function Calling Leaderboard's AST checker, Python rules: accuracy "
        "per category, the failing ids with reasons. Java/JavaScript categories are out of "
        "scope. Exit 0 done, 1 below --min-accuracy, 2 bad input.",
    )
    p.add_argument("outputs", nargs="+", metavar="OUTPUTS", help="BFCL result file(s)")
    p.add_argument(
        "--questions",
        "-q",
        action="append",
        required=True,
        metavar="Q",
        help="BFCL question file (BFCL_v4_<category>.json); repeat for several",
    )
    p.add_argument(
        "--answers",
        "-a",
        action="append",
        metavar="A",
        help="possible-answer file (possible_answer/BFCL_v4_<category>.json); repeat for "
        "several (not needed for the relevance categories)",
    )
    p.add_argument(
        "--category",
        "-c",
        action="append",
        metavar="C",
        help="score only this category (repeat, or comma-separate, for several)",
    )
    p.add_argument(
        "--underscore-to-dot",
        action="store_true",
        help="the model is a function-calling model whose API forbids dots in names: "
        "it must call a_b for a function named a.b",
    )
    p.add_argument(
        "--partial",
        action="store_true",
        help="score only the outputs given (by default every question of a scored category "
        "needs an output, as on the leaderboard)",
    )
    p.add_argument(
        "--min-accuracy",
        type=_accuracy,
        metavar="X",
        help="exit 1 when the overall accuracy is below X (0.9 or 90%%)",
    )
    p.add_argument(
        "--report",
        choices=_REPORT_FORMATS,
        help="also write a report: one row per output (needs -o PATH)",
    )
    p.add_argument("-o", "--output", metavar="PATH", help="where to write the report")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Handle ``toolscore bfcl``; returns the exit code (bad input: one line on stderr, 2)."""
    from toolscore.bfcl._data import BFCLDataError

    try:
        return _run(args, out)
    except (BFCLDataError, CommandError) as exc:
        return fail("toolscore bfcl", EXIT_BAD_INPUT, exc)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore.bfcl._data import load
    from toolscore.bfcl._score import read_outputs, score

    fmt = report_format(args, _REPORT_FORMATS)
    cases = load(args.questions, args.answers, category=args.category)
    known = {case.category for case in cases}
    pairs = read_outputs(args.outputs)
    if args.category:
        from toolscore.bfcl._data import category_of

        pairs = [(i, o) for i, o in pairs if category_of(i) in known]
        empty = sorted(known - {category_of(i) for i, _ in pairs})
        if empty:
            raise CommandError(f"no output of category {', '.join(empty)} in the outputs given")
    if not pairs:
        raise CommandError("the outputs hold no record to score")
    result = score(pairs, cases, underscore_to_dot=args.underscore_to_dot, partial=args.partial)
    _print(result, args, out)
    passed = args.min_accuracy is None or result.accuracy >= args.min_accuracy
    if args.min_accuracy is not None:
        verdict, op = ("PASS", ">=") if passed else ("FAIL", "<")
        out.write(
            f"{verdict}: accuracy {format_percent(result.accuracy)} {op} min"
            f" {format_percent(args.min_accuracy)}\n"
        )
    if fmt:
        write_report(result.rows(), args.output, fmt, out)
    return EXIT_OK if passed else EXIT_BELOW


def _print(result: BFCLScore, args: argparse.Namespace, out: TextIO) -> None:
    categories = result.by_category
    out.write(
        f"BFCL AST checker (Python rules{', underscore_to_dot' if args.underscore_to_dot else ''})"
        f": {len(result.results)} output{'' if len(result.results) == 1 else 's'} in "
        f"{len(categories)} categor{'y' if len(categories) == 1 else 'ies'}\n\n"
    )
    table = [("category", "correct", "total", "accuracy")]
    for name, (correct, total) in categories.items():
        table.append((name, str(correct), str(total), format_percent(correct / total)))
    table.append(
        ("overall", str(result.correct), str(len(result.results)), format_percent(result.accuracy))
    )
    out.write(fitted_lines(table, out, right={1, 2, 3}))
    if len(categories) > 1:
        out.write(f"mean of the categories: {format_percent(result.category_mean)}\n")
    for category, ids in result.missing.items():
        out.write(f"note: {len(ids)} question(s) of {category} have no output (not counted)\n")
    failures = result.failures
    out.write(f"\nFailures ({len(failures)}):\n" if failures else "\nNo failures.\n")
    for r in failures:
        out.write(f"  {r.id}  {r.verdict.error_type}\n")
        errors = r.verdict.errors
        out.write("".join(f"      {line}\n" for line in errors[:_ERRORS_SHOWN]))
        if len(errors) > _ERRORS_SHOWN:
            out.write(f"      ... and {len(errors) - _ERRORS_SHOWN} more\n")
    out.write("\n")
