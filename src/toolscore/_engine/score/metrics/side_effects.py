"""Side effects: did the paired actual calls achieve what the gold file says they should?

Behind :mod:`toolscore.metrics.side_effects`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekit.format import shorten
from toolscore._engine.align.pairing import align
from toolscore._engine.read.inputs import read_pair
from toolscore._engine.read.tool_call import ToolCall

__all__ = ["calculate_side_effect_success_rate", "default_side_effect_validators"]

Validator = Callable[[ToolCall, Any], Any]


def default_side_effect_validators() -> dict[str, Validator]:
    """The validators ``evaluate_trace(validate_side_effects=True)`` runs, by check name.

    ``http_ok`` (:class:`~toolscore.validators.HTTPValidator`), ``file_exists``
    (:class:`~toolscore.validators.FileSystemValidator`, relative paths against the working
    directory) and ``sql_rows`` (:class:`~toolscore.validators.SQLValidator`). Any other check
    name fails with "no validator named ..." rather than passing unchecked.
    """
    from toolscore._engine.score.validators.database import SQLValidator
    from toolscore._engine.score.validators.filesystem import FileSystemValidator
    from toolscore._engine.score.validators.http import HTTPValidator

    return {
        "http_ok": HTTPValidator().validate,
        "file_exists": FileSystemValidator().validate,
        "sql_rows": SQLValidator().validate,
    }


def calculate_side_effect_success_rate(
    gold_calls: Sequence[ToolCall | Mapping[str, Any]],
    trace_calls: Sequence[ToolCall | Mapping[str, Any]],
    validators: Mapping[str, Validator] | None = None,
) -> dict[str, Any]:
    """Run every side-effect check of the expected calls on their paired actual calls.

    A check fails when the call was never made, when no validator is registered under its
    name, or when the validator returns false or raises (the reason says which).

    Returns:
        ``total_checks``, ``passed_checks``, ``success_rate`` (1.0 with no checks) and
        ``details``: one ``{"tool", "check", "passed", "reason"}`` per check.
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    registry = dict(validators or {})
    g_calls = gold.tool_calls()
    wanted = [(i, c) for i, c in enumerate(g_calls) if (c.metadata or {}).get("side_effects")]
    details: list[dict[str, Any]] = []
    if wanted:
        alignment = align(gold.tools, gold.args, trace.tools, trace.args)
        partner = dict(alignment.pairs)
        t_calls = trace.tool_calls()
        for i, call in wanted:
            effects = (call.metadata or {})["side_effects"]
            if not isinstance(effects, Mapping):
                raise ValueError(
                    f"expected call {i} ({call.tool!r}): side_effects must be a dict of "
                    f"check name -> expected value, got {shorten(repr(effects), 60)}"
                )
            j = partner.get(i)
            for check, value in effects.items():
                if j is None:
                    passed, reason = False, "the call was never made"
                elif check not in registry:
                    known = ", ".join(sorted(registry)) or "none"
                    passed, reason = False, f"no validator named {check!r} (registered: {known})"
                else:
                    try:
                        passed = bool(registry[check](t_calls[j], value))
                        reason = "validator passed" if passed else "validator failed"
                    except Exception as exc:  # a check that crashes is a failed check
                        passed = False
                        reason = f"validator raised {type(exc).__name__}: {shorten(str(exc), 120)}"
                details.append(
                    {"tool": call.tool, "check": check, "passed": passed, "reason": reason}
                )
    passed_n = sum(1 for d in details if d["passed"])
    return {
        "total_checks": len(details),
        "passed_checks": passed_n,
        "success_rate": passed_n / len(details) if details else 1.0,
        "details": details,
    }
