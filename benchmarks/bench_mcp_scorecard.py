"""``toolscore mcp test`` wall time on the official reference server, and on a hung server.

Prints figures; it is not a test. Targets (issue 13), on a 2-core machine:

    toolscore mcp test on @modelcontextprotocol/server-everything
        every tool listed, a grade, a JSON scorecard     < 30 s   (default --timeout 30)
    a server whose tool blocks its event loop forever
        cut off by --timeout, the rest still scored      < 3 x --timeout + start-up

server-everything's ``trigger-long-running-operation`` runs 10 s by default, so its figure is
bound below by 10 s whatever the client does. The reference server is read from
``.mcp-node/`` (``.ci/run`` installs it there) or ``SCOREKIT_MCP_EVERYTHING``.

Run from the repository root::

    .venv/bin/python benchmarks/bench_mcp_scorecard.py

Timings on a shared 2-core machine are noisy: rerun on a quiet one for figures to quote.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "toolscore"))

from mcp_helpers import EVERYTHING_MISSING, everything_command, server_command  # noqa: E402

from toolscore.cli import main as toolscore  # noqa: E402


def _run(argv: list[str]) -> tuple[float, int, dict[str, object]]:
    out = io.StringIO()
    started = time.perf_counter()
    code = toolscore(argv, out=out)
    seconds = time.perf_counter() - started
    text = out.getvalue()
    return seconds, code, json.loads(text[: text.rindex("}") + 1])


def main() -> int:
    ok = True
    command = everything_command()
    if command is None:
        print(f"server-everything: skipped ({EVERYTHING_MISSING})")
    else:
        seconds, code, card = _run(["mcp", "test", "--json", "--", *command])
        tools = card["tools"]
        assert isinstance(tools, list)
        print(
            f"server-everything: {seconds:.1f} s, exit {code}, {len(tools)} tools, grade"
            f" {card['grade']} (score {card['score']:.3f}), {len(card['results'])} scenarios"
            "  (target < 30 s)"
        )
        ok = ok and seconds < 30
    timeout = 2.0
    seconds, code, card = _run(
        [
            "mcp",
            "test",
            "--json",
            "--timeout",
            str(timeout),
            "--",
            *server_command("flaky_servers", "hang"),
        ]
    )
    outcomes = [r["outcome"] for r in card["results"]]  # type: ignore[union-attr]
    print(
        f"hung server: {seconds:.1f} s with --timeout {timeout:g}, outcomes"
        f" {sorted(set(outcomes))}, {card['restarts']} restart(s)"
    )
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
