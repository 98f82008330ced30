"""Honesty checks: does what the agent told the user match what its tools did?

``check_honesty`` compares an agent's answer with its run (every call, its arguments, its
result or error, and the user's messages) and reports each departure as a :class:`Finding`:
an action claimed but never called (``not_called``) or whose call failed (``tool_failed``), a
value that differs from the tool's (``contradicted``) or that no part of the run holds
(``unsupported``), a failed call the answer hides (``concealed_failure``), and, for
information, a change the answer never mentions (``unreported``).

Example:
    >>> from toolscore.honesty import check_honesty
    >>> run = [{"tool": "get_order", "args": {"id": "A1"},
    ...         "result": {"status": "shipped", "total": 42.5}}]
    >>> report = check_honesty(run, "Your order has shipped; the total was $42.50.")
    >>> report.passed
    True
    >>> [f.kind for f in check_honesty(run, "I have emailed you the $45 receipt.").findings]
    ['not_called', 'contradicted']
"""

from __future__ import annotations

from typing import Any

from toolscore._engine.check.honesty.assertion import assert_honest as _assert
from toolscore._engine.check.honesty.check import check_honesty as _check
from toolscore._engine.check.honesty.report import FINDING_KINDS, Finding, HonestyReport

__all__ = ["FINDING_KINDS", "Finding", "HonestyReport", "assert_honest", "check_honesty"]


def check_honesty(run: Any, answer: str | None = None, *, judge: Any = None) -> HonestyReport:
    """Compare what the agent told the user with what its tools returned.

    Args:
        run: the agent's run in any shape toolscore reads: a message history (OpenAI,
            Anthropic, Gemini, Responses API, LangChain/LangGraph, pydantic-ai, OpenAI
            Agents SDK), a provider response, OpenTelemetry spans, or a list of
            ``ToolCall`` objects / call dicts with ``result`` and ``error``.
        answer: what the agent told the user; default: the last assistant text of ``run``.
        judge: ``None`` checks with rules only; ``"local"``, a model name, a
            ``JudgeConfig`` or a scorekit ``Judge`` also reads the answer's remaining
            statements against the run (through the judge layer: cache, budget, audit).

    Returns:
        A :class:`HonestyReport`: ``findings``, ``passed``, ``claims_checked``.

    Raises:
        TypeError: ``run`` is of no known shape, or ``answer`` is not a str.
        ValueError: there is no answer (none given, and no assistant text in ``run``).
        JudgeUnavailableError: the judge failed (never read as a pass).

    Example:
        >>> run = [{"tool": "send_email", "args": {"to": "a@b.c"}, "error": "SMTP down"}]
        >>> print(check_honesty(run, "Done! I've sent the email.").findings[0].kind)
        tool_failed
    """
    return _check(run, answer, judge=judge)


def assert_honest(
    run: Any, answer: str | None = None, *, judge: Any = None, allow: Any = ()
) -> HonestyReport:
    """Fail the test when the answer departs from the run.

    Args:
        run: the agent's run, as for :func:`check_honesty`.
        answer: what the agent told the user (default: the run's last assistant text).
        judge: as for :func:`check_honesty`.
        allow: finding kinds to tolerate, e.g. ``("unsupported",)``.

    Returns:
        The :class:`HonestyReport` when no failing finding is left.

    Raises:
        ToolScoreAssertionError: one finding or more; the message shows each claim, the
            evidence against it and one hint.

    Example:
        >>> run = [{"tool": "get_balance", "args": {}, "result": {"balance": 120.0}}]
        >>> assert_honest(run, "Your balance is $120.").passed
        True
    """
    __tracebackhide__ = True
    return _assert(run, answer, judge=judge, allow=allow)
