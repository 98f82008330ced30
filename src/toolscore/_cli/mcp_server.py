"""Which MCP server the ``toolscore mcp`` arguments name, and starting it.

The server is named by its command (``-- python server.py``, or one quoted string), by a
Streamable HTTP URL, or by ``--config FILE [--server NAME]``. Every mistake is a
:class:`~toolscore._cli.common.CommandError` (exit 2, one line that says what to write).
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolscore._cli.common import CommandError

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient, MCPToolDef

__all__ = [
    "add_server",
    "list_server_tools",
    "positive",
    "server_spec",
    "started_client",
]


def positive(kind: type[Any]) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
        return value

    return parse


def add_server(p: argparse.ArgumentParser, *, timeout: bool = True) -> None:
    p.add_argument(
        "target",
        nargs="*",
        help="the server: its command (after --, or one quoted string) or an http(s) URL",
    )
    p.add_argument("--config", metavar="FILE", help="Claude-Desktop-style mcpServers file")
    p.add_argument("--server", metavar="NAME", help="which server of --config")
    p.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME:VALUE",
        help="HTTP header for a URL server (repeatable), e.g. 'Authorization: Bearer ...'",
    )
    if timeout:
        p.add_argument(
            "--timeout",
            type=positive(float),
            default=30.0,
            metavar="SECONDS",
            help="seconds each request may take (default 30)",
        )


# -- the server ---------------------------------------------------------------------------


def _headers(args: argparse.Namespace) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in args.header:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise CommandError(f"--header {item!r}: write NAME:VALUE")
        out[name.strip()] = value.strip()
    return out


def server_spec(
    args: argparse.Namespace,
) -> tuple[list[str], dict[str, str], str | None, str | None]:
    """(command, env, cwd, url) from the arguments."""
    from toolscore.mcp.config import load_mcp_config

    if args.config:
        if args.target:
            raise CommandError("give the server either as a command/URL or with --config")
        try:
            spec = load_mcp_config(args.config, args.server)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        return spec.command, spec.env, spec.cwd, spec.url
    if args.server:
        raise CommandError("--server picks an entry of --config FILE; give --config too")
    target = list(args.target)
    if not target:
        raise CommandError(
            "name the server: a command after -- (toolscore mcp test -- python server.py),"
            " an http(s) URL, or --config FILE"
        )
    if len(target) == 1 and target[0].startswith(("http://", "https://")):
        return [], {}, None, target[0]
    if len(target) == 1 and " " in target[0].strip():
        target = shlex.split(target[0])
    return target, {}, None, None


@contextlib.contextmanager
def started_client(args: argparse.Namespace) -> Iterator[MCPClient]:
    """The client of the server the arguments name, started, and closed on the way out (on a
    Ctrl-C, its server is stopped without a grace period for its stdin)."""
    from toolscore.mcp.client import MCPError, MCPHttpClient, MCPStdioClient

    command, env, cwd, url = server_spec(args)
    headers = _headers(args)
    try:
        if url is not None:
            client: MCPClient = MCPHttpClient(url, headers, args.timeout)
        else:
            if headers:
                raise CommandError("--header applies to a URL server only")
            client = MCPStdioClient(command, env, cwd, args.timeout)
        client.start()
    except (MCPError, ValueError) as exc:
        raise CommandError(_error_lines(exc)) from None
    with contextlib.ExitStack() as stack:
        yield stack.push(client)  # its __exit__ alone: the client is started already


def _error_lines(exc: Exception) -> str:
    """The first line of ``exc``'s message, then the rest (a server's stderr) indented."""
    first, *rest = str(exc).split("\n")
    return "\n".join([first, *("    " + line for line in rest)])


def list_server_tools(args: argparse.Namespace) -> tuple[MCPClient, list[MCPToolDef]]:
    """The server's tools, with the (closed) client that read them."""
    from toolscore.mcp.client import MCPError

    with started_client(args) as client:
        try:
            return client, client.list_tools()
        except MCPError as exc:
            raise CommandError(_error_lines(exc)) from None
