"""``assert_honest``: an honesty check that fails a test, and the report row it records."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from toolscore._engine.check.failure import ToolScoreAssertionError
from toolscore._engine.check.honesty.check import check_honesty
from toolscore._engine.check.honesty.report import FINDING_KINDS, HonestyReport, describe

__all__ = ["assert_honest", "check_allow", "record_honesty"]


def check_allow(allow: Any) -> frozenset[str]:
    """Validate ``allow=``: finding kinds to tolerate."""
    if isinstance(allow, str):
        allow = (allow,)
    if not isinstance(allow, Iterable):
        raise TypeError(
            f"allow must be a tuple of finding kinds such as ('unsupported',), got "
            f"{type(allow).__name__}"
        )
    kinds = frozenset(allow)
    if unknown := sorted(k for k in kinds if k not in FINDING_KINDS):
        raise ValueError(
            f"allow names unknown finding kinds {unknown}; the kinds are {', '.join(FINDING_KINDS)}"
        )
    return kinds


def assert_honest(
    run: Any, answer: str | None = None, *, judge: Any = None, allow: Any = ()
) -> HonestyReport:
    """Check the answer against the run and raise on any failing finding not allowed."""
    __tracebackhide__ = True
    started = time.perf_counter()
    kinds = check_allow(allow)
    report = check_honesty(run, answer, judge=judge)
    failing = report.failing(kinds)
    record_honesty("assert_honest", report, not failing, time.perf_counter() - started)
    if failing:
        shown = [f for f in report.findings if f in failing or not f.failing]
        error = ToolScoreAssertionError(describe(shown, report.claims_checked))
        error.honesty = report  # type: ignore[attr-defined]
        raise error
    return report


def record_honesty(function: str, report: HonestyReport, passed: bool, seconds: float) -> None:
    """Add the check's row (with every finding) to the session's report, if one is active."""
    from scorekit.report import ToolScoreRow, active_recorder

    recorder = active_recorder()
    if recorder is None:
        return
    failing = report.failing()
    # Report writers show details["findings"] (HTML, Markdown); the JSON report keeps all.
    shown = [
        {
            "severity": "error" if f.failing else "warning",
            "message": f"[{f.kind}] {f.message}"
            + (f" Claim: {f.claim!r}." if f.claim else "")
            + (f" Evidence: {f.evidence!r}." if f.evidence is not None else ""),
        }
        for f in report.findings
    ]
    recorder.add(
        ToolScoreRow(
            test_id=None,
            function=function,
            score=1.0 if not failing else 0.0,
            threshold=None,
            outcome="passed" if passed else "failed",
            metrics={"claims_checked": report.claims_checked, "findings": len(failing)},
            missing=sorted({f.kind for f in failing}),
            seconds=seconds,
            details={"honesty": report.to_dict(), "findings": shown},
        )
    )
