"""``toolscore compare``: score several traces against one gold file and rank them.

The scoring options and reports are those of ``toolscore eval`` (:mod:`toolscore._cli.evaluate`);
exit 0 when every trace meets ``--min-score``, 1 when one does not, 2 on bad input.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from scorekit.cli import unit_interval
from scorekit.format import fitted_lines, format_bound, format_score
from toolscore._cli.common import EXIT_BELOW, EXIT_OK, CommandError, report_format, write_report
from toolscore._cli.evaluate import COLUMNS, add_scoring_options, row, score, settings

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``compare`` to the ``toolscore`` command."""
    cmp = sub.add_parser(
        "compare",
        help="rank several traces (models, prompts) against one gold file",
        description="Score several traces against one gold file and rank them, best first.",
    )
    cmp.add_argument("gold", help="JSON list of expected calls")
    cmp.add_argument("traces", nargs="+", metavar="trace", help="trace files to rank")
    cmp.add_argument(
        "--names",
        "-n",
        action="append",
        default=[],
        metavar="NAME",
        help="a name per trace, in order (repeat: -n gpt-4o -n claude); default: the file names",
    )
    cmp.add_argument("--min-score", type=unit_interval, help="exit 1 if any trace scores below it")
    add_scoring_options(cmp)
    cmp.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write the comparison here: .json gives Toolscore's comparison document, "
        ".md/.html (or --report) a report",
    )
    cmp.add_argument("--verbose", "-v", action="store_true", help="also print every result")
    cmp.set_defaults(run=_cmd_compare)


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.score.render import render_result

    if args.names and len(args.names) != len(args.traces):
        raise CommandError(
            f"{len(args.names)} name(s) for {len(args.traces)} trace file(s); give one "
            "-n NAME per trace, in the same order"
        )
    names = args.names or list(args.traces)
    comparison_json = args.output and not args.report and Path(args.output).suffix == ".json"
    fmt = None if comparison_json else report_format(args)
    rules, weights = settings(args)
    scored = [
        (name, trace, score(args, trace, rules, weights))
        for name, trace in zip(names, args.traces, strict=True)
    ]
    ranked = sorted(scored, key=lambda item: (-item[2].score, item[0]))
    header = ["rank", "trace", "score", "grade", *(label for _, label in COLUMNS)]
    header += ["missing", "extra"]
    table = [header]
    for rank, (name, _, r) in enumerate(ranked, 1):
        table.append(
            [str(rank), name, format_score(r.score, args.min_score), r.grade]
            + [format_score(getattr(r, attr)) for attr, _ in COLUMNS]
            + [str(len(r.missing_calls)), str(len(r.extra_calls))]
        )
    out.write(fitted_lines(table, out, lead=2))
    if args.verbose:
        for name, _, r in ranked:
            out.write(f"\n{name}:\n{render_result(r, min_score=args.min_score).rstrip()}\n")
    below = [n for n, _, r in ranked if args.min_score is not None and r.score < args.min_score]
    if args.min_score is not None:
        if below:
            out.write(
                f"FAIL: {len(below)} of {len(ranked)} below min {format_bound(args.min_score)}\n"
            )
        else:
            out.write(f"PASS: all {len(ranked)} traces >= min {format_bound(args.min_score)}\n")
    if comparison_json:
        from toolscore.comparison import compare_models, save_comparison_report

        # Toolscore names models by file stem when no -n is given (paths if stems repeat).
        stems = [Path(t).stem for t in args.traces]
        keys = args.names or (stems if len(set(stems)) == len(stems) else list(args.traces))
        document = compare_models({k: r for k, (_, _, r) in zip(keys, scored, strict=True)})
        out.write(f"Comparison written to {save_comparison_report(document, args.output)}\n")
    elif fmt:
        rows = [row(r, trace, args.min_score, "compare") for _, trace, r in ranked]
        write_report(rows, args.output, fmt, out)
    return EXIT_BELOW if below else EXIT_OK
