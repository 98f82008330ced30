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

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from scorekit._arg_types import whole_number

if TYPE_CHECKING:
    from pytest_texts_score._pipeline import TextsOutcome

__all__ = ["EXIT_BAD_INPUT", "EXIT_JUDGE_FAILED", "EXIT_OK", "build_parser", "main"]

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_JUDGE_FAILED = 3

PROG = "texts-score"

#: Judge options of ``compare``: setting name of ``resolve_settings(overrides=...)`` -> help.
#: Each is the flag ``--name-with-dashes``; the order is the order of ``--help``.
_JUDGE_OPTIONS: dict[str, str] = {
    "provider": "local, openai, azure or package.module:attr",
    "model": "model name of the LLM judge",
    "base_url": "OpenAI-compatible server URL (selects openai)",
    "api_key": "API key of the LLM judge (never printed)",
    "endpoint": "Azure OpenAI endpoint (selects azure)",
    "deployment": "Azure OpenAI deployment name",
    "api_version": "Azure OpenAI API version",
    "temperature": "sampling temperature (default 0)",
    "timeout": "seconds per judge request (default 60)",
    "max_tokens": "maximum tokens per judge reply",
    "max_concurrency": "judge calls in flight at once",
    "cache": "judge reply cache: off, on or replay",
    "cache_dir": "folder of the judge reply cache",
    "local_model": "another ONNX model file for the local judge",
}


class BadInput(Exception):
    """Input the command cannot use; the message is one line for the user."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{PROG}: error: {message} (see `{PROG} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``texts-score`` argument parser (sub-commands ``compare``, ``eval-dataset`` and
    ``calibrate``)."""
    parser = _Parser(
        prog=PROG,
        description="Score a text against a reference: precision, recall and F1 from an LLM"
        " judge or the embedded offline judge.",
    )
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    compare = subs.add_parser(
        "compare",
        help="score GIVEN against EXPECTED",
        description="Score GIVEN against EXPECTED. precision = questions written from GIVEN,"
        " answered from EXPECTED; recall = questions written from EXPECTED, answered from"
        " GIVEN; F1 = their harmonic mean. Exit codes: 0 scored, 2 bad input or unusable"
        " judge settings, 3 the judge failed at run time.",
    )
    compare.add_argument(
        "paths",
        nargs="*",
        metavar="EXPECTED GIVEN",
        help="files holding the texts ('-' reads one of them from stdin); a text given with"
        " --expected-text or --given-text takes its place",
    )
    compare.add_argument("--expected-text", metavar="TEXT", help="the reference text itself")
    compare.add_argument("--given-text", metavar="TEXT", help="the text under test itself")
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.add_argument(
        "--metric",
        choices=("f1", "precision", "recall"),
        default="f1",
        help="sides to score (default: f1, both sides)",
    )
    compare.add_argument(
        "--question-runs", type=whole_number(1), default=1, metavar="N", help="question sets"
    )
    compare.add_argument(
        "--answer-runs", type=whole_number(1), default=1, metavar="N", help="answers per set"
    )
    add_judge_arguments(
        compare,
        "Default: the embedded offline judge (no key, no network). Unset options fall back to"
        " the environment (OPENAI_API_KEY, OPENAI_BASE_URL, AZURE_OPENAI_*, SCOREKIT_*).",
    )
    report = compare.add_argument_group("report")
    report.add_argument(
        "--report",
        choices=REPORT_FORMATS,
        help="also write a report file (the format pytest's --llm-report writes); needs -o",
    )
    report.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where --report writes (format from the suffix"
        " .json/.html/.md when --report is not given)",
    )
    from pytest_texts_score._dataset_cli import add_eval_dataset

    add_eval_dataset(subs)
    from pytest_texts_score._calibrate_cli import add_calibrate

    add_calibrate(subs)
    return parser


def add_judge_arguments(parser: argparse.ArgumentParser, description: str) -> None:
    """Add the judge options (``--provider``, ``--model``...) as a group of ``parser``."""
    judge = parser.add_argument_group("judge", description)
    for name, help_text in _JUDGE_OPTIONS.items():
        judge.add_argument("--" + name.replace("_", "-"), help=help_text)
    parser.set_defaults(judge_option_names=tuple(_JUDGE_OPTIONS))


REPORT_FORMATS = ("json", "html", "md")


