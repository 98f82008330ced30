# ruff: noqa: E501  (the reference signatures are kept one per line, verbatim)
"""The public surface: the 35 assertion functions with the reference's exact signatures."""

from __future__ import annotations

import inspect

import pytest

import pytest_texts_score
from pytest_texts_score import api, api_wrappers

pytest_plugins = ["texts_fixtures"]

# Copied from the reference documentation (004_896072712b3dc930.txt): names, parameters,
# annotations and defaults are binding.
REFERENCE_SIGNATURES = """
texts_agg_completeness_average(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_completeness_max(expected: str, given: str, upper_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_completeness_mean(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_completeness_median(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_completeness_min(expected: str, given: str, lower_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_correctness_average(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_correctness_max(expected: str, given: str, upper_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_correctness_mean(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_correctness_median(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_correctness_min(expected: str, given: str, lower_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_f1_average(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_f1_max(expected: str, given: str, upper_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_f1_mean(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_f1_median(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_f1_min(expected: str, given: str, lower_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_precision_average(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_precision_max(expected: str, given: str, upper_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_precision_mean(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_precision_median(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_precision_min(expected: str, given: str, lower_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_recall_average(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_recall_max(expected: str, given: str, upper_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_recall_mean(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_recall_median(expected: str, given: str, target: float, max_delta: float = 0.1, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_agg_recall_min(expected: str, given: str, lower_bound: float, full_runs: int = 5, each_question_runs: int = 1, retry_on_error: bool = True)
texts_expect_completeness_equal(expected: str, given: str, target: float = 1.0, max_delta: float = 0.2, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_completeness_range(expected: str, given: str, min_score: float, max_score: float, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_correctness_equal(expected: str, given: str, target: float = 1.0, max_delta: float = 0.2, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_correctness_range(expected: str, given: str, min_score: float, max_score: float, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_f1_equal(expected: str, given: str, target: float = 1.0, max_delta: float = 0.2, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_f1_range(expected: str, given: str, min_score: float, max_score: float, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_precision_equal(expected: str, given: str, target: float = 1.0, max_delta: float = 0.2, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_precision_range(expected: str, given: str, min_score: float, max_score: float, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_recall_equal(expected: str, given: str, target: float = 1.0, max_delta: float = 0.2, skip_warnings: bool = False, retry_on_error: bool = True)
texts_expect_recall_range(expected: str, given: str, min_score: float, max_score: float, skip_warnings: bool = False, retry_on_error: bool = True)
"""


def _reference() -> dict[str, str]:
    out = {}
    for line in REFERENCE_SIGNATURES.strip().splitlines():
        name, _, rest = line.partition("(")
        out[name] = "(" + rest
    return out


def test_there_are_35_assertion_functions() -> None:
    ref = _reference()
    assert len(ref) == 35
    exported = {n for n in pytest_texts_score.__all__ if n.startswith("texts_")}
    assert exported == set(ref)
    assert "configure" in pytest_texts_score.__all__


@pytest.mark.parametrize("name", sorted(_reference()))
def test_signature_matches_the_reference(name: str) -> None:
    fn = getattr(pytest_texts_score, name)
    sig = inspect.signature(fn).replace(return_annotation=inspect.Signature.empty)
    assert str(sig).replace("'", "") == _reference()[name]
    assert inspect.signature(fn).return_annotation in (None, "None")
    module = api if name in api.__all__ else api_wrappers
    assert getattr(module, name) is fn
    assert fn.__doc__


def test_module_split_follows_the_reference() -> None:
    assert len([n for n in api.__all__ if n.startswith("texts_")]) == 18
    assert len(api_wrappers.__all__) == 17
    assert all(
        "completeness" in n or "correctness" in n or n.endswith("_average")
        for n in api_wrappers.__all__
    )


def test_the_docs_say_where_the_constants_live() -> None:
    # Where the reference document puts them: MINIMAL_EXPECTED_MAX_DELTA in `api` (the
    # assertions' tolerance), MAXIMAL_RETRY_ON_ERROR in `evaluate_score` (the scoring retries).
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    right = {"MINIMAL_EXPECTED_MAX_DELTA": "api", "MAXIMAL_RETRY_ON_ERROR": "evaluate_score"}
    named: set[tuple[str, str]] = set()
    for page in [root / "README.md", *(root / "docs").rglob("*.md")]:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for constant in right:
            for module in re.findall(rf"{constant}`?[^`]{{0,40}}`pytest_texts_score\.(\w+)`", text):
                named.add((constant, module))
            for module in re.findall(rf"pytest_texts_score\.(\w+)\.{constant}", text):
                named.add((constant, module))
    assert named == {(c, m) for c, m in right.items()}
    assert api.MINIMAL_EXPECTED_MAX_DELTA == 0.05
    assert pytest_texts_score.evaluate_score.MAXIMAL_RETRY_ON_ERROR == 5
