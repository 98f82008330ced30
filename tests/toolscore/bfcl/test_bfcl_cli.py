"""BFCL's files: load(), score(), and the ``toolscore bfcl`` command (output, exit codes,
reports, one-line errors)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import bfcl_mutations
import pytest

from toolscore.bfcl import BFCLDataError, category_of, load, score
from toolscore.cli import main

DATA = Path(__file__).resolve().parent / "data"
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")


def q(category: str) -> str:
    return str(DATA / f"BFCL_v4_{category}.json")


def a(category: str) -> str:
    return str(DATA / f"possible_answer_BFCL_v4_{category}.json")


def prompt_text(case: Any) -> str:
    """A prompt-mode output that BFCL accepts for ``case`` (one allowed value per answered
    parameter, dict answers built key by key; see bfcl_mutations.correct_output)."""
    record = bfcl_mutations.Record(case.id, case.category, case.functions, case.ground_truth)
    calls = bfcl_mutations.correct_output(record, random.Random(case.id), False)
    text = ", ".join(
        f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})"
        for call in calls
        for name, args in call.items()
    )
    return f"[{text}]"


def write_outputs(path: Path, rows: list[tuple[str, Any]]) -> str:
    path.write_text("".join(json.dumps({"id": i, "result": r}) + "\n" for i, r in rows))
    return str(path)


# --- load -----------------------------------------------------------------------------


def test_load_joins_questions_and_answers_by_id() -> None:
    cases = load([q(c) for c in CATEGORIES], [a(c) for c in CATEGORIES])
    assert len(cases) == 100
    assert {c.category for c in cases} == set(CATEGORIES)
    first = cases[0]
    assert (first.id, first.category) == ("simple_python_0", "simple_python")
    assert first.functions[0]["name"] == "calculate_triangle_area"
    assert first.messages[0]["role"] == "user"
    only = load([q(c) for c in CATEGORIES], [a(c) for c in CATEGORIES], category="parallel")
    assert [c.id for c in only][:2] == ["parallel_0", "parallel_1"] and len(only) == 25


def test_category_of_reads_bfcls_ids() -> None:
    assert category_of("live_simple_12-3-0") == "live_simple"
    assert category_of("parallel_multiple_9") == "parallel_multiple"


def test_questions_without_answers_are_an_error(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text("\n".join(Path(a("parallel")).read_text().splitlines()[:3]) + "\n")
    with pytest.raises(BFCLDataError, match=r"22 question\(s\) have no possible answer"):
        load(q("parallel"), answers)


def test_relevance_questions_need_no_answers(tmp_path: Path) -> None:
    record = json.loads(Path(q("simple_python")).read_text().splitlines()[0])
    record["id"] = "live_irrelevance_0-0-0"
    path = tmp_path / "BFCL_v4_live_irrelevance.json"
    path.write_text(json.dumps(record) + "\n")
    (case,) = load(path)
    assert (case.category, case.ground_truth) == ("live_irrelevance", None)
    assert case.check("I cannot do that.").valid


@pytest.mark.parametrize(
    ("new_id", "message"),
    [
        ("simple_java_0", "Python rules only"),
        ("simple_javascript_3", "Python rules only"),
        ("multi_turn_base_0", "not a single-turn category"),
    ],
)
def test_out_of_scope_categories_are_refused(tmp_path: Path, new_id: str, message: str) -> None:
    record = json.loads(Path(q("simple_python")).read_text().splitlines()[0])
    record["id"] = new_id
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(BFCLDataError, match=message):
        load(path, a("simple_python"))
    with pytest.raises(BFCLDataError, match=message):
        load(q("simple_python"), a("simple_python"), category=category_of(new_id))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "the file is empty"),
        ('{"id": "simple_python_0"}\n{oops\n', "line 2: not valid JSON"),
        ('{"question": []}\n', 'line 1: each questions record needs an "id"'),
        ('{"id": "simple_python_0", "function": "x"}\n', '"function" must be a list'),
    ],
)
def test_malformed_question_files_name_the_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "questions.json"
    path.write_text(content)
    with pytest.raises(BFCLDataError, match=message):
        load(path, a("simple_python"))


# --- score ----------------------------------------------------------------------------


def test_score_counts_accuracy_per_category_and_overall() -> None:
    cases = load([q("simple_python"), q("parallel")], [a("simple_python"), a("parallel")])
    outputs = {c.id: prompt_text(c) for c in cases}
    outputs["simple_python_1"] = "[math.factorial(number=6)]"  # answer: 5
    outputs["parallel_0"] = "[spotify.play(artist='Taylor Swift', duration=20)]"  # one short
    result = score(outputs, cases)
    assert result.by_category == {"parallel": (24, 25), "simple_python": (24, 25)}
    assert result.accuracy == 48 / 50 and result.category_mean == 0.96
    assert [(r.id, r.verdict.error_type) for r in result.failures] == [
        ("simple_python_1", "value_error:others"),
        ("parallel_0", "parallel_function_checker_no_order:wrong_count"),
    ]


def test_score_needs_every_question_of_a_scored_category_unless_partial() -> None:
    cases = load(q("multiple"), a("multiple"))
    outputs = {c.id: prompt_text(c) for c in cases[:10]}
    with pytest.raises(BFCLDataError, match=r"15 question\(s\) of the scored categories"):
        score(outputs, cases)
    result = score(outputs, cases, partial=True)
    assert result.by_category == {"multiple": (10, 10)}
    assert len(result.missing["multiple"]) == 15


def test_an_output_without_a_question_is_an_error() -> None:
    with pytest.raises(BFCLDataError, match="output 'parallel_99' has no question"):
        score({"parallel_99": "[]"}, load(q("multiple"), a("multiple")), partial=True)


# --- the command ----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["bfcl", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def outputs(tmp_path: Path) -> str:
    rows = []
    for c in load([q(x) for x in CATEGORIES], [a(x) for x in CATEGORIES]):
        rows.append((c.id, prompt_text(c)))
    rows[3] = ("simple_python_3", "[algebra.quadratic_roots(a=1, b=3, c=2)]")  # answer: b=-3
    rows[30] = ("multiple_5", "I do not know.")
    return write_outputs(tmp_path / "BFCL_v4_result.json", rows)


def all_files() -> list[str]:
    out = []
    for c in CATEGORIES:
        out += ["--questions", q(c), "--answers", a(c)]
    return out


def test_the_command_prints_accuracy_per_category_and_every_failure(
    capsys: pytest.CaptureFixture[str], outputs: str
) -> None:
    code, out, err = run(capsys, outputs, *all_files())
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "BFCL AST checker (Python rules): 100 outputs in 4 categories"
    assert lines[2:8] == [
        "category           correct  total  accuracy",
        "multiple                24     25    96.00%",
        "parallel                25     25   100.00%",
        "parallel_multiple       25     25   100.00%",
        "simple_python           24     25    96.00%",
        "overall                 98    100    98.00%",
    ]
    assert "Failures (2):" in lines
    start = lines.index("Failures (2):")
    assert lines[start + 1] == "  simple_python_3  value_error:others"
    assert lines[start + 2] == (
        "      Output call 1 (algebra.quadratic_roots): b=3 is not an allowed value; allowed: -3 "
        "(numbers and booleans must match exactly, without tolerance)."
    )
    assert "  multiple_5  ast_decoder:decoder_failed" in lines


def test_min_accuracy_decides_the_exit_code(
    capsys: pytest.CaptureFixture[str], outputs: str
) -> None:
    code, out, _ = run(capsys, outputs, *all_files(), "--min-accuracy", "0.98")
    assert code == 0 and out.splitlines()[-1] == "PASS: accuracy 98.00% >= min 98.00%"
    code, out, _ = run(capsys, outputs, *all_files(), "--min-accuracy", "99%")
    assert code == 1 and out.splitlines()[-1] == "FAIL: accuracy 98.00% < min 99.00%"


def test_category_selects_what_is_scored(capsys: pytest.CaptureFixture[str], outputs: str) -> None:
    code, out, _ = run(capsys, outputs, *all_files(), "--category", "parallel,multiple")
    assert code == 0
    assert "25 outputs" not in out and "50 outputs in 2 categories" in out
    assert "simple_python" not in out


def test_function_calling_results_with_underscore_to_dot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = []
    for c in load(q("parallel"), a("parallel")):
        calls = []
        for answered in c.ground_truth:
            ((name, params),) = answered.items()
            args = {p: v[0] for p, v in params.items() if v and "" not in v}
            calls.append({name.replace(".", "_"): json.dumps(args)})
        rows.append((c.id, calls))
    path = write_outputs(tmp_path / "fc.jsonl", rows)
    code, out, _ = run(capsys, path, "-q", q("parallel"), "-a", a("parallel"))
    assert code == 0 and "overall  " in out and "100.00%" not in out.splitlines()[-3]
    code, out, _ = run(
        capsys, path, "-q", q("parallel"), "-a", a("parallel"), "--underscore-to-dot"
    )
    assert code == 0 and "parallel       25     25   100.00%" in out


@pytest.mark.parametrize("fmt", ["json", "md", "html"])
def test_reports_go_through_the_shared_report_writer(
    capsys: pytest.CaptureFixture[str], outputs: str, tmp_path: Path, fmt: str
) -> None:
    target = tmp_path / f"report.{fmt}"
    code, out, _ = run(capsys, outputs, *all_files(), "--report", fmt, "-o", str(target))
    assert code == 0 and f"{fmt} report written to {target}" in out
    text = target.read_text()
    assert "simple_python_3" in text and "bfcl simple_python" in text
    if fmt == "json":
        doc = json.loads(text)
        assert doc["summary"]["tools"] == {"total": 100, "passed": 98, "failed": 2, "error": 0}
        row = next(r for r in doc["tools"] if r["test_id"] == "simple_python_3")
        assert row["details"]["error_type"] == "value_error:others"
        assert row["score"] == 0.0


def test_the_report_format_comes_from_the_suffix(
    capsys: pytest.CaptureFixture[str], outputs: str, tmp_path: Path
) -> None:
    code, out, _ = run(capsys, outputs, *all_files(), "-o", str(tmp_path / "r.md"))
    assert code == 0 and "md report written to" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.jsonl", "-q", "Q", "-a", "A"], "missing.jsonl: no such file (model outputs)"),
        (["OUT", "-q", "nope.json", "-a", "A"], "nope.json: no such file (questions)"),
        (["OUT", "-q", "Q", "-a", "A", "--category", "simple_java"], "Python rules only"),
        (["OUT", "-q", "Q", "-a", "A", "--min-accuracy", "1.5"], "--min-accuracy must be"),
        (["OUT", "-q", "Q", "-a", "A", "--report", "md"], "--report md needs -o PATH"),
        (["OUT", "-q", "Q", "-a", "A", "-o", "r.txt"], "cannot tell the report format"),
        (["OUT", "-q", "Q", "-a", "A", "-o", "r.csv"], "add --report json|md|html"),
        (["BAD", "-q", "Q", "-a", "A"], "line 1: not valid JSON"),
        (["NOID", "-q", "Q", "-a", "A"], "output 'simple_python_999' has no question"),
        (["OUT", "-q", "Q"], "25 question(s) have no possible answer"),
        (["OUT", "-q", "Q", "-a", "A", "--category", "parallel"], "no question of category"),
    ],
)
def test_bad_input_exits_two_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    cases = load(q("simple_python"), a("simple_python"))
    files = {
        "OUT": write_outputs(tmp_path / "out.jsonl", [(c.id, "[]") for c in cases]),
        "BAD": str(tmp_path / "bad.jsonl"),
        "NOID": write_outputs(tmp_path / "noid.jsonl", [("simple_python_999", "[]")]),
        "Q": q("simple_python"),
        "A": a("simple_python"),
    }
    Path(files["BAD"]).write_text("{oops\n")
    code, out, err = run(capsys, *[files.get(x, x) for x in argv])
    assert out == ""
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("toolscore bfcl: error: ")
    assert message in err


def test_the_console_script_runs_bfcl(outputs: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolscore.cli", "bfcl", outputs, *all_files()],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "overall                 98    100    98.00%" in done.stdout
