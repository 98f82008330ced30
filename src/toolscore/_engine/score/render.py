"""The failure text: what was expected, what happened, by how much it missed, one hint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scorekit.format import format_bound, format_score
from toolscore._engine.compare.rule import values_match
from toolscore._engine.read.inputs import CallList
from toolscore._engine.score.details import ArgumentDetail, PairDetail
from toolscore._engine.score.display import safe_repr


class ResultView(Protocol):
    """What the failure text reads of a result (``score/result.py`` renders itself with it)."""

    @property
    def gold(self) -> CallList: ...
    @property
    def trace(self) -> CallList: ...
    @property
    def pairs(self) -> Sequence[PairDetail]: ...
    @property
    def missing_calls(self) -> list[dict[str, Any]]: ...
    @property
    def extra_calls(self) -> list[dict[str, Any]]: ...
    @property
    def strict(self) -> bool: ...
    @property
    def score(self) -> float: ...
    @property
    def grade(self) -> str: ...
    @property
    def tool_f1(self) -> float: ...
    @property
    def argument_f1(self) -> float: ...
    @property
    def sequence_accuracy(self) -> float: ...
    @property
    def redundant_rate(self) -> float: ...
    @property
    def required_call_recall(self) -> float | None: ...


__all__ = ["format_call", "format_value", "render_result"]

_MAX_VALUE = 60
_SHOW_ALL_PAIRS = 30


def format_value(value: Any, limit: int = _MAX_VALUE) -> str:
    """A short repr for one argument value (never raises: see ``score/display.py``)."""
    return safe_repr(value, limit)


def _ratio(value: float | None) -> str:
    return "n/a (nothing expected)" if value is None else format_score(value)


def format_call(tool: str, args: dict[str, Any] | None) -> str:
    """``tool(a=1, b='x')``; unchecked arguments show as ``tool(...)``."""
    if args is None:
        return f"{tool}(...)"
    inner = ", ".join(f"{k}={format_value(v, 40)}" for k, v in args.items())
    text = f"{tool}({inner})"
    return text if len(text) <= 120 else text[:117] + "..."


def _unpaired_lines(title: str, meaning: str, side: str, calls: list[dict[str, Any]]) -> list[str]:
    """``Missing calls (2), expected but never made:`` and one line per call (or ``none``)."""
    if not calls:
        return [f"{title} calls: none."]
    return [f"{title} calls ({len(calls)}), {meaning}:"] + [
        f"  - {format_call(c['tool'], c['args'])} ({side} call #{c['index'] + 1})" for c in calls
    ]


def _pair_lines(result: ResultView, pair: PairDetail, number: int) -> list[str]:
    e_args = result.gold.args[pair.expected_index]
    a_args = result.trace.args[pair.actual_index]
    head = (
        f"  {number}. {format_call(pair.tool, e_args)} -> actual call "
        f"#{pair.actual_index + 1} {format_call(pair.tool, a_args)}"
    )
    if not pair.checked:
        return [head + ": arguments not checked."]
    if pair.ok:
        judged = [f"{arg.name} {_judge_note(arg)}" for arg in pair.arguments if _judge_note(arg)]
        if judged:
            return [head + ": all arguments agree;", *(f"       {j}" for j in judged)]
        return [head + ": all arguments agree."]
    lines = [head + ":"]
    if not pair.arguments:
        lines.append("       expected no arguments and got none (ok)")
    for arg in pair.arguments:
        if arg.status in ("ok", "mismatch"):
            verdict = "ok" if arg.status == "ok" else "NOT ok"
            note = _judge_note(arg)
            lines.append(
                f"       {arg.name}: expected {format_value(arg.expected)}, "
                f"actual {format_value(arg.actual)} ({verdict}{'; ' + note if note else ''})"
            )
        elif arg.status == "missing":
            lines.append(
                f"       {arg.name}: expected {format_value(arg.expected)}, "
                "but the call did not pass it (NOT ok)"
            )
        else:
            lines.append(
                f"       {arg.name}: not expected, actual {format_value(arg.actual)} (NOT ok)"
            )
    if e_args == {} and a_args:
        lines.append("       expected no arguments at all (args={}).")
    return lines


def _judge_note(arg: ArgumentDetail) -> str:
    """``judged equivalent: <reason>`` when a judge decided this argument, else ""."""
    verdict = arg.judge_verdict()
    if verdict is None:
        return ""
    word = "equivalent" if verdict.equivalent else "not equivalent"
    return f"judged {word}: {verdict.reason}"


def _hint(result: ResultView) -> str:
    called = set(result.trace.tools)
    never = [m["tool"] for m in result.missing_calls if m["tool"] not in called]
    if never:
        return (
            f"The agent never called {never[0]!r}; check that the tool is offered to it under "
            "exactly that name (names are case-sensitive) and that the prompt asks for it."
        )
    bad_pairs = [p for p in result.pairs if not p.ok]
    if result.strict and any(
        values_match(a.expected, a.actual, False)
        for p in bad_pairs
        for a in p.arguments
        if a.status == "mismatch"
    ):
        return (
            "Some values differ only in type or surrounding white space, which strict=True "
            "rejects; drop strict=True to compare numbers numerically and strings stripped."
        )
    if any(a.status == "mismatch" for p in bad_pairs for a in p.arguments):
        return (
            "If a differing value is acceptable, say so in the expectation with a matcher "
            "(ANY, Regex, Approx, OneOf, Contains, IsType) instead of a literal value."
        )
    if any(a.status in ("missing", "unexpected") for p in bad_pairs for a in p.arguments):
        return (
            "Argument names differ between expected and actual calls; compare them above, "
            "or leave out 'args' to skip checking arguments of a call."
        )
    if result.missing_calls:
        return (
            f"The agent called {result.missing_calls[0]['tool']!r} fewer times than expected; "
            "check whether it stops early or merges several requests into one call."
        )
    if result.extra_calls:
        return (
            "The agent made calls that were not expected; add them to the expected list if "
            "they are fine, or lower their weight with weights={'redundant_rate': ...}."
        )
    if result.sequence_accuracy < 1.0:
        return (
            "The right calls were made in a different order; if order does not matter, "
            "lower its weight with weights={'sequence_accuracy': 0}."
        )
    return "Lower min_score or change weights if this result is acceptable."


def render_result(
    result: ResultView,
    min_score: float | None = None,
    problems: list[str] | None = None,
    hint: str | None = None,
) -> str:
    """The full failure text for a result (and optional behavioural problems from expect)."""
    lines: list[str] = []
    low = min_score is not None and result.score < min_score
    # The one rounding rule (scorekit.format._rounding): a score never reads the same as the bound
    # it missed, and the bound reads as it was given.
    score = format_score(result.score, min_score)
    bound = "" if min_score is None else format_bound(min_score)
    graded = f"{score} (grade {result.grade})"
    below = f", below the required {bound}" if low else ""
    if problems:
        broke = f"The tool calls broke {len(problems)} expectation(s)"
        lines.append(
            f"{broke} and scored {graded}{below}." if low else f"{broke}; their score is {graded}."
        )
        lines += ["", "Broken expectations:", *(f"  - {p}" for p in problems)]
    else:
        lines.append(f"Tool calls scored {graded}{below}.")
    n_expected, n_actual = len(result.gold), len(result.trace)
    lines.append("")
    lines.append(
        f"Expected {n_expected} call(s); the agent made {n_actual}. "
        f"{len(result.pairs)} expected call(s) were paired with an actual call to the same tool."
    )
    pairs = result.pairs
    if pairs:
        lines.append("Expected calls and the actual calls paired with them:")
        by_expected = {p.expected_index: p for p in pairs}
        show_all = n_expected <= _SHOW_ALL_PAIRS
        hidden = 0
        for i in range(n_expected):
            pair = by_expected.get(i)
            if pair is None:
                if show_all:
                    lines.append(
                        f"  {i + 1}. {format_call(result.gold.tools[i], result.gold.args[i])}"
                        " -> no actual call (missing)."
                    )
                continue
            if not show_all and pair.ok:
                hidden += 1
                continue
            lines.extend(_pair_lines(result, pair, i + 1))
        if hidden:
            lines.append(
                f"  ... and {hidden} more expected call(s) matched with all arguments agreeing."
            )
    lines.append("")
    lines.extend(
        _unpaired_lines("Missing", "expected but never made", "expected", result.missing_calls)
    )
    lines.extend(_unpaired_lines("Extra", "made but not expected", "actual", result.extra_calls))
    handoffs = (getattr(result, "metrics", None) or {}).get("handoffs")
    if handoffs:  # agent steps, left out of the calls above
        lines.append(f"Hand-offs (not scored as tool calls): to {', '.join(map(repr, handoffs))}.")
    lines.append("")
    threshold = f" (required: {bound})" if min_score is not None else ""
    lines.append(
        f"Scores: score {score}{threshold}; tool F1 {format_score(result.tool_f1)}, "
        f"argument F1 {format_score(result.argument_f1)}, "
        f"sequence {format_score(result.sequence_accuracy)}, "
        f"redundant rate {format_score(result.redundant_rate)}, "
        f"required-call recall {_ratio(result.required_call_recall)}."
    )
    perfect = result.score >= 1.0 and not problems
    # A clean pass needs no advice; anything short of perfect gets the one most useful hint.
    if hint or not perfect:
        lines.append(f"Hint: {hint or _hint(result)}")
    return "\n".join(lines)
