"""``toolscore eval``: score a trace against a gold file (``compare`` reuses its options).

Both it and ``toolscore compare`` keep our exit codes (0 the score meets ``--min-score``, 1 it
does not, 2 bad input) and take Toolscore 1.10's options beside ours: ``--weight NAME=VALUE``,
``--forbidden FILE``, ``--fail-on-violations``, ``--no-side-effects``, ``--save-baseline PATH``,
``-v`` (eval); ``-n/--names`` (compare).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from scorekit.cli import unit_interval
from scorekit.format import format_bound, format_score
from toolscore._cli.common import (
    EXIT_BELOW,
    EXIT_OK,
    CommandError,
    add_format_option,
    report_format,
    write_report,
)
from toolscore._engine.read.trace_files import TraceFileError

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow
    from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "COLUMNS",
    "add_scoring_options",
    "register",
    "row",
    "score",
    "settings",
]

COLUMNS = (
    ("tool_f1", "tool_f1"),
    ("argument_f1", "arg_f1"),
    ("sequence_accuracy", "sequence"),
    ("redundant_rate", "redundant"),
)


def _weight(text: str) -> tuple[str, float]:
    name, sep, raw = text.partition("=")
    try:
        value = float(raw)
    except ValueError:
        sep = ""
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(
            f"--weight takes NAME=VALUE, like --weight required_call_recall=0.3; got {text!r}"
        )
    return name.strip(), value


def add_scoring_options(p: argparse.ArgumentParser) -> None:
    add_format_option(p)
    p.add_argument(
        "--strict", action="store_true", help="compare argument values by exact type and value"
    )
    p.add_argument(
        "--weight",
        dest="weights",
        action="append",
        type=_weight,
        default=[],
        metavar="NAME=VALUE",
        help="override a score weight (repeatable), e.g. --weight required_call_recall=0.3",
    )
    p.add_argument(
        "--forbidden",
        metavar="PATH",
        help='JSON file of calls the agent must never make, e.g. [{"tool": "run_shell", '
        '"args": {"command": {"$regex": "rm -rf"}}}]',
    )
    p.add_argument(
        "--no-side-effects",
        action="store_true",
        help="skip the gold calls' side_effects checks (http_ok, file_exists, sql_rows)",
    )
    p.add_argument(
        "--report",
        choices=("json", "md", "html", "csv"),
        help="also write a report in this format (needs -o PATH)",
    )
    judge = p.add_argument_group(
        "LLM judge",
        "With --llm-judge, arguments exact matching rejects go to the judge; the scores follow"
        " its verdicts. The judge is the one the environment configures (OPENAI_BASE_URL,"
        " OPENAI_API_KEY, AZURE_OPENAI_*, as for texts-score), or the one --llm-model,"
        " --llm-provider and --llm-base-url name; with none, the offline MiniLM similarity.",
    )
    judge.add_argument(
        "--llm-judge", action="store_true", help="let the judge decide rejected arguments"
    )
    judge.add_argument("--llm-model", metavar="MODEL", help="the judge's model (e.g. gpt-4o-mini)")
    judge.add_argument(
        "--llm-provider",
        choices=("openai", "openai_compatible", "azure", "local"),
        help="the judge's provider (default: inferred)",
    )
    judge.add_argument(
        "--llm-base-url", metavar="URL", help="an OpenAI-compatible server (or Azure endpoint)"
    )


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``eval`` to the ``toolscore`` command."""
    ev = sub.add_parser(
        "eval",
        help="score one trace; exit 1 when the score is below --min-score",
        description="Score one trace against a gold file. Exit 0 when the score meets "
        "--min-score, 1 when it does not (or, with --fail-on-violations, when a forbidden call "
        "or a credential in the arguments is found), 2 on bad input.",
    )
    ev.add_argument("gold", help="JSON list of expected calls (argument matchers allowed)")
    ev.add_argument("trace", help="recorded calls: provider response, MCP log, OTel spans...")
    ev.add_argument(
        "--min-score",
        type=unit_interval,
        default=0.9,
        help="passing score (default 0.9)",
    )
    add_scoring_options(ev)
    ev.add_argument(
        "-o", "--output", metavar="PATH", help="write a report here (format from the suffix)"
    )
    for flag, what in (("html", "HTML"), ("csv", "CSV"), ("markdown", "Markdown")):
        ev.add_argument(f"--{flag}", metavar="PATH", help=f"also write a {what} report here")
    ev.add_argument(
        "--fail-on-violations",
        action="store_true",
        help="exit 1 when a forbidden call or a credential in tool arguments is found",
    )
    ev.add_argument(
        "--save-baseline", metavar="PATH", help="save the metrics for toolscore regression"
    )
    ev.add_argument("--verbose", "-v", action="store_true", help="also list every metric")
    ev.add_argument(
        "--debug",
        "-d",
        action="store_true",
        help="also list the problems as fixes, most urgent first",
    )
    ev.set_defaults(run=_cmd_eval)


