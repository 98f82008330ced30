"""toolscore.reports' console printers (Toolscore's API): what a terminal shows."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import toolscore
from toolscore.core import ToolCall
from toolscore.reports import (
    print_error,
    print_evaluation_summary,
    print_progress,
    print_validation_result,
)


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=120, color_system=None, highlight=False), buffer


def test_validation_error_and_progress_lines() -> None:
    console, buffer = _console()
    print_validation_result("t.json", 2, ToolCall("search", {"q": "x"}), console=console)
    print_validation_result("empty.json", 0, console=console)
    print_error("t.json: not valid JSON", console=console)
    print_progress("scoring 3 files", console=console)
    assert buffer.getvalue().splitlines() == [
        "OK: t.json is a valid trace with 2 call(s)",
        "  first call: search({'q': 'x'})",
        "OK: empty.json is a valid trace with 0 call(s)",
        "ERROR: t.json: not valid JSON",
        "> scoring 3 files",
    ]


def test_printers_default_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    print_error("boom")
    assert capsys.readouterr().out == "ERROR: boom\n"


def test_a_long_list_of_issues_is_cut_at_eight_and_verbose_adds_the_explanation() -> None:
    # Ten expected calls, none made: ten missing-call issues, eight shown.
    expected = [{"tool": f"step_{i}", "args": {"i": i}} for i in range(10)]
    result = toolscore.evaluate(expected, [])
    console, buffer = _console()
    print_evaluation_summary(result, console=console, verbose=True, show_explanations=False)
    text = buffer.getvalue()
    # score: 0.4 * 0 + 0.3 * 0 + 0.2 * 0 (ten deletions of ten) + 0.1 * (1 - 0) = 0.1
    assert "Score 10.00%  grade F  FAIL  (10 expected call(s), 0 made)" in text
    assert "Invocation accuracy" in text and "Trajectory accuracy" in text
    assert "  8. step_7:" in text and "  9. step_8" not in text
    assert "  ... and 2 more issue(s)" in text
    # verbose: the full explanation follows, ending in its one hint
    assert "Hint: The agent never called 'step_0'" in text.split("... and 2 more issue(s)")[1]
