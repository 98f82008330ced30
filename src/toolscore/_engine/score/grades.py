"""Verdict building blocks: letter grades and ranked fix suggestions.

Behind :mod:`toolscore.verdict`, which re-exports it (the same objects).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["GRADE_BANDS", "GRADE_ORDER", "FixSuggestion", "letter_grade"]

GRADE_BANDS: tuple[tuple[float, str], ...] = ((0.9, "A"), (0.8, "B"), (0.7, "C"), (0.6, "D"))
"""``(lowest score, grade)`` from the best band down; a score below the last band is ``F``."""

GRADE_ORDER: tuple[str, ...] = ("A", "B", "C", "D", "F")
"""Grades from best to worst (for "fail under grade X" comparisons)."""


def letter_grade(score: float) -> str:
    """Letter grade of a score: A >= 0.9, B >= 0.8, C >= 0.7, D >= 0.6, else F.

    Raises:
        ValueError: ``score`` is not a number, or is NaN.

    Example:
        >>> letter_grade(0.95), letter_grade(0.8), letter_grade(0.2)
        ('A', 'B', 'F')
    """
    if isinstance(score, bool) or not isinstance(score, (int, float)) or math.isnan(score):
        raise ValueError(f"letter_grade(score) needs a number in [0, 1], got {score!r}")
    return next((grade for bound, grade in GRADE_BANDS if score >= bound), "F")


@dataclass
class FixSuggestion:
    """One ranked, actionable item of a "top issues to fix" list.

    Attributes:
        tool: the tool the issue is about.
        problem: what is wrong, in one sentence.
        fix: what to do about it.
        priority: sort key; lower is more urgent (0 missing call, 1 wrong tool, 2 argument
            mismatch, 3 extra call).

    Example:
        >>> FixSuggestion("search", "never called", "offer the tool", 0).priority
        0
    """

    tool: str
    problem: str
    fix: str
    priority: int
