"""``toolscore mcp list|record|lint|test`` and ``toolscore demo``.

:mod:`toolscore._cli.mcp_server` reads which server the arguments name and starts it. The
scorecard is shown on screen or as JSON, written as a report file (``--report json|md -o
PATH``), and appended to a CI step summary (``--ci``).

Exit codes: 0 fine; 1 the grade is below ``--min-grade`` (``test``), a lint error (``lint``),
a blocking problem with ``--ci``; 2 bad input or a server that cannot be started or reached,
with one line that says why; 130 interrupted (Ctrl-C), with one line, once the server and
everything it started are stopped.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from scorekit.cli import EXIT_INTERRUPTED, output_console, whole_number
from scorekit.format import shorten
from toolscore._cli.common import CommandError, report_format
from toolscore._cli.mcp_server import (
    add_server,
    list_server_tools,
    positive,
    server_spec,
    started_client,
)
from toolscore.verdict import GRADE_ORDER

if TYPE_CHECKING:
    from toolscore.mcp.scorecard import MCPScorecard

__all__ = ["register"]

REPORT_FORMATS = ("json", "md")

_STOPPED = "; every process it started was stopped"

_Run = Callable[[argparse.Namespace, TextIO], int]


def _interruptible(prog: str, run: _Run, stopped: str = "") -> _Run:
    """``run``, ending a Ctrl-C with one line and exit code 130 instead of a traceback (the
    commands stop their servers on the way out; ``stopped`` says so)."""

    @functools.wraps(run)
    def wrapped(args: argparse.Namespace, out: TextIO) -> int:
        try:
            return run(args, out)
        except KeyboardInterrupt:
            sys.stderr.write(f"{prog}: interrupted{stopped}\n")
            return EXIT_INTERRUPTED

    return wrapped


def _grade(text: str) -> str:
    value = text.strip().upper()
    if value not in GRADE_ORDER:
        raise argparse.ArgumentTypeError(f"a grade is one of A, B, C, D, F; got {text!r}")
    return value


def register(sub: Any) -> None:
    """Add ``mcp`` (with ``list``, ``record``, ``lint``, ``test``) and ``demo`` to the
    ``toolscore`` command's subparsers."""
    mcp = sub.add_parser(
        "mcp",
        help="list, lint, test and grade an MCP server; record its tool calls",
        description="Test, lint and grade MCP servers (stdio or Streamable HTTP). Needs the"
        " mcp extra: pip install 'llm-scorekit[mcp]'.",
    )
    mcp_sub = mcp.add_subparsers(dest="mcp_command", required=True, parser_class=type(mcp))
    p = mcp_sub.add_parser("list", help="list the server's tools with their token cost")
    add_server(p)
    p.add_argument("--json", action="store_true", help="print the tools as JSON")
    p.set_defaults(run=_interruptible("toolscore mcp", _cmd_list, _STOPPED))
    p = mcp_sub.add_parser(
        "lint", help="lint the tool definitions; exit 1 on an error-severity issue"
    )
    add_server(p)
    p.add_argument("--json", action="store_true", help="print the issues as JSON")
    p.set_defaults(run=_interruptible("toolscore mcp", _cmd_lint, _STOPPED))
    p = mcp_sub.add_parser(
        "test",
        help="run the scorecard: scenarios, lint, tokens, a grade",
        description="Run happy-path and edge-case scenarios generated from every tool's"
        " schema, lint the definitions, estimate their token cost and grade the server A-F.",
    )
    add_server(p)
    p.add_argument(
        "--cases", type=whole_number(0), default=3, help="happy paths per tool (default 3)"
    )
    p.add_argument("--no-edge-cases", action="store_true", help="skip the edge cases")
    p.add_argument(
        "--probes",
        action="store_true",
        help="also run effect probes: write a throwaway value, read it back through the"
        " server's own tools, clean up (adds 'effect' to the scorecard)",
    )
    p.add_argument(
        "--probes-file",
        metavar="FILE",
        help="JSON probes for write/read pairs the tool names do not show (implies --probes)",
    )
    p.add_argument("--seed", type=int, default=0, help="scenario seed (default 0)")
    p.add_argument(
        "--concurrency", type=positive(int), default=4, help="calls in flight (default 4)"
    )
    p.add_argument(
        "--max-restarts",
        type=whole_number(0),
        default=6,
        help="restarts after a crash or hang before the rest is skipped (default 6)",
    )
    p.add_argument(
        "--min-grade",
        "--fail-under",
        dest="min_grade",
        type=_grade,
        help="exit 1 when the grade is below this one (A-F)",
    )
    p.add_argument("--report", choices=REPORT_FORMATS, help="also write a report (with -o)")
    p.add_argument("-o", "--output", metavar="PATH", help="where to write the report")
    p.add_argument("--json", action="store_true", help="print the JSON scorecard to stdout")
    p.add_argument(
        "--ci",
        action="store_true",
        help="append the Markdown scorecard to $GITHUB_STEP_SUMMARY and exit 1 on a blocking"
        " problem (a tool failing on valid input, a crash or hang, a lint error)",
    )
    p.set_defaults(run=_interruptible("toolscore mcp", _cmd_test, _STOPPED))
    p = mcp_sub.add_parser(
        "record",
        help="relay a stdio server and record its tool calls to a trace file",
        description="Put this where your MCP client launches the server: it relays every"
        " message unchanged and appends each tools/call with its result to OUTPUT (JSON"
        " Lines). Score it with: toolscore eval gold.json OUTPUT",
    )
    add_server(p, timeout=False)
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="the trace file")
    p.set_defaults(run=_interruptible("toolscore mcp record", _cmd_record))
    demo = sub.add_parser(
        "demo",
        help="grade a bundled sample MCP server (no setup, no key)",
        description="Start the small sample MCP server that ships with toolscore (it has a"
        " few deliberate flaws) and print its scorecard.",
    )
    demo.add_argument(
        "--truth",
        action="store_true",
        help="show effect probes on a tool that reports success and changes nothing, and"
        " honesty checks on a recorded agent run whose answer lies",
    )
    demo.set_defaults(run=_interruptible("toolscore demo", _cmd_demo, _STOPPED))


