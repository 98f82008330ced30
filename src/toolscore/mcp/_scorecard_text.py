"""The scorecard for people: a ``rich`` console view and Markdown."""

from __future__ import annotations

from typing import Any

from scorekit.format import format_percent, format_score

# The card is ``toolscore.mcp.scorecard.MCPScorecard``, which calls into this module: naming
# its class here (even for type checkers only) would close an import circle.
MCPScorecard = Any

__all__ = ["components", "markdown", "print_card"]

_SHOWN_FIXES = 8
_GRADE_STYLE = {"A": "green", "B": "green", "C": "yellow", "D": "red", "F": "red"}


def components(card: MCPScorecard) -> str:
    """``happy 80% | edge 100% | lint 91% | effect 0%`` (effect once probes ran)."""
    parts = [
        f"happy {format_percent(card.happy_pass_rate)}",
        f"edge {format_percent(card.edge_resilience_rate)}",
        f"lint {format_percent(card.lint_score)}",
    ]
    if card.effect_rate is not None:
        parts.append(f"effect {format_percent(card.effect_rate)}")
    return " | ".join(parts)


def _probe_line(card: MCPScorecard) -> str:
    probes = card.probes or []
    ran = [p for p in probes if p.held is not None]
    if not probes:
        return (
            "Effect probes: no write tool could be paired with a read tool (declare pairs"
            " with --probes-file)."
        )
    line = f"Effect probes: {sum(bool(p.held) for p in ran)}/{len(ran)} held" + (
        f" ({format_percent(card.effect_rate)})" if ran else ""
    )
    skipped = len(probes) - len(ran)
    if skipped:
        line += f"; {skipped} not run (the write failed)"
    return line + "."


def _summary_lines(card: MCPScorecard) -> list[str]:
    happy = [r for r in card.results if r.scenario.kind == "happy"]
    edge = [r for r in card.results if r.scenario.kind == "edge"]
    lines = [
        f"Happy paths: {sum(r.ok for r in happy)}/{len(happy)} passed"
        f" ({format_percent(card.happy_pass_rate)}).",
        f"Edge cases: {sum(r.ok for r in edge)}/{len(edge)} answered without a crash or hang"
        f" ({format_percent(card.edge_resilience_rate)}); "
        f"{sum(r.outcome == 'accepted' for r in edge)} accepted without an error.",
        f"Lint: {card.lint_error_count} error(s), {card.lint_warning_count} warning(s)"
        f" (score {format_percent(card.lint_score)}).",
        f"Context: about {card.total_tool_tokens} tokens of tool definitions for"
        f" {len(card.tools)} tool(s)"
        + (
            f", plus {card.instructions_tokens} of server instructions"
            f" ({card.context_tokens} in all), on every request."
            if card.instructions
            else ", on every request."
        ),
    ]
    if card.probes is not None:
        lines.append(_probe_line(card))
    skipped = [r for r in card.results if r.outcome == "skipped" and r.scenario.kind == "skipped"]
    if skipped:
        names = ", ".join(sorted({r.scenario.tool for r in skipped}))
        lines.append(f"Not called (they run only as tasks): {names}.")
    if card.restarts:
        lines.append(f"The server was restarted {card.restarts} time(s) after a crash or hang.")
    return lines


def print_card(card: MCPScorecard, fixes: list[Any], console: Any = None) -> None:
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    style = _GRADE_STYLE.get(card.grade, "white")
    head = Text()
    head.append(f"MCP scorecard: {card.title}\n", style="bold")
    head.append("Grade ")
    head.append(card.grade, style=f"bold {style}")
    head.append(
        f"  score {format_score(card.score)}  ({card.transport}, protocol {card.protocol_version})"
    )
    head.append(f"\n{components(card)}")
    console.print(Panel(head, expand=False, border_style=style))
    cells = [
        [
            row["name"],
            "skipped" if row["skipped"] else f"{row['happy_passed']}/{row['happy_total']}",
            f"{row['edge_survived']}/{row['edge_total']}",
            f"{row['avg_latency_ms']:.1f}",
            str(row["tokens"]),
            str(row["lint_issues"]),
        ]
        for row in card.tool_summaries()
    ]
    table = Table(header_style="bold")
    # On a terminal too narrow for the table, headers wrap and a tool's name folds onto more
    # lines; no cell is ever cut (a number keeps its width).
    table.add_column("Tool", overflow="fold")
    for i, column in enumerate(("Happy", "Edge", "Avg ms", "Tokens", "Lint"), 1):
        widest = max((len(c[i]) for c in cells), default=1)
        table.add_column(column, justify="right", min_width=widest, overflow="fold")
    for name, happy, *rest in cells:
        ok = happy.split("/")[0] == happy.split("/")[-1]
        table.add_row(name, Text(happy, style="green" if ok else "red"), *rest)
    console.print(table)
    for line in _summary_lines(card):
        console.print(line, highlight=False)
    if not fixes:
        console.print("No issues found.", style="green")
        return
    console.print("\nFix first:", style="bold")
    for n, fix in enumerate(fixes[:_SHOWN_FIXES], 1):
        console.print(f"  {n}. {fix.tool}: {fix.problem}", highlight=False, markup=False)
        console.print(f"     -> {fix.fix}", style="dim", highlight=False, markup=False)
    if len(fixes) > _SHOWN_FIXES:
        console.print(f"  ... and {len(fixes) - _SHOWN_FIXES} more (see the JSON report).")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(card: MCPScorecard, fixes: list[Any]) -> str:
    lines = [
        f"# MCP scorecard: {card.title}",
        "",
        f"**Grade {card.grade}** (score {format_score(card.score)}) over {card.transport},"
        f" protocol {card.protocol_version}.",
        "",
        f"`{components(card)}`",
        "",
    ]
    lines += [f"- {line}" for line in _summary_lines(card)]
    lines += [
        "",
        "| Tool | Happy | Edge | Avg ms | Tokens | Lint |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in card.tool_summaries():
        happy = "skipped" if row["skipped"] else f"{row['happy_passed']}/{row['happy_total']}"
        lines.append(
            f"| `{_cell(row['name'])}` | {happy} | {row['edge_survived']}/{row['edge_total']}"
            f" | {row['avg_latency_ms']:.1f} | {row['tokens']} | {row['lint_issues']} |"
        )
    lines += ["", "## Fix first", ""]
    lines += [
        f"- **`{_cell(fix.tool)}`**: {_cell(fix.problem)}. {_cell(fix.fix)}" for fix in fixes
    ] or ["No issues found."]
    return "\n".join(lines) + "\n"
