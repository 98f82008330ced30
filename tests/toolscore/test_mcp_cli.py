"""``toolscore mcp ...`` and ``toolscore demo`` end to end, and the recorder's trace read by
``toolscore eval``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP scorecard needs the mcp extra")

from mcp_helpers import run_cli as run
from mcp_helpers import server_command

from toolscore.mcp import MCPStdioClient


def test_list_shows_every_tool_with_its_token_cost() -> None:
    code, text = run(["mcp", "list", "--", *server_command("good_server")])
    assert code == 0
    assert text.splitlines()[0].startswith("weather-good 2.1.0 (stdio, protocol ")
    assert "get_weather" in text and "convert_temperature" in text and "tok" in text
    code, text = run(["mcp", "list", "--json", "--", *server_command("good_server")])
    assert [t["name"] for t in json.loads(text)] == ["get_weather", "convert_temperature"]


def test_lint_exits_1_on_an_error_and_0_on_a_clean_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, text = run(["mcp", "lint", "--", *server_command("sloppy_server")])
    assert code == 1
    assert "error: get_user: parameter 'fields' has no type [param-untyped]" in text
    assert text.rstrip().endswith("warning(s).")
    code, text = run(["mcp", "lint", " ".join(server_command("good_server"))])
    assert code == 0 and "0 error(s), 0 warning(s)" in text


def test_test_grades_and_min_grade_decides_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "card.json"
    code, text = run(
        [
            "mcp",
            "test",
            "--min-grade",
            "B",
            "-o",
            str(report),
            "--",
            *server_command("sloppy_server"),
        ]
    )
    card = json.loads(report.read_text())
    assert code == 1
    assert f"grade {card['grade']} is below --min-grade B" in capsys.readouterr().err
    assert "MCP scorecard: sloppy 0.0.1" in text and "Fix first:" in text
    assert {r["tool"] for r in card["results"]} == {"get_user", "getUser", "delete_user"}
    code, _ = run(["mcp", "test", "--fail-under", "F", "--", *server_command("sloppy_server")])
    assert code == 0


def test_test_prints_json_and_writes_markdown(tmp_path: Path) -> None:
    md = tmp_path / "card.md"
    code, text = run(
        [
            "mcp",
            "test",
            "--json",
            "--report",
            "md",
            "-o",
            str(md),
            "--seed",
            "3",
            "--",
            *server_command("good_server"),
        ]
    )
    assert code == 0
    card = json.loads(text[: text.rindex("}") + 1])
    assert card["grade"] == "A" and card["seed"] == 3
    assert md.read_text().startswith("# MCP scorecard: weather-good 2.1.0")


def test_config_files_select_a_server(tmp_path: Path) -> None:
    command = server_command("good_server")
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "weather": {"command": command[0], "args": command[1:]},
                    "other": {"command": "nothing-here"},
                }
            }
        )
    )
    code, text = run(["mcp", "list", "--config", str(config), "--server", "weather"])
    assert code == 0 and "get_weather" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["mcp", "test"], "name the server"),
        (["mcp", "list", "--", "/nonexistent/server"], "cannot start"),
        (["mcp", "test", "--min-grade", "E", "--", "x"], "a grade is one of A, B, C, D, F"),
        (["mcp", "test", "--cases", "-1", "--", "x"], "--cases: expected a whole number >= 0"),
        # the report's format is checked before the server is started (x is no command)
        (["mcp", "test", "-o", "r.html", "--", "x"], "-o r.html: cannot tell the report format"),
        (["mcp", "test", "--report", "md", "--", "x"], "--report md needs -o PATH"),
        (["mcp", "list", "--server", "x", "--", "y"], "--server picks an entry of --config"),
        (["mcp", "list", "--config", "/nonexistent.json"], "no such MCP configuration file"),
        (["mcp", "list", "--timeout", "soon", "--", "x"], "expected a number, got 'soon'"),
        (["mcp", "list", "--timeout", "0", "--", "x"], "must be greater than 0, got 0"),
        (["mcp", "test", "--concurrency", "0", "--", "x"], "must be greater than 0, got 0"),
        (["mcp", "list", "--header", "no-colon", "https://h/mcp"], "write NAME:VALUE"),
        (["mcp", "list", "--header", ": v", "https://h/mcp"], "write NAME:VALUE"),
        (["mcp", "list", "--header", "A: b", "--", "x"], "--header applies to a URL server"),
        (
            ["mcp", "list", "--config", "mcp.json", "--", "x"],
            "give the server either as a command/URL or with --config",
        ),
        (["mcp", "record", "-o", "t.jsonl", "https://h/mcp"], "record relays a stdio server"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_demo_grades_the_bundled_sample_server() -> None:
    code, text = run(["demo"])
    assert code == 0
    assert "MCP scorecard: notes-sample 1.0.0" in text
    assert "export_notes: fails on valid input" in text


def test_record_writes_a_trace_that_eval_scores(tmp_path: Path) -> None:
    trace = tmp_path / "session.jsonl"
    proxy = [
        sys.executable,
        "-c",
        "import sys; from toolscore.cli import main; sys.exit(main())",
        "mcp",
        "record",
        "-o",
        str(trace),
        "--",
        *server_command("good_server"),
    ]
    with MCPStdioClient(proxy, timeout=20) as client:
        assert client.call_tool("get_weather", {"city": "Paris", "days": 2}).text.startswith(
            "Paris"
        )
        client.call_tool("convert_temperature", {"value": 0, "to": "fahrenheit"})
        assert client.call_tool("get_weather", {"city": "Rome", "days": 99}).is_error
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [m.get("method") for m in lines] == ["tools/call", None] * 3
    assert all(m["duration"] >= 0 for m in lines[1::2])
    gold = tmp_path / "gold.json"
    gold.write_text(
        json.dumps(
            [
                {"tool": "get_weather", "args": {"city": "Paris", "days": 2}},
                {"tool": "convert_temperature", "args": {"value": 0, "to": "fahrenheit"}},
            ]
        )
    )
    code, text = run(["eval", str(gold), str(trace), "--min-score", "0.5"])
    assert "Extra calls (1)" in text and "get_weather(city='Rome', days=99)" in text
    assert code == 0
