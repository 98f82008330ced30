"""``texts-score calibrate``: measure how far a judge can be trusted, on labelled text pairs.

Usage::

    texts-score calibrate LABELLED.jsonl [--threshold 0.5] [--repeats R]
        [--min-balanced-accuracy X] [--max-flip-rate Y] [--json]
        [--report json|html -o PATH] [judge options as for compare]

Exit codes: 0 measured (and every bound given is met); 1 a bound is missed (the last line says
which and by how much); 2 bad input (a labelled file the command cannot use, a bad option,
settings that name no usable judge); 3 the judge failed at run time.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from pytest_texts_score._cli.common import PROG, add_judge_arguments, judge_values
from scorekit.cli import (
    EXIT_BAD_INPUT,
    EXIT_BELOW,
    EXIT_OK,
    JUDGE_ERRORS,
    fail,
    judge_exit,
    unit_interval,
    whole_number,
)

__all__ = ["COMMAND", "register", "run"]

COMMAND = "calibrate"
REPORT_FORMATS = ("json", "html")


def register(subparsers: Any) -> None:
    """Register ``calibrate`` on the ``texts-score`` sub-command parsers."""
    p = subparsers.add_parser(
        COMMAND,
        help="measure a judge on labelled text pairs (balanced accuracy, ROC AUC, kappa)",
        description="Score every labelled pair of LABELLED (JSON lines: id, expected, given,"
        " label 1 = given is supported by expected, 0 = not; optional domain and metric) on"
        " the judge, and print how well its scores separate the labels: balanced accuracy at"
        " --threshold and at the best threshold, ROC AUC, Cohen's kappa, overall and per"
        " domain; with --repeats, how often its verdict flips. Exit 0 measured, 1 a bound"
        " (--min-balanced-accuracy, --max-flip-rate) missed, 2 bad input, 3 the judge failed.",
    )
    p.add_argument("labelled", metavar="LABELLED", help="the labelled pairs (.jsonl)")
    p.add_argument(
        "--threshold",
        type=unit_interval,
        default=0.5,
        metavar="T",
        help="a score >= T is the verdict 'supported' (default 0.5)",
    )
    p.add_argument(
        "--repeats",
        type=whole_number(1),
        default=1,
        metavar="R",
        help="score every item R times (own judge calls each); its score is the mean, and"
        " the repeats give the judge's self-consistency (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    gates = p.add_argument_group("gates")
    gates.add_argument(
        "--min-balanced-accuracy",
        type=unit_interval,
        metavar="X",
        help="exit 1 when the balanced accuracy at --threshold is below X",
    )
    gates.add_argument(
        "--max-flip-rate",
        type=unit_interval,
        metavar="Y",
        help="exit 1 when the share of items whose verdict flips between repeats is above Y"
        " (needs --repeats 2 or more)",
    )
    add_judge_arguments(
        p,
        "Default: the embedded offline judge (no key, no network). Unset options fall back to"
        " the environment, as for compare.",
    )
    cost = p.add_argument_group("cost")
    for side, tokens in (("input", "prompt"), ("output", "completion")):
        cost.add_argument(
            f"--price-{side}-per-mtok",
            type=_price,
            metavar="USD",
            help=f"US dollars per million {tokens} tokens, for the cost estimate (default:"
            " the built-in price table; pytest's llm_price_*_per_mtok)",
        )
    report = p.add_argument_group("report")
    report.add_argument(
        "--report", choices=REPORT_FORMATS, help="also write a report file; needs -o"
    )
    report.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where --report writes (format from the suffix .json/.html when --report is"
        " not given)",
    )
    p.set_defaults(run=run)


def _price(text: str) -> float:
    """A finite number >= 0."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


