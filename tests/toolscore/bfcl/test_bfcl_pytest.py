"""assert_bfcl and parametrize inside pytest: one test per BFCL question, readable failures,
report rows."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from toolscore.bfcl import BFCLAssertionError, assert_bfcl, load

DATA = Path(__file__).resolve().parent / "data"
QUESTIONS = str(DATA / "BFCL_v4_parallel.json")
ANSWERS = str(DATA / "possible_answer_BFCL_v4_parallel.json")

SUITE = f"""
from toolscore import bfcl

def my_agent(case):
    # answers every question right (first allowed value of each answered parameter) ...
    calls = []
    for answered in case.ground_truth:
        (name, params), = answered.items()
        args = {{p: v[0] for p, v in params.items() if "" not in v}}
        calls.append({{name: args}})
    # ... except parallel_1, where its second call has d_time 11 instead of 10
    if case.id == "parallel_1":
        calls[1]["calculate_em_force"]["d_time"] = 11
    return calls

@bfcl.parametrize({QUESTIONS!r}, {ANSWERS!r})
def test_parallel(case):
    bfcl.assert_bfcl(case, my_agent(case))
"""


def test_one_test_per_question_named_by_its_bfcl_id(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SUITE)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=24, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*::test_parallel[[]parallel_0[]] PASSED*",
            "*::test_parallel[[]parallel_1[]] FAILED*",
            "*::test_parallel[[]parallel_24[]] PASSED*",
        ]
    )


def test_a_failure_shows_every_problem_the_answer_the_output_and_a_hint(
    pytester: pytest.Pytester,
) -> None:
    path = pytester.makepyfile(SUITE)
    result = pytester.runpytest(f"{path.name}::test_parallel[parallel_1]")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E       toolscore.bfcl.BFCLAssertionError: BFCL counts this output for parallel_1 "
            "as wrong (parallel_function_checker_no_order:cannot_find_match, parallel checker).",
            "E       ",
            "E       Problems (2):",
            "E         - Expected call 2, calculate_em_force(b_field=5, area=2, d_time=10), "
            "matches none of the output calls still free (2).",
            "E         - Output call 2 (calculate_em_force): d_time=11 is not an allowed value; "
            "allowed: 10 (numbers and booleans must match exactly, without tolerance).",
            "E       ",
            "E       Expected (BFCL's possible answer):",
            "E         1. calculate_em_force(b_field=5, area=2, d_time=4)",
            "E         2. calculate_em_force(b_field=5, area=2, d_time=10)",
            "E       Output (as BFCL reads it):",
            "E         1. calculate_em_force(b_field=5, area=2, d_time=4)",
            "E         2. calculate_em_force(b_field=5, area=2, d_time=11)",
            "E       ",
            "E       Hint: Numbers and booleans must equal an allowed value exactly; there is no "
            "tolerance.",
        ]
    )
    # our own frames are hidden: the traceback ends in the test
    assert "src/toolscore/bfcl" not in result.stdout.str()


def test_assertions_record_report_rows(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(SUITE)
    pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            from scorekit.pytest_state import get_session
            rows = get_session(session.config).recorder.rows
            failed = [r for r in rows if r.outcome == "failed"]
            print("ROWS", len(rows), failed[0].function, failed[0].details["bfcl_id"],
                  failed[0].details["error_type"], failed[0].test_id)
        """
    )
    result = pytester.runpytest("-s")
    result.stdout.fnmatch_lines(
        [
            "*ROWS 25 assert_bfcl parallel_1 parallel_function_checker_no_order:cannot_find_match "
            "*::test_parallel[[]parallel_1[]]"
        ]
    )


def test_parametrize_takes_loaded_cases_and_a_category(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from toolscore import bfcl

        CASES = bfcl.load([{QUESTIONS!r}], [{ANSWERS!r}])

        @bfcl.parametrize(CASES[:3], argname="item")
        def test_first(item):
            assert item.category == "parallel"

        @bfcl.parametrize(CASES, category="parallel, multiple")
        def test_all(case):
            pass
        """
    )
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=28)
    result.stdout.fnmatch_lines(["*::test_first[[]parallel_2[]] PASSED*"])


def test_parametrize_with_nothing_to_run_says_so(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from toolscore import bfcl

        @bfcl.parametrize(bfcl.load({QUESTIONS!r}, {ANSWERS!r}), category="multiple")
        def test_none(case):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ValueError: parametrize() found no BFCL question to run (category multiple; 25 "
            "cases given)"
        ]
    )


def test_a_java_category_is_a_collection_error_that_says_why(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from toolscore import bfcl

        @bfcl.parametrize({QUESTIONS!r}, {ANSWERS!r}, category="simple_java")
        def test_java(case):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*BFCLDataError: category 'simple_java': toolscore applies*"])


def test_assert_bfcl_takes_the_raw_fields_too() -> None:
    (case,) = load(QUESTIONS, ANSWERS)[:1]
    with pytest.raises(BFCLAssertionError) as failure:
        assert_bfcl(case.functions, case.ground_truth, [])
    assert failure.value.verdict.error_type == "parallel_function_checker_no_order:wrong_count"
    assert str(failure.value).startswith(
        "BFCL counts this output as wrong (parallel_function_checker_no_order:wrong_count"
    )
    with pytest.raises(TypeError, match=r"assert_bfcl takes \(case, model_output\)"):
        assert_bfcl(case)


@pytest.mark.parametrize(
    "name",
    [
        "toolscore.bfcl",
        "toolscore.bfcl._verdict",
        "toolscore.bfcl._output",
        "toolscore.bfcl._python_calls",
        "toolscore.bfcl._data",
        "toolscore.bfcl._expected",
        "toolscore.bfcl._score",
        "toolscore.bfcl._message",
        "toolscore.bfcl._pytest",
        "toolscore._engine.bfcl.values",
        "toolscore._engine.bfcl.matchers",
    ],
)
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA.parents[3])  # the examples name files from the repository root
    outcome = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert outcome.failed == 0 and outcome.attempted > 0
