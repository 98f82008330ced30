"""``toolscore eval-dataset`` and ``texts-score eval-dataset``: output, exit codes, reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from datasets import results, tool_rows, write_jsonl
from scripted_judge import pair_rows

from pytest_texts_score import cli as texts_cli
from toolscore import cli as tools_cli

pytest.importorskip("pyarrow")


def _tools(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = tools_cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scores_a_dataset_and_prints_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_jsonl(tmp_path / "traces.jsonl", tool_rows(8))
    out = tmp_path / "results.parquet"
    code, stdout, err = _tools(
        capsys, "eval-dataset", str(source), "-o", str(out), "--workers", "1"
    )
    assert code == 0
    assert stdout.startswith(f"{source}: 8 rows in ")
    assert "  scored 8, errors 0\n" in stdout
    assert re.search(r"^score +0\.7750 ", stdout, re.M)  # (6 * 1.0 + 2 * 0.1) / 8
    assert "grade: A 6 (75.0%) · F 2 (25.0%)" in stdout
    assert "rows with: missing calls 2 (25.0%)" in stdout
    assert len(results(out)) == 8
    # Not a terminal: plain progress lines on stderr, the last one at the end.
    assert err.strip().splitlines()[-1].startswith(f"{source}: 8 rows, 0 errors, ")


def test_min_mean_decides_the_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", tool_rows(8)))
    code, stdout, _ = _tools(capsys, "eval-dataset", source, "--min-mean", "0.77", "--no-progress")
    assert code == 0 and stdout.rstrip().endswith("PASS: mean score 0.7750 >= min 0.77")
    code, stdout, _ = _tools(capsys, "eval-dataset", source, "--min-mean", "0.78", "--no-progress")
    assert code == 1 and stdout.rstrip().endswith("FAIL: mean score 0.7750 < min 0.78")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.jsonl"], "missing.jsonl: no such file or folder"),
        (["{src}", "--gold-column", "gold"], "none of the first 8 rows can be read"),
        (["{src}", "-o", "out.txt"], "use .parquet or .jsonl"),
        (["{src}", "--resume"], "resume needs output"),
        (["{src}", "--min-mean", "2"], "expected a number between 0 and 1"),
        (["{src}", "--weight", "nope=1"], "nope"),
        (["{src}", "--report-path", "r.html"], "--report-path needs --report"),
    ],
)
def test_bad_input_exits_two_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", tool_rows(8)))
    args = [a.replace("{src}", source) for a in argv]
    if args[0] == "missing.jsonl":
        args[0] = str(tmp_path / "missing.jsonl")
    code, _, err = _tools(capsys, "eval-dataset", *args, "--no-progress")
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_max_errors_exit_two_after_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", ["{oops"] * 3 + tool_rows(4)))
    code, stdout, err = _tools(
        capsys, "eval-dataset", source, "--max-errors", "0", "--batch-size", "1", "--no-progress"
    )
    assert code == 2
    assert "errors by kind: bad_json 1" in stdout
    assert "stopped early: more than 0 rows could not be scored" in err


def test_html_report_shows_every_score_as_an_offline_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", [*tool_rows(8), "{oops"]))
    out = tmp_path / "results.jsonl"
    code, stdout, _ = _tools(
        capsys, "eval-dataset", source, "-o", str(out), "--report", "html", "--no-progress"
    )
    assert code == 0
    page_path = tmp_path / "results.report.html"
    assert f"html report written to {page_path}" in stdout
    page = page_path.read_text()
    assert page.count('<figure class="plot">') == 11  # score and the ten metrics
    assert page.count('class="bar"') == 11 * 20
    assert "default-src 'none'" in page and "script-src 'none'" in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "bad_json" in page and "Lowest score" in page
    json_path = tmp_path / "r.json"
    code, _, _ = _tools(
        capsys,
        "eval-dataset",
        source,
        "--report",
        "json",
        "--report-path",
        str(json_path),
        "--no-progress",
    )
    doc = json.loads(json_path.read_text())
    assert doc["schema"] == "llm-scorekit-dataset/1"
    assert (doc["rows"], doc["errors"]) == (9, 1)
    assert doc["scores"]["score"]["histogram"] == [0, 0, 2] + [0] * 16 + [6]


def test_json_summary_on_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", tool_rows(4)))
    code, stdout, _ = _tools(capsys, "eval-dataset", source, "--json", "--no-progress")
    assert code == 0
    doc = json.loads(stdout)
    assert doc["mean"] == pytest.approx((3 + 0.1) / 4)
    assert doc["categories"]["grade"] == {"A": 3, "F": 1}


def test_texts_score_eval_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(write_jsonl(tmp_path / "pairs.jsonl", pair_rows(8)))
    out = tmp_path / "out.jsonl"
    code = texts_cli.main(
        [
            "eval-dataset",
            source,
            "-o",
            str(out),
            "--provider",
            "scripted_judge:SentenceJudge",
            "--workers",
            "1",
            "--min-mean",
            "0.6",
            "--no-progress",
            "--metric",
            "recall",
        ]
    )
    stdout, _ = capsys.readouterr()
    assert code == 0
    assert re.search(r"^recall +0\.6667 ", stdout, re.M)  # (1 + 2/3 + 1 + 0) / 4
    assert "judge SentenceJudge: 16 calls" in stdout
    assert stdout.rstrip().endswith("PASS: mean recall 0.6667 >= min 0.6")
    code = texts_cli.main(
        [
            "eval-dataset",
            source,
            "--provider",
            "scripted_judge:DownJudge",
            "--no-progress",
            "--workers",
            "1",
        ]
    )
    _, err = capsys.readouterr()
    assert code == 0  # 8 rows: fewer than the 25 failures in a row that stop a run
    code = texts_cli.main(
        ["eval-dataset", source, "--provider", "no.such.module:Judge", "--no-progress"]
    )
    _, err = capsys.readouterr()
    assert code == 2 and "cannot import 'no.such.module'" in err  # unusable settings, as compare


def test_json_output_carries_no_pass_fail_or_report_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", tool_rows(8)))
    out = tmp_path / "run.jsonl"
    # mean (6 * 1.0 + 2 * 0.1) / 8 = 0.775: below 0.78 exits 1, above 0.77 exits 0
    for bound, expected_code in (("0.78", 1), ("0.77", 0)):
        code, stdout, _ = _tools(
            capsys, "eval-dataset", source, "--json", "--min-mean", bound, "--no-progress",
            "-o", str(out), "--report", "json",
        )  # fmt: skip
        assert code == expected_code
        assert json.loads(stdout)["mean"] == pytest.approx(0.775)  # nothing but the JSON
    report = json.loads((tmp_path / "run.report.json").read_text())  # named after -o
    assert report["mean"] == pytest.approx(0.775) and report["rows"] == 8


def test_outputs_that_cannot_be_written_exit_two_naming_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(write_jsonl(tmp_path / "t.jsonl", tool_rows(4)))
    folder = tmp_path / "reports"
    folder.mkdir()
    code, _, err = _tools(
        capsys, "eval-dataset", source, "--report", "md", "--report-path", str(folder),
        "--no-progress",
    )  # fmt: skip
    assert code == 2
    assert err == f"toolscore: error: cannot write report '{folder}': Is a directory\n"
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    code, _, err = _tools(
        capsys, "eval-dataset", source, "-o", str(a_file / "out.jsonl"), "--no-progress"
    )
    assert code == 2
    assert err.startswith(f"toolscore: error: {a_file}")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
