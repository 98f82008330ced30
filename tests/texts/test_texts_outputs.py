"""What the outputs show: one rounding rule for every score, lines that fit (or do not wrap).

The judge writes one question per sentence and answers 1.0 when the sentence occurs in the
other text, so with

    EXPECTED = "A is b. C is d. E is f."    GIVEN = "A is b. C is d. X is y."

precision = recall = 2/3 and F1 = 2/3: 0.6667 in every output.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from texts_judges import ScriptedJudge

import pytest_texts_score as pts
from pytest_texts_score.cli import main

pytest_plugins = ["texts_fixtures"]

EXPECTED = "A is b. C is d. E is f."
GIVEN = "A is b. C is d. X is y."

JUDGE_MODULE = """
class SentenceJudge:
    def make_questions(self, text):
        return [s.strip() + "?" for s in text.split(".") if s.strip()]

    def answer_questions(self, text, questions):
        return [1.0 if q[:-1] in text else 0.0 for q in questions]


SENTENCES = SentenceJudge()
"""


class TTY(io.StringIO):
    """A stdout that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _cli(argv: list[str], out: io.StringIO | None = None) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out)
    return code, out.getvalue()


# -- one rounding rule -------------------------------------------------------------------------


def test_json_scores_follow_the_rounding_rule() -> None:
    code, out = _cli(
        ["compare", "--expected-text", EXPECTED, "--given-text", GIVEN, "--json",
         "--provider", "texts_judges:ScriptedJudge"]
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert (doc["precision"], doc["recall"], doc["f1"]) == (0.6667, 0.6667, 0.6667)
    (run,) = doc["runs"]
    assert (run["precision"], run["recall"], run["f1"]) == (0.6667, 0.6667, 0.6667)
    assert sorted(e["answer"] for e in doc["evidence"]) == [0.0, 0.0, 1.0, 1.0, 1.0, 1.0]


def test_the_text_output_shows_the_same_numbers() -> None:
    code, out = _cli(
        ["compare", "--expected-text", EXPECTED, "--given-text", GIVEN,
         "--provider", "texts_judges:ScriptedJudge"]
    )  # fmt: skip
    assert code == 0
    assert out.splitlines()[0].startswith("precision 0.6667   recall 0.6667   F1 0.6667   (judge:")


def test_message_summary_and_report_agree(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(sentence_judge=JUDGE_MODULE)
    pytester.syspathinsert()
    pytester.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal({EXPECTED!r}, {GIVEN!r})
        """
    )
    result = pytester.runpytest(
        "--llm-provider=sentence_judge:SENTENCES", "--llm-report=report.json"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E * Text F1 below minimum: 0.6667 < 0.8 (allowed [[]0.8, 1.0[]];"
            " judge: SentenceJudge).",
            "E * Precision side: *: precision 0.6667; 1 of 3 answers below 1:",
            "test_texts.py::test_f1  f1      0.6667  [[]0.8, 1.0[]]        FAILED",
        ]
    )
    doc = json.loads((pytester.path / "report.json").read_text())
    (row,) = doc["texts"]
    assert row["score"] == 0.6667
    assert (row["runs"][0]["precision"], row["runs"][0]["f1"]) == (0.6667, 0.6667)


def test_an_answer_below_1_never_reads_1(use_judge: Any) -> None:
    use_judge(ScriptedJudge(answers={"A is b?": 0.999, "C is d?": 0.99996}))
    with pytest.raises(AssertionError) as info:
        pts.texts_expect_recall_equal(
            "A is b. C is d.", "A is b. C is d.", 1.0, 0.0005, skip_warnings=True
        )
    lines = str(info.value).splitlines()
    assert lines[1].endswith("2 of 2 answers below 1:")
    assert lines[2:4] == ["  0.9990  A is b?", "  0.99996  C is d?"]


# -- width: piped output does not wrap; a terminal's width is fitted -----------------------------

LONG_QUESTION = (
    "The committee approved the northern extension of the tram line after a public"
    " consultation that lasted eleven weeks and drew four thousand replies"
)


def test_piped_output_does_not_wrap(tmp_path: Path) -> None:
    folder = tmp_path / ("a-rather-long-folder-name-" * 3)
    folder.mkdir()
    expected, given = folder / "expected.txt", folder / "given.txt"
    expected.write_text(f"{LONG_QUESTION}. Trams run every ten minutes.")
    given.write_text(f"{LONG_QUESTION}.")
    code, out = _cli(
        ["compare", str(expected), str(given), "--provider", "texts_judges:ScriptedJudge"]
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith(f"given: {given})")
    assert any(line.endswith(f"{LONG_QUESTION}? │ 1.0000 │") for line in lines)


def test_a_terminal_is_fitted_without_losing_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    code, out = _cli(
        ["compare", "--expected-text", f"{LONG_QUESTION}.", "--given-text", "Trams are fast.",
         "--provider", "texts_judges:ScriptedJudge"],
        TTY(),
    )  # fmt: skip
    assert code == 0
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)  # a terminal gets colours
    assert max(len(line) for line in plain.splitlines()) <= 60
    flat = " ".join(plain.split())
    assert "four thousand" in flat and "replies?" in flat


def test_the_pytest_summary_keeps_long_test_ids_whole_in_a_log(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(sentence_judge=JUDGE_MODULE)
    pytester.syspathinsert()
    folder = pytester.mkpydir("tests_of_the_summary_for_a_very_long_folder")
    (folder / "test_summary_carries_the_facts.py").write_text(
        "from pytest_texts_score import texts_expect_f1_equal\n\n"
        "def test_summary_carries_the_facts_of_the_reference_text():\n"
        f"    texts_expect_f1_equal({EXPECTED!r}, {EXPECTED!r})\n"
    )
    result = pytester.runpytest("--llm-provider=sentence_judge:SENTENCES")
    result.assert_outcomes(passed=1)
    test_id = (
        "tests_of_the_summary_for_a_very_long_folder/test_summary_carries_the_facts.py"
        "::test_summary_carries_the_facts_of_the_reference_text"
    )
    result.stdout.fnmatch_lines([f"{test_id}  f1      1.0000  [[]0.8, 1.0[]]        PASSED"])


# -- a judge's reason for an answer, where it says one ----------------------------------------

REPLIES = [
    {"question": "A is b?", "answer": 1.0},
    {"question": "E is f?", "answer": 0.0, "reason": "the text names X, not E"},
]


def test_the_cli_shows_the_judges_reasons() -> None:
    from unittest.mock import patch

    with (
        patch("pytest_texts_score.evaluate_score.make_questions", return_value='["A is b?"]'),
        patch("pytest_texts_score.evaluate_score.evaluate_questions", return_value=REPLIES),
    ):
        code, out = _cli(["compare", "--expected-text", EXPECTED, "--given-text", GIVEN])
    assert code == 0
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if "│ 2 │ E is f?" in line)
    assert lines[row].endswith("│ 0.0000 │")
    assert "why: the text names X, not E" in lines[row + 1]


def test_the_verbose_summary_shows_the_judges_reasons() -> None:
    from scorekit.report import Evidence, TextScoreRow, summary_sections

    row = TextScoreRow(
        "t.py::test_x", "texts_expect_recall_equal", "recall", None, 0.5, 0.8, 1.0, "failed",
        evidence=[Evidence("recall", "E is f?", 0.0, reason="the text names X, not E")],
    )  # fmt: skip
    (section,) = summary_sections([row], None, verbosity=1)
    assert "    recall (run 0/0): 0.0000  E is f? (judge: the text names X, not E)" in section.lines
