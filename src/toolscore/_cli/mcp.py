"""``toolscore mcp list|record|lint|test`` and ``toolscore demo``.

The server is named by its command (``-- python server.py``, or one quoted string), by a
Streamable HTTP URL (``http://127.0.0.1:8000/mcp``), or by ``--config FILE [--server NAME]``
(a Claude-Desktop-style ``mcpServers`` file): :mod:`toolscore._cli.mcp_server` reads that and
starts it; :mod:`toolscore._cli.mcp_output` shows the scorecard and writes its reports.

Exit codes: 0 fine; 1 the grade is below ``--min-grade`` (``test``), a lint error (``lint``),
a blocking problem with ``--ci``; 2 bad input or a server that cannot be started or reached,
with one line that says why; 130 interrupted (Ctrl-C), with one line, once the server and
everything it started are stopped.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from scorekit.cli import whole_number
from toolscore._cli.common import CommandError
from toolscore._cli.mcp_output import (
    REPORT_FORMATS,
    ci_summary,
    report_format,
    show,
    write_report,
)
from toolscore._cli.mcp_server import (
    add_server,
    bad_input,
    list_server_tools,
    positive,
    server_spec,
    start_client,
    stopping,
)

__all__ = ["register"]

_show = show  # the name tests and older callers import

EXIT_INTERRUPTED = 130

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
    from toolscore.verdict import GRADE_ORDER

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
        first = " ".join((tool.description or "(no description)").split())
        first = first if len(first) <= 70 else first[:69] + "…"
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
    from toolscore.mcp.scorecard import grade_meets, score_server

    fmt = report_format(args)  # before the server runs: a bad -o must not cost a whole run
    from toolscore.mcp._probe_file import ProbesFileError

    with stopping(start_client(args)) as client, bad_input(ProbesFileError):
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
    show(card, args, out)
    write_report(card, fmt, args, out)
    code = 0
    if args.min_grade and not grade_meets(card.grade, args.min_grade):
        sys.stderr.write(
            f"toolscore mcp: grade {card.grade} is below --min-grade {args.min_grade}\n"
        )
        code = 1
    if args.ci and ci_summary(card):
        code = 1
    return code


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
    show(card, args, out)
    out.write(
        "\nThis was the bundled sample server. Grade yours with:"
        " toolscore mcp test -- <your server command>\n"
    )
    return 0
