"""Parse and validate an LLM judge's reply text.

Accepted shapes (PRODUCT.md 3), with or without one fenced code block around them:

- questions: a JSON array of strings, or an object whose values are the questions
  (``{"1": "Does the text ...?"}``);
- answers: an array of numbers, an array of ``{"question", "answer"}`` objects, or an object
  mapping question numbers (``1`` to ``n``) to numbers;
- any of these may sit under one top-level key (``{"list": [...]}``, ``{"answers": {...}}``).

Questions must be a non-empty list of non-empty strings; answers one finite number in ``[0, 1]``
per question (booleans and numeric strings are not numbers). Anything else raises
:class:`InvalidReplyError` quoting the (truncated) reply; the judge layer retries it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scorekit.format._numbers import finite_float
from scorekit.judges._errors import InvalidReplyError

__all__ = [
    "load_reply",
    "numbered",
    "parse_answers",
    "parse_questions",
    "quote_reply",
    "validate_answers",
    "validate_questions",
]

_FENCE_RE = re.compile(r"^```[A-Za-z0-9_+-]*[ \t]*\n?(?P<body>.*?)\n?[ \t]*```$", re.DOTALL)


def quote_reply(raw: str, width: int = 200) -> str:
    """The reply, shortened to ``width`` characters and quoted, for error messages.

    Example:
        >>> quote_reply("x" * 300, width=10)
        "'xxxxxxxxx…' (300 characters)"
    """
    if len(raw) <= width:
        return repr(raw)
    return f"{raw[: width - 1] + '…'!r} ({len(raw)} characters)"


def load_reply(raw: str | None, kind: str) -> Any:
    """The JSON value of a reply, without one fenced block around it and one top-level key
    around the payload.

    Raises:
        InvalidReplyError: empty, not JSON, or JSON nested too deeply to read (the reply is
            quoted).
    """
    if raw is None or not raw.strip():
        raise InvalidReplyError(f"the judge sent an empty reply instead of {kind}")
    text = raw.strip()
    fenced = _FENCE_RE.match(text)
    if fenced:
        text = fenced.group("body").strip()
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidReplyError(
            f"the judge's {kind} reply is JSON nested too deeply to read: {quote_reply(raw)}"
        ) from None
    except ValueError:
        raise InvalidReplyError(
            f"the judge's {kind} reply is not valid JSON: {quote_reply(raw)}"
        ) from None
    # One top-level key around the real payload (the reference's {"list": [...]}).
    if isinstance(value, dict) and len(value) == 1:
        (inner,) = value.values()
        if isinstance(inner, (list, dict)):
            value = inner
    return value


def parse_questions(raw: str | None) -> list[str]:
    """Return the questions in a judge's reply.

    Raises:
        InvalidReplyError: the reply is not one of the accepted shapes, or holds no questions.

    Example:
        >>> parse_questions('```json\\n{"1": "Is Paris in France?"}\\n```')
        ['Is Paris in France?']
    """
    value = load_reply(raw, "questions")
    if isinstance(value, dict):
        items: list[Any] = list(value.values())
    elif isinstance(value, list):
        items = value
    else:
        raise InvalidReplyError(
            "the judge's questions reply is not a JSON array of strings or an object of"
            f" questions: {quote_reply(str(raw))}"
        )
    return validate_questions(items, f": {quote_reply(str(raw))}")


def validate_questions(value: object, quoted: str = "") -> list[str]:
    """Check questions from any judge: a non-empty list of non-empty strings (stripped).
    ``quoted``, the reply they came from, ends an error message.

    Example:
        >>> validate_questions([" Is it red? "])
        ['Is it red?']
    """
    if not isinstance(value, list):
        raise InvalidReplyError(
            f"the judge returned {value!r} as questions; expected a non-empty list of strings"
            f"{quoted}"
        )
    if not value:
        raise InvalidReplyError(f"the judge returned no questions for a non-empty text{quoted}")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise InvalidReplyError(
                f"the judge returned a question that is not a non-empty string ({item!r}){quoted}"
            )
        out.append(item.strip())
    return out


def validate_answers(value: object, n_questions: int, quoted: str = "") -> list[float]:
    """Check answers from any judge: one finite number in ``[0, 1]`` per question (a bool or
    a numeric string is no number). ``quoted``, the reply they came from, ends an error message.

    Example:
        >>> validate_answers([1, 0.5], 2)
        [1.0, 0.5]
    """
    if not isinstance(value, (list, tuple)):
        raise InvalidReplyError(
            f"the judge returned {value!r} as answers; expected a list of numbers in [0, 1]{quoted}"
        )
    if len(value) != n_questions:
        raise InvalidReplyError(
            f"the judge returned {len(value)} answers for {n_questions} questions{quoted}"
        )
    out: list[float] = []
    for position, item in enumerate(value, start=1):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise InvalidReplyError(
                f"the judge's answer to question {position} is not a number ({item!r}){quoted}"
            )
        number = finite_float(item)  # None: infinite, NaN or past the floats
        if number is None or number < 0.0 or number > 1.0:
            raise InvalidReplyError(
                f"the judge's answer to question {position} is outside [0, 1] ({item!r}){quoted}"
            )
        out.append(number)
    return out


def numbered(value: dict[Any, Any], count: int, noun: str, raw: str) -> list[Any]:
    """The values of a reply object keyed by item numbers ``1`` to ``count``, in order.

    Raises:
        InvalidReplyError: a key is not a number, or a number is missing or unexpected.

    Example:
        >>> numbered({"2": "b", "1": "a"}, 2, "question", "")
        ['a', 'b']
    """
    by_number: dict[int, Any] = {}
    for key, item in value.items():
        try:
            by_number[int(str(key).strip())] = item
        except ValueError:
            raise InvalidReplyError(
                f"the judge's reply object has a key that is not a {noun} number"
                f" ({key!r}): {quote_reply(raw)}"
            ) from None
    expected = set(range(1, count + 1))
    if set(by_number) != expected:
        missing = sorted(expected - set(by_number))
        extra = sorted(set(by_number) - expected)
        parts = [f"missing {missing}"] if missing else []
        detail = "; ".join(parts + ([f"unexpected {extra}"] if extra else []))
        raise InvalidReplyError(
            f"the judge answered {noun}s {sorted(by_number)} of 1..{count} ({detail}):"
            f" {quote_reply(raw)}"
        )
    return [by_number[i] for i in range(1, count + 1)]


def parse_answers(raw: str | None, n_questions: int) -> list[float]:
    """Return one number in ``[0, 1]`` per question from a judge's reply.

    Raises:
        InvalidReplyError: wrong shape, wrong count, a non-number or a number outside [0, 1].

    Example:
        >>> parse_answers('{"1": 1, "2": 0.5}', 2)
        [1.0, 0.5]
        >>> parse_answers('[{"question": "Is it red?", "answer": 0}]', 1)
        [0.0]
    """
    text = str(raw)
    value = load_reply(raw, "answers")
    if isinstance(value, dict):
        ordered = numbered(value, n_questions, "question", text)
        return validate_answers(ordered, n_questions, f": {quote_reply(text)}")
    if not isinstance(value, list):
        raise InvalidReplyError(
            "the judge's answers reply is not a JSON array or object of numbers:"
            f" {quote_reply(text)}"
        )
    items: list[Any] = []
    for i, item in enumerate(value, start=1):
        if isinstance(item, dict):
            if "answer" not in item:
                raise InvalidReplyError(
                    f"the judge's answer {i} has no 'answer' field: {quote_reply(text)}"
                )
            item = item["answer"]
        items.append(item)
    return validate_answers(items, n_questions, f": {quote_reply(text)}")
