"""The backend interface: what any judge must do.

A backend writes yes/no questions from a text and answers questions from a text with one
support number in ``[0, 1]`` per question. Methods may be plain or ``async``.

A backend may also offer ``explain_answers(text, questions)``, returning ``(support, reason)``
per question: the judge layer then keeps each answer's reason (a sentence naming what was
missing or contradicted, or None) beside the number (:class:`Answers`). The local judge does;
LLM judges give no reasons.

Built-in backends may also expose ``cache_identity()``: a JSON-serialisable mapping that names
everything their replies depend on (provider, endpoint or deployment, model, prompt version,
sampling settings). A backend with an identity is cached by the judge layer; one without
(the local judge, custom judges) is not. ``deterministic = True`` lets the judge layer reuse
one reply for repeated runs with the same inputs.

Example:
    >>> class Yes:
    ...     def make_questions(self, text: str) -> list[str]:
    ...         return [f"Does the text say: {text}?"]
    ...     def answer_questions(self, text: str, questions: list[str]) -> list[float]:
    ...         return [1.0 for _ in questions]
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Backend(Protocol):
    """A judge. Implement both methods, plain or ``async``."""

    def make_questions(self, text: str) -> list[str] | Awaitable[list[str]]:
        """Return yes/no questions, one fact each, written from ``text``."""
        ...

    def answer_questions(
        self, text: str, questions: list[str]
    ) -> list[float] | Awaitable[list[float]]:
        """Return one number in ``[0, 1]`` per question: how far ``text`` supports it."""
        ...


@dataclass(frozen=True)
class Usage:
    """Token usage of one judge call, when the judge reports it."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


def backend_identity(backend: object) -> Mapping[str, Any] | None:
    """Return the backend's cache identity, or None when its replies must not be cached."""
    ident = getattr(backend, "cache_identity", None)
    if ident is None:
        return None
    value = ident() if callable(ident) else ident
    return dict(value) if value is not None else None


def backend_name(backend: object) -> str:
    """A short human name for a backend (``local``, ``openai``, ``azure`` or the class name)."""
    name = getattr(backend, "name", None)
    if isinstance(name, str) and name:
        return name
    return type(backend).__name__


@dataclass(frozen=True)
class Reply:
    """A built-in backend's reply with its token usage (custom backends return plain lists)."""

    value: Any
    usage: Usage | None = None


class Answers(list[float]):
    """Support numbers that carry, beside each, the judge's reason (None where it gave none).

    A plain ``list[float]`` everywhere one is expected; ``reasons`` has one entry per answer.

    Example:
        >>> a = Answers([0.0, 1.0], ["'John' is not in the text; it names Maria", None])
        >>> a == [0.0, 1.0], a.reasons[0]
        (True, "'John' is not in the text; it names Maria")
    """

    def __init__(self, values: Iterable[float], reasons: Sequence[str | None] | None = None):
        super().__init__(values)
        self.reasons: list[str | None] = (
            list(reasons)
            if reasons is not None and len(reasons) == len(self)
            else [None] * len(self)
        )


def reasons_of(answers: Sequence[float]) -> list[str | None]:
    """The reason of each answer (all None for answers without reasons)."""
    if isinstance(answers, Answers):
        return list(answers.reasons)
    return [None] * len(answers)
