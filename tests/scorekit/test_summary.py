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
    assert sections[0].lines[1].split() == ["t::a", "1.0000", "-", "PASSED", "-", "-"]


def test_aggregate_shows_spread_and_run_count() -> None:
    (section,) = summary_sections([_agg()], None)
    row = section.lines[1]
    assert "0.5000 ±0.1000" in row and row.split()[-2:] == ["2", "FAILED"]
    assert "judge: n/a" in section.lines


def test_off_a_terminal_rows_are_never_broken_or_cut() -> None:
    (section,) = summary_sections([_agg()], None, width=None)
    assert section.lines[1].split()[0] == _agg().test_id
    assert len(section.lines[1]) > 80  # a pipe or a CI log does not wrap


def test_a_narrow_terminal_gets_whole_ids_on_their_own_lines() -> None:
    rows = [_agg(), ToolScoreRow(_agg().test_id, "expect", 0.75, 0.9, "failed")]
    sections = summary_sections(rows, None, width=60, verbosity=1)
    for section in sections:
        lines = [line for line in section.lines if line and not line.startswith("judge")]
        body = [line for line in lines if not line.startswith(("text scores", "tool calls"))]
        assert max(len(line) for line in body if line != _agg().test_id) <= 60
        assert _agg().test_id in body  # whole, the test's name at its end included
    texts, tools = sections
    assert texts.lines[:4] == [
        "test",
        "  metric   score           bounds      runs  result",
        _agg().test_id,
        "  f1 mean  0.5000 ±0.1000  [0.6, 1.0]  2     FAILED",
    ]
    assert tools.lines[2:4] == [_agg().test_id, "  0.7500  0.9  FAILED  -        -"]


def test_a_wide_terminal_keeps_one_line_per_row() -> None:
    (wide,) = summary_sections([_agg()], None, width=200)
    assert wide.lines[1].startswith("tests/test_long_folder_name/")
    assert all(len(line) <= 200 for line in wide.lines)


def test_quiet_is_one_line_per_section() -> None:
    sections = summary_sections(
        [_agg(), ToolScoreRow("t::a", "expect", 1.0, 0.9, "passed")], {"calls": 1}, verbosity=-1
    )
    assert [len(s.lines) for s in sections] == [1, 1]
    assert sections[0].lines[0].startswith("text scores: 1 assertion: 0 passed, 1 failed; judge")
