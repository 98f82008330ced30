"""How numbers and texts look in every output of both packages: rounding, shortening, tables.

Example:
    >>> from scorekit.format import format_score
    >>> format_score(2 / 3)
    '0.6667'
"""

from scorekit.format._numbers import finite_float
from scorekit.format._rounding import (
    SCORE_DECIMALS,
    format_bound,
    format_percent,
    format_score,
    round_score,
    rounded_scores,
)
from scorekit.format._shorten import shorten
from scorekit.format._text_table import (
    align_columns,
    console_width,
    fit_columns,
    fitted_lines,
    terminal_width,
)

__all__ = [
    "SCORE_DECIMALS",
    "align_columns",
    "console_width",
    "finite_float",
    "fit_columns",
    "fitted_lines",
    "format_bound",
    "format_percent",
    "format_score",
    "round_score",
    "rounded_scores",
    "shorten",
    "terminal_width",
]
