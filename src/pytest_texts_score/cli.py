"""The ``texts-score`` console script: score one text against another from the shell.

Usage::

    texts-score compare EXPECTED GIVEN            # two files
    texts-score compare expected.txt -            # GIVEN from stdin
    texts-score compare --expected-text "..." --given-text "..." --json
    texts-score eval-dataset pairs.jsonl -o results.parquet   # a whole dataset
    texts-score calibrate labelled.jsonl --min-balanced-accuracy 0.8   # trust the judge?

Exit codes: 0 scored; 2 bad input (missing file, empty text, unknown option, a setting that is
unusable, or settings that name no usable judge: unknown provider, no model or key); 3 a judge
that was configured failed at run time (unreachable, rejected key, invalid replies after the
retries, a model that cannot be loaded). ``eval-dataset`` and ``calibrate`` also exit 1 when a
bound they were given (``--min-mean``; ``--min-balanced-accuracy``, ``--max-flip-rate``) is
missed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO

from pytest_texts_score._cli import calibrate, compare, eval_dataset
from pytest_texts_score._cli.common import PROG, Parser
from scorekit.cli import EXIT_BAD_INPUT, EXIT_JUDGE_FAILED, EXIT_OK, reader_left, warnings_as_lines

__all__ = ["EXIT_BAD_INPUT", "EXIT_JUDGE_FAILED", "EXIT_OK", "build_parser", "main"]


def build_parser() -> Parser:
    """The ``texts-score`` argument parser (sub-commands ``compare``, ``eval-dataset`` and
    ``calibrate``; one module each in ``pytest_texts_score._cli``)."""
    parser = Parser(
        prog=PROG,
        description="Score a text against a reference: precision, recall and F1 from an LLM"
        " judge or the embedded offline judge.",
    )
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in (compare, eval_dataset, calibrate):
        command.register(subs)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Run ``texts-score``; return the exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        stdin: where ``-`` reads from (default: ``sys.stdin``).
        stdout: where results go (default: ``sys.stdout``).

    Example:
        >>> main(["compare", "--expected-text", "It rains.", "--given-text", "It rains.",
        ...       "--json"])  # doctest: +SKIP
        0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    args.stdin = stdin
    try:
        with warnings_as_lines(PROG):
            return int(args.run(args, stdout if stdout is not None else sys.stdout))
    except BrokenPipeError:
        # The reader left early (`| head`): quiet, and no verdict claimed for a cut output.
        return reader_left()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
