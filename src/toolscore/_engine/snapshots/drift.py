"""How a run's calls differ from a snapshot: the merged new baseline and the readable diff.

Re-recording must not throw away what a person wrote into a snapshot: where an approved
argument (a matcher such as ``{"$any": true}``, or a literal) still accepts this run's value,
the new calls keep the approved one; only what really changed takes this run's value. The diff
between the approved calls and those merged calls therefore lists exactly the real changes,
never a matcher against the value it matches.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from toolscore._engine.compare.rule import values_match
from toolscore._engine.read.gold_encoding import encode_value
from toolscore._engine.snapshots.files import dumps_canonical

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["calls_diff", "carry_over", "encode_calls"]


def carry_over(
    baseline: list[dict[str, Any]], actual: list[dict[str, Any]], result: EvaluationResult
) -> list[dict[str, Any]]:
    """This run's calls, in its order, keeping the baseline's value wherever it still matches.

    ``result`` is ``evaluate(baseline, actual)``, whose pairs line the two lists up. A call
    paired with a baseline call whose arguments are not checked keeps ``args=None``.
    """
    partner = {pair.actual_index: pair.expected_index for pair in result.pairs}
    merged: list[dict[str, Any]] = []
    for j, call in enumerate(actual):
        args = call.get("args")
        i = partner.get(j)
        if i is not None:
            kept = baseline[i].get("args")
            args = None if kept is None else _carry(kept, args or {}, result.strict)
        merged.append({"tool": call["tool"], "args": args})
    return merged


def _carry(kept: Any, value: Any, strict: bool) -> Any:
    """``value``, with ``kept`` (or the parts of it) that still match put back in."""
    if values_match(kept, value, strict):
        return kept
    if isinstance(kept, dict) and isinstance(value, dict):
        return {k: _carry(kept[k], v, strict) if k in kept else v for k, v in value.items()}
    if isinstance(kept, list) and isinstance(value, list) and len(kept) == len(value):
        return [_carry(k, v, strict) for k, v in zip(kept, value, strict=True)]
    return value


def encode_calls(calls: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """The JSON form of calls (matchers encoded); ``args`` left out when it is ``None``."""
    out: list[dict[str, Any]] = []
    for i, call in enumerate(calls):
        item: dict[str, Any] = {"tool": call["tool"]}
        if call.get("args") is not None:
            item["args"] = encode_value(call["args"], f"{where}[{i}].args")
        out.append(item)
    return out


def calls_diff(
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    before_label: str,
    after_label: str,
    context: int = 3,
) -> list[str]:
    """A unified diff of two call lists in their snapshot-file text (no lines when equal)."""
    old = dumps_canonical(encode_calls(before, "calls")).splitlines()
    new = dumps_canonical(encode_calls(after, "calls")).splitlines()
    return list(difflib.unified_diff(old, new, before_label, after_label, n=context, lineterm=""))
