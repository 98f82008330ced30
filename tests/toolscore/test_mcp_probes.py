"""Effect probes on real MCP servers: pairing by name and schema, probes files, the scorecard,
``toolscore mcp test --probes`` and ``toolscore demo --truth``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from mcp_helpers import EVERYTHING_MISSING, everything_command
from mcp_helpers import run_cli as run

from toolscore.mcp import MCPStdioClient
from toolscore.mcp._probe_file import ProbesFileError, load_probes, planned_probes
from toolscore.mcp._probes import expectation_missing
from toolscore.mcp.scorecard import (
    build_fix_list,
    score_server,
    scorecard_to_json,
    scorecard_to_markdown,
)

SAMPLE = [sys.executable, "-m", "toolscore.mcp.sample_server"]
TRUTH = [*SAMPLE, "--truth"]


def test_pairs_by_name_and_schema() -> None:
    with MCPStdioClient(TRUTH, timeout=20) as client:
        tools = client.list_tools()
    probes = {p.write: p for p in planned_probes(tools, None, 0)}
    assert set(probes) == {"create_note", "update_note", "delete_note"}
    create = probes["create_note"]
    assert (create.read, create.cleanup, create.write_args["title"]) == (
        "list_notes", "delete_note", "{marker}")  # fmt: skip
    assert create.cleanup_args == {"note_id": "{id}"}
    delete = probes["delete_note"]
    assert delete.setup[0][0] == "create_note" and delete.expect == {"absent": "{marker}"}


def test_a_tool_that_changes_nothing_fails_its_probe() -> None:
    with MCPStdioClient(TRUTH, timeout=20) as client:
        card = score_server(client, cases_per_tool=1, include_edge_cases=False, probes=True)
    held = {p.probe.write: p.held for p in card.probes or []}
    assert held == {"create_note": True, "update_note": False, "delete_note": True}
    assert card.effect_rate == pytest.approx(2 / 3)
    data = scorecard_to_json(card)
    assert data["scores"]["effect"] == pytest.approx(2 / 3, abs=1e-6)
    assert data["weights"]["effect_rate"] == 0.25
    failed = [p for p in data["probes"] if p["held"] is False]
    assert failed[0]["write"]["tool"] == "update_note" and failed[0]["read"]["tool"] == "list_notes"
    assert "does not show 'tsprobe" in failed[0]["missing"]
    created = next(p for p in data["probes"] if p["write"]["tool"] == "create_note")
    assert created["cleaned"] is True
    top = build_fix_list(card)[0]
    assert (top.tool, top.priority) == ("update_note", 0)
    assert "| effect 66.67%" in scorecard_to_markdown(card)
    without = scorecard_to_json(card.__class__(**{**card.__dict__, "probes": None}))
    assert "effect" not in without["scores"] and without["score"] != data["score"]


def test_a_working_server_keeps_full_effect() -> None:
    with MCPStdioClient(SAMPLE, timeout=20) as client:
        card = score_server(client, cases_per_tool=1, include_edge_cases=False, probes=True)
        listed = client.call_tool("list_notes", {"limit": 100}).text
    assert card.effect_rate == 1.0
    assert "tsprobe" not in listed  # every probe cleaned up after itself


def test_probes_file_declares_pairs_and_matchers(tmp_path: Path) -> None:
    path = tmp_path / "probes.json"
    path.write_text(json.dumps({"probes": [
        {"write": {"tool": "update_note", "arguments": {"note_id": "{id}", "title": "{marker}"}},
         "setup": [{"tool": "create_note", "arguments": {"title": "old {marker}"}}],
         "read": {"tool": "find", "arguments": {"q": "{marker}"}},
         "expect": {"contains": "{marker}", "absent": "old {marker}"}},
    ]}))  # fmt: skip
    with MCPStdioClient(TRUTH, timeout=20) as client:
        card = score_server(
            client, cases_per_tool=0, include_edge_cases=False, probes_file=str(path)
        )
    first = (card.probes or [])[0]
    assert (first.probe.source, first.held) == ("file", False)
    assert "still shows 'old tsprobe" in first.missing
    assert [p.probe.write for p in card.probes or []].count("update_note") == 1


def test_probes_file_with_an_unknown_tool_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "probes.json"
    path.write_text(json.dumps([{"write": {"tool": "rename_note"}, "read": {"tool": "find"}}]))
    with (
        MCPStdioClient(SAMPLE, timeout=20) as client,
        pytest.raises(ProbesFileError, match="'rename_note', which the server does not"),
    ):
        load_probes(path, client.list_tools())
    code, _ = run(["mcp", "test", "--probes-file", str(path), "--", *SAMPLE])
    assert code == 2


def test_expectations() -> None:
    assert expectation_missing({"contains": ["a", "b"]}, "a b", None) == ""
    assert "does not show 'c'" in expectation_missing({"contains": "c"}, "a b", None)
    assert expectation_missing({"equals": {"n": 1}}, '{"n": 1, "m": 2}', None) == ""
    assert "is not" in expectation_missing({"equals": {"n": 2}}, "", {"n": 1})
    assert "does not match" in expectation_missing({"regex": r"\d+"}, "none", None)


def test_cli_probes_and_json(tmp_path: Path) -> None:
    code, text = run(["mcp", "test", "--probes", "--json", "--cases", "1", "--", *TRUTH])
    data = json.loads(text)
    assert code == 0 and data["scores"]["effect"] < 1 and len(data["probes"]) == 3


def test_demo_truth_shows_both_lies() -> None:
    code, text = run(["demo", "--truth"])
    assert code == 0
    assert "| effect 66.67%" in text and "update_note: reports success" in text
    assert "[not_called]" in text and "[contradicted]" in text
    assert "toolscore mcp test --probes" in text and "toolscore honesty" in text


def test_reference_server_runs_with_probes() -> None:
    command = everything_command()
    if command is None:
        pytest.skip(EVERYTHING_MISSING)
    code, text = run(["mcp", "test", "--probes", "--json", "--", *command])
    data = json.loads(text)
    assert code == 0
    assert "probes" in data
    assert all(p["held"] in (True, False, None) for p in data["probes"])
