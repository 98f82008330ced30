"""``texts-score calibrate``: figures, gates and exit codes, bad input, reports, the judge's work.

The figures are checked on scripted judges (``calibration_judges.py``) whose scores are known,
so every expected value below is worked out by hand in a comment; the HTTP fake of the
chat-completions API checks the calls, the cache and the cost; the local judge runs on a few
items of the shipped example.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from calibration_judges import InFlightSentenceJudge, SentenceJudge

from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM
from pytest_texts_score.cli import EXIT_BAD_INPUT, EXIT_JUDGE_FAILED, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "calibration" / "labelled.jsonl"
SENTENCES = ["--provider", "calibration_judges:SentenceJudge"]
EXIT_MISSED = 1

E1 = "The ferry leaves at nine. The crossing takes two hours."

#: On SentenceJudge (precision = share of given's sentences found in expected):
#: id  domain label score  verdict@0.5
#: a1  x      1     1.0    1 TP
#: a2  x      1     1.0    1 TP
#: a3  x      1     0.0    0 FN (a paraphrase the judge misses)
#: a4  x      0     0.0    0 TN
#: a5  y      0     0.0    0 TN
#: a6  y      0     1.0    1 FP
#: a7  y      1     0.5    1 TP
#: a8  y      0     0.5    1 FP
EIGHT = [
    ("a1", "x", "The ferry leaves at nine.", 1),
    ("a2", "x", "The crossing takes two hours.", 1),
    ("a3", "x", "The boat departs at nine.", 1),
    ("a4", "x", "The ferry leaves at ten.", 0),
    ("a5", "y", "Dogs ride free.", 0),
    ("a6", "y", "The crossing takes two hours.", 0),
    ("a7", "y", "The ferry leaves at nine. The boat departs at nine.", 1),
    ("a8", "y", "The crossing takes two hours. Bikes ride free.", 0),
]


def _write(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


@pytest.fixture
def eight(tmp_path: Path) -> str:
    rows = [{"id": i, "domain": d, "expected": E1, "given": g, "label": y} for i, d, g, y in EIGHT]
    return _write(tmp_path / "eight.jsonl", rows)


@pytest.fixture(autouse=True)
def _fresh_judges() -> None:
    SentenceJudge.built.clear()
    InFlightSentenceJudge.last = None


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


def _json(argv: list[str]) -> tuple[int, dict[str, Any]]:
    code, out = _run([*argv, "--json"])
    return code, json.loads(out)


# -- figures -------------------------------------------------------------------------------------


def test_figures_overall_and_per_domain(eight: str) -> None:
    code, doc = _json(["calibrate", eight, *SENTENCES])
    assert code == EXIT_OK
    overall = doc["overall"]
    assert (overall["items"], overall["supported"], overall["unsupported"]) == (8, 4, 4)
    assert overall["confusion"] == {"tp": 3, "fp": 2, "tn": 2, "fn": 1}
    # TPR 3/4, TNR 2/4.
    assert overall["balanced_accuracy"] == 0.625
    # Candidates 0, 0.5, 1 give 1/2, 5/8 and 5/8 (at 1: TP 2, FN 2, FP 1, TN 3): the lower.
    assert (overall["best_threshold"], overall["balanced_accuracy_at_best"]) == (0.5, 0.625)
    # Positives 1 1 0 .5 against negatives 0 0 1 .5: 3.5 + 3.5 + 1 + 2.5 = 10.5 of 16 pairs.
    assert overall["roc_auc"] == pytest.approx(10.5 / 16, abs=1e-4)
    # po 5/8; said yes 5/8, is yes 1/2: pe 1/2; kappa (5/8 - 1/2) / (1/2) = 1/4.
    assert overall["kappa"] == 0.25
    assert "consistency" not in overall
    x, y = doc["domains"]["x"], doc["domains"]["y"]
    # x: scores 1 1 0 0, labels 1 1 1 0. TPR 2/3, TNR 1; best at 1 (the same verdicts);
    # AUC (1 + 1 + 1/2) / 3; po 3/4, pe 1/2 * 3/4 + 1/2 * 1/4 = 1/2, kappa 1/2.
    assert x["balanced_accuracy"] == pytest.approx(5 / 6, abs=1e-4)
    assert (x["best_threshold"], x["balanced_accuracy_at_best"]) == (1.0, 0.8333)
    assert x["roc_auc"] == pytest.approx(2.5 / 3, abs=1e-4)
    assert x["kappa"] == 0.5
    # y: scores 0 1 .5 .5, labels 0 0 1 0. TPR 1, TNR 1/3; AUC (1 + 0 + 1/2) / 3;
    # po 1/2, pe 3/4 * 1/4 + 1/4 * 3/4 = 3/8, kappa (1/2 - 3/8) / (5/8) = 1/5.
    assert y["balanced_accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert (y["best_threshold"], y["balanced_accuracy_at_best"]) == (0.5, 0.6667)
    assert y["roc_auc"] == 0.5
    assert y["kappa"] == 0.2
    items = {i["id"]: i for i in doc["items"]}
    assert items["a7"]["score"] == 0.5 and items["a7"]["runs"] == [0.5]
    assert not items["a3"]["agrees"] and items["a1"]["agrees"]
    assert (doc["threshold"], doc["repeats"], doc["metrics"]) == (0.5, 1, {"precision": 8})
    # One question call and one answer call per item.
    assert doc["judge"]["calls"] == 16 and doc["judge"]["cache_hits"] == 0
    assert SentenceJudge.built[-1].calls == {"questions": 8, "answers": 8}
    assert doc["judge"]["judge"] == "sentences"


def test_text_output(eight: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["calibrate", eight, *SENTENCES])
    assert code == EXIT_OK
    lines = out.splitlines()
    assert lines[0] == (
        f"{eight}: 8 items (4 supported, 4 not), 1 repeat, judge sentences, metric precision"
    )
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:6]}
    assert rows["all"] == ["8", "0.6250", "0.5000", "0.6250", "0.6562", "0.2500"]
    assert rows["x"] == ["4", "0.8333", "1.0000", "0.8333", "0.8333", "0.5000"]
    assert rows["y"] == ["4", "0.6667", "0.5000", "0.6667", "0.5000", "0.2000"]
    # Most wrong first: a3 and a6 are 0.5 from the threshold, a8 is at it.
    assert (
        "verdicts at 0.5 against the label (3): a3 (label 1, score 0.0000) · a6 (label 0,"
        " score 1.0000) · a8 (label 0, score 0.5000)" in lines
    )
    assert lines[-1].startswith("judge sentences: 16 calls, 0 cache hits")
    assert capsys.readouterr().err == ""


def test_threshold_moves_the_fixed_figures_only(eight: str) -> None:
    _, doc = _json(["calibrate", eight, *SENTENCES, "--threshold", "0.75"])
    overall = doc["overall"]
    # At 0.75 a7 and a8 (0.5) say "not": TP 2, FN 2, FP 1, TN 3.
    assert overall["confusion"] == {"tp": 2, "fp": 1, "tn": 3, "fn": 2}
    assert overall["balanced_accuracy"] == 0.625
    # po 5/8; said yes 3/8, is yes 1/2: pe 1/2, kappa 1/4.
    assert overall["kappa"] == 0.25
    assert (overall["best_threshold"], overall["roc_auc"]) == (0.5, 0.6562)


def test_metric_per_item(tmp_path: Path) -> None:
    # recall: questions from expected (two sentences), answered from given (one of them): 0.5;
    # f1 of precision 1 and recall 1/2: 2/3.
    rows = [
        {"id": "p", "expected": E1, "given": "The ferry leaves at nine.", "label": 1},
        {"id": "r", "expected": E1, "given": "The ferry leaves at nine.", "label": 0,
         "metric": "recall"},
        {"id": "f", "expected": E1, "given": "The ferry leaves at nine.", "label": 1,
         "metric": "f1"},
    ]  # fmt: skip
    code, doc = _json(["calibrate", _write(tmp_path / "m.jsonl", rows), *SENTENCES])
    assert code == EXIT_OK
    scores = {i["id"]: (i["metric"], i["score"]) for i in doc["items"]}
    assert scores == {"p": ("precision", 1.0), "r": ("recall", 0.5), "f": ("f1", 0.6667)}
    assert doc["metrics"] == {"precision": 1, "recall": 1, "f1": 1}
    assert doc["domains"] == {}  # no item names one
    rows[0]["domain"] = "ferries"
    _, doc = _json(["calibrate", _write(tmp_path / "m.jsonl", rows), *SENTENCES])
    assert {name: d["items"] for name, d in doc["domains"].items()} == {
        "(no domain)": 2,
        "ferries": 1,
    }
    # One label only in each: no ROC AUC, no best threshold; the balanced accuracy is the
    # recall of the label present ("ferries": p is supported and scores 1).
    ferries = doc["domains"]["ferries"]
    assert (ferries["roc_auc"], ferries["best_threshold"], ferries["balanced_accuracy"]) == (
        None, None, 1.0
    )  # fmt: skip


# -- gates and exit codes ------------------------------------------------------------------------


def test_min_balanced_accuracy_met_and_missed(eight: str) -> None:
    code, out = _run(["calibrate", eight, *SENTENCES, "--min-balanced-accuracy", "0.6"])
    assert code == EXIT_OK
    assert out.splitlines()[-1] == (
        "PASS: balanced accuracy at 0.5 0.6250 >= --min-balanced-accuracy 0.6"
    )
    code, out = _run(["calibrate", eight, *SENTENCES, "--min-balanced-accuracy", "0.7"])
    assert code == EXIT_MISSED
    assert out.splitlines()[-1] == (
        "FAIL: balanced accuracy at 0.5 0.6250 < --min-balanced-accuracy 0.7 by 0.0750"
    )
    # Exactly at the bound is met.
    code, _ = _run(["calibrate", eight, *SENTENCES, "--min-balanced-accuracy", "0.625"])
    assert code == EXIT_OK


def test_json_keeps_stdout_one_document_and_says_the_verdict_on_stderr(
    eight: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc = _json(["calibrate", eight, *SENTENCES, "--min-balanced-accuracy", "0.7"])
    assert code == EXIT_MISSED
    assert doc["gates"] == [
        {"option": "--min-balanced-accuracy", "figure": "balanced_accuracy", "bound": 0.7,
         "value": 0.625, "met": False, "by": 0.075}
    ]  # fmt: skip
    assert capsys.readouterr().err.splitlines()[-1].startswith("FAIL: balanced accuracy")


def test_a_value_just_past_a_bound_never_reads_as_equal_to_it() -> None:
    from scorekit.report._calibration_report import gate_lines

    gates = [
        {"option": "--min-balanced-accuracy", "figure": "balanced_accuracy", "bound": 0.8,
         "value": 0.79996, "met": False, "by": 0.8 - 0.79996},
        {"option": "--max-flip-rate", "figure": "flip_rate", "bound": 0.1, "value": 0.10002,
         "met": False, "by": 0.10002 - 0.1},
    ]  # fmt: skip
    assert gate_lines({"threshold": 0.5, "gates": gates}) == [
        "FAIL: balanced accuracy at 0.5 0.79996 < --min-balanced-accuracy 0.8 by 0.00004;"
        " flip rate 0.10002 > --max-flip-rate 0.1 by 0.00002"
    ]


def _wobbly_rows(tmp_path: Path) -> str:
    # 3 wobbly items (label 1: answered 1, 0, 1, ... on successive calls), 4 steady supported
    # items (label 1, score 1), 3 steady unsupported ones (label 0, score 0).
    rows = []
    for k in range(3):
        given = f"Fact w{k} (wobbly)."
        rows.append({"id": f"w{k}", "expected": given, "given": given, "label": 1})
    for k in range(4):
        given = f"Fact s{k} holds."
        rows.append({"id": f"s{k}", "expected": given, "given": given, "label": 1})
    for k in range(3):
        rows.append(
            {"id": f"n{k}", "expected": f"Fact n{k} holds.", "given": f"Fact n{k} fails.",
             "label": 0}
        )  # fmt: skip
    return _write(tmp_path / "wobbly.jsonl", rows)


def test_repeats_measure_the_flip_rate(tmp_path: Path) -> None:
    path = _wobbly_rows(tmp_path)
    code, doc = _json(["calibrate", path, *SENTENCES, "--repeats", "2"])
    assert code == EXIT_OK
    # Each wobbly item's repeats are {1, 0}: |diff| 1 and a flip; the others 0 and none.
    assert doc["overall"]["consistency"] == {
        "repeats": 2, "mean_abs_diff": 0.3, "flips": 3, "flip_rate": 0.3
    }  # fmt: skip
    wobbly = [i for i in doc["items"] if i["id"].startswith("w")]
    assert all(sorted(i["runs"]) == [0.0, 1.0] and i["score"] == 0.5 for i in wobbly)
    # Every repeat its own calls: 10 items x 2 repeats x (questions + answers).
    assert doc["judge"]["calls"] == 40
    # Three repeats: {1, 0, 1}, pairs 1, 0, 1: 2/3 for 3 of 10 items = 0.2; score 2/3.
    code, doc = _json(["calibrate", path, *SENTENCES, "--repeats", "3"])
    assert doc["overall"]["consistency"]["mean_abs_diff"] == 0.2
    assert doc["overall"]["consistency"]["flips"] == 3
    assert {i["score"] for i in doc["items"] if i["id"].startswith("w")} == {0.6667}


def test_max_flip_rate_met_and_missed(tmp_path: Path) -> None:
    path = _wobbly_rows(tmp_path)
    code, out = _run(["calibrate", path, *SENTENCES, "--repeats", "2", "--max-flip-rate", "0.3"])
    assert code == EXIT_OK
    assert out.splitlines()[-1] == "PASS: flip rate 0.3000 <= --max-flip-rate 0.3"
    assert (
        "self-consistency over 2 repeats: mean |score difference| 0.3000; the verdict at 0.5"
        " flips on 3 of 10 items (30.00%)" in out.splitlines()
    )
    code, out = _run(["calibrate", path, *SENTENCES, "--repeats", "2", "--max-flip-rate", "0.25"])
    assert code == EXIT_MISSED
    assert out.splitlines()[-1] == "FAIL: flip rate 0.3000 > --max-flip-rate 0.25 by 0.0500"


def test_both_bounds_missed_the_last_line_names_both(tmp_path: Path) -> None:
    # At 0.6 the wobbly items (mean 0.5) say "not": TPR 4/7, TNR 1, balanced accuracy 11/14.
    argv = ["calibrate", _wobbly_rows(tmp_path), *SENTENCES, "--repeats", "2", "--threshold",
            "0.6", "--min-balanced-accuracy", "0.8", "--max-flip-rate", "0.25"]  # fmt: skip
    code, out = _run(argv)
    assert code == EXIT_MISSED
    assert out.splitlines()[-1] == (
        "FAIL: balanced accuracy at 0.6 0.7857 < --min-balanced-accuracy 0.8 by 0.0143;"
        " flip rate 0.3000 > --max-flip-rate 0.25 by 0.0500"
    )


def test_items_are_scored_concurrently(eight: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each call waits until 8 of its kind are in flight: scored one by one, none gets past 1.
    monkeypatch.setattr(InFlightSentenceJudge, "expect_in_flight", 8)
    code, doc = _json(
        ["calibrate", eight, "--provider", "calibration_judges:InFlightSentenceJudge"]
    )
    assert code == EXIT_OK
    judge = InFlightSentenceJudge.last
    assert judge is not None
    assert judge.max_in_flight == {"questions": 8, "answers": 8}
    assert doc["overall"]["balanced_accuracy"] == 0.625  # the same answers as SentenceJudge


def _command() -> list[str]:
    script = Path(sys.executable).with_name("texts-score")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pytest_texts_score.cli"]


def _child_env() -> dict[str, str]:
    # The scripted judges' modules importable in the child.
    folders = [str(Path(__file__).parent), str(ROOT / "tests")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(folders)}


def test_console_script_exit_code_and_last_line(eight: str) -> None:
    proc = subprocess.run(
        [*_command(), "calibrate", eight, *SENTENCES, "--min-balanced-accuracy", "0.9"],
        capture_output=True, text=True, timeout=120, env=_child_env(),
    )  # fmt: skip
    assert proc.returncode == EXIT_MISSED, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("FAIL: balanced accuracy at 0.5 0.6250 <")


# -- bad input -----------------------------------------------------------------------------------

ROW = {"id": "a", "expected": "It rains.", "given": "It rains.", "label": 1}
NEG = {"id": "b", "expected": "It rains.", "given": "It snows.", "label": 0}


def _lines(*rows: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "is empty; write one JSON object per line"),
        ("\n  \n", "is empty"),
        (_lines({k: v for k, v in ROW.items() if k != "label"}, NEG),
         "line 1: no 'label'; label each row 1 (given is supported by expected) or 0 (not)"),
        (_lines(ROW, {**NEG, "label": 2}), "line 2: label must be 0 or 1, got 2"),
        (_lines(ROW, {**NEG, "label": "no"}), 'line 2: label must be 0 or 1, got "no"'),
        (_lines(ROW, {**NEG, "label": True}), "line 2: label must be 0 or 1, got true"),
        (_lines(ROW, {**ROW, "id": "c"}),
         "every label is 1 (2 rows); calibration needs both classes: add rows labelled 0"),
        (_lines({**ROW, "metric": "accuracy"}, NEG),
         'line 1: unknown metric "accuracy"; use precision, recall or f1'),
        (_lines(ROW, NEG, {**NEG}),
         "line 3: id 'b' is already used on line 2; give every row an id of its own"),
        (_lines(ROW, '{"id": "b", "expected": "x"', NEG), "line 2: not valid JSON"),
        (_lines(ROW, "[1, 2]"), "line 2: a row must be a JSON object, got list"),
        (_lines({k: v for k, v in ROW.items() if k != "expected"}, NEG), "line 1: no 'expected'"),
        (_lines(ROW, {**NEG, "given": "  "}), "line 2: 'given' is empty"),
        (_lines(ROW, {**NEG, "id": None}), "line 2: no 'id'"),
        (_lines(ROW, {**NEG, "domain": 3}), "line 2: 'domain' must be text, got int"),
    ],
    ids=["empty", "blank-lines", "no-label", "label-2", "label-text", "label-bool",
         "one-class", "unknown-metric", "duplicate-id", "invalid-json", "not-an-object",
         "no-expected", "blank-given", "no-id", "bad-domain"],
)  # fmt: skip
def test_bad_file_is_one_line_naming_file_and_line(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "labelled.jsonl"
    path.write_text(content, encoding="utf-8")
    code, out = _run(["calibrate", str(path), *SENTENCES])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"texts-score: error: {path}")
    assert message in err
    assert SentenceJudge.built == []  # the judge is never built for a file it cannot use


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["calibrate", "missing.jsonl"], "labelled file 'missing.jsonl' does not exist"),
        (["calibrate", "{tmp}"], "is a folder; give a JSON lines file"),
        (["calibrate", "{file}", "--repeats", "1", "--max-flip-rate", "0.1"],
         "--max-flip-rate needs --repeats 2 or more"),
        (["calibrate", "{file}", "--threshold", "1.5"],
         "argument --threshold: expected a number between 0 and 1, got 1.5"),
        (["calibrate", "{file}", "--repeats", "0"],
         "argument --repeats: expected a whole number >= 1, got 0"),
        (["calibrate", "{file}", "--report", "html"], "--report html needs -o PATH"),
        (["calibrate", "{file}", "-o", "out.md"], "add --report json|html"),
        (["calibrate", "{file}", "--provider", "nope"], "--provider 'nope' is not local, openai"),
        (["calibrate", "{file}", "--timeout", "soon"], "--timeout must be a number, got 'soon'."),
        (["calibrate", "{file}", "--price-input-per-mtok", "-1"],
         "argument --price-input-per-mtok: expected a number >= 0, got -1"),
        (["calibrate", "{file}", "--provider", "openai"],
         "unusable judge settings: The openai judge needs a model: --model"),
    ],
    ids=["missing", "folder", "flip-without-repeats", "threshold", "repeats", "report-no-path",
         "report-suffix", "provider", "bad-setting", "price", "no-model"],
)  # fmt: skip
def test_bad_options_are_one_line_and_exit_2(
    tmp_path: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _write(tmp_path / "ok.jsonl", [ROW, NEG])
    argv = [a.format(tmp=tmp_path, file=file) for a in argv]
    code, out = _run(argv)
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("texts-score: error: ")
    assert message in err


# -- reports -------------------------------------------------------------------------------------


def test_json_and_html_reports(eight: str, tmp_path: Path) -> None:
    report = tmp_path / "calibration.json"
    code, out = _run(["calibrate", eight, *SENTENCES, "-o", str(report)])
    assert code == EXIT_OK
    assert f"json report written to {report}" in out
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["schema"] == "llm-scorekit-calibration/1"
    assert doc["overall"]["balanced_accuracy"] == 0.625
    assert [i["id"] for i in doc["items"]] == [row[0] for row in EIGHT]
    page = tmp_path / "calibration.txt"
    code, _ = _run(["calibrate", eight, *SENTENCES, "--report", "html", "-o", str(page),
                    "--min-balanced-accuracy", "0.7"])  # fmt: skip
    assert code == EXIT_MISSED
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "Judge calibration report" in html
    assert "<script" not in html and "<svg" in html
    assert "FAIL: balanced accuracy at 0.5 0.6250 &lt; --min-balanced-accuracy 0.7" in html
    for item_id, *_ in EIGHT:
        assert f"<td>{item_id}</td>" in html


def test_unwritable_report_is_bad_input(eight: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    target = tmp_path / "no" / "such" / "folder"
    target.parent.parent.write_text("a file, not a folder", encoding="utf-8")
    code, _ = _run(["calibrate", eight, *SENTENCES, "-o", str(target / "r.json")])
    assert code == EXIT_BAD_INPUT
    assert "cannot write report" in capsys.readouterr().err


# -- the HTTP fake of the chat-completions API ---------------------------------------------------

MUSEUM = "The museum opens at ten. Entry is free on Sundays."
#: The fake answers 1.0 when 75 % of a question's content words are in the text: h1, h2, h6
#: score 1 (label 1), h3 (2 of 3 words), h4, h5 score 0 (label 0): a perfect judge here.
MUSEUM_ROWS = [
    ("h1", "Entry is free on Sundays.", 1),
    ("h2", "The museum opens at ten.", 1),
    ("h3", "The museum opens at noon.", 0),
    ("h4", "Parking costs five euros.", 0),
    ("h5", "Entry costs five euros on Sundays.", 0),
    ("h6", "The museum opens at ten on Sundays.", 1),
]


def _fake_args(fake: FakeLLM, model: str = "fake-model") -> list[str]:
    return ["--provider", "openai", "--base-url", fake.base_url, "--api-key", FAKE_KEY,
            "--model", model, "--timeout", "5"]  # fmt: skip


@pytest.fixture
def museum(tmp_path: Path) -> str:
    rows = [{"id": i, "expected": MUSEUM, "given": g, "label": y} for i, g, y in MUSEUM_ROWS]
    return _write(tmp_path / "museum.jsonl", rows)


def test_fake_server_calls_and_cost(fake_llm: FakeLLM, museum: str, tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, doc = _json(["calibrate", museum, *_fake_args(fake_llm, "gpt-4o-mini"),
                       "--min-balanced-accuracy", "1", "-o", str(report)])  # fmt: skip
    assert code == EXIT_OK
    overall = doc["overall"]
    assert (overall["balanced_accuracy"], overall["roc_auc"], overall["kappa"]) == (1.0, 1.0, 1.0)
    assert (overall["best_threshold"], overall["balanced_accuracy_at_best"]) == (1.0, 1.0)
    judge = doc["judge"]
    assert (judge["judge"], judge["model"]) == ("openai", "gpt-4o-mini")
    # One question request and one answer request per item, all of them received.
    assert judge["calls"] == fake_llm.calls == 12
    assert len(fake_llm.requests_of("questions")) == len(fake_llm.requests_of("answers")) == 6
    prompt, completion = judge["prompt_tokens"], judge["completion_tokens"]
    assert prompt > 0 and completion > 0
    # The price table's gpt-4o-mini: $0.15 / $0.60 per million tokens.
    assert judge["estimated_cost_usd"] == pytest.approx((prompt * 0.15 + completion * 0.6) / 1e6)
    assert FAKE_KEY not in report.read_text(encoding="utf-8")


def test_fake_server_cost_from_given_prices(fake_llm: FakeLLM, museum: str) -> None:
    code, doc = _json(["calibrate", museum, *_fake_args(fake_llm)])
    assert code == EXIT_OK
    assert doc["judge"]["estimated_cost_usd"] is None  # fake-model is not in the price table
    code, doc = _json(["calibrate", museum, *_fake_args(fake_llm), "--price-input-per-mtok", "1",
                       "--price-output-per-mtok", "2"])  # fmt: skip
    judge = doc["judge"]
    assert judge["estimated_cost_usd"] == pytest.approx(
        (judge["prompt_tokens"] * 1 + judge["completion_tokens"] * 2) / 1e6
    )


def test_fake_server_cache_hits(fake_llm: FakeLLM, museum: str, tmp_path: Path) -> None:
    argv = ["calibrate", museum, *_fake_args(fake_llm), "--cache-dir", str(tmp_path / "cache")]
    code, first = _json(argv)
    assert code == EXIT_OK
    assert (first["judge"]["calls"], first["judge"]["cache_hits"]) == (12, 0)
    fake_llm.reset()
    code, again = _json(argv)
    assert code == EXIT_OK
    assert (again["judge"]["calls"], again["judge"]["cache_hits"]) == (0, 12)
    assert fake_llm.calls == 0
    assert again["overall"] == first["overall"]


def test_fake_server_same_judge_is_not_flagged(fake_llm: FakeLLM, museum: str) -> None:
    # A deterministic judge repeated: own requests per repeat, no flip, the gate holds.
    code, out = _run(["calibrate", museum, *_fake_args(fake_llm), "--repeats", "3",
                      "--max-flip-rate", "0"])  # fmt: skip
    assert code == EXIT_OK
    assert fake_llm.calls == 6 * 3 * 2
    assert out.splitlines()[-1] == "PASS: flip rate 0.0000 <= --max-flip-rate 0.0"
    assert "flips on 0 of 6 items (0.00%)" in out


def test_fake_server_failure_is_exit_3(fake_llm: FakeLLM, museum: str) -> None:
    fake_llm.expected_key = "another-key"  # every request gets 401
    # In a child process: the fake server's own log of the requests cut short (the other
    # items' calls are cancelled) stays out of the command's stderr.
    proc = subprocess.run(
        [*_command(), "calibrate", museum, *_fake_args(fake_llm)],
        capture_output=True, text=True, timeout=120, env=_child_env(),
    )  # fmt: skip
    assert proc.returncode == EXIT_JUDGE_FAILED
    assert proc.stdout == ""
    err = proc.stderr
    assert err.count("\n") == 1 and err.startswith("texts-score: error: the judge failed: item")
    assert "rejected the API key (HTTP 401)" in err
    assert FAKE_KEY not in err


# -- the local judge and the shipped example -----------------------------------------------------


def test_shipped_example_reads() -> None:
    from pytest_texts_score._labelled import read_labelled

    items = read_labelled(EXAMPLE)
    assert 30 <= len(items) <= 40
    assert {i.label for i in items} == {0, 1}
    domains = {i.domain for i in items}
    assert len(domains) == 3
    for domain in domains:
        assert {i.label for i in items if i.domain == domain} == {0, 1}


def test_local_judge_by_default(tmp_path: Path) -> None:
    # Four items of the shipped example the local judge tells apart.
    wanted = {"travel-01", "travel-08", "health-01", "health-04"}
    rows = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    path = _write(tmp_path / "four.jsonl", [r for r in rows if r["id"] in wanted])
    code, doc = _json(["calibrate", path, "--repeats", "2", "--max-flip-rate", "0"])
    assert code == EXIT_OK
    assert doc["judge"]["judge"] == "local"
    assert doc["judge"]["estimated_cost_usd"] is None  # the local judge is free
    assert doc["overall"]["roc_auc"] == 1.0
    assert set(doc["domains"]) == {"travel", "health"}
    # The local judge is deterministic: its repeats agree exactly.
    assert doc["overall"]["consistency"]["mean_abs_diff"] == 0.0
    assert all(len(set(i["runs"])) == 1 for i in doc["items"])