def settings(
    args: argparse.Namespace,
) -> tuple[list[dict[str, Any]] | None, dict[str, float] | None]:
    """The forbidden rules and weights, checked once before any trace is read."""
    from toolscore._engine.score.weights import resolve_weights
    from toolscore.metrics.policy import load_forbidden_rules

    weights = dict(args.weights) or None
    try:
        resolve_weights(weights)
    except (TypeError, ValueError) as exc:
        raise CommandError(f"--weight: {' '.join(str(exc).split())}") from None
    if not args.forbidden:
        return None, weights
    try:
        return load_forbidden_rules(args.forbidden), weights
    except TraceFileError:
        raise
    except (TypeError, ValueError) as exc:
        raise CommandError(f"--forbidden {' '.join(str(exc).split())}") from None


def score(
    args: argparse.Namespace,
    trace: str,
    rules: list[dict[str, Any]] | None,
    weights: dict[str, float] | None,
) -> EvaluationResult:
    from scorekit.judges import JudgeError
    from toolscore._engine.check.evaluate_trace import evaluate_trace

    try:
        return evaluate_trace(
            args.gold,
            trace,
            args.format,
            validate_side_effects=not args.no_side_effects,
            judge=_judge(args),
            forbidden=rules,
            weights=weights,
            strict=args.strict,
        )
    except TraceFileError:
        raise  # its message names the file already
    except JudgeError as exc:
        raise CommandError(f"--llm-judge: {' '.join(str(exc).split())}") from None
    except (TypeError, ValueError) as exc:
        raise CommandError(f"{trace}: {' '.join(str(exc).split())}") from None


def _judge(args: argparse.Namespace) -> Any:
    """What ``--llm-judge`` and its options ask for: False, True or a ``JudgeConfig``."""
    named = [args.llm_model, args.llm_provider, args.llm_base_url]
    if not args.llm_judge:
        if any(v is not None for v in named):
            raise CommandError("--llm-model, --llm-provider and --llm-base-url need --llm-judge")
        return False
    if all(v is None for v in named):
        return True
    from toolscore.metrics.llm_judge import JudgeConfig

    config = JudgeConfig(provider=args.llm_provider, base_url=args.llm_base_url)
    if args.llm_model:
        config.model = args.llm_model
    return config


def _judge_lines(result: EvaluationResult) -> list[str]:
    """One line on what the judge did (and the offline fallback's note)."""
    semantic = result.metrics.get("semantic_metrics")
    if not semantic:
        return []
    judged = semantic["judged_arguments"]
    lines = [
        f"Judge: {semantic['judge']} ({semantic['method']}) judged {len(judged)} argument(s)"
        f" exact matching rejected, {semantic['equivalent_arguments']} equivalent; semantic"
        f" score {format_score(semantic['semantic_score'])}."
    ]
    if semantic.get("note"):
        lines.append(semantic["note"])
    return lines


