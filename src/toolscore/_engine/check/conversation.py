"""``evaluate_conversation()``: a multi-turn history scored turn by turn, with partial credit.

The history (any form :mod:`toolscore._engine.read.messages` reads) is split at its user messages;
turn ``k`` holds the calls made after the ``k``-th user message and before the next one
(tool results and system messages are not turns). Each turn is scored with ``evaluate`` and
passes when its calls match the expected ones under the trajectory mode. The conversation's
score is the mean of the turn scores, so one wrong turn costs its share, not the whole sample.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekit.format import format_score
from toolscore._engine.check.failure import ToolScoreAssertionError, record_row
from toolscore._engine.check.trajectory import TrajectoryMatch, match_sides, trajectory_failure
from toolscore._engine.check.trajectory_sides import Side, check_mode, side_of_steps
from toolscore._engine.read.inputs import expected_calls
from toolscore._engine.read.messages import Step, message_list, read_messages
from toolscore._engine.score.result import EvaluationResult

__all__ = ["ConversationResult", "TurnResult", "assert_conversation", "evaluate_conversation"]


@dataclass(frozen=True)
class TurnResult:
    """One user turn of a conversation.

    Attributes:
        index: the turn's position (0-based).
        passed: whether the turn's calls match its expected calls under the mode.
        score: the :func:`toolscore.evaluate` score of the turn (0.0 for a turn one side lacks).
        reason: one sentence: why it passed or the first problem.
        expected / actual: the turn's expected and actual calls (``{"tool", "args"}`` dicts).
        match: the turn's :class:`~toolscore.TrajectoryMatch` (``None`` for a turn one side
            lacks).
    """

    index: int
    passed: bool
    score: float
    reason: str
    expected: tuple[dict[str, Any], ...]
    actual: tuple[dict[str, Any], ...]
    match: TrajectoryMatch | None = field(default=None, repr=False, compare=False)

    @property
    def result(self) -> EvaluationResult | None:
        """The turn's :class:`~toolscore.EvaluationResult` (``None`` for a turn one side lacks)."""
        return None if self.match is None else self.match.result


@dataclass(frozen=True)
class ConversationResult:
    """The outcome of :func:`toolscore.evaluate_conversation`.

    Attributes:
        turns: one :class:`TurnResult` per turn (as many as the longer side has).
        score: the mean of the turn scores (partial credit); 1.0 for no turns at all.
        turns_passed: how many turns passed.
        first_failed_turn: the first failing turn (0-based), ``None`` when every turn passes.
        passed: every turn passed and the turns line up.
        expected_turns / actual_turns: the number of turns expected and found.
        mode: the trajectory mode each turn is matched under.
    """

    turns: tuple[TurnResult, ...]
    score: float
    turns_passed: int
    first_failed_turn: int | None
    passed: bool
    expected_turns: int
    actual_turns: int
    mode: str

    def __bool__(self) -> bool:
        return self.passed


def split_turns(steps: Sequence[Step]) -> list[list[Step]]:
    """The steps after each user message, up to the next one (what comes before the first user
    message, such as a system prompt, belongs to no turn)."""
    turns: list[list[Step]] = []
    for step in steps:
        if step.role == "user":
            turns.append([])
        elif turns:
            turns[-1].append(step)
        elif step.calls:
            raise ValueError(
                f"conversation[{step.index}] makes tool calls before any user message; a "
                "conversation starts with the user's first turn"
            )
    return turns


def _read_conversation(conversation: Any) -> list[list[Step]]:
    messages = message_list(conversation)
    if messages is None:
        if isinstance(conversation, (list, tuple)) and not conversation:
            return []
        raise TypeError(
            "conversation must be a message history: a list of OpenAI chat messages, OpenAI "
            "Responses items, Anthropic messages, Gemini contents or LangChain messages (or "
            f"{{'messages': [...]}}), got {type(conversation).__name__}"
        )
    return split_turns(read_messages(messages, "conversation"))


def _expected_turns(expected_turns: Any) -> list[Side]:
    if not isinstance(expected_turns, (list, tuple)):
        raise TypeError(
            "expected_turns must be a list with one expected call list per user turn, e.g. "
            f"[[{{'tool': 'search'}}], []], got {type(expected_turns).__name__}"
        )
    out = []
    for k, turn in enumerate(expected_turns):
        if not isinstance(turn, (list, tuple)):
            raise TypeError(
                f"expected_turns[{k}] must be the list of calls expected in user turn {k + 1} "
                f"([] for none), got {type(turn).__name__}"
            )
        try:
            gold = expected_calls(list(turn))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"expected_turns[{k}]: {exc}") from None
        out.append(Side(gold.tools, gold.args))
    return out


