"""What toolscore prints: one rounding rule for every score, and the width of the place it goes.

The rule (``docs/decisions.md``): a score reads with 4 decimal places (a percentage with 2), a
bound as it was given. Off a terminal nothing wraps; on one a table fits it and an id (a trace,
a snapshot name, a tool) is never cut.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scorekit.report import summary_sections
from scorekit.report._markdown_report import render_markdown
from toolscore import ToolScoreAssertionError, assert_tools, evaluate
from toolscore._engine.check.failure import score_row
from toolscore.cli import main
from toolscore.snapshots import Snapshot, SnapshotStore

GOLD = [{"tool": "search", "args": {"q": "x"}}, {"tool": "book", "args": {"id": 1}}]
HALF = [{"tool": "search", "args": {"q": "x"}}]
# By hand: tool precision 1, recall 1/2 -> tool F1 2/3; arguments 1 of 1 made, 1 of 2 expected
# -> argument F1 2/3; sequence 1/2; nothing redundant. Score 0.4 * 2/3 + 0.3 * 2/3 + 0.2 * 0.5
# + 0.1 * 1 = 0.66667: "0.6667" everywhere, never "0.667" or "0.67".
SCORE = "0.6667"


class TTY(io.StringIO):
    """A stdout that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _run(argv: list[str], out: io.StringIO | None = None) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("gold.json").write_text(json.dumps(GOLD))
    Path("half.json").write_text(json.dumps(HALF))
    Path("full.json").write_text(json.dumps(GOLD))
    return tmp_path


def _no_other_rounding(*texts: str) -> None:
    for text in texts:
        assert not re.search(r"\b0\.667?\b", text), text  # 3 or 2 places: another rule


