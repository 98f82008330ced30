"""Generated datasets for the dataset tests, with what each row must score worked out by hand.

Tool-call rows cycle through kinds (the gold is always search -> book -> pay):

* ``perfect``: the same three calls: score 1.0, grade A.
* ``empty``: no call at all: tool F1 0, argument F1 0, sequence 0, nothing redundant, so the
  score is the non-redundancy weight alone: 0.1 (grade F), three missing calls.
* ``openai``: the same calls inside an OpenAI chat-completion response: 1.0.
* ``matcher``: the gold's city is ``{"$regex": "NYC|JFK"}`` and the agent said ``"JFK"``: 1.0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

GOLD = [
    {"tool": "search", "args": {"city": "NYC", "nights": 2}},
    {"tool": "book", "args": {"hotel": "Plaza"}},
    {"tool": "pay", "args": {"amount": 420.5}},
]
KINDS = ("perfect", "empty", "openai", "matcher")
SCORE = {"perfect": 1.0, "empty": 0.1, "openai": 1.0, "matcher": 1.0}


def _openai(calls: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": f"call_{i}",
                            "type": "function",
                            "function": {"name": c["tool"], "arguments": json.dumps(c["args"])},
                        }
                        for i, c in enumerate(calls)
                    ],
                }
            }
        ]
    }


def tool_row(i: int) -> dict[str, Any]:
    """Row ``i`` (kind ``KINDS[i % 4]``), id ``t<i>``."""
    kind = KINDS[i % len(KINDS)]
    expected: Any = GOLD
    actual: Any = GOLD
    if kind == "empty":
        actual = []
    elif kind == "openai":
        actual = _openai(GOLD)
    elif kind == "matcher":
        expected = [{**GOLD[0], "args": {"city": {"$regex": "NYC|JFK"}, "nights": 2}}, *GOLD[1:]]
        actual = [{**GOLD[0], "args": {"city": "JFK", "nights": 2}}, *GOLD[1:]]
    return {"id": f"t{i}", "kind": kind, "expected": expected, "actual": actual}


def tool_rows(n: int) -> list[dict[str, Any]]:
    """``n`` rows of the four kinds, in order."""
    return [tool_row(i) for i in range(n)]


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    """One JSON value per line (a ``str`` item is written as the line itself)."""
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write((row if isinstance(row, str) else json.dumps(row)) + "\n")
    return path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_parquet(path: Path, rows: list[dict[str, Any]], *, as_text: bool) -> Path:
    """Rows as Parquet: calls as JSON text columns (``as_text``) or as nested columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if as_text:
        table = pa.table(
            {
                "id": [r["id"] for r in rows],
                "expected": [json.dumps(r["expected"]) for r in rows],
                "actual": [json.dumps(r["actual"]) for r in rows],
            }
        )
    else:
        table = pa.Table.from_pylist(
            [{"id": r["id"], "expected": r["expected"], "actual": r["actual"]} for r in rows]
        )
    pq.write_table(table, path)
    return path


def results(path: Path) -> list[dict[str, Any]]:
    """Per-row results of a run, from Parquet or JSON lines, in file order."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    return read_jsonl(path)


def run_script(
    path: Path, text: str, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Write ``text`` to ``path`` and run it with this Python (a fresh process: how workers
    start, what a command imports)."""
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(path), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
