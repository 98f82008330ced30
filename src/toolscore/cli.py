"""The ``toolscore`` command: score recorded traces against a gold file.

Usage::

    toolscore eval GOLD TRACE [--min-score 0.9] [--format auto] [--strict]
                              [--report json|md|html -o PATH]
    toolscore compare GOLD TRACE [TRACE ...] [--min-score X] [--format auto] [--strict]
                              [--report json|md|html -o PATH]
    toolscore eval-dataset SOURCE [...]   (see toolscore._dataset_cli)

Exit codes: 0 the score meets ``--min-score``; 1 it does not; 2 bad input (a missing, empty or
malformed file, an unknown trace shape or matcher key, a bad option), with a one-line message
that names the file and the problem.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from toolscore._trace_files import TRACE_FORMATS, TraceFileError

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow
    from toolscore._result import EvaluationResult

__all__ = ["main"]

EXIT_OK = 0
EXIT_BELOW = 1
EXIT_BAD_INPUT = 2
_REPORT_SUFFIXES = {
    ".json": "json",
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
}
_COLUMNS = (
    ("tool_f1", "tool_f1"),
    ("argument_f1", "arg_f1"),
    ("sequence_accuracy", "sequence"),
    ("redundant_rate", "redundant"),
)


class _BadInput(Exception):
    """Bad input: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _min_score(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--min-score must be a number, got {text!r}") from None
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"--min-score must be between 0 and 1, got {text}")
    return value


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        "-f",
        choices=TRACE_FORMATS,
        default="auto",
        help="trace file format (default: auto-detect)",
    )
    p.add_argument(
        "--strict", action="store_true", help="compare argument values by exact type and value"
    )
    p.add_argument(
        "--report",
        choices=("json", "md", "html"),
        help="also write a report in this format (needs -o PATH)",
    )
    p.add_argument("-o", "--output", metavar="PATH", help="where to write the report")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toolscore",
        description="Score the tool calls recorded in trace files against a gold file.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser(
        "eval",
        help="score one trace; exit 1 when the score is below --min-score",
        description="Score one trace against a gold file. Exit 0 when the score meets "
        "--min-score, 1 when it does not, 2 on bad input.",
    )
    ev.add_argument("gold", help="JSON list of expected calls (argument matchers allowed)")
    ev.add_argument("trace", help="recorded calls: provider response, MCP log or call list")
    ev.add_argument("--min-score", type=_min_score, default=0.9, help="passing score (default 0.9)")
    _add_common(ev)
    cmp = sub.add_parser(
        "compare",
        help="rank several traces (models, prompts) against one gold file",
        description="Score several traces against one gold file and rank them.",
    )
    cmp.add_argument("gold", help="JSON list of expected calls")
    cmp.add_argument("traces", nargs="+", metavar="trace", help="trace files to rank")
    cmp.add_argument(
        "--min-score",
        type=_min_score,
        default=None,
        help="when given, exit 1 if any trace scores below it",
    )
    _add_common(cmp)
    from toolscore._dataset_cli import add_eval_dataset

    add_eval_dataset(sub)
    return parser


def _report_format(args: argparse.Namespace) -> str | None:
    if args.report and not args.output:
        raise _BadInput(f"--report {args.report} needs -o PATH (where to write it)")
    if args.output and not args.report:
        fmt = _REPORT_SUFFIXES.get(Path(args.output).suffix.lower())
        if fmt is None:
            raise _BadInput(
                f"-o {args.output}: cannot tell the report format from the suffix; "
                "add --report json|md|html"
            )
        return fmt
    report: str | None = args.report
    return report


def _evaluate(
    trace: str, fmt: str, strict: bool, expected: list[dict[str, Any]]
) -> EvaluationResult:
    from toolscore._evaluate import evaluate
    from toolscore._trace import load_trace

    actual = load_trace(trace, fmt)
    try:
        return evaluate(expected, actual, strict=strict)
    except (TypeError, ValueError) as exc:
        raise _BadInput(f"{trace}: {' '.join(str(exc).split())}") from None


def _row(result: EvaluationResult, trace: str, threshold: float | None, cmd: str) -> ToolScoreRow:
    from toolscore._assertions import score_row

    return score_row(
        result,
        test_id=trace,
        function=f"toolscore {cmd}",
        threshold=threshold,
        passed=threshold is None or result.score >= threshold,
        details=result.to_dict(),
    )


