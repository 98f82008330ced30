"""The ``texts-score`` console script: output, --json, stdin, exit codes.

Scoring tests use the local judge (one model load per test process, shared).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_texts_score.cli import EXIT_BAD_INPUT, EXIT_OK, main

EXPECTED = "The ferry runs twice a day. The crossing takes 40 minutes."
GIVEN = "The ferry runs twice a day. The crossing takes 90 minutes."


def _run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    expected = tmp_path / "expected.txt"
    given = tmp_path / "given.txt"
    expected.write_text(EXPECTED, encoding="utf-8")
    given.write_text(GIVEN, encoding="utf-8")
    return str(expected), str(given)


#: With the scripted judge (one question per sentence, 1.0 when the other text has it), and
#: EXPECTED plus "Bikes ride free.": precision 1/2 (GIVEN's 90 minutes is not in EXPECTED),
#: recall 1/3 (EXPECTED's 40 minutes and bikes are not in GIVEN), F1 = 2 * 1/2 * 1/3 / (5/6) = 0.4.
SCRIPTED = ["--provider", "texts_judges:ScriptedJudge"]


@pytest.fixture
def three_facts(files: tuple[str, str]) -> tuple[str, str]:
    Path(files[0]).write_text(EXPECTED + " Bikes ride free.", encoding="utf-8")
    return files


def test_text_output_shows_scores_and_evidence(three_facts: tuple[str, str]) -> None:
    code, out = _run(["compare", *three_facts, *SCRIPTED])
    assert code == EXIT_OK
    assert out.splitlines()[0] == (
        f"precision 0.5000   recall 0.3333   F1 0.4000   (judge: scripted; expected:"
        f" {three_facts[0]}; given: {three_facts[1]})"
    )
    assert "Recall: questions from EXPECTED, answered from GIVEN" in out
    assert "Precision: questions from GIVEN, answered from EXPECTED" in out
    assert "The crossing takes 90 minutes? │ 0.0000 │" in out


def test_local_judge_output_names_its_questions(files: tuple[str, str]) -> None:
    code, out = _run(["compare", *files])
    assert code == EXIT_OK
    assert "judge: local" in out
    assert "Does the text state that the crossing takes 90 minutes?" in out


def test_json_output(files: tuple[str, str]) -> None:
    code, out = _run(["compare", *files, "--json"])
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["judge"] == "local"
    assert doc["expected"] == files[0]
    assert 0.0 <= doc["f1"] < 1.0
    answers = {(e["side"], e["question"]): e["answer"] for e in doc["evidence"]}
    assert answers[("recall", "Does the text state that the ferry runs twice a day?")] > 0.8
    assert answers[("recall", "Does the text state that the crossing takes 40 minutes?")] < 0.2
    assert {e["side"] for e in doc["evidence"]} == {"precision", "recall"}


def test_given_from_stdin_and_literals(files: tuple[str, str]) -> None:
    code, out = _run(["compare", files[0], "-", "--json"], stdin=EXPECTED)
    assert code == EXIT_OK
    assert json.loads(out)["given"] == "<stdin>"
    assert json.loads(out)["f1"] == 1.0
    code, out = _run(
        ["compare", "--expected-text", EXPECTED, "--given-text", GIVEN, "--json", "--metric",
         "recall"]
    )  # fmt: skip
    doc = json.loads(out)
    assert code == EXIT_OK
    assert doc["precision"] is None and doc["f1"] is None and doc["recall"] < 1.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "missing.txt", "-"], "EXPECTED file 'missing.txt' does not exist"),
        (["compare", "--expected-text", "  ", "--given-text", "x"], "EXPECTED text"),
        (["compare", "--expected-text", "a"], "GIVEN is missing"),
        (["compare", "-", "-"], "only one text can come from stdin"),
        (["compare", "--no-such-option"], "unrecognized arguments: --no-such-option"),
        (["compare", "--expected-text", "a", "--given-text", "b", "--timeout", "soon"],
         "--timeout must be a number, got 'soon'."),
        (["compare", "--expected-text", "a", "--given-text", "b", "--question-runs", "0"],
         "argument --question-runs: expected a whole number >= 1, got 0"),
    ],
    ids=["missing-file", "empty-text", "one-text", "two-stdin", "unknown-option", "bad-setting",
         "zero-runs"],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(argv)
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("texts-score: error: ")
    assert message in err


def test_a_missing_model_file_is_an_unusable_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "other.onnx"
    code, _ = _run(
        ["compare", "--expected-text", "a b c", "--given-text", "a b c",
         "--local-model", str(missing)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert err.count("\n") == 1
    assert "unusable judge settings" in err and "other.onnx does not exist" in err


def test_no_command_prints_help_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([])[0] == EXIT_BAD_INPUT
    assert "compare" in capsys.readouterr().err


def test_console_script_runs(files: tuple[str, str]) -> None:
    script = Path(sys.executable).with_name("texts-score")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "pytest_texts_score.cli"]
    proc = subprocess.run(
        [*cmd, "compare", *files, "--json"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["judge"] == "local"


@pytest.mark.parametrize("fmt", ["json", "html", "md"])
def test_report_file_holds_the_scores_and_evidence(
    files: tuple[str, str], tmp_path: Path, fmt: str
) -> None:
    target = tmp_path / f"report.{fmt}"
    code, out = _run(["compare", *files, *SCRIPTED, "--report", fmt, "-o", str(target)])
    assert code == EXIT_OK
    assert out.startswith("precision 0.5000   recall 0.5000   F1 0.5000")
    text = target.read_text(encoding="utf-8")
    if fmt == "md":  # a summary table, without the evidence
        assert "| f1 |" in text and "expected.txt vs " in text
        return
    assert "The crossing takes 90 minutes" in text
    if fmt == "json":
        doc = json.loads(text)
        (row,) = doc["texts"]
        assert row["metric"] == "f1"
        assert (
            row["score"]
            == 0.5
            == json.loads(_run(["compare", *files, *SCRIPTED, "--json"])[1])["f1"]
        )
        assert any(e["side"] == "recall" for e in row["evidence"])


def test_report_format_from_the_suffix(files: tuple[str, str], tmp_path: Path) -> None:
    target = tmp_path / "out.html"
    assert _run(["compare", *files, "-o", str(target)])[0] == EXIT_OK
    assert target.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--report", "json"], "--report json needs -o PATH"),
        (["-o", "report.txt"], "-o report.txt: cannot tell the report format from the suffix;"
         " add --report json|html|md"),
        (["-o", "report.csv"], "add --report json|html|md"),  # texts-score writes no CSV
    ],
)  # fmt: skip
def test_half_given_report_options_are_bad_input(
    files: tuple[str, str], capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    code, _ = _run(["compare", *files, *extra])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_unwritable_report_path_is_bad_input(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, _ = _run(["compare", *files, "--report", "json", "-o", str(blocker / "r.json")])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "cannot write report" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("json:nope", "--provider 'json:nope': module 'json' has no attribute 'nope'"),
        ("json:dumps", "--provider 'json:dumps': calling dumps() with no arguments failed: "),
        (
            "json:JSONDecoder",
            "--provider 'json:JSONDecoder' gives JSONDecoder, which has no make_questions(text)"
            " and answer_questions(text, questions) methods",
        ),
    ],
)
def test_a_custom_judge_that_is_no_judge_is_an_unusable_setting(
    spec: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(["compare", "--expected-text", "a", "--given-text", "a", "--provider", spec])
    err = capsys.readouterr().err
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err.count("\n") == 1
    assert err.startswith("texts-score: error: unusable judge settings: ")
    assert message in err
