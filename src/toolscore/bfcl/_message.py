"""The failure text of a BFCL verdict: every problem, the answer, the output, one hint."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.bfcl.values import describe_answer, describe_call
from toolscore.bfcl._verdict import BFCLVerdict

__all__ = ["HINTS", "render_failure"]

#: One hint per kind of BFCL error (the part of the error type after the colon).
HINTS = {
    "wrong_func_name": "BFCL compares function names exactly. Function-calling models whose "
    "API forbids dots in names (OpenAI, Mistral, Google) call a_b for a.b: pass "
    "underscore_to_dot=True for them.",
    "missing_required": "Every parameter the schema requires must be passed, even where the "
    "answer marks it optional.",
    "unexpected_param": "BFCL accepts only parameters its answer lists: leave the others out, "
    "defaults included.",
    "missing_optional": 'A parameter whose answer has no "" must be passed, even if the schema '
    "makes it optional.",
    "simple": "BFCL checks Python types exactly: an integer parameter needs an int (5, not "
    "5.0), a float one takes an int, and a bool is never a number.",
    "nested": "List items must have the schema's items.type; ints are not turned into floats "
    "inside lists.",
    "string": "Strings are compared after deleting spaces and , . / - _ * ^ and ignoring case; "
    "every other character must match.",
    "list/tuple": "A list must equal an allowed list item by item, in the same order.",
    "dict_key": "A dict's keys must be among the answer's keys, and every key the answer does "
    'not mark with "" must be there.',
    "dict_value": "Each value in a dict must be one of that key's allowed values.",
    "list_dict_count": "A list of dicts must have as many dicts as an allowed list.",
    "others": "Numbers and booleans must equal an allowed value exactly; there is no tolerance.",
    "wrong_count": "BFCL needs exactly as many calls as the answer has: an extra or a missing "
    "call always fails.",
    "cannot_find_match": "In parallel categories each answered call, in the answer's order, "
    "takes the first free output call that passes; an output call that fits two answered calls "
    "can be taken by the wrong one.",
    "decoder_failed": "The output must decode into calls: Python call syntax such as "
    "[f(a=1)], or a function-calling list of calls.",
    "decoder_wrong_output_format": "The output must decode into a list of calls "
    "[{name: {param: value}}].",
    "decoder_success": "No function fits this question: the model should answer without a call.",
}
_NO_CALL = "  no call"
_RELEVANCE_FAILED = "This question needs a function call; the output has none."


def _hint(verdict: BFCLVerdict) -> str:
    """The hint for the problem behind the verdict: for a parallel output that found no
    match, the greedy pairing if that is what broke it, else the first call's problem."""
    error_type = verdict.error_type
    if not error_type:
        return ""
    if error_type.startswith("relevance_error"):
        return _RELEVANCE_FAILED
    causes = [t for t in verdict.error_types if t != error_type]
    if error_type.endswith("cannot_find_match") and causes and "greedy_match" not in causes:
        error_type = causes[0]
    return HINTS.get(error_type.split(":", 1)[-1], "")


def render_failure(
    verdict: BFCLVerdict,
    ground_truth: Sequence[Mapping[str, Any]] | None,
    *,
    case_id: str | None = None,
) -> str:
    """The failure text for an invalid verdict (full sentences, expected vs actual, a hint).

    Example:
        >>> from toolscore.bfcl import check
        >>> fn = {"name": "f", "parameters": {"properties": {"n": {"type": "integer"}}}}
        >>> print(render_failure(check([fn], [{"f": {"n": [1]}}], "[f(n=2)]"), [{"f": {"n": [1]}}]))
        BFCL counts this output as wrong (value_error:others, simple checker).
        <BLANKLINE>
        Problems (1):
          - Output call 1 (f): n=2 is not an allowed value; allowed: 1 (numbers and booleans must match exactly, without tolerance).
        <BLANKLINE>
        Expected (BFCL's possible answer):
          1. f(n=1)
        Output (as BFCL reads it):
          1. f(n=2)
        <BLANKLINE>
        Hint: Numbers and booleans must equal an allowed value exactly; there is no tolerance.
    """  # noqa: E501
    where = f" for {case_id}" if case_id else ""
    checker = f", {verdict.checker} checker" if verdict.checker else ""
    lines = [
        f"BFCL counts this output{where} as wrong ({verdict.error_type}{checker}).",
        "",
        f"Problems ({len(verdict.errors)}):",
    ]
    lines += [f"  - {error}" for error in verdict.errors]
    lines.append("")
    if verdict.checker == "irrelevance":
        lines.append("Expected: no call (no function fits the question).")
    elif verdict.checker == "relevance":
        lines.append("Expected: at least one call.")
    elif ground_truth is not None:
        answered = [describe_answer(*next(iter(call.items()))) for call in ground_truth]
        lines.append("Expected (BFCL's possible answer):")
        lines += [f"  {n}. {text}" for n, text in enumerate(answered, 1)] or [_NO_CALL]
    if verdict.calls is None:
        lines.append("Output: did not decode into calls.")
    else:
        made = [describe_call(call) for call in verdict.calls]
        lines.append("Output (as BFCL reads it):")
        lines += [f"  {n}. {text}" for n, text in enumerate(made, 1)] or [_NO_CALL]
    hint = _hint(verdict)
    if hint:
        lines += ["", f"Hint: {hint}"]
    return "\n".join(lines)
