"""``toolscore.reports.csv_report``: Toolscore 1.10's path of :func:`generate_csv_report`.

The writer lives in :mod:`toolscore.reports` (one implementation on ``scorekit.report``);
this module keeps code that imports it from here working.
"""

from toolscore.reports import generate_csv_report

__all__ = ["generate_csv_report"]
