"""A report comparison as text: the "vs baseline" lines and the line a failing session ends on."""

from __future__ import annotations

from scorekit.report._baseline import Comparison

__all__ = ["comparison_lines", "regression_message"]


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def comparison_lines(comparison: Comparison, baseline: str | None = None) -> list[str]:
    """The "vs baseline" lines: counts, then regressed, improved, new and gone (the
    unchanged are only counted).

    Example:
        >>> from scorekit.report._baseline import compare_reports
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9}]}
        >>> new = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.7}]}
        >>> for line in comparison_lines(compare_reports(old, new)):
        ...     print(line)
        1 regressed, 0 improved, 0 new, 0 gone, 0 unchanged (min delta 0.05)
        REGRESSED  t::a assert_tools score  0.9000 -> 0.7000  -0.2000
    """
    counts = comparison.counts()
    head = ", ".join(f"{n} {name}" for name, n in counts.items())
    lines = [f"baseline: {baseline}"] if baseline else []
    lines.append(f"{head} (min delta {comparison.min_delta:g})")
    for status in ("regressed", "improved", "new", "gone"):
        for change in comparison.of(status):
            text = (
                f"{status.upper():<10} {change.key}  {_score(change.old)} -> {_score(change.new)}"
            )
            if change.delta is not None:
                text += f"  {change.delta:+.4f}"
            if change.p_value is not None:
                text += f"  ({change.test} p={change.p_value:.4f})"
            lines.append(text)
    return lines


def regression_message(comparison: Comparison) -> str:
    """The last line of a session that fails on regression.

    Example:
        >>> from scorekit.report._baseline import compare_reports
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9}]}
        >>> new = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.7}]}
        >>> regression_message(compare_reports(old, new))
        'scorekit: exit 1: 1 assertion regressed against the baseline (--llm-fail-on-regression)'
    """
    n = comparison.counts()["regressed"]
    noun = "assertion" if n == 1 else "assertions"
    return f"scorekit: exit 1: {n} {noun} regressed against the baseline (--llm-fail-on-regression)"
