"""The terminal summary of one evaluation (``rich``; plain text when not on a terminal)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorekit.format import format_percent

if TYPE_CHECKING:
    from rich.console import Console

    from toolscore._engine.score.result import EvaluationResult

__all__ = ["print_error", "print_evaluation_summary", "print_progress", "print_validation_result"]

_TOP_ISSUES = 8


def _console(console: Console | None) -> Console:
    if console is not None:
        return console
    from rich.console import Console

    return Console(highlight=False)


def _style(value: float | None, lower_is_better: bool = False) -> str:
    if value is None:
        return "dim"
    good = 1.0 - value if lower_is_better else value
    return "green" if good >= 0.9 else "yellow" if good >= 0.7 else "red"


def print_evaluation_summary(
    result: EvaluationResult,
    console: Console | None = None,
    verbose: bool = False,
    show_explanations: bool = True,
) -> None:
    """Print the score, the main metrics, the top issues to fix and the behaviour findings.

    Args:
        result: the evaluation.
        console: a ``rich.console.Console`` to print to (default: a new one on stdout).
        verbose: also print the full explanation (every pair and argument compared).
        show_explanations: also print the tips of :mod:`toolscore.explainer`.
    """
    from rich.table import Table
    from rich.text import Text

    from toolscore.diff import build_eval_fix_list
    from toolscore.metrics.security import redact_secrets
    from toolscore.reports._findings import behavior_findings

    out = _console(console)
    score = result.score
    verdict = "PASS" if score >= 0.9 else "WARN" if score >= 0.7 else "FAIL"
    out.print(Text("Toolscore evaluation", style="bold cyan"))
    out.print(
        Text(
            f"Score {format_percent(score)}  grade {result.grade}  {verdict}  "
            f"({len(result.gold_calls)} expected call(s), {len(result.trace_calls)} made)",
            style=f"bold {_style(score)}",
        )
    )
    table = Table(show_header=True, header_style="bold")
    table.add_column("Metric")
    table.add_column("Value", justify="right")
    rows: list[tuple[str, float | None, bool]] = [
        ("Selection accuracy", result.selection_accuracy, False),
        ("Tool F1", result.tool_f1, False),
        ("Argument F1", result.argument_f1, False),
        ("Sequence accuracy", result.sequence_accuracy, False),
        ("Redundant call rate", result.redundant_rate, True),
        ("Required calls completed", result.required_call_recall, False),
    ]
    if verbose:
        m: Any = result.metrics
        rows.insert(0, ("Invocation accuracy", m.get("invocation_accuracy"), False))
        trajectory = (m.get("trajectory_metrics") or {}).get("trajectory_accuracy")
        rows.append(("Trajectory accuracy", trajectory, False))
    for label, value, lower in rows:
        shown = "n/a" if value is None else format_percent(value)
        table.add_row(label, Text(shown, style=_style(value, lower)))
    out.print(table)

    fixes = build_eval_fix_list(result.gold_calls, result.trace_calls, strict=result.strict)
    if fixes:
        out.print(Text("Top issues to fix", style="bold"))
        for n, fix in enumerate(fixes[:_TOP_ISSUES], 1):
            out.print(Text(f"  {n}. {fix.tool}: {redact_secrets(fix.problem)}"))
            out.print(Text(f"     -> {fix.fix}", style="dim"))
        if len(fixes) > _TOP_ISSUES:
            out.print(Text(f"  ... and {len(fixes) - _TOP_ISSUES} more issue(s)", style="dim"))
    else:
        out.print(Text("No issues: the calls match the expected calls.", style="green"))

    findings = behavior_findings(result)
    if findings:
        out.print(Text("Behaviour and safety", style="bold"))
        for f in findings:
            style = "bold red" if f["severity"] == "error" else "yellow"
            out.print(
                Text(f"  {f['severity'].upper():<7} {redact_secrets(f['message'])}", style=style)
            )
    if show_explanations:
        from toolscore.explainer import generate_explanations, get_all_tips

        tips = get_all_tips(generate_explanations(result))
        if tips:
            out.print(Text("Tips", style="bold"))
            for tip in tips:
                out.print(Text(f"  - {tip}"))
    if verbose:
        out.print(Text(redact_secrets(result.explain())))


def print_validation_result(
    trace_file: str, call_count: int, first_call: Any | None = None, console: Console | None = None
) -> None:
    """Print that a trace file is valid, with its number of calls and its first call."""
    from rich.text import Text

    out = _console(console)
    out.print(Text(f"OK: {trace_file} is a valid trace with {call_count} call(s)", style="green"))
    if first_call is not None:
        out.print(Text(f"  first call: {first_call.tool}({first_call.args or {}})"))


def print_error(message: str, console: Console | None = None) -> None:
    """Print an error message."""
    from rich.text import Text

    _console(console).print(Text(f"ERROR: {message}", style="bold red"))


def print_progress(message: str, console: Console | None = None) -> None:
    """Print a progress message."""
    from rich.text import Text

    _console(console).print(Text(f"> {message}", style="dim"))
