"""Fuzzed judge replies: the parsers of an LLM judge's replies return valid questions, answers
and verdicts, or raise ``InvalidReplyError`` (which the judge layer retries), never another
error.

Readers: ``parse_questions``, ``parse_answers``, ``parse_verdicts`` (reply text) and
``validate_questions``, ``validate_answers``, ``validate_verdicts`` (what a custom backend
returns). The replies start from the shapes an LLM sends (PRODUCT.md 3: arrays, numbered
objects, one wrapping key, a fenced code block) and are corrupted from there.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_json import FUZZ, corrupted, deep, json_texts, json_values
from fuzz_oracle import outcome
from scorekit.judges import InvalidReplyError
from scorekit.judges._equivalence import Verdict, parse_verdicts, validate_verdicts
from scorekit.judges._parse import (
    parse_answers,
    parse_questions,
    validate_answers,
    validate_questions,
)

questions = st.sampled_from(["Is Paris in France?", " Does it rain? ", "", "  "]) | st.text(
    max_size=12
)
supports = st.sampled_from([0, 1, 0.5, 0.0, 1.0, -0.1, 1.5, True, "1", 10**400, 1e308]) | (
    st.floats(allow_nan=False, allow_infinity=False)
)
verdicts = st.builds(
    lambda equivalent, reason, similarity: {
        "equivalent": equivalent,
        "reason": reason,
        "similarity": similarity,
    },
    st.booleans() | st.sampled_from(["true", 1, None]),
    st.text(max_size=20) | st.sampled_from(["x" * 400, "a\n\tb"]),
    st.none() | supports,
)


def _numbered(items: list[Any]) -> dict[str, Any]:
    return {str(i): item for i, item in enumerate(items, start=1)}


def _shapes(items: st.SearchStrategy[list[Any]]) -> st.SearchStrategy[Any]:
    """An array, a numbered object, either under one key, or a list of question/answer
    objects: the shapes judges send, before corruption."""
    return st.one_of(
        items,
        items.map(_numbered),
        items.map(lambda v: {"list": v}),
        items.map(lambda v: {"answers": _numbered(v)}),
        items.map(lambda v: [{"question": "q", "answer": a} for a in v]),
    )


def _reply_texts(payloads: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    texts = st.one_of(payloads.flatmap(corrupted), payloads, json_values).map(json.dumps)
    fenced = texts.map(lambda t: f"```json\n{t}\n```")
    nested = st.sampled_from([300, 600, 900]).map(lambda n: f'{{"1": {deep(n)}}}')
    return st.one_of(texts, fenced, nested, json_texts)


question_replies = _reply_texts(_shapes(st.lists(questions, max_size=4)))
answer_replies = _reply_texts(_shapes(st.lists(supports, max_size=4)))
verdict_replies = _reply_texts(
    st.one_of(_shapes(st.lists(verdicts, max_size=3)), verdicts)  # one item: a bare verdict
)
counts = st.integers(min_value=1, max_value=4)


@FUZZ
@given(raw=question_replies)
def test_parsing_a_questions_reply(raw: str) -> None:
    result = outcome(parse_questions, raw, errors=(InvalidReplyError,))
    if not isinstance(result, BaseException):
        assert result and all(isinstance(q, str) and q == q.strip() and q for q in result)


@FUZZ
@given(raw=answer_replies, n=counts)
def test_parsing_an_answers_reply(raw: str, n: int) -> None:
    result = outcome(parse_answers, raw, n, errors=(InvalidReplyError,))
    if not isinstance(result, BaseException):
        assert len(result) == n
        assert all(type(a) is float and 0.0 <= a <= 1.0 for a in result)


@FUZZ
@given(raw=verdict_replies, n=counts)
def test_parsing_a_verdicts_reply(raw: str, n: int) -> None:
    result = outcome(parse_verdicts, raw, n, errors=(InvalidReplyError,))
    if not isinstance(result, BaseException):
        assert len(result) == n
        for verdict in result:
            assert isinstance(verdict, Verdict) and isinstance(verdict.equivalent, bool)
            assert isinstance(verdict.reason, str) and len(verdict.reason) <= 300
            assert verdict.similarity is None or math.isfinite(verdict.similarity)
            json.dumps(verdict.to_dict(), allow_nan=False)  # as the cache stores it


backend_values = st.one_of(
    st.lists(questions | supports | verdicts, max_size=4),
    st.tuples(supports, supports),
    json_values,
    st.sampled_from([600, 900]).map(lambda n: json.loads(deep(n))),
)


@FUZZ
@given(value=backend_values, n=counts)
def test_validating_what_a_custom_backend_returns(value: Any, n: int) -> None:
    outcome(validate_questions, value, errors=(InvalidReplyError,))
    outcome(validate_answers, value, n, errors=(InvalidReplyError,))
    outcome(validate_verdicts, value, n, errors=(InvalidReplyError,))


# -- what the fuzz tests found: the minimal examples, as plain regression tests ----------


@pytest.mark.parametrize("raw", ["[" * 100_000, "[" * 100_000 + "]" * 100_000])
def test_a_reply_nested_past_the_recursion_limit_is_invalid(raw: str) -> None:
    # Was RecursionError from json.loads (the judge layer retries only InvalidReplyError).
    for parse in (parse_questions, lambda r: parse_answers(r, 1), lambda r: parse_verdicts(r, 1)):
        with pytest.raises(InvalidReplyError, match="nested too deeply"):
            parse(raw)


def test_an_answer_past_the_floats_is_outside_zero_to_one() -> None:
    # Was OverflowError: int too large to convert to float.
    with pytest.raises(InvalidReplyError, match=r"outside \[0, 1\]"):
        parse_answers("[" + "9" * 400 + "]", 1)
    with pytest.raises(InvalidReplyError, match=r"outside \[0, 1\]"):
        validate_answers([10**400], 1)


def test_a_verdict_similarity_past_the_floats_is_dropped() -> None:
    # Was OverflowError: int too large to convert to float.
    raw = '[{"equivalent": true, "reason": "same", "similarity": 1' + "0" * 400 + "}]"
    (verdict,) = parse_verdicts(raw, 1)
    assert verdict.equivalent and verdict.similarity is None
    (verdict,) = parse_verdicts('[{"equivalent": false, "similarity": 1e999}]', 1)
    assert verdict.similarity is None  # infinity: the cache (strict JSON) could not store it
    json.dumps(verdict.to_dict(), allow_nan=False)
