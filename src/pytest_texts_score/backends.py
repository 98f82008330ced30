"""The judge interface: implement it to score texts with any model or service.

A backend writes yes/no questions, one fact each, from a text, and answers questions from a
text with one number in ``[0, 1]`` per question (how far the text supports "yes"). Methods may
be plain or ``async``. The judge layer validates every reply (a non-empty list of questions,
one number in ``[0, 1]`` per question), retries transient failures and limits concurrency.

To signal a failure, raise one of the errors below: ``TransientJudgeError`` (or
``InvalidReplyError``) is retried with backoff, ``PermanentJudgeError`` fails at once; either
way the test errors instead of failing. Any other exception is an outage of the judge as well:
the call fails with ``JudgeUnavailableError`` naming the exception and the judge's line that
raised it, the original chained as its cause (``ConnectionError`` and ``TimeoutError`` are
retried first, like transient HTTP errors).

Select one with ``pytest_texts_score.configure(backend=obj)`` or ``--llm-provider
package.module:attr`` (ini ``llm_provider``), where ``attr`` is a backend or a class or function
that returns one when called with no arguments.

Example:
    >>> class SentenceJudge:
    ...     def make_questions(self, text: str) -> list[str]:
    ...         return [s.strip() for s in text.split(".") if s.strip()]
    ...     def answer_questions(self, text: str, questions: list[str]) -> list[float]:
    ...         return [1.0 if q in text else 0.0 for q in questions]
    >>> isinstance(SentenceJudge(), Backend)
    True
"""

from __future__ import annotations

from scorekit.judges import (
    Backend,
    InvalidReplyError,
    JudgeError,
    PermanentJudgeError,
    TransientJudgeError,
)

__all__ = [
    "Backend",
    "InvalidReplyError",
    "JudgeError",
    "PermanentJudgeError",
    "TransientJudgeError",
]
