"""``texts-score eval-dataset``: score every text pair of a dataset on a judge.

Usage::

    texts-score eval-dataset SOURCE [SOURCE ...] [--expected-column expected]
        [--given-column given] [--id-column id] [--metric f1 ...]
        [--question-runs N] [--answer-runs N] [judge options as for compare]
        [--engine local|ray] [--workers N] [-o results.parquet] [--resume]
        [--max-errors N] [--min-mean X] [--report html|json|md [--report-path PATH]] [--json]

Exit codes: 0 scored; 1 the mean of the first metric is below ``--min-mean``; 2 bad input;
3 the judge failed (cannot be built, or failed on many rows in a row); 130 interrupted.
"""

from __future__ import annotations

import argparse
from typing import IO, Any

from pytest_texts_score._cli.common import PROG, add_judge_arguments, judge_values

__all__ = ["COMMAND", "register", "run"]

COMMAND = "eval-dataset"


def register(subparsers: Any) -> None:
    """Register ``eval-dataset`` on the ``texts-score`` sub-command parsers."""
    from scorekit.batch import add_dataset_arguments

    p = subparsers.add_parser(
        COMMAND,
        help="score every text pair of a dataset (JSON lines or Parquet)",
        description="Score every pair of a dataset on the judge: per-row precision, recall"
        " and F1 (-o), and a summary. Exit 0 scored, 1 the mean is below --min-mean, 2 bad"
        " input, 3 the judge failed.",
    )
    add_dataset_arguments(p, "of the first --metric")
    cols = p.add_argument_group("columns and scores")
    for role, text in (("expected", "the reference text"), ("given", "the text under test")):
        help_text = f"column with {text} (default: {role})"
        cols.add_argument(f"--{role}-column", default=role, metavar="NAME", help=help_text)
    cols.add_argument(
        "--metric",
        action="append",
        choices=("f1", "precision", "recall"),
        help="score to compute (repeatable; default f1, which also gives precision and"
        " recall); the first is the one --min-mean checks",
    )
    cols.add_argument("--question-runs", type=int, default=1, metavar="N", help="question sets")
    cols.add_argument("--answer-runs", type=int, default=1, metavar="N", help="answers per set")
    add_judge_arguments(
        p,
        "Default: the embedded offline judge. With several workers each gets"
        " max-concurrency / workers calls in flight.",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Run ``texts-score eval-dataset``; return the exit code."""
    from pytest_texts_score._dataset import evaluate_dataset
    from scorekit.batch import run_dataset_command
    from scorekit.cli import JUDGE_ERRORS, judge_exit
    from scorekit.judges import resolve_settings
    from scorekit.session import ScoreSession

    try:
        # Messages then name this command's own flags (--model, not --llm-model).
        settings = resolve_settings(cli=judge_values(args), surface="cli")
    except JUDGE_ERRORS as exc:
        return judge_exit(PROG, exc)
    session = ScoreSession(settings)

    def evaluate(options: dict[str, Any]) -> Any:
        session.activate()
        try:
            return evaluate_dataset(
                **options,
                expected=args.expected_column,
                given=args.given_column,
                metrics=tuple(args.metric or ("f1",)),
                question_runs=args.question_runs,
                answer_runs=args.answer_runs,
            )
        finally:
            session.deactivate()
            session.close()

    return run_dataset_command(args, evaluate, prog=PROG, out=out, secrets=[settings.api_key])
