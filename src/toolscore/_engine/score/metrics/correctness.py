"""Were the expected tools called? By name, with their arguments, and as completed requirements.

Behind :mod:`toolscore.metrics.tool_correctness`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.align.pairing import Alignment, align
from toolscore._engine.read.inputs import CallList, read_pair
from toolscore._engine.read.tool_call import ToolCall
from toolscore._engine.score.metrics.tool_names import tool_correctness

__all__ = [
    "calculate_required_call_recall",
    "calculate_tool_correctness",
    "calculate_tool_correctness_with_args",
    "required_recall",
]

Calls = Sequence[ToolCall | Mapping[str, Any]]


def calculate_tool_correctness(
    gold_calls: Calls, trace_calls: Calls, strict_order: bool = False
) -> dict[str, Any]:
    """Share of the expected tool names that were called at least once.

    With ``strict_order=True``: the share of positions where the expected tool was called.

    Returns:
        ``tool_correctness``, ``expected_tools``, ``called_tools``, ``missing_tools``,
        ``extra_tools`` (sorted names), ``correct_count``, ``total_expected``,
        ``strict_order`` (and ``expected_sequence`` / ``called_sequence`` in strict order).

    Example:
        >>> m = calculate_tool_correctness([ToolCall("a"), ToolCall("b")], [ToolCall("a")])
        >>> m["tool_correctness"], m["missing_tools"]
        (0.5, ['b'])
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    return tool_correctness(gold.tools, trace.tools, strict_order)


def calculate_tool_correctness_with_args(
    gold_calls: Calls, trace_calls: Calls, strict: bool = False
) -> dict[str, Any]:
    """Share of expected calls matched, one to one, by a call whose arguments fully agree.

    Calls are paired by the one-to-one alignment ``evaluate()`` uses; a pair matches when every
    argument agrees under the comparison rule (matchers honoured; ``args=None`` on the expected
    call skips the arguments).

    Returns:
        ``tool_correctness_strict``, ``matches`` (``(expected, actual)`` ToolCall pairs),
        ``mismatches`` (unmatched expected calls, then unmatched actual calls),
        ``match_count``, ``total_expected``.

    Example:
        >>> m = calculate_tool_correctness_with_args(
        ...     [ToolCall("a", {"x": 1})], [ToolCall("a", {"x": 1.0}), ToolCall("b", {})])
        >>> m["tool_correctness_strict"], len(m["mismatches"])
        (1.0, 1)
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    alignment = align(gold.tools, gold.args, trace.tools, trace.args, strict)
    g_calls, t_calls = gold.tool_calls(), trace.tool_calls()
    agreed = [p for p, c in zip(alignment.pairs, alignment.counts, strict=True) if c.all_ok]
    matches = [(g_calls[i], t_calls[j]) for i, j in agreed]
    matched_e, matched_a = {i for i, _ in agreed}, {j for _, j in agreed}
    mismatches: list[ToolCall] = [c for i, c in enumerate(g_calls) if i not in matched_e]
    mismatches += [c for j, c in enumerate(t_calls) if j not in matched_a]
    share = len(matches) / len(gold) if gold else float(not trace)
    return {
        "tool_correctness_strict": share,
        "matches": matches,
        "mismatches": mismatches,
        "match_count": len(matches),
        "total_expected": len(gold),
    }


def required_recall(
    gold: CallList,
    trace: CallList,
    alignment: Alignment,
    strict: bool = False,
    named_only: bool = False,
) -> float | None:
    """Share of expected calls completed: paired with an actual call that did not fail and
    agrees on every expected argument; None when nothing is expected.

    ``alignment`` pairs ``gold`` with ``trace``. When some actual calls failed, the expected
    calls are paired again with the successful calls alone, so a failed attempt followed by a
    successful retry counts as done.
    """
    if not gold:
        return None
    if trace.errors:
        ok = [j for j in range(len(trace)) if j not in trace.errors]
        tools, args = [trace.tools[j] for j in ok], [trace.args[j] for j in ok]
        alignment = align(gold.tools, gold.args, tools, args, strict, named_only)
    done = sum(1 for count in alignment.counts if count.agree == count.expected)
    return done / len(gold)


def calculate_required_call_recall(
    gold_calls: Calls, trace_calls: Calls, strict: bool = False
) -> float | None:
    """Share of the expected ("required") calls the agent completed; None if none is required.

    An expected call is completed when it is paired one to one with an actual call to the
    same tool that did not fail (``ToolCall.is_error``) and whose arguments agree on every
    argument the expected call names (``args=None`` checks the tool alone). Repeats count:
    two expected ``search`` calls need two successful ones.

    Returns:
        A value in ``[0, 1]``, or ``None`` when ``gold_calls`` is empty (the metric does not
        apply; it is not a zero).
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    alignment = align(gold.tools, gold.args, trace.tools, trace.args, strict)
    return required_recall(gold, trace, alignment, strict)
