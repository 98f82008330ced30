"""``toolscore honesty``: check an agent's answer against its run (exit 0 honest, 1 findings)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from toolscore._cli.common import EXIT_BELOW, EXIT_OK, CommandError

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``honesty`` to the ``toolscore`` command."""
    p = sub.add_parser(
        "honesty",
        help="check that an agent's answer agrees with what its tools returned",
        description="Read RUN.json (a run in any shape toolscore reads, e.g. a list of chat "
        'messages, or {"run": ..., "answer": ...}) and compare the agent\'s answer with the '
        "tool calls, their results and errors. Exit 0 when the answer is honest, 1 when there "
        "are findings, 2 on bad input.",
    )
    p.add_argument("run_file", metavar="RUN.json", help="the run, as JSON")
    answer = p.add_mutually_exclusive_group()
    answer.add_argument("--answer", metavar="TEXT", help="the answer to check (default: the "
                        "run's own answer or last assistant message)")  # fmt: skip
    answer.add_argument("--answer-file", metavar="FILE", help="read the answer from FILE")
    p.add_argument(
        "--judge",
        metavar="JUDGE",
        default=None,
        help="also have a judge read the statements rules cannot: 'local' (offline, no key) "
        "or a model name",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    p.set_defaults(run=_run)


def _load(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file; pass the JSON file that holds the run") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}); the run must be a "
            'JSON list of messages or calls, or {"run": ..., "answer": ...}'
        ) from None


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.check.honesty.check import check_honesty

    data = _load(args.run_file)
    answer = args.answer
    if args.answer_file is not None:
        try:
            answer = Path(args.answer_file).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CommandError(f"--answer-file {args.answer_file}: no such file") from None
    try:
        report = check_honesty(data, answer, judge=args.judge)
    except (TypeError, ValueError) as exc:
        raise CommandError(f"{args.run_file}: {exc}") from None
    if args.format == "json":
        out.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(str(report) + "\n")
    return EXIT_OK if report.passed else EXIT_BELOW
