"""The failure text of a BFCL verdict for the relevance checkers, an output that does not
decode, an empty output, and a parallel output whose pairing failed on a value."""

from __future__ import annotations

from toolscore.bfcl import check, render_failure

FN = {
    "name": "f",
    "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
}
ONE = [{"f": {"n": [1]}}]


def _text(ground_truth: list[dict[str, object]] | None, output: str, category: str) -> str:
    verdict = check([FN], ground_truth, output, category=category)
    assert not verdict
    return render_failure(verdict, ground_truth, case_id="case-7")


def test_irrelevance_expects_no_call_and_says_why() -> None:
    lines = _text(None, "[f(n=1)]", "irrelevance").splitlines()
    assert lines[0] == (
        "BFCL counts this output for case-7 as wrong"
        " (irrelevance_error:decoder_success, irrelevance checker)."
    )
    assert "Expected: no call (no function fits the question)." in lines
    assert (
        lines[-1] == "Hint: No function fits this question: the model should answer without a call."
    )


def test_relevance_expects_a_call_and_shows_the_empty_output() -> None:
    text = _text(None, "", "live_relevance")
    assert "Expected: at least one call.\nOutput (as BFCL reads it):\n  no call\n" in text
    assert text.endswith("Hint: This question needs a function call; the output has none.")


def test_an_output_that_does_not_decode_is_said_so() -> None:
    text = _text(ONE, "[[[not python", "simple")
    assert (
        "Expected (BFCL's possible answer):\n  1. f(n=1)\nOutput: did not decode into calls."
        in text
    )
    assert "does not decode as Python function calls (SyntaxError:" in text


def test_an_empty_output_shows_no_call_and_the_count_rule() -> None:
    text = _text(ONE, "[]", "simple")
    assert "Output (as BFCL reads it):\n  no call\n" in text
    assert "(simple_function_checker:wrong_count, simple checker)" in text
    assert "an extra or a missing call always fails" in text.splitlines()[-1]


def test_a_parallel_mismatch_hints_at_the_value_not_at_the_pairing() -> None:
    # Neither output call is n=2, so no pairing could have matched: the hint is about the
    # value (the first other cause), not about greedy pairing.
    truth = [{"f": {"n": [2]}}, {"f": {"n": [1]}}]
    text = _text(truth, "[f(n=3), f(n=1)]", "parallel")
    assert "(parallel_function_checker_no_order:cannot_find_match, parallel checker)" in text
    assert "Problems (3):" in text
    assert text.splitlines()[-1] == (
        "Hint: Numbers and booleans must equal an allowed value exactly; there is no tolerance."
    )