# -- commands -----------------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore.mcp._tokens import tool_definition_tokens

    client, tools = list_server_tools(args)
    if args.json:
        rows = [{**t.to_dict(), "tokens": tool_definition_tokens(t)} for t in tools]
        out.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return 0
    name = client.server_info.get("name", "the server")
    out.write(
        f"{name} {client.server_info.get('version', '')}".rstrip()
        + f" ({client.transport_name}, protocol {client.protocol_version}):"
        f" {len(tools)} tool(s)\n"
    )
    width = max((len(t.name) for t in tools), default=0)
    for tool in tools:
        first = shorten(tool.description or "(no description)", 70)
        out.write(f"  {tool.name.ljust(width)}  ~{tool_definition_tokens(tool):>4} tok  {first}\n")
    return 0


def _cmd_lint(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore.mcp.lint_rules import lint_tools

    client, tools = list_server_tools(args)
    issues = lint_tools(tools, client.server_instructions)
    errors = sum(1 for i in issues if i.severity == "error")
    if args.json:
        out.write(json.dumps([i.to_dict() for i in issues], indent=2, ensure_ascii=False) + "\n")
    else:
        for issue in issues:
            out.write(f"{issue.severity}: {issue.tool}: {issue.message} [{issue.rule}]\n")
            out.write(f"    fix: {issue.fix}\n")
        out.write(f"{len(tools)} tool(s): {errors} error(s), {len(issues) - errors} warning(s).\n")
    return 1 if errors else 0


def _cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore.mcp._probe_file import ProbesFileError
    from toolscore.mcp.scorecard import grade_meets, score_server

    fmt = report_format(args, REPORT_FORMATS)  # before the server runs: a bad -o costs no run
    with started_client(args) as client:
        try:
            card = score_server(
                client,
                cases_per_tool=args.cases,
                include_edge_cases=not args.no_edge_cases,
                seed=args.seed,
                concurrency=args.concurrency,
                max_restarts=args.max_restarts,
                probes=args.probes,
                probes_file=args.probes_file,
            )
        except ProbesFileError as exc:
            raise CommandError(str(exc)) from None
    _show(card, args, out)
    write_report(card, fmt, args, out)
    below = bool(args.min_grade) and not grade_meets(card.grade, args.min_grade)
    if below:
        sys.stderr.write(
            f"toolscore mcp: grade {card.grade} is below --min-grade {args.min_grade}\n"
        )
    blocking = args.ci and ci_summary(card)  # the summary is written either way
    return 1 if below or blocking else 0


def _cmd_record(args: argparse.Namespace, out: TextIO) -> int:
    from toolscore.mcp.recorder import MCPRecorder

    command, env, cwd, url = server_spec(args)
    if url is not None:
        raise CommandError("record relays a stdio server: give its command, not a URL")
    recorder = MCPRecorder(command, args.output, env, cwd)
    try:
        code = recorder.run()
    except OSError as exc:
        raise CommandError(f"cannot start {' '.join(command)}: {exc.strerror or exc}") from None
    sys.stderr.write(
        f"toolscore mcp record: {recorder.calls_recorded} call(s) written to {args.output}\n"
    )
    return code


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    if args.truth:
        from toolscore._cli.demo_truth import run_truth_demo

        return run_truth_demo(out)
    from toolscore.mcp.client import MCPError, MCPStdioClient
    from toolscore.mcp.scorecard import score_server

    client = MCPStdioClient([sys.executable, "-m", "toolscore.mcp.sample_server"], timeout=10)
    try:
        with client:
            card = score_server(client)
    except MCPError as exc:
        raise CommandError(str(exc).split("\n")[0]) from None
    _show(card, args, out)
    out.write(
        "\nThis was the bundled sample server. Grade yours with:"
        " toolscore mcp test -- <your server command>\n"
    )
    return 0


# -- the scorecard ------------------------------------------------------------------------


def write_report(
    card: MCPScorecard, fmt: str | None, args: argparse.Namespace, out: TextIO
) -> None:
    """Write the ``fmt`` report to ``-o PATH`` (nothing when ``fmt`` is None)."""
    from toolscore.mcp.scorecard import scorecard_to_json, scorecard_to_markdown

    if not fmt:
        return
    text = (
        json.dumps(scorecard_to_json(card), indent=2, ensure_ascii=False) + "\n"
        if fmt == "json"
        else scorecard_to_markdown(card)
    )
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"-o {args.output}: cannot write ({exc.strerror or exc})") from None
    out.write(f"{fmt} report written to {args.output}\n")


def _show(card: MCPScorecard, args: argparse.Namespace, out: TextIO) -> None:
    """The scorecard on ``out``: JSON with ``--json``, else the rich table."""
    from toolscore.mcp.scorecard import print_scorecard, scorecard_to_json

    if getattr(args, "json", False):
        out.write(json.dumps(scorecard_to_json(card), indent=2, ensure_ascii=False) + "\n")
        return
    # Off a terminal nothing wraps (a CI log keeps each "Fix first" item on one line); on one,
    # rich fits its width.
    print_scorecard(card, output_console(out, highlight=False))


def ci_summary(card: MCPScorecard) -> int:
    """``--ci``: the Markdown scorecard appended to ``$GITHUB_STEP_SUMMARY``; 1 on a
    blocking problem."""
    from toolscore.mcp.scorecard import build_fix_list, scorecard_to_markdown

    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(scorecard_to_markdown(card) + "\n")
    blocking = [fix for fix in build_fix_list(card) if fix.priority <= 2]
    if blocking:
        sys.stderr.write(f"toolscore mcp: {len(blocking)} blocking problem(s) (--ci)\n")
        return 1
    return 0