def _write_report(rows: list[ToolScoreRow], path: str, fmt: str, out: TextIO) -> None:
    from scorekit.report import ReportError, write_report

    try:
        written = write_report(rows, None, path, fmt)
    except ReportError as exc:
        raise _BadInput(str(exc)) from None
    out.write(f"{fmt} report written to {written}\n")


def _scores_line(result: EvaluationResult) -> str:
    parts = [f"{label} {getattr(result, name):.3f}" for name, label in _COLUMNS]
    return "  ".join(parts)


def _cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._render import render_result
    from toolscore._trace import load_gold

    fmt = _report_format(args)
    expected = load_gold(args.gold)
    result = _evaluate(args.trace, args.format, args.strict, expected)
    passed = result.score >= args.min_score
    out.write(render_result(result, min_score=args.min_score).rstrip() + "\n\n")
    out.write(_scores_line(result) + "\n")
    verdict = "PASS" if passed else "FAIL"
    op = ">=" if passed else "<"
    out.write(
        f"{verdict}: {args.trace}: score {result.score:.3f} (grade {result.grade}) "
        f"{op} min {args.min_score:.2f}\n"
    )
    if fmt:
        _write_report([_row(result, args.trace, args.min_score, "eval")], args.output, fmt, out)
    return EXIT_OK if passed else EXIT_BELOW


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._trace import load_gold

    fmt = _report_format(args)
    expected = load_gold(args.gold)
    scored = []
    for trace in args.traces:
        scored.append((trace, _evaluate(trace, args.format, args.strict, expected)))
    scored.sort(key=lambda pair: (-pair[1].score, pair[0]))
    header = ["rank", "trace", "score", "grade", *(label for _, label in _COLUMNS)]
    header += ["missing", "extra"]
    table = [header]
    for rank, (trace, r) in enumerate(scored, 1):
        table.append(
            [str(rank), trace, f"{r.score:.3f}", r.grade]
            + [f"{getattr(r, name):.3f}" for name, _ in _COLUMNS]
            + [str(len(r.missing_calls)), str(len(r.extra_calls))]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")
    below = [t for t, r in scored if args.min_score is not None and r.score < args.min_score]
    if args.min_score is not None:
        if below:
            out.write(f"FAIL: {len(below)} of {len(scored)} below min {args.min_score:.2f}\n")
        else:
            out.write(f"PASS: all {len(scored)} traces >= min {args.min_score:.2f}\n")
    if fmt:
        rows = [_row(r, t, args.min_score, "compare") for t, r in scored]
        _write_report(rows, args.output, fmt, out)
    return EXIT_BELOW if below else EXIT_OK


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the ``toolscore`` command; returns the exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        out: where normal output goes (default: ``sys.stdout``); errors go to ``sys.stderr``.

    Example:
        >>> main(["eval", "missing-gold.json", "trace.json"])
        2
    """
    stream = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    if args.command == "eval-dataset":
        from toolscore._dataset_cli import run_eval_dataset

        return run_eval_dataset(args, stream)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code = _cmd_eval(args, stream) if args.command == "eval" else _cmd_compare(args, stream)
        # e.g. arguments that are not valid JSON: the call is kept, the user is told, in one line.
        for w in caught:
            sys.stderr.write(f"toolscore: warning: {' '.join(str(w.message).split())}\n")
        return code
    except (TraceFileError, _BadInput) as exc:
        sys.stderr.write(f"toolscore: error: {exc}\n")
        return EXIT_BAD_INPUT
    except OSError as exc:
        name = exc.filename if exc.filename is not None else "?"
        sys.stderr.write(f"toolscore: error: {os.fspath(name)}: {exc.strerror or exc}\n")
        return EXIT_BAD_INPUT
    except Exception as exc:
        # Input we did not foresee must still end in one line; the traceback is opt-in.
        if os.environ.get("TOOLSCORE_TRACEBACK"):
            raise
        detail = " ".join(str(exc).split())[:300]
        sys.stderr.write(
            f"toolscore: error: {type(exc).__name__}: {detail} "
            "(set TOOLSCORE_TRACEBACK=1 to see where)\n"
        )
        return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
