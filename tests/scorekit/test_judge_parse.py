"""Reply parsing: the accepted shapes of PRODUCT.md 3, and everything else rejected."""

from __future__ import annotations

import pytest

from scorekit.judges import InvalidReplyError
from scorekit.judges._parse import parse_answers, parse_questions, quote_reply


@pytest.mark.parametrize(
    "raw",
    [
        '["Is A?","Is B?"]',
        '  ["Is A?", "Is B?"]\n',
        '```json\n["Is A?","Is B?"]\n```',
        '```\n["Is A?","Is B?"]\n```',
        '{"1": "Is A?", "2": "Is B?"}',
        '{"list": ["Is A?", "Is B?"]}',
        '{"questions": {"1": "Is A?", "2": "Is B?"}}',
        '```JSON\n{"list": [" Is A? ", "Is B?"]}```',
    ],
)
def test_questions_shapes(raw: str) -> None:
    assert parse_questions(raw) == ["Is A?", "Is B?"]


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "empty reply"),
        ("   ", "empty reply"),
        (None, "empty reply"),
        ("Is A?", "not valid JSON"),
        ('["Is A?"', "not valid JSON"),
        ("[]", "no questions"),
        ("{}", "no questions"),
        ('{"list": []}', "no questions"),
        ('"Is A?"', "not a JSON array"),
        ("42", "not a JSON array"),
        ('["Is A?", 3]', "not a non-empty string (3)"),
        ('["Is A?", "  "]', "not a non-empty string"),
        ('[["Is A?"]]', "not a non-empty string"),
        ('{"a": ["x"], "b": ["y"]}', "not a non-empty string"),
    ],
)
def test_questions_rejected(raw: str | None, why: str) -> None:
    with pytest.raises(InvalidReplyError, match=why.replace("(", r"\(").replace(")", r"\)")):
        parse_questions(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "[1, 0.5, 0]",
        "[1.0,0.5,0.0]",
        "```json\n[1, 0.5, 0]\n```",
        '{"1": 1, "2": 0.5, "3": 0}',
        '{"3": 0, "1": 1, "2": 0.5}',
        '{"answers": {"1": 1, "2": 0.5, "3": 0}}',
        '{"list": [1, 0.5, 0]}',
        '[{"question": "A", "answer": 1}, {"question": "B", "answer": 0.5},'
        ' {"question": "C", "answer": 0}]',
        '{"list": [{"question": "A", "answer": 1}, {"answer": 0.5}, {"answer": 0}]}',
    ],
)
def test_answers_shapes(raw: str) -> None:
    assert parse_answers(raw, 3) == [1.0, 0.5, 0.0]


def test_one_answer_object_is_not_unwrapped() -> None:
    assert parse_answers('{"1": 0.25}', 1) == [0.25]


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "empty reply"),
        ("yes, no", "not valid JSON"),
        ("[1, 0]", "2 answers for 3 questions"),
        ("[1, 0, 1, 1]", "4 answers for 3 questions"),
        ('{"1": 1, "2": 0}', r"missing \[3\]"),
        ('{"1": 1, "2": 0, "3": 1, "4": 1}', r"unexpected \[4\]"),
        ('{"a": 1, "b": 0, "c": 1}', "not a question number"),
        ('[1, "0.5", 0]', r"question 2 is not a number \('0.5'\)"),
        ("[1, true, 0]", r"question 2 is not a number \(True\)"),
        ("[1, null, 0]", "question 2 is not a number"),
        ("[1, 1.5, 0]", r"question 2 is outside \[0, 1\] \(1.5\)"),
        ("[1, -0.5, 0]", r"outside \[0, 1\]"),
        ("[1, NaN, 0]", r"outside \[0, 1\]"),
        ("[1, Infinity, 0]", r"outside \[0, 1\]"),
        ('[{"question": "A"}, {"answer": 1}, {"answer": 0}]', "no 'answer' field"),
        ('"1, 0.5, 0"', "not a JSON array or object"),
        ("0.5", "not a JSON array or object"),
    ],
)
def test_answers_rejected(raw: str, why: str) -> None:
    with pytest.raises(InvalidReplyError, match=why):
        parse_answers(raw, 3)


def test_errors_quote_a_truncated_reply() -> None:
    raw = "Sure! " + "blah " * 200
    with pytest.raises(InvalidReplyError) as info:
        parse_questions(raw)
    message = str(info.value)
    assert "'Sure! blah" in message
    assert f"({len(raw)} characters)" in message
    assert len(message) < 400


def test_quote_reply_short_and_long() -> None:
    assert quote_reply("abc") == "'abc'"
    assert quote_reply("a" * 50, width=10) == "'aaaaaaaaa…' (50 characters)"
