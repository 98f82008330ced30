"""``toolscore eval-dataset``: score every row of a dataset of expected and actual calls.

Exit codes: 0 scored; 1 the mean score is below ``--min-mean``; 2 bad input; 130 interrupted.
"""

from __future__ import annotations

import argparse
from typing import IO, Any

from scorekit.batch import add_dataset_arguments, run_dataset_command

__all__ = ["register", "run"]


def _weight(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    try:
        if not sep or not name:
            raise ValueError
        return name.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--weight takes NAME=NUMBER (e.g. argument_f1=0.5), got {text!r}"
        ) from None


def register(subparsers: Any) -> None:
    """Register ``eval-dataset`` on the ``toolscore`` sub-command parsers."""
    p = subparsers.add_parser(
        "eval-dataset",
        help="score every row of a dataset (JSON lines or Parquet); per-row results + summary",
        description="Score every row of a dataset of expected and actual tool calls, on every"
        " core (or on Ray). Writes per-row results (-o), prints a summary. Exit 0 scored, 1 the"
        " mean score is below --min-mean, 2 bad input.",
    )
    add_dataset_arguments(p, "score")
    cols = p.add_argument_group("columns")
    cols.add_argument(
        "--gold-column",
        default="expected",
        metavar="NAME",
        help="column with the expected calls (default: expected)",
    )
    cols.add_argument(
        "--trace-column",
        default="actual",
        metavar="NAME",
        help="column with what the agent did: calls or a provider response (default: actual)",
    )
    cols.add_argument(
        "--gold-file",
        metavar="FILE",
        help="take the expected calls from FILE (rows with --gold-key and --gold-column, or a"
        " JSON object {key: calls}) instead of a column",
    )
    cols.add_argument(
        "--gold-key",
        metavar="NAME",
        help="column joining rows to --gold-file (default: the id column)",
    )
    scoring = p.add_argument_group("scoring")
    scoring.add_argument(
        "--strict", action="store_true", help="compare argument values by exact type and value"
    )
    scoring.add_argument(
        "--weight",
        action="append",
        type=_weight,
        default=[],
        metavar="NAME=VALUE",
        help="score weight (repeatable), e.g. --weight argument_f1=0.5",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Run ``toolscore eval-dataset``; return the exit code."""
    from toolscore._dataset import evaluate_dataset

    def evaluate(options: dict[str, Any]) -> Any:
        return evaluate_dataset(
            **options,
            gold=args.gold_column,
            trace=args.trace_column,
            weights=dict(args.weight) or None,
            strict=args.strict,
            gold_file=args.gold_file,
            gold_key=args.gold_key,
        )

    return run_dataset_command(args, evaluate, prog="toolscore", out=out, refuse_pandas=True)
