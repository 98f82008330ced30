"""Verdict building blocks: letter grades and ranked fix suggestions.

Example:
    >>> from toolscore.verdict import GRADE_BANDS, letter_grade
    >>> letter_grade(0.85), GRADE_BANDS[0]
    ('B', (0.9, 'A'))
"""

from toolscore._engine.score.grades import GRADE_BANDS, GRADE_ORDER, FixSuggestion, letter_grade

__all__ = ["GRADE_BANDS", "GRADE_ORDER", "FixSuggestion", "letter_grade"]
