"""The options and the run of an ``eval-dataset`` command, shared by ``toolscore`` and
``texts-score`` (each adds its own column and judge options).

Exit codes: 0 scored (and the mean meets ``--min-mean``); 1 the mean is below ``--min-mean``;
2 bad input (a missing source, an unknown format, a column no row has, more bad rows than
``--max-errors``); 3 the judge failed (texts); 130 interrupted (what was written is kept).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from scorekit.batch._errors import DatasetError, JudgeOutageError
from scorekit.batch._no_pandas import pandas_refused
from scorekit.batch._summary import DatasetSummary
from scorekit.cli._arg_types import unit_interval, whole_number
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
from scorekit.format._rounding import format_bound, format_score
from scorekit.format._text_table import terminal_width

__all__ = [
    "add_dataset_arguments",
    "dataset_options",
    "run_dataset_command",
]

REPORT_FORMATS = ("html", "json", "md")


def add_dataset_arguments(parser: argparse.ArgumentParser, main_score: str) -> None:
    """Add SOURCE and the options every ``eval-dataset`` command has."""
    parser.add_argument(
        "source",
        nargs="+",
        metavar="SOURCE",
        help="JSON lines (.jsonl, optionally .gz/.bz2/.xz) or Parquet files, folders of them,"
        " or object-store URIs (s3://..., gs://...)",
    )
    parser.add_argument(
        "--id-column",
        default="id",
        metavar="NAME",
        help="column holding each row's id (default: id; '' numbers rows by position)",
    )
    run = parser.add_argument_group("run")
    run.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: Ray Data (needs"
        " llm-scorekit[ray])",
    )
    run.add_argument("--workers", type=whole_number(1), metavar="N", help="worker processes")
    run.add_argument("--batch-size", type=whole_number(1), metavar="N", help="rows per batch")
    run.add_argument(
        "-o",
        "--output",
        metavar="RESULTS",
        help="per-row results: .parquet (needs llm-scorekit[parquet]) or .jsonl",
    )
    run.add_argument(
        "--resume",
        action="store_true",
        help="skip the ids RESULTS already holds (also after a run was killed)",
    )
    run.add_argument(
        "--max-errors",
        type=whole_number(0),
        metavar="N",
        help="stop once more than N rows could not be scored (exit 2)",
    )
    run.add_argument(
        "--min-mean",
        type=unit_interval,
        metavar="X",
        help=f"exit 1 when the mean {main_score} is below X",
    )
    run.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    out = parser.add_argument_group("report")
    out.add_argument(
        "--report",
        choices=REPORT_FORMATS,
        help="also write a report: html (charts of every score), json or md",
    )
    out.add_argument(
        "--report-path",
        metavar="PATH",
        help="where --report writes (default: next to RESULTS as <name>.report.<format>,"
        " else dataset-report.<format>)",
    )
    out.add_argument("--json", action="store_true", help="print the summary as JSON")


def dataset_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``evaluate_dataset`` that every face shares."""
    sources = list(args.source)
    return {
        "source": sources[0] if len(sources) == 1 else sources,
        "id": args.id_column or None,
        "engine": args.engine,
        "workers": args.workers,
        "output": args.output,
        "resume": args.resume,
        "max_errors": args.max_errors,
        "batch_size": args.batch_size,
        "progress": False if args.no_progress else None,
    }


def _report_path(args: argparse.Namespace) -> Path:
    if args.report_path:
        return Path(args.report_path)
    if args.output:
        out = Path(args.output)
        return out.with_name(f"{out.stem}.report.{args.report}")
    return Path(f"dataset-report.{args.report}")


def run_dataset_command(
    args: argparse.Namespace,
    evaluate: Callable[[dict[str, Any]], DatasetSummary],
    *,
    prog: str,
    out: IO[str],
    secrets: Iterable[str | None] = (),
    refuse_pandas: bool = False,
) -> int:
    """Run ``evaluate(options)`` (``options``: :func:`dataset_options`), print the summary,
    write the report, return the exit code (:mod:`scorekit.cli`'s).

    ``refuse_pandas``: the command's process scores plain numbers and strings and runs no user
    code, so on the local engine pyarrow need not import pandas (see ``_no_pandas``).
    """
    err = sys.stderr
    if args.report_path and not args.report:
        return fail(prog, EXIT_BAD_INPUT, "--report-path needs --report html|json|md", err)
    options = dataset_options(args)
    local = refuse_pandas and options["engine"] == "local"
    try:
        with pandas_refused() if local else contextlib.nullcontext():
            summary = evaluate(options)
    except KeyboardInterrupt:
        kept = f" in {args.output}" if args.output else ""
        err.write(
            f"{prog}: interrupted; the rows scored so far are kept{kept}: rerun with --resume"
            " to go on\n"
        )
        return EXIT_INTERRUPTED
    except JudgeOutageError as exc:
        return fail(prog, EXIT_JUDGE_FAILED, exc, err)
    except JUDGE_ERRORS as exc:
        return judge_exit(prog, exc, err)
    except (DatasetError, ValueError, TypeError) as exc:
        return fail(prog, EXIT_BAD_INPUT, exc, err)
    except OSError as exc:
        name = f"{os.fspath(exc.filename)}: " if exc.filename is not None else ""
        return fail(prog, EXIT_BAD_INPUT, f"{name}{exc.strerror or exc}", err)
    doc = summary.to_dict()
    if args.json:
        from scorekit.report._dataset_report import dataset_json

        out.write(json.dumps(dataset_json(doc), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(summary.render(terminal_width(out)) + "\n")
    if args.report:
        from scorekit.report import ReportError, write_dataset_report

        try:
            path = write_dataset_report(doc, _report_path(args), args.report, secrets=secrets)
        except ReportError as exc:
            return fail(prog, EXIT_BAD_INPUT, exc, err)
        if not args.json:
            out.write(f"{args.report} report written to {path}\n")
    if summary.stopped:
        return fail(prog, EXIT_BAD_INPUT, f"stopped early: {summary.stopped}", err)
    return _min_mean_verdict(args, summary, out)


def _min_mean_verdict(args: argparse.Namespace, summary: DatasetSummary, out: IO[str]) -> int:
    """``--min-mean``: the PASS or FAIL line (not with ``--json``) and the exit code."""
    if args.min_mean is None:
        return EXIT_OK
    mean, bound = summary.mean, args.min_mean
    shown = "no row was scored" if mean is None else f"mean {summary.main_score}"
    if mean is not None:
        shown += f" {format_score(mean, bound)}"
    below = mean is None or mean < bound
    if not args.json:
        verdict = f"FAIL: {shown} <" if below else f"PASS: {shown} >="
        out.write(f"{verdict} min {format_bound(bound)}\n")
    return EXIT_BELOW if below else EXIT_OK
