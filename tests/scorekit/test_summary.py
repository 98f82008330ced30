"""The plain-text terminal summary, without pytest."""

from __future__ import annotations

from scorekit.report import RunScore, TextScoreRow, ToolScoreRow, summary_sections


def _agg() -> TextScoreRow:
    return TextScoreRow(
        "tests/test_long_folder_name/test_module.py::test_summary_quality[case-7]",
        "texts_agg_f1_mean",
        "f1",
        "mean",
        0.5,
        0.6,
        1.0,
        "failed",
        runs=[RunScore(i, i, f1=s) for i, s in enumerate([0.4, 0.6])],
    )


def test_no_rows_no_sections() -> None:
    assert summary_sections([], {"calls": 3}) == []


def test_only_tool_rows_gives_only_the_tool_section() -> None:
    sections = summary_sections([ToolScoreRow("t::a", "expect", 1.0, None, "passed")], None)
    assert [s.title for s in sections] == ["tool-call scores (toolscore)"]
    assert sections[0].lines[1].split() == ["t::a", "1.000", "-", "PASSED", "-", "-"]


def test_aggregate_shows_spread_and_run_count() -> None:
    (section,) = summary_sections([_agg()], None)
    row = section.lines[1]
    assert "0.500 ±0.100" in row and row.split()[-2:] == ["2", "FAILED"]
    assert "judge: n/a" in section.lines


def test_long_test_ids_are_clipped_from_the_left_to_fit() -> None:
    (section,) = summary_sections([_agg()], None, width=80)
    test_id = section.lines[1].split()[0]
    assert test_id.startswith("...") and test_id.endswith("dule.py::test_summary_quality[case-7]")
    assert len(test_id) == 40  # never narrower, even when the line then wraps
    (wide,) = summary_sections([_agg()], None, width=200)
    assert wide.lines[1].startswith("tests/test_long_folder_name/")
    assert all(len(line) <= 200 for line in wide.lines)


def test_quiet_is_one_line_per_section() -> None:
    sections = summary_sections(
        [_agg(), ToolScoreRow("t::a", "expect", 1.0, 0.9, "passed")], {"calls": 1}, verbosity=-1
    )
    assert [len(s.lines) for s in sections] == [1, 1]
    assert sections[0].lines[0].startswith("text scores: 1 assertion: 0 passed, 1 failed; judge")
