"""``toolscore.debug``: Toolscore 1.10's debug entry point, without the interactive prompt.

Toolscore walks the mismatches one by one at a prompt; here the same session prints every issue
at once, most urgent first, with its fix (what ``toolscore eval -d`` prints), so it never waits
for input in CI or in a pipe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore.diff import build_eval_fix_list

if TYPE_CHECKING:
    from rich.console import Console

    from toolscore._engine.score.result import EvaluationResult

__all__ = ["fix_lines", "run_interactive_debug"]


def fix_lines(result: EvaluationResult) -> list[str]:
    """The issues of ``result``, most urgent first, each with its fix.

    Example:
        >>> from toolscore import evaluate
        >>> fix_lines(evaluate([{"tool": "a", "args": {}}], [{"tool": "a", "args": {}}]))
        ['Nothing to fix: every expected call was made as expected.']
    """
    fixes = build_eval_fix_list(result.gold_calls, result.trace_calls, strict=result.strict)
    if not fixes:
        return ["Nothing to fix: every expected call was made as expected."]
    lines = ["Issues to fix, most urgent first:"]
    for n, fix in enumerate(fixes, 1):
        lines += [f"  {n}. {fix.problem[0].upper()}{fix.problem[1:]}.", f"     Fix: {fix.fix}"]
    return lines


def run_interactive_debug(result: EvaluationResult, console: Console | None = None) -> None:
    """Print every issue of ``result`` with its fix (Toolscore's signature; no prompt).

    Args:
        result: the evaluation to explain.
        console: where to print (default: a new rich console on stdout).
    """
    from rich.console import Console

    out = console if console is not None else Console()
    for line in fix_lines(result):
        out.print(line, markup=False, highlight=False)