def _totals(stats: dict[str, Any], args: argparse.Namespace) -> Any:
    """The judge's totals; with ``--price-*-per-mtok``, the cost from those prices (the other
    side's price from the table, or 0), as the session's budget prices it."""
    import dataclasses

    from scorekit.report import judge_totals
    from scorekit.session import BudgetCaps, price_of

    totals = judge_totals(stats)
    given = (args.price_input_per_mtok, args.price_output_per_mtok)
    if totals is None or given == (None, None):
        return totals
    table = price_of(totals.model) or (0.0, 0.0)
    price_in, price_out = (t if g is None else g for g, t in zip(given, table, strict=True))
    caps = BudgetCaps(price_input=price_in, price_output=price_out)
    cost = caps.cost(totals.prompt_tokens, totals.completion_tokens) if totals.tokens else None
    return dataclasses.replace(totals, cost_usd=cost)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Run ``texts-score calibrate``; return the exit code."""
    from pytest_texts_score._calibrate import (
        calibration_document,
        check_gates,
        rounded_document,
        score_items,
    )
    from pytest_texts_score._labelled import CalibrationError, read_labelled
    from scorekit.judges import resolve_settings
    from scorekit.report import report_format
    from scorekit.session import ScoreSession

    try:
        fmt = report_format(args.report, args.output, REPORT_FORMATS)
    except ValueError as exc:
        return fail(PROG, EXIT_BAD_INPUT, str(exc))
    if args.max_flip_rate is not None and args.repeats < 2:
        return fail(
            PROG,
            EXIT_BAD_INPUT,
            "--max-flip-rate needs --repeats 2 or more (a verdict can only flip between repeats)",
        )
    try:
        items = read_labelled(args.labelled)
    except CalibrationError as exc:
        return fail(PROG, EXIT_BAD_INPUT, str(exc))
    try:
        # Messages then name this command's own flags (--model, not --llm-model).
        settings = resolve_settings(cli=judge_values(args), surface="cli")
        session = ScoreSession(settings)
        try:
            scored = score_items(items, session=session, repeats=args.repeats)
            stats: dict[str, Any] = {
                **session.stats.as_dict(),
                # The built judge's own name (a custom judge's ``name``, say).
                "judge": session.judge().name,
                "model": settings.model or settings.deployment,
            }
        finally:
            session.close()
    except JUDGE_ERRORS as exc:
        return judge_exit(PROG, exc)

    totals = _totals(stats, args)
    doc = calibration_document(
        scored,
        source=args.labelled,
        threshold=args.threshold,
        repeats=args.repeats,
        judge=totals.to_dict() if totals is not None else None,
    )
    doc["gates"] = check_gates(
        doc,
        min_balanced_accuracy=args.min_balanced_accuracy,
        max_flip_rate=args.max_flip_rate,
    )
    shown = rounded_document(doc)
    written = None
    if fmt is not None:
        # JSON holds rounded scores; the pages and lines format the exact ones (so a score
        # just below a bound never reads as equal to it).
        written = _write(fmt, args.output, shown if fmt == "json" else doc, settings.api_key)
        if isinstance(written, int):
            return written
    from scorekit.format import terminal_width
    from scorekit.report import gate_lines, render_calibration_text

    if args.json:
        out.write(json.dumps(shown, indent=2, ensure_ascii=False) + "\n")
        out.flush()
        for line in gate_lines(doc):  # stdout stays one JSON document
            sys.stderr.write(line + "\n")
    else:
        out.write(render_calibration_text(doc, terminal_width(out)) + "\n")
        if written is not None:
            out.write(f"{fmt} report written to {written}\n")
        for line in gate_lines(doc):
            out.write(line + "\n")
    out.flush()
    if any(not g["met"] for g in doc["gates"]):
        return EXIT_BELOW
    return EXIT_OK


def _write(fmt: str, path: str, doc: dict[str, Any], api_key: str | None) -> Any:
    """Write the report; its path, or the exit code when it cannot be written."""
    from scorekit.report import ReportError, write_text

    if fmt == "json":
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    else:
        from scorekit.report import render_calibration_html

        text = render_calibration_html(doc)
    try:
        return write_text(path, text, secrets=[api_key])
    except ReportError as exc:
        return fail(PROG, EXIT_BAD_INPUT, str(exc))