def test_one_score_reads_the_same_in_every_output(files: Path) -> None:
    result = evaluate(GOLD, HALF)
    with pytest.raises(ToolScoreAssertionError) as raised:
        assert_tools(GOLD, HALF, min_score=0.9)
    message = str(raised.value)
    assert message.startswith(f"Tool calls scored {SCORE} (grade D), below the required 0.9.")
    assert f"Scores: score {SCORE} (required: 0.9); tool F1 {SCORE}, argument F1 {SCORE}," in (
        message
    )

    code, eval_out = _run(["eval", "gold.json", "half.json"])
    assert code == 1
    assert f"tool_f1 {SCORE}  arg_f1 {SCORE}  sequence 0.5000  redundant 0.0000" in eval_out
    assert eval_out.rstrip().endswith(f"FAIL: half.json: score {SCORE} (grade D) < min 0.9")

    code, compare_out = _run(["compare", "gold.json", "full.json", "half.json"])
    assert compare_out.splitlines()[2].split()[:4] == ["2", "half.json", SCORE, "D"]

    row = score_row(result, test_id="t.py::test_half", function="assert_tools", threshold=0.9,
                    passed=False)  # fmt: skip
    (section,) = summary_sections([row], None, verbosity=1)
    assert section.lines[1].split()[:4] == ["t.py::test_half", SCORE, "0.9", "FAILED"]
    assert f"mean score {SCORE}" in section.lines[-1]
    markdown = render_markdown([row], None)
    assert f"| t.py::test_half | assert_tools | {SCORE} | 0.9 | failed |" in markdown

    rows = [{"id": "a", "expected": GOLD, "actual": HALF}]
    Path("rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, dataset_out = _run(["eval-dataset", "rows.jsonl", "--no-progress", "--min-mean", "0.5"])
    assert code == 0 and dataset_out.rstrip().endswith(f"PASS: mean score {SCORE} >= min 0.5")
    assert f"lowest score: a {SCORE}" in dataset_out
    code, dataset_json = _run(["eval-dataset", "rows.jsonl", "--no-progress", "--json"])
    doc = json.loads(dataset_json)
    assert doc["mean"] == 0.6667 and doc["scores"]["score"]["p50"] == 0.6667
    _no_other_rounding(message, eval_out, compare_out, "\n".join(section.lines), markdown)
    _no_other_rounding(dataset_out, dataset_json)


def test_a_score_next_to_its_bound_never_reads_the_same(files: Path) -> None:
    # 2/3 is below 0.66667, but both read 0.6667 at 4 places (and 0.66667 at 5): the message
    # shows the digits that tell them apart, as the texts messages do.
    with pytest.raises(ToolScoreAssertionError) as raised:
        assert_tools(GOLD, HALF, min_score=0.66667)
    assert str(raised.value).startswith(
        "Tool calls scored 0.666667 (grade D), below the required 0.66667."
    )


def test_the_offline_similarity_reads_with_four_places() -> None:
    from toolscore import Semantic

    result = evaluate(
        [{"tool": "f", "args": {"city": Semantic("New York City")}}],
        [{"tool": "f", "args": {"city": "NYC"}}],
    )
    reason = result.pairs[0].arguments[0].judge_verdict().reason
    assert re.fullmatch(r"offline similarity 0\.\d{4} >= 0\.85", reason), reason


# -- width ----------------------------------------------------------------------------------


def test_compare_on_a_narrow_terminal_keeps_every_trace_name_whole(
    files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_name = "trace_of_the_agent_after_the_prompt_change_of_last_week.json"
    Path(long_name).write_text(json.dumps(HALF))
    monkeypatch.setenv("COLUMNS", "50")
    _, text = _run(["compare", "gold.json", "full.json", long_name], TTY())
    lines = text.splitlines()
    # Too wide for one line: the rank and the whole trace name, then its scores, indented.
    assert lines[0] == "rank  trace" and lines[1].split()[:2] == ["score", "grade"]
    assert lines[4] == f"2     {long_name}"
    assert lines[5].split()[:2] == [SCORE, "D"] and lines[5].startswith("  ")
    # Piped, the same table keeps one line per trace, however long.
    _, piped = _run(["compare", "gold.json", "full.json", long_name])
    assert [line.split()[1] for line in piped.splitlines()[1:]] == ["full.json", long_name]


def test_snapshot_names_are_never_cut_on_a_narrow_terminal(
    files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "tests/test_booking_flows.py::test_books_two_seats_on_the_evening_flight[economy]"
    SnapshotStore(".toolscore/snapshots").save(Snapshot(name, HALF))
    monkeypatch.setenv("COLUMNS", "40")
    _, text = _run(["snapshots", "list"], TTY())
    lines = text.splitlines()
    assert lines[0] == "name"
    assert lines[2] == name  # whole, on its own line
    assert lines[3].split()[:2] == ["pending", "1"]


def test_the_dataset_summary_fits_a_terminal(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"id": str(i), "expected": GOLD, "actual": HALF if i % 2 else GOLD} for i in range(4)]
    Path("rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setenv("COLUMNS", "80")
    _, text = _run(["eval-dataset", "rows.jsonl", "--no-progress"], TTY())
    table = text.split("\n\n", 1)[1].split("\n")
    stats = [line for line in table if re.search(r"\d\.\d{4}", line)]
    assert stats and all(len(line) <= 80 for line in stats)
    assert "argument_precision" in table  # a metric's name on its own line, its numbers below
    # Off a terminal: one line per score.
    _, piped = _run(["eval-dataset", "rows.jsonl", "--no-progress"])
    assert any(line.startswith("argument_precision ") for line in piped.splitlines())


@pytest.fixture(scope="module")
def scorecard() -> object:
    pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")
    import sys

    from toolscore.mcp import MCPStdioClient
    from toolscore.mcp.scorecard import score_server

    client = MCPStdioClient([sys.executable, "-m", "toolscore.mcp.sample_server"], timeout=30)
    try:
        client.start()
        return score_server(client)
    finally:
        client.close()


def _show(card: object, out: io.StringIO) -> str:
    import argparse

    from toolscore._cli.mcp import _show as show

    show(card, argparse.Namespace(json=False), out)  # type: ignore[arg-type]
    return out.getvalue()


def test_the_mcp_scorecard_does_not_wrap_off_a_terminal(scorecard: object) -> None:
    text = _show(scorecard, io.StringIO())
    lines = text.splitlines()
    # Each item of the fix list is one line, however long (it wrapped at 100 columns).
    assert (
        "  1. export_notes: fails on valid input in 3 scenario(s): required arguments only"
        " -> rejected: export failed: no storage backend configured"
    ) in lines
    assert (
        "     -> Check the handler against the schema it advertises: valid arguments must give"
        " a result, not an error."
    ) in lines
    # 12 of 15 happy paths, 26 of 26 edge cases: the rule's percentages; the score, 4 places.
    assert "Happy paths: 12/15 passed (80.00%)." in lines
    assert re.search(r"Grade B  score 0\.\d{4}  \(stdio", text)


def test_the_mcp_scorecard_fits_a_terminal(
    scorecard: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    text = re.sub(r"\x1b\[[0-9;]*m", "", _show(scorecard, TTY()))  # a terminal gets colours
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 60
    for tool in ("create_note", "list_notes", "find", "delete_note", "export_notes"):
        assert any(f"│ {tool} " in line for line in lines), tool
    flat = " ".join(text.split())
    assert "export failed: no storage backend configured" in flat
