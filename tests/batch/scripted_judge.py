"""Judges for the dataset tests, importable by worker processes (and Ray workers).

``SentenceJudge`` asks one question per sentence and answers 1.0 exactly when the other text
holds that sentence word for word, so every score of a pair can be worked out by hand.
"""

from __future__ import annotations

from scorekit.judges import PermanentJudgeError


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in text.split(".") if s.strip()]


class SentenceJudge:
    """One question per sentence; 1.0 when the other text has the sentence, else 0.0."""

    name = "sentences"

    def make_questions(self, text: str) -> list[str]:
        return [f"{s}?" for s in _sentences(text)]

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        have = set(_sentences(text))
        return [1.0 if q[:-1] in have else 0.0 for q in questions]


class DownJudge:
    """A judge that is down: every call fails for good (no retries)."""

    name = "down"

    def make_questions(self, text: str) -> list[str]:
        raise PermanentJudgeError("401 Unauthorized: the key was revoked")

    def answer_questions(self, text: str, questions: list[str]) -> list[float]:
        raise PermanentJudgeError("401 Unauthorized: the key was revoked")


#: Pairs with their scores by hand: (expected, given, precision, recall).
PAIRS = [
    ("A b. C d. E f.", "A b. C d. E f.", 1.0, 1.0),
    ("A b. C d. E f.", "A b. C d.", 1.0, 2 / 3),
    ("A b. C d.", "A b. C d. X y. Z w.", 0.5, 1.0),
    ("A b.", "Q r.", 0.0, 0.0),
]


def pair_rows(n: int) -> list[dict[str, object]]:
    """``n`` rows cycling through :data:`PAIRS`, ids ``p<i>``."""
    return [
        {"id": f"p{i}", "expected": PAIRS[i % 4][0], "given": PAIRS[i % 4][1]} for i in range(n)
    ]


def f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)
