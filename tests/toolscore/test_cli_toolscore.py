"""The toolscore command: output, exit codes, reports, and one-line errors on bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolscore.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "toolscore"
GOLD = str(EXAMPLES / "gold.json")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_passing_trace_exits_zero_and_prints_the_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"))
    assert (code, err) == (0, "")
    assert "tool_f1 1.0000  arg_f1 1.0000  sequence 1.0000  redundant 0.0000" in out
    assert out.rstrip().endswith("score 1.0000 (grade A) >= min 0.9")
    assert out.splitlines()[-1].startswith("PASS: ")


def test_eval_below_min_score_exits_one_with_the_failure_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "eval", GOLD, str(EXAMPLES / "trace_gemini.json"))
    assert code == 1
    assert "search_hotels" in out  # the missing call is listed by the failure table
    assert out.splitlines()[-1].startswith("FAIL: ") and "< min 0.9" in out


def test_min_score_decides_the_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    trace = str(EXAMPLES / "trace_gemini.json")
    low, _, _ = _run(capsys, "eval", GOLD, trace, "--min-score", "0.1")
    high, _, _ = _run(capsys, "eval", GOLD, trace, "--min-score", "1")
    assert (low, high) == (0, 1)


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("missing", "missing.json: no such file"),
        ("empty", "empty.json: the file is empty"),
        ("malformed", "malformed.json: not valid JSON"),
        ("unknown_shape", "unknown_shape.json: Cannot auto-detect the trace format"),
        ("bad_matcher", "bad_matcher.json: [0].args.city: unknown matcher key '$regexp'"),
    ],
)
def test_bad_input_is_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, setup: str, expected: str
) -> None:
    gold, trace = Path(GOLD), EXAMPLES / "trace_openai.json"
    bad = tmp_path / f"{setup}.json"
    if setup == "empty":
        bad.write_text("")
    elif setup == "malformed":
        bad.write_text('[{"tool": ')
    elif setup == "unknown_shape":
        bad.write_text('{"model": "x", "output_text": "no calls here"}')
    elif setup == "bad_matcher":
        bad.write_text('[{"tool": "get_weather", "args": {"city": {"$regexp": "NYC"}}}]')
    if setup == "bad_matcher":
        gold = bad
    else:
        trace = bad
    code, out, err = _run(capsys, "eval", str(gold), str(trace))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("toolscore: error: ")
    assert expected in err


def test_unknown_format_and_bad_min_score_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    trace = str(EXAMPLES / "trace_openai.json")
    code, _, err = _run(capsys, "eval", GOLD, trace, "--format", "bedrock")
    assert code == 2 and "invalid choice: 'bedrock'" in err and err.count("\n") == 1
    code, _, err = _run(capsys, "eval", GOLD, trace, "--min-score", "1.5")
    assert code == 2 and "argument --min-score: expected a number between 0 and 1, got 1.5" in err


def test_forced_format_that_does_not_fit_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"), "-f", "mcp")
    assert code == 2 and "trace_openai.json: message 0 is not a JSON-RPC message" in err


@pytest.mark.parametrize("fmt", ["json", "md", "html"])
def test_eval_writes_a_report(capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"report.{fmt}"
    code, out, _ = _run(
        capsys,
        "eval",
        GOLD,
        str(EXAMPLES / "trace_anthropic.json"),
        "--report",
        fmt,
        "-o",
        str(path),
    )
    assert code == 1
    assert f"{fmt} report written to {path}" in out
    text = path.read_text()
    assert "trace_anthropic.json" in text
    if fmt == "json":
        (row,) = json.loads(text)["tools"]
        assert row["outcome"] == "failed" and row["threshold"] == 0.9
        assert row["details"]["pairs"][1]["tool"] == "search_hotels"


def test_report_needs_an_output_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"), "--report", "json"
    )
    assert code == 2 and "--report json needs -o PATH" in err


def test_report_format_from_the_suffix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    code, _, _ = _run(capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"), "-o", str(path))
    assert code == 0 and path.read_text().startswith("# LLM score report")
    code, _, err = _run(
        capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"), "-o", str(tmp_path / "r.txt")
    )
    assert code == 2 and "cannot tell the report format" in err
    # every format --report offers is also read from the suffix (.csv was refused before)
    path = tmp_path / "r.csv"
    code, _, _ = _run(capsys, "eval", GOLD, str(EXAMPLES / "trace_openai.json"), "-o", str(path))
    assert code == 0 and path.read_text().splitlines()[0].startswith("kind,test,")


def test_compare_ranks_traces_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    traces = [
        str(EXAMPLES / n)
        for n in ("trace_gemini.json", "trace_openai.json", "trace_anthropic.json")
    ]
    code, out, err = _run(capsys, "compare", GOLD, *traces)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [
        "rank",
        "trace",
        "score",
        "grade",
        "tool_f1",
        "arg_f1",
        "sequence",
        "redundant",
        "missing",
        "extra",
    ]
    ranked = [line.split()[1].rsplit("/", 1)[-1] for line in lines[1:4]]
    assert ranked[0] == "trace_openai.json"
    scores = [float(line.split()[2]) for line in lines[1:4]]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0


def test_compare_with_min_score_fails_when_any_trace_is_below(
    capsys: pytest.CaptureFixture[str],
) -> None:
    traces = [str(EXAMPLES / "trace_openai.json"), str(EXAMPLES / "trace_gemini.json")]
    code, out, _ = _run(capsys, "compare", GOLD, *traces, "--min-score", "0.9")
    assert code == 1 and "FAIL: 1 of 2 below min 0.9" in out


def test_compare_stops_at_the_first_bad_trace(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = _run(
        capsys, "compare", GOLD, str(EXAMPLES / "trace_openai.json"), str(tmp_path / "nope.json")
    )
    assert code == 2 and err.strip().endswith("nope.json: no such file")


def test_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    exe = shutil.which("toolscore", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the toolscore console script is not installed in this environment")
    (tmp_path / "bad.json").write_text("{")
    done = subprocess.run(
        [exe, "eval", GOLD, str(tmp_path / "bad.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "bad.json: not valid JSON" in done.stderr


def test_arguments_that_are_not_json_warn_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "t.json"
    trace.write_text(
        json.dumps(
            {
                "choices": [
                    {
                        "message": {
                            "role": "assistant",
                            "tool_calls": [
                                {
                                    "id": "1",
                                    "type": "function",
                                    "function": {"name": "get_weather", "arguments": "{city: NYC"},
                                }
                            ],
                        }
                    }
                ]
            }
        )
    )
    code, out, err = _run(capsys, "eval", GOLD, str(trace))
    assert code == 1 and "FAIL: " in out
    (line,) = err.splitlines()
    assert line.startswith("toolscore: warning: ") and "get_weather" in line
