"""``toolscore.reports.console_report``: Toolscore 1.10's module path for the console printers.

The printers live in :mod:`toolscore.reports`; this module keeps code that imports them from
here working.
"""

from toolscore.reports import (
    print_error,
    print_evaluation_summary,
    print_progress,
    print_validation_result,
)

__all__ = ["print_error", "print_evaluation_summary", "print_progress", "print_validation_result"]
