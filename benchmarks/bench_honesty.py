"""Honesty checks on the labelled runs: precision and recall per kind, speed, and a peer.

    python benchmarks/bench_honesty.py [--no-judge] [--peer-python PATH] [--probes]

* deterministic (``judge=None``) and ``judge="local"`` modes, counted per run: a run is
  flagged with a kind or not; precision and recall per kind, and the honest runs flagged;
* the same, deterministic, on the blind set (``honesty_blind.jsonl``): runs a second author
  wrote from the issue text alone, before reading the rules, so not tuned on;
* the judge subset (``honesty_judge_runs.jsonl``): free-text contradictions caught by the
  local judge, and findings it adds on honest runs;
* speed: ``check_honesty`` on a 50-call run with a 300-word answer (median of 30);
* with ``--probes``: what ``--probes`` adds to ``toolscore mcp test`` (median of 3 wall
  times each way) on the reference server (``.mcp-node``, when installed) and on the sample
  server with ``--truth``;
* a peer, when ``--peer-python`` names a Python with ``toolreceipt`` installed (a scratch venv:
  ``python -m venv /tmp/peer && /tmp/peer/bin/pip install toolreceipt``): it reads OpenAI chat
  messages, so every run is given to it in that shape (built from what toolscore read), with
  the run's tools as ``known_tools``; its ``claimed_but_never_ran`` is compared with
  ``not_called`` and ``ran_but_unreported`` with ``unreported``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from toolscore import check_honesty
from toolscore._engine.check.honesty.run import read_run

DATA = Path(__file__).parents[1] / "tests" / "toolscore" / "data"
KINDS = ("not_called", "tool_failed", "contradicted", "unsupported", "concealed_failure")
FAILING = set(KINDS)


def load(name: str) -> list[dict[str, Any]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def table(rows: list[dict[str, Any]], found: list[set[str]], kinds: tuple[str, ...]) -> None:
    print(f"  {'kind':<20}{'runs':>6}{'precision':>11}{'recall':>8}")
    for kind in kinds:
        labelled = [kind in r["labels"] for r in rows]
        flagged = [kind in f for f in found]
        tp = sum(a and b for a, b in zip(labelled, flagged, strict=True))
        precision = tp / sum(flagged) if sum(flagged) else 1.0
        recall = tp / sum(labelled) if sum(labelled) else float("nan")
        print(f"  {kind:<20}{sum(labelled):>6}{precision:>11.2f}{recall:>8.2f}")
    honest = [i for i, r in enumerate(rows) if not set(r["labels"]) & FAILING]
    bad = [rows[i]["id"] for i in honest if found[i] & FAILING]
    print(f"  honest runs flagged: {len(bad)} of {len(honest)} {bad if bad else ''}")


def mode(rows: list[dict[str, Any]], judge: Any) -> list[set[str]]:
    return [check_honesty(r["run"], r.get("answer"), judge=judge).kinds() for r in rows]


def speed() -> float:
    calls = [
        {"tool": f"get_item_{i % 7}", "args": {"id": f"IT-{1000 + i}"},
         "result": {"id": f"IT-{1000 + i}", "price": 10 + i * 1.25, "status": "shipped",
                    "updated": f"2026-12-{1 + i % 28:02d}", "qty": i % 5}}
        for i in range(50)
    ]  # fmt: skip
    sentence = (
        "Item IT-{n} shipped on Dec {d} and costs ${p:.2f}, and I checked its status for you"
        " so you know it is on its way with {q} units in the parcel today."
    )
    words: list[str] = []
    n = 0
    while len(words) < 300:
        i = n % 50
        words += sentence.format(n=1000 + i, d=1 + i % 28, p=10 + i * 1.25, q=i % 5).split()
        n += 1
    answer = " ".join(words[:300])
    check_honesty(calls, answer)
    times = []
    for _ in range(30):
        started = time.perf_counter()
        check_honesty(calls, answer)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def as_openai(row: dict[str, Any]) -> dict[str, Any]:
    """The run as OpenAI chat messages (what the peer reads), from what toolscore read."""
    record = read_run(row["run"])
    answer = row.get("answer") or record.assistant_texts[-1]
    messages: list[dict[str, Any]] = [{"role": "user", "content": " ".join(record.user_texts)
                                       or "Please help."}]  # fmt: skip
    for n, call in enumerate(record.calls):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{n}", "type": "function",
             "function": {"name": call.tool, "arguments": json.dumps(call.args)}}]})  # fmt: skip
        content = f"Error: {call.error}" if call.failed else json.dumps(call.result, default=str)
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": content})
    messages.append({"role": "assistant", "content": answer})
    tools = sorted({c.tool for c in record.calls} | set(row.get("tools", [])))
    return {"messages": messages, "tools": tools}


_PEER = """
import json, sys
from toolreceipt import check_messages
for line in sys.stdin:
    row = json.loads(line)
    try:
        r = check_messages(row["messages"], known_tools=row["tools"])
        print(json.dumps({"never_ran": bool(r.claimed_but_never_ran),
                          "unreported": bool(r.ran_but_unreported)}))
    except Exception as exc:
        print(json.dumps({"error": str(exc)[:80]}))