def row(result: EvaluationResult, trace: str, threshold: float | None, cmd: str) -> ToolScoreRow:
    from toolscore._engine.check.failure import score_row

    return score_row(
        result,
        test_id=trace,
        function=f"toolscore {cmd}",
        threshold=threshold,
        passed=threshold is None or result.score >= threshold,
        details=result.to_dict(),
    )


def _scores_line(result: EvaluationResult) -> str:
    return "  ".join(f"{label} {format_score(getattr(result, name))}" for name, label in COLUMNS)


def _violations(result: EvaluationResult) -> int:
    secrets = (result.metrics.get("security_metrics") or {}).get("secret_count", 0)
    return len(result.policy_violations) + int(secrets or 0)


def _check_lines(result: EvaluationResult) -> list[str]:
    """Forbidden calls, credentials, side effects and schemas, one line each when present."""
    from toolscore._engine.score.render import format_call

    m = result.metrics
    lines = []
    for v in result.policy_violations:
        why = f" ({v['reason']})" if v.get("reason") else ""
        lines.append(
            f"Forbidden call: actual call #{v['index'] + 1} "
            f"{format_call(v['tool'], v.get('args'))}{why}."
        )
    secrets = (m.get("security_metrics") or {}).get("secret_count", 0)
    if secrets:
        lines.append(f"Credentials in tool arguments: {secrets} (see the JSON report for where).")
    effects = m.get("side_effect_metrics") or {}
    if effects.get("total_checks"):
        failed = [d for d in effects["details"] if not d["passed"]]
        lines.append(
            f"Side effects: {effects['passed_checks']} of {effects['total_checks']} checks passed"
            + "".join(f"; {d['tool']} {d['check']}: {d['reason']}" for d in failed)
            + "."
        )
    schemas = m.get("schema_metrics") or {}
    if schemas.get("total_validated"):
        lines.append(
            f"Argument schemas: {schemas['total_validated'] - schemas['failed_count']} of "
            f"{schemas['total_validated']} checked calls comply"
            + "".join(f"; {e}" for e in schemas["error_details"])
            + "."
        )
    return lines


def _metric_lines(result: EvaluationResult) -> list[str]:
    from toolscore.baseline import metric_values

    return ["Metrics:"] + [f"  {k}: {format_score(v)}" for k, v in metric_values(result).items()]


def _cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore._engine.score.render import render_result

    fmt = report_format(args)
    rules, weights = settings(args)
    result = score(args, args.trace, rules, weights)
    passed = result.score >= args.min_score
    out.write(render_result(result, min_score=args.min_score).rstrip() + "\n\n")
    checks = _check_lines(result) + _judge_lines(result)
    if args.verbose:
        checks += _metric_lines(result)
    if args.debug:
        from toolscore.debug import fix_lines

        checks += fix_lines(result)
    if checks:
        out.write("\n".join(checks) + "\n\n")
    out.write(_scores_line(result) + "\n")
    verdict, op = ("PASS", ">=") if passed else ("FAIL", "<")
    out.write(
        f"{verdict}: {args.trace}: score {format_score(result.score, args.min_score)}"
        f" (grade {result.grade}) {op} min {format_bound(args.min_score)}\n"
    )
    asked = [(args.output, fmt), (args.html, "html"), (args.csv, "csv"), (args.markdown, "md")]
    reports = [(path, kind) for path, kind in asked if path and kind]
    if reports:
        rows = [row(result, args.trace, args.min_score, "eval")]
        for path, kind in reports:
            write_report(rows, path, kind, out)
    if args.save_baseline:
        from toolscore.baseline import save_baseline

        written = save_baseline(result, args.save_baseline, args.gold)
        out.write(f"Baseline written to {written}\n")
    if args.fail_on_violations and _violations(result):
        out.write(
            f"FAIL: {_violations(result)} forbidden call(s) or credential(s) found "
            "(--fail-on-violations)\n"
        )
        return EXIT_BELOW
    return EXIT_OK if passed else EXIT_BELOW
