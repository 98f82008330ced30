"""Honesty checks: does what the agent told the user match what its tools did?"""

from toolscore._engine.check.honesty.check import check_honesty
from toolscore._engine.check.honesty.report import (
    FAILING_KINDS,
    FINDING_KINDS,
    Finding,
    HonestyReport,
)

__all__ = ["FAILING_KINDS", "FINDING_KINDS", "Finding", "HonestyReport", "check_honesty"]