"""


def peer(rows: list[dict[str, Any]], python: str, ours: list[set[str]]) -> None:
    lines = "\n".join(json.dumps(as_openai(r)) for r in rows) + "\n"
    done = subprocess.run([python, "-c", _PEER], input=lines, capture_output=True, text=True,
                          check=True, timeout=600)  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    errors = sum("error" in a for a in answers)
    print(f"  peer read {len(answers) - errors} of {len(rows)} runs ({errors} errors)")
    print(f"  {'kind':<20}{'runs':>6}{'toolscore P/R':>16}{'peer P/R':>12}")
    for kind, key in (("not_called", "never_ran"), ("unreported", "unreported")):
        labelled = [kind in r["labels"] for r in rows]
        mine = [kind in f for f in ours]
        theirs = [bool(a.get(key)) for a in answers]
        print(f"  {kind:<20}{sum(labelled):>6}{_pr(labelled, mine):>16}{_pr(labelled, theirs):>12}")


def _pr(labelled: list[bool], flagged: list[bool]) -> str:
    tp = sum(a and b for a, b in zip(labelled, flagged, strict=True))
    p = tp / sum(flagged) if sum(flagged) else 1.0
    r = tp / sum(labelled) if sum(labelled) else float("nan")
    return f"{p:.2f}/{r:.2f}"


def _wall(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, timeout=600)
    if done.returncode not in (0, 1):  # a figure from a run that failed would mislead
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode()[-300:]}")
    return time.perf_counter() - started


def probes_overhead() -> None:
    root = Path(__file__).parents[1]
    everything = (
        root / ".mcp-node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    )
    servers = [("sample server --truth", [sys.executable, "-m", "toolscore.mcp.sample_server",
                                          "--truth"])]  # fmt: skip
    if everything.is_file():
        servers.insert(0, ("reference server-everything", ["node", str(everything), "stdio"]))
    else:
        print("  reference server not installed (.mcp-node): skipped")
    cli = [sys.executable, "-m", "toolscore.cli", "mcp", "test", "--json"]
    for name, command in servers:
        plain = statistics.median(_wall([*cli, "--", *command]) for _ in range(3))
        probed = statistics.median(_wall([*cli, "--probes", "--", *command]) for _ in range(3))
        print(f"  {name}: {plain:.2f} s without probes, {probed:.2f} s with"
              f" ({probed - plain:+.2f} s)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-judge", action="store_true", help="skip the local-judge mode")
    parser.add_argument("--peer-python", help="a Python with toolreceipt installed")
    parser.add_argument("--probes", action="store_true", help="time --probes on MCP servers")
    args = parser.parse_args()
    if args.probes:
        print("effect probes, what they add to toolscore mcp test:")
        probes_overhead()
    rows = load("honesty_runs.jsonl")
    judge_rows = load("honesty_judge_runs.jsonl")
    blind = load("honesty_blind.jsonl")
    print(f"labelled runs, written while tuning the rules: {len(rows)} "
          f"({dict(Counter(r['shape'] for r in rows))})")  # fmt: skip
    print("\ndeterministic (judge=None), the set written while tuning:")
    ours = mode(rows, None)
    table(rows, ours, (*KINDS, "unreported"))
    print(f"\ndeterministic (judge=None), the blind set ({len(blind)} runs a second author "
          "wrote from the issue text before reading the rules):")  # fmt: skip
    table(blind, mode(blind, None), (*KINDS, "unreported"))
    if not args.no_judge:
        print('\njudge="local", the same runs:')
        judged = mode(rows, "local")
        table(rows, judged, KINDS)
        new = [r["id"] for r, a, b in zip(rows, ours, judged, strict=True) if (b - a) & FAILING
               and not set(r["labels"]) & (b - a)]  # fmt: skip
        print(f"  findings the judge added that are wrong: {len(new)} {new if new else ''}")
        print(f'\njudge="local", free-text statements ({len(judge_rows)} runs):')
        plain = mode(judge_rows, None)
        free = mode(judge_rows, "local")
        table(judge_rows, free, ("contradicted",))
        lies = [i for i, r in enumerate(judge_rows) if "contradicted" in r["labels"]]
        caught = sum(bool(free[i] & FAILING) for i in lies)
        print(f"  free-text contradictions caught (any failing kind): {caught}/{len(lies)}"
              f" = {caught / len(lies):.2f}; caught without a judge: "
              f"{sum(bool(plain[i] & FAILING) for i in lies)}")  # fmt: skip
    print(f"\nspeed: 50-call run, 300-word answer, deterministic: {speed():.1f} ms (median of 30)")
    if args.peer_python:
        print("\npeer (toolreceipt), where its kinds overlap:")
        peer(rows, args.peer_python, ours)
    else:
        print("\npeer: not run (pass --peer-python, a Python with toolreceipt installed)")


if __name__ == "__main__":
    main()
