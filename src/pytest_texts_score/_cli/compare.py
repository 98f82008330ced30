"""``texts-score compare``: score one text against another.

Exit codes: 0 scored, 2 bad input or unusable judge settings, 3 the judge failed at run time.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from typing import IO, TYPE_CHECKING, Any

from pytest_texts_score._cli.common import PROG, BadInput, add_judge_arguments, judge_values
from scorekit.cli import EXIT_BAD_INPUT, EXIT_OK, JUDGE_ERRORS, fail, judge_exit, whole_number
from scorekit.files import quoted_words, read_text_file

if TYPE_CHECKING:
    from pytest_texts_score._outcome import TextsOutcome

__all__ = ["Source", "outcome_dict", "register", "render", "run"]


def register(subs: Any) -> None:
    """Register ``compare`` on the ``texts-score`` sub-command parsers."""
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
    for side, what in (("question", "question sets"), ("answer", "answers per set")):
        runs = whole_number(1)
        compare.add_argument(f"--{side}-runs", type=runs, default=1, metavar="N", help=what)
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
    compare.set_defaults(run=run)


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
    words = quoted_words(role, "a text file")
    return Source(path, read_text_file(path, words=words, error=BadInput))


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


def _score(
    args: argparse.Namespace, expected: str, given: str
) -> tuple[TextsOutcome, dict[str, Any], str | None]:
    """Score the pair; return the outcome, the judge counters and the key (to redact)."""
    from pytest_texts_score._pipeline import evaluate_texts
    from scorekit.judges import resolve_settings
    from scorekit.session import ScoreSession

    # Messages then name this command's own flags (--model, not --llm-model).
    settings = resolve_settings(cli=judge_values(args), surface="cli")
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
    from scorekit.format import rounded_scores

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
    from scorekit.format import format_score

    return "-" if value is None else format_score(value)


_SIDES = (
    ("recall", "Recall: questions from EXPECTED, answered from GIVEN"),
    ("precision", "Precision: questions from GIVEN, answered from EXPECTED"),
)


def render(outcome: TextsOutcome, expected: Source, given: Source, out: IO[str]) -> None:
    """Print the scores and the evidence tables with rich."""
    from rich.table import Table
    from rich.text import Text

    from scorekit.cli import output_console
    from scorekit.format import format_score

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


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Run ``texts-score compare``; return the exit code."""
    stdin = args.stdin if getattr(args, "stdin", None) is not None else sys.stdin
    try:
        report_format = _report_format(args)
        expected, given = _sources(args, stdin)
        outcome, stats, api_key = _score(args, expected.text, given.text)
        if report_format is not None:
            _write_report(report_format, args.output, outcome, stats, api_key, expected, given)
    except (OSError, BadInput) as exc:  # OSError: the report file (ReportError names it)
        return fail(PROG, EXIT_BAD_INPUT, exc)
    except JUDGE_ERRORS as exc:
        return judge_exit(PROG, exc)
    if args.json:
        json.dump(outcome_dict(outcome, expected, given), out, indent=2)
        out.write("\n")
    else:
        render(outcome, expected, given, out)
    out.flush()
    return EXIT_OK