def evaluate_conversation(
    expected_turns: Sequence[Sequence[Mapping[str, Any]]],
    conversation: Any,
    mode: str = "strict",
    args: str = "exact",
    per_tool: Mapping[str, str | Callable[[dict[str, Any], dict[str, Any]], bool]] | None = None,
    *,
    strict: bool = False,
) -> ConversationResult:
    """Score a multi-turn conversation turn by turn.

    Args:
        expected_turns: one expected call list per user turn (``[]`` for a turn with no call).
        conversation: the whole history: OpenAI chat messages, OpenAI Responses input and
            output items, Anthropic messages, Gemini ``contents``, LangChain messages, or
            ``{"messages": [...]}``.
        mode: the trajectory mode a turn must match under (see
            :func:`toolscore.match_trajectory`; default ``"strict"``).
        args: how arguments must agree, as in ``match_trajectory``.
        per_tool: an args mode or a predicate per tool name, as in ``match_trajectory``.
        strict: as in ``match_trajectory``.

    Returns:
        A :class:`ConversationResult`. Turns that do not line up (more or fewer user turns than
        ``expected_turns``) fail, with a reason that says so.

    Raises:
        TypeError / ValueError: malformed ``expected_turns``, a history of an unknown shape,
            or an unknown mode.

    Example:
        >>> from toolscore import evaluate_conversation
        >>> history = [
        ...     {"role": "user", "content": "Weather in Paris?"},
        ...     {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
        ...         "function": {"name": "weather", "arguments": '{"city": "Paris"}'}}]},
        ...     {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        ...     {"role": "assistant", "content": "18C."},
        ...     {"role": "user", "content": "Thanks!"},
        ...     {"role": "assistant", "content": "You're welcome."},
        ... ]
        >>> result = evaluate_conversation([[{"tool": "weather", "args": {"city": "Paris"}}], []],
        ...                                history)
        >>> result.score, result.turns_passed, result.first_failed_turn
        (1.0, 2, None)
    """
    check_mode(mode)
    expected = _expected_turns(expected_turns)
    actual = _read_conversation(conversation)
    turns: list[TurnResult] = []
    for k in range(max(len(expected), len(actual))):
        if k < len(expected) and k < len(actual):
            m = match_sides(expected[k], side_of_steps(actual[k]), mode, args, per_tool, strict)
            turns.append(TurnResult(k, m.matched, m.score, m.reason, m.expected, m.actual, m))
            continue
        if k < len(expected):
            why = f"is expected but the conversation has only {len(actual)} user turn(s)."
            e_calls, a_calls = expected[k].calls(), []
        else:
            why = f"is in the conversation but expected_turns has only {len(expected)} turn(s)."
            e_calls, a_calls = [], side_of_steps(actual[k]).calls()
        turns.append(
            TurnResult(k, False, 0.0, f"Turn {k + 1} {why}", tuple(e_calls), tuple(a_calls))
        )
    first = next((t.index for t in turns if not t.passed), None)
    return ConversationResult(
        turns=tuple(turns),
        score=sum(t.score for t in turns) / len(turns) if turns else 1.0,
        turns_passed=sum(t.passed for t in turns),
        first_failed_turn=first,
        passed=first is None,
        expected_turns=len(expected),
        actual_turns=len(actual),
        mode=mode,
    )


def assert_conversation(
    expected_turns: Sequence[Sequence[Mapping[str, Any]]],
    conversation: Any,
    mode: str = "strict",
    args: str = "exact",
    per_tool: Mapping[str, str | Callable[[dict[str, Any], dict[str, Any]], bool]] | None = None,
    *,
    strict: bool = False,
) -> ConversationResult:
    """:func:`evaluate_conversation`, failing unless every turn passes.

    Raises:
        ToolScoreAssertionError: a turn fails; the message names every failed turn and shows
            the first one's diff.

    Example:
        >>> from toolscore import assert_conversation
        >>> history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        >>> assert_conversation([[]], history).passed
        True
    """
    __tracebackhide__ = True
    started = time.perf_counter()
    outcome = evaluate_conversation(
        expected_turns, conversation, mode, args, per_tool, strict=strict
    )
    failed = [t for t in outcome.turns if not t.passed]
    first_result = next((t.result for t in failed if t.match is not None), None)
    row = first_result if first_result is not None else EvaluationResult()
    record_row("assert_conversation", row, None, outcome.passed, started)
    if not failed:
        return outcome
    lines = [
        f"{len(failed)} of {len(outcome.turns)} conversation turn(s) failed (mode {mode!r}); "
        f"score {format_score(outcome.score)}, {outcome.turns_passed} turn(s) passed.",
    ]
    if outcome.expected_turns != outcome.actual_turns:
        lines.append(
            f"The turns do not line up: expected_turns has {outcome.expected_turns} turn(s), "
            f"the conversation {outcome.actual_turns} user turn(s)."
        )
    lines.extend(f"  - Turn {t.index + 1}: {t.reason}" for t in failed)
    first = failed[0]
    lines.append("")
    if first.match is not None:
        lines.append(
            trajectory_failure(first.match, f"Turn {first.index + 1} (index {first.index})")
        )
    else:
        lines.append(
            "Hint: give one expected call list per user turn ([] for a turn with no call), in "
            "the order of the user messages."
        )
    raise ToolScoreAssertionError("\n".join(lines), result=first_result)


TurnResult.__module__ = "toolscore"
ConversationResult.__module__ = "toolscore"
