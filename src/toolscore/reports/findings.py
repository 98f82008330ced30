"""``toolscore.reports.findings``: Toolscore 1.10's path and shape for behaviour findings.

Toolscore returns ``(severity, message)`` pairs; the reports use the same findings as
``{"severity", "message"}`` dicts (:mod:`toolscore.reports._findings`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore.reports._findings import behavior_findings as _findings

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["behavior_findings"]


def behavior_findings(result: EvaluationResult) -> list[tuple[str, str]]:
    """``(severity, message)`` pairs, errors (forbidden calls, credentials) first.

    Example:
        >>> from toolscore import evaluate
        >>> result = evaluate([], [{"tool": "rm", "args": {}}], forbidden=[{"tool": "rm"}])
        >>> behavior_findings(result)[0][0]
        'error'
    """
    return [(f["severity"], f["message"]) for f in _findings(result)]
