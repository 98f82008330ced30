"""A mistake in a call shows the user's line and our one-line message, not our code.

Every user-facing check hides its frames (``__tracebackhide__``), as ``toolscore`` does: the
traceback of a bad argument, a bad aggregation or a bad replacement of a seam ends at the
test's own line.
"""

from __future__ import annotations

import re

import pytest

CALLS = {
    "range": "pts.texts_expect_f1_range('a', 'b', min_score=0.9, max_score=0.5)",
    "target": "pts.texts_expect_recall_equal('a', 'b', target=1.5)",
    "text": "pts.texts_expect_precision_equal(None, 'b')",
    "bound": "pts.texts_agg_f1_min('a', 'b', lower_bound=float('nan'))",
    "runs": "pts.texts_agg_completeness_mean('a', 'b', 0.5, full_runs=True)",
    "multiple": "evaluate_score.texts_multiple_f1('a', 'b', 0, 1)",
    "agg_type": "evaluate_score.texts_agg_recall('a', 'b', 1, 1, 'mode')",
    "scores_agg": "evaluate_score.scores_agg([], 'mean')",
    "f1_score": "evaluate_score.f1_score(2.0, 0.5)",
    "one_side": "evaluate_score.score_one_side('a', 3)",
    "questions": "communication.evaluate_questions('a', 'not json')",
    "replaced": (
        "with patch('pytest_texts_score.evaluate_score.texts_multiple_f1', return_value=[]):\n"
        "        pts.texts_agg_f1_mean('a', 'b', 0.5)"
    ),
}

MESSAGES = {
    "range": "UsageError: `max_score` (0.5) cannot be smaller than `min_score` (0.9); swap them.",
    "target": "UsageError: `target` value must be in range 0 to 1; 1.5 given.",
    "text": "UsageError: `expected` must be a str (the text to compare); NoneType given.",
    "bound": "UsageError: `lower_bound` must be a number in range 0 to 1; NaN given.",
    "runs": "UsageError: `full_runs` must be a positive integer; True given.",
    "multiple": "UsageError: `generate_questions` must be a positive integer; 0 given.",
    "agg_type": "ValueError: Unknown aggregation type: 'mode'; use one of *",
    "scores_agg": "ValueError: scores_agg: `scores` is empty; there is nothing to aggregate.",
    "f1_score": "ValueError: f1_score: `precision` must be a number in [[]0, 1[]]; 2.0 given.",
    "one_side": "UsageError: `answer_text` must be a str (the text to compare); int given.",
    "questions": "ValueError: evaluate_questions: `questions_text` is not usable: *",
    "replaced": "ValueError: texts_multiple_f1 returned [[][]]; expected a non-empty list of *",
}


@pytest.mark.parametrize("case", sorted(CALLS))
def test_a_bad_call_shows_only_the_users_line(pytester: pytest.Pytester, case: str) -> None:
    source = (
        "from unittest.mock import patch\n"
        "import pytest_texts_score as pts\n"
        "from pytest_texts_score import communication, evaluate_score\n\n"
        "def test_call():\n"
        f"    {CALLS[case]}\n"
    )
    pytester.makepyfile(test_call=source)
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"E   *{MESSAGES[case]}"])
    out = result.stdout.str()
    # Only the test's own frame: none of ours, and no second frame at all.
    assert "pytest_texts_score" + "/" not in out.replace("import pytest_texts_score", "")
    assert len(re.findall(r"^\S+\.py:\d+: ", out, flags=re.M)) == 1, out
