"""Per-pair, per-argument details of an evaluation (for failure texts and reports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolscore._engine.compare.rule import values_match
from toolscore._engine.score.display import jsonable

__all__ = ["ArgumentDetail", "PairDetail", "argument_details", "jsonable"]


@dataclass(frozen=True)
class ArgumentDetail:
    """One argument of one aligned pair.

    ``status`` is ``"ok"``, ``"mismatch"`` (both have it, values differ), ``"missing"``
    (expected, not passed) or ``"unexpected"`` (passed, not expected).
    """

    name: str
    expected: Any
    actual: Any
    ok: bool
    status: str

    def to_dict(self) -> dict[str, Any]:
        """Plain dict; matchers appear as their repr, a judged value with the judge's verdict."""
        out = {
            "name": self.name,
            "expected": jsonable(self.expected),
            "actual": jsonable(self.actual),
            "ok": self.ok,
            "status": self.status,
        }
        verdict = self.judge_verdict()
        if verdict is not None:
            out["judge"] = verdict.to_dict()
        return out

    def judge_verdict(self) -> Any:
        """The judge's verdict on this argument (``evaluate_trace(judge=...)`` or a
        ``Semantic`` matcher), or None when no judge decided it."""
        read = getattr(self.expected, "verdict", None)
        if not callable(read) or self.status not in ("ok", "mismatch"):
            return None
        try:
            return read(self.actual)
        except Exception:  # a judge that cannot be built has no verdict
            return None


@dataclass(frozen=True)
class PairDetail:
    """One expected call with the actual call it was aligned with."""

    expected_index: int
    actual_index: int
    tool: str
    ok: bool
    checked: bool
    arguments: list[ArgumentDetail] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict."""
        return {
            "expected_index": self.expected_index,
            "actual_index": self.actual_index,
            "tool": self.tool,
            "ok": self.ok,
            "arguments_checked": self.checked,
            "arguments": [a.to_dict() for a in self.arguments],
        }


def argument_details(
    expected_args: dict[str, Any] | None,
    actual_args: dict[str, Any] | None,
    strict: bool,
    named_only: bool = False,
) -> list[ArgumentDetail]:
    """Per-argument comparison of one pair (empty when arguments are not checked)."""
    if expected_args is None:
        return []
    actual_args = actual_args or {}
    out: list[ArgumentDetail] = []
    for name, value in expected_args.items():
        if name in actual_args:
            ok = values_match(value, actual_args[name], strict)
            out.append(
                ArgumentDetail(name, value, actual_args[name], ok, "ok" if ok else "mismatch")
            )
        else:
            out.append(ArgumentDetail(name, value, None, False, "missing"))
    for name, value in actual_args.items():
        if name not in expected_args and not (named_only and expected_args):
            out.append(ArgumentDetail(name, None, value, False, "unexpected"))
    return out
