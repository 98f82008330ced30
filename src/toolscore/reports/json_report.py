"""``toolscore.reports.json_report``: Toolscore 1.10's path of :func:`generate_json_report`.

The writer lives in :mod:`toolscore.reports` (one implementation on ``scorekit.report``);
this module keeps code that imports it from here working.
"""

from toolscore.reports import generate_json_report

__all__ = ["generate_json_report"]
