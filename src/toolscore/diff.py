"""Expected against actual calls, side by side: the diff table, the failure text, and the
ranked "top issues to fix" list.

All three pair calls with the one-to-one alignment ``evaluate()`` uses and compare arguments
with its comparison rule (matchers honoured), so a reordered or repeated call never shifts
what is compared with what.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> fixes = build_eval_fix_list(
    ...     [ToolCall("search", {"q": "cats"}), ToolCall("summarize")],
    ...     [ToolCall("search", {"q": "dogs"})])
    >>> [(f.priority, f.tool) for f in fixes]
    [(0, 'summarize'), (2, 'search')]
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

from toolscore._engine.align.pairing import Alignment, align
from toolscore._engine.read.inputs import CallList, read_calls
from toolscore._engine.score.details import argument_details
from toolscore._engine.score.render import format_call, format_value, render_result
from toolscore.adapters.base import ToolCall
from toolscore.verdict import FixSuggestion

if TYPE_CHECKING:
    from rich.table import Table

    from toolscore._engine.score.result import EvaluationResult

__all__ = ["build_diff_table", "build_eval_fix_list", "render_failure"]

Calls = Sequence[ToolCall | Mapping[str, Any]]

PRIORITY_MISSING, PRIORITY_WRONG_TOOL, PRIORITY_ARGUMENTS, PRIORITY_EXTRA = 0, 1, 2, 3


def _read(gold: Calls, trace: Calls, strict: bool) -> tuple[CallList, CallList, Alignment]:
    g = read_calls(list(gold), expected=True)
    t = read_calls(list(trace), expected=False)
    return g, t, align(g.tools, g.args, t.tools, t.args, strict)


def _argument_problems(
    e_args: dict[str, Any] | None, a_args: dict[str, Any] | None, strict: bool
) -> list[str]:
    """``name: expected != actual``, ``missing: name``, ``unexpected: name`` lines."""
    lines = []
    for arg in argument_details(e_args, a_args, strict):
        if arg.status == "mismatch":
            shown = f"{format_value(arg.expected, 40)} != {format_value(arg.actual, 40)}"
            lines.append(f"{arg.name}: {shown}")
        elif arg.status in ("missing", "unexpected"):
            lines.append(f"{arg.status}: {arg.name}")
    if e_args == {} and a_args and not lines:
        lines.append("expected no arguments")
    return lines


def _rows(
    gold: CallList, trace: CallList, alignment: Alignment, strict: bool
) -> list[tuple[int | None, int | None, list[str]]]:
    """``(expected index, actual index, problems)`` in trace order, missing calls placed
    after the actual call paired with the expected call before them."""
    partner = dict(alignment.pairs)
    by_actual: dict[int, int] = {j: i for i, j in alignment.pairs}
    missing_after: dict[int, list[int]] = {}
    last = -1
    for i in range(len(gold)):
        j = partner.get(i)
        if j is None:
            missing_after.setdefault(last, []).append(i)
        else:
            last = j
    rows: list[tuple[int | None, int | None, list[str]]] = [
        (i, None, ["MISSING"]) for i in missing_after.get(-1, [])
    ]
    for j in range(len(trace)):
        paired = by_actual.get(j)
        if paired is None:
            rows.append((None, j, ["EXTRA"]))
        else:
            rows.append((paired, j, _argument_problems(gold.args[paired], trace.args[j], strict)))
        rows.extend((m, None, ["MISSING"]) for m in missing_after.get(j, []))
    return rows


def build_diff_table(gold: Calls, trace: Calls, *, strict: bool = False) -> Table:
    """A ``rich`` table of expected against actual calls: ``#``, ``Expected``, ``Actual``,
    ``Status`` (``ok``, the argument differences, ``MISSING`` or ``EXTRA``).

    Args:
        gold: the expected calls (``ToolCall`` objects or call dicts).
        trace: the actual calls.
        strict: compare argument values by exact type and value.
    """
    from rich.table import Table
    from rich.text import Text

    g, t, alignment = _read(gold, trace, strict)
    table = Table(title="Expected vs actual tool calls", show_lines=True, header_style="bold")
    table.add_column("#", justify="right", no_wrap=True)
    for title in ("Expected", "Actual", "Status"):
        table.add_column(title, overflow="fold")
    for n, (i, j, problems) in enumerate(_rows(g, t, alignment, strict), 1):
        expected = format_call(g.tools[i], g.args[i]) if i is not None else "-"
        actual = format_call(t.tools[j], t.args[j]) if j is not None else "-"
        style, status = "green", "ok"
        if problems:
            style = "red" if problems[0] in ("MISSING", "EXTRA") else "yellow"
            status = "\n".join(problems)
        table.add_row(str(n), Text(expected), Text(actual), Text(status, style=style), style=style)
    return table


def render_failure(
    result: EvaluationResult, min_score: float, *, color: bool = False, width: int = 100
) -> str:
    """The failure report of a result below ``min_score``: the diff table, then the full
    explanation (every pair and argument, missing and extra calls, scores, one hint).

    Args:
        result: the evaluation.
        min_score: the threshold it missed.
        color: keep terminal colours (ANSI escapes) in the table.
        width: the table's width in characters.
    """
    from rich.console import Console

    console = Console(
        file=io.StringIO(),
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
        record=True,
    )
    table = build_diff_table(result.gold_calls, result.trace_calls, strict=result.strict)
    console.print(table)
    text = console.export_text(styles=color)
    return text.rstrip() + "\n\n" + render_result(result, min_score=min_score) + "\n"


def _missing_fix(tool: str) -> FixSuggestion:
    return FixSuggestion(
        tool=tool,
        problem=f"the expected call to {tool!r} was never made",
        fix="Check that the agent is offered this tool under exactly this name and that the "
        "prompt or the tool's description leads it there.",
        priority=PRIORITY_MISSING,
    )


def _extra_fix(tool: str) -> FixSuggestion:
    return FixSuggestion(
        tool=tool,
        problem=f"an unexpected call to {tool!r}",
        fix="Stop the agent from making it, or add it to the expected calls if it is fine.",
        priority=PRIORITY_EXTRA,
    )


def _swaps(gold: CallList, trace: CallList, alignment: Alignment) -> list[tuple[int, int]]:
    """Missing expected calls paired with extra actual calls that took their place.

    First by name (a misspelt tool: the closest name, similarity >= 0.6), then by place (a
    missing and an extra call between the same two aligned pairs, in order).
    """
    missing, extra = list(alignment.missing), list(alignment.extra)
    swaps: list[tuple[int, int]] = []
    for i in list(missing):
        scored = [
            (SequenceMatcher(None, gold.tools[i].lower(), trace.tools[j].lower()).ratio(), -j, j)
            for j in extra
        ]
        best = max(scored, default=None)
        if best is not None and best[0] >= 0.6:
            swaps.append((i, best[2]))
            missing.remove(i)
            extra.remove(best[2])
    pairs = sorted(alignment.pairs)
    for i in missing:
        gap = sum(1 for e, _ in pairs if e < i)
        j = next((j for j in extra if sum(1 for _, a in pairs if a < j) == gap), None)
        if j is not None:
            swaps.append((i, j))
            extra.remove(j)
    return sorted(swaps)


def build_eval_fix_list(gold: Calls, trace: Calls, *, strict: bool = False) -> list[FixSuggestion]:
    """The problems of a trace as ranked fixes: missing calls first, then a wrong tool
    called where another was expected, then argument differences, then extra calls.

    A missing expected call and an extra actual call read as one wrong tool ("called X where
    Y was expected") when the names look alike or the two sit between the same aligned
    neighbours.

    Returns:
        :class:`~toolscore.verdict.FixSuggestion` items, most urgent first (empty when the
        calls match).
    """
    g, t, alignment = _read(gold, trace, strict)
    out: list[FixSuggestion] = []
    for (i, j), count in zip(alignment.pairs, alignment.counts, strict=True):
        if count.all_ok:
            continue
        problems = _argument_problems(g.args[i], t.args[j], strict)
        out.append(
            FixSuggestion(
                tool=g.tools[i],
                problem=f"{g.tools[i]!r} was called with other arguments ({'; '.join(problems)})",
                fix="Make the agent pass the expected values, or accept the variation in the "
                "expectation with a matcher (ANY, Regex, Approx, OneOf, Contains, IsType).",
                priority=PRIORITY_ARGUMENTS,
            )
        )
    swaps = _swaps(g, t, alignment)
    for i, j in swaps:
        out.append(
            FixSuggestion(
                tool=t.tools[j],
                problem=f"called {t.tools[j]!r} where {g.tools[i]!r} was expected",
                fix=f"Make {g.tools[i]!r} the clear choice for this step: its name and "
                "description, or the prompt, should lead the agent to it.",
                priority=PRIORITY_WRONG_TOOL,
            )
        )
    swapped = dict(swaps)
    out.extend(_missing_fix(g.tools[i]) for i in alignment.missing if i not in swapped)
    out.extend(_extra_fix(t.tools[j]) for j in alignment.extra if j not in swapped.values())
    out.sort(key=lambda s: s.priority)
    return out
