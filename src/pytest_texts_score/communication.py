"""The two judge calls as JSON strings and dicts, for code written against the reference API.

Both functions are thin doors onto the judge layer the assertions use (the configured judge,
its retries, cache and concurrency limit). ``evaluate_score`` imports them, and the scoring
functions reach the judge through ``evaluate_score.make_questions`` and
``evaluate_score.evaluate_questions``, so a test may replace those two names with
``unittest.mock.patch`` to score without a judge (see ``_seams``).
"""

from __future__ import annotations

from typing import Any

import pytest_texts_score._validation as v
from pytest_texts_score._outcome import answer_dicts
from pytest_texts_score._pipeline import judge_of
from pytest_texts_score._seams import door_call
from scorekit.judges import (
    InvalidReplyError,
    number_questions,
    parse_questions,
    reasons_of,
    run_sync,
)

__all__ = ["evaluate_questions", "make_questions"]


def make_questions(base_text: str) -> str:
    """Generate questions from a text with the configured judge.

    Args:
        base_text: the text from which to generate questions.

    Returns:
        A JSON string mapping question numbers to questions,
        ``{"1": "Is ...?", "2": "Does ...?"}``; ``"{}"`` for a blank text (no judge call).

    Raises:
        scorekit.judges.JudgeError: the judge failed after its retries.

    Example:
        >>> make_questions("Paris is the capital of France.")  # doctest: +SKIP
        '{"1":"Is Paris the capital of France?"}'
    """
    __tracebackhide__ = True
    base_text = v.check_text(base_text, "base_text")
    if not base_text.strip():
        return number_questions([])
    call = door_call()  # the run it belongs to, when the pipeline calls it
    judge = judge_of(call.session)
    return number_questions(run_sync(judge.questions(base_text, run=call.run[0], retry=call.retry)))


def _questions_of(questions_text: str) -> list[str]:
    __tracebackhide__ = True
    stripped = questions_text.strip()
    if stripped in ("", "{}", "[]"):
        return []
    try:
        return parse_questions(stripped)
    except InvalidReplyError as exc:
        raise ValueError(f"evaluate_questions: `questions_text` is not usable: {exc}") from None


def evaluate_questions(answer_text: str, questions_text: str) -> list[dict[str, Any]]:
    """Evaluate how well a text answers a list of questions with the configured judge.

    Args:
        answer_text: the text to use for answering the questions.
        questions_text: the questions as a JSON string: an array of strings or an object whose
            values are the questions (what :func:`make_questions` returns), optionally in a
            fenced code block.

    Returns:
        One ``{"question": str, "answer": float}`` per question, the answer in ``[0, 1]``.

    Raises:
        ValueError: ``questions_text`` is not JSON of one of those shapes.
        scorekit.judges.JudgeError: the judge failed after its retries.

    Example:
        >>> evaluate_questions("Paris is in France.", '["Is Paris in France?"]')  # doctest: +SKIP
        [{'question': 'Is Paris in France?', 'answer': 1.0}]
    """
    __tracebackhide__ = True
    answer_text = v.check_text(answer_text, "answer_text")
    questions = _questions_of(v.check_text(questions_text, "questions_text"))
    answers: list[float] = [0.0] * len(questions)  # a blank text supports nothing
    if questions and answer_text.strip():
        call = door_call()
        judge = judge_of(call.session)
        answers = run_sync(judge.answers(answer_text, questions, run=call.run, retry=call.retry))
    return answer_dicts(questions, answers, reasons_of(answers))