def _report_format(args: argparse.Namespace) -> str | None:
    """The report format asked for, or None; a half-given pair is bad input."""
    from scorekit.report import report_format

    try:
        return report_format(args.report, args.output, REPORT_FORMATS)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@dataclass(frozen=True)
class Source:
    """One text and where it came from (a path, ``<stdin>`` or ``--expected-text``)."""

    label: str
    text: str


def _read(role: str, path: str, stdin: IO[str]) -> Source:
    if path == "-":
        return Source("<stdin>", stdin.read())
    p = Path(path)
    if not p.exists():
        raise BadInput(f"{role} file {path!r} does not exist")
    if p.is_dir():
        raise BadInput(f"{role} path {path!r} is a folder; give a text file")
    try:
        return Source(path, p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise BadInput(f"{role} file {path!r} is not UTF-8 text") from None
    except OSError as exc:
        raise BadInput(f"{role} file {path!r} cannot be read ({exc.strerror})") from None


def _sources(args: argparse.Namespace, stdin: IO[str]) -> tuple[Source, Source]:
    paths = list(args.paths)
    if paths.count("-") > 1:
        raise BadInput("only one text can come from stdin ('-')")
    out: list[Source] = []
    for role, literal in (("EXPECTED", args.expected_text), ("GIVEN", args.given_text)):
        if literal is not None:
            out.append(Source(f"--{role.lower()}-text", literal))
        elif paths:
            out.append(_read(role, paths.pop(0), stdin))
        else:
            raise BadInput(
                f"{role} is missing: give two files (EXPECTED GIVEN), '-' for stdin, or"
                f" --{role.lower()}-text TEXT"
            )
    if paths:
        raise BadInput(f"unexpected extra argument {paths[0]!r}")
    for role, src in zip(("EXPECTED", "GIVEN"), out, strict=True):
        if not src.text.strip():
            raise BadInput(f"{role} text ({src.label}) is empty; give a text with some words")
    return out[0], out[1]


def _judge_values(args: argparse.Namespace) -> dict[str, Any]:
    """The judge options given, keyed by setting (``llm_model``): command-line values."""
    return {
        f"llm_{name}": getattr(args, name)
        for name in _JUDGE_OPTIONS
        if getattr(args, name) is not None
    }


def _score(
    args: argparse.Namespace, expected: str, given: str
) -> tuple[TextsOutcome, dict[str, Any], str | None]:
    """Score the pair; return the outcome, the judge counters and the key (to redact)."""
    from pytest_texts_score._pipeline import evaluate_texts
    from scorekit._session import ScoreSession
    from scorekit.judges import resolve_settings

    # Messages then name this command's own flags (--model, not --llm-model).
    settings = resolve_settings(cli=_judge_values(args), surface="cli")
    session = ScoreSession(settings)
    try:
        outcome = evaluate_texts(
            expected,
            given,
            metric=args.metric,
            question_runs=args.question_runs,
            answer_runs=args.answer_runs,
            session=session,
        )
        stats: dict[str, Any] = {
            **session.stats.as_dict(),
            "judge": outcome.judge,
            "model": settings.model,
        }
        return outcome, stats, settings.api_key
    finally:
        session.close()


def _write_report(
    fmt: str,
    path: str,
    outcome: TextsOutcome,
    stats: dict[str, Any],
    api_key: str | None,
    expected: Source,
    given: Source,
) -> None:
    from scorekit.report import TextScoreRow, write_report

    row = TextScoreRow(
        test_id=f"{expected.label} vs {given.label}",
        function="texts-score compare",
        metric=outcome.metric,
        aggregation="mean" if len(outcome.runs) > 1 else None,
        score=outcome.score,
        low=0.0,
        high=1.0,
        outcome="passed",
        runs=outcome.runs,
        evidence=outcome.evidence,
        judge=outcome.judge,
        expected=expected.text,
        given=given.text,
    )
    write_report([row], stats, path, fmt, secrets=[api_key])


def outcome_dict(outcome: TextsOutcome, expected: Source, given: Source) -> dict[str, Any]:
    """The JSON document ``--json`` prints (scores rounded as every output rounds them)."""
    from scorekit._rounding import rounded_scores

    doc = {
        "expected": expected.label,
        "given": given.label,
        "judge": outcome.judge,
        "metric": outcome.metric,
        "precision": outcome.precision,
        "recall": outcome.recall,
        "f1": outcome.f1,
        "question_runs": outcome.question_runs,
        "answer_runs": outcome.answer_runs,
        "runs": [asdict(r) for r in outcome.runs],
        "evidence": [asdict(e) for e in outcome.evidence],
    }
    rounded: dict[str, Any] = rounded_scores(doc)
    return rounded


def _fmt(value: float | None) -> str:
    from scorekit._rounding import format_score

    return "-" if value is None else format_score(value)


_SIDES = (
    ("recall", "Recall: questions from EXPECTED, answered from GIVEN"),
    ("precision", "Precision: questions from GIVEN, answered from EXPECTED"),
)


def render(outcome: TextsOutcome, expected: Source, given: Source, out: IO[str]) -> None:
    """Print the scores and the evidence tables with rich."""
    from rich.table import Table
    from rich.text import Text

    from scorekit._command_output import output_console
    from scorekit._rounding import format_score

    # Off a terminal nothing wraps; on one, rich fits its width.
    console = output_console(out, highlight=False, soft_wrap=False)
    console.print(
        Text.assemble(
            ("precision ", "bold"),
            _fmt(outcome.precision),
            ("   recall ", "bold"),
            _fmt(outcome.recall),
            ("   F1 ", "bold"),
            _fmt(outcome.f1),
            f"   (judge: {outcome.judge}; expected: {expected.label}; given: {given.label})",
        )
    )
    multi_run = outcome.question_runs * outcome.answer_runs > 1
    for side, title in _SIDES:
        rows = [e for e in outcome.evidence if e.side == side]
        if not rows:
            continue
        # The title on its own line: as a table title it would wrap to the table's width.
        console.print(Text(title, style="italic"))
        table = Table(expand=False)
        table.add_column("#", justify="right")
        if multi_run:
            table.add_column("run")
        table.add_column("question", overflow="fold")
        table.add_column("answer", justify="right")
        for i, ev in enumerate(rows, 1):
            style = "green" if ev.answer >= 0.75 else "yellow" if ev.answer >= 0.25 else "red"
            cells: list[str | Text] = [str(i)]
            if multi_run:
                cells.append("/".join(str(r) for r in ev.run))
            question = Text(ev.question)
            if ev.reason:  # the judge's reason for a low answer, under its question
                question.append(f"\n  why: {ev.reason}", style="italic")
            cells += [question, Text(format_score(ev.answer, 1.0), style=style)]
            table.add_row(*cells)
        console.print(table)


def _fail(code: int, message: str) -> int:
    flat = " ".join(message.split())
    print(f"{PROG}: error: {flat}", file=sys.stderr)
    return code


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
    stdout = stdout if stdout is not None else sys.stdout
    if args.command == "eval-dataset":
        from pytest_texts_score._dataset_cli import run_eval_dataset

        return run_eval_dataset(args, stdout)
    if args.command == "calibrate":
        from pytest_texts_score._calibrate_cli import run_calibrate

        return run_calibrate(args, stdout)
    if args.command != "compare":
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    stdin = stdin if stdin is not None else sys.stdin

    from scorekit._command_output import warnings_as_lines
    from scorekit.judges import JudgeConfigError, JudgeError, SettingsError

    try:
        with warnings_as_lines(PROG):
            report_format = _report_format(args)
            expected, given = _sources(args, stdin)
            outcome, stats, api_key = _score(args, expected.text, given.text)
            if report_format is not None:
                _write_report(report_format, args.output, outcome, stats, api_key, expected, given)
    except OSError as exc:  # the report file cannot be written (ReportError names it)
        return _fail(EXIT_BAD_INPUT, str(exc))
    except BadInput as exc:
        return _fail(EXIT_BAD_INPUT, str(exc))
    except SettingsError as exc:
        return _fail(EXIT_BAD_INPUT, str(exc))
    except JudgeConfigError as exc:
        # The settings name no usable judge (unknown provider, no model or key): bad input.
        return _fail(EXIT_BAD_INPUT, f"unusable judge settings: {exc}")
    except JudgeError as exc:
        return _fail(EXIT_JUDGE_FAILED, f"the judge failed: {exc}")
    try:
        if args.json:
            json.dump(outcome_dict(outcome, expected, given), stdout, indent=2)
            stdout.write("\n")
        else:
            render(outcome, expected, given, stdout)
        stdout.flush()
    except BrokenPipeError:
        # The reader left early (`| head`): quiet, and no verdict claimed for a cut output.
        from scorekit._command_output import reader_left

        return reader_left()
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
