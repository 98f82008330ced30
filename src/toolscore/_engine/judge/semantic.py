"""``Semantic``: the matcher a judge decides, kept out of the pure matchers of ``compare/``.

Behind :mod:`toolscore.matchers` (with :mod:`toolscore._engine.compare.matchers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from toolscore._engine.compare.matchers import Matcher
from toolscore._engine.compare.rule import values_match
from toolscore._engine.judge.config import resolve_judge
from toolscore._engine.judge.verdicts import (
    equivalence_item,
    judge_items,
    known_verdict,
    verdict_for,
)

__all__ = ["Semantic"]


class Semantic(Matcher):
    """The actual value means the same as ``value``, in the judge's view (``"NYC"`` for
    ``"New York City"``, a reworded search query).

    A value the comparison rule accepts matches without the judge. Inside ``evaluate()``,
    ``assert_tools()`` and ``expect()`` every value a ``Semantic`` may meet (the same argument
    of an actual call to the same tool) is judged in one batch before the calls are paired,
    and a judge failure is an error, not a mismatch. A plain ``==`` asks the judge for that
    one pair (from the memo when it was judged before); there, as for every matcher, a failure
    reads as no match and is kept in ``last_error``.

    Without a configured LLM judge the offline MiniLM similarity decides (equivalent from a
    cosine similarity of 0.85, numbers must match).

    Args:
        value: the expected value.
        judge: None or True (the session's judge: ``--llm-*`` options, the environment,
            ``configure()``), a ``JudgeConfig``, or a model name.

    Example:
        >>> Semantic("New York City") == "new york city"
        True
        >>> Semantic("New York City")
        Semantic('New York City')
    """

    def __init__(self, value: Any, *, judge: Any = None) -> None:
        self.value = value
        self.judge = judge
        self.last_error: Exception | None = None

    batched: ClassVar[bool] = True

    def resolved_judge(self) -> Any:
        """The scorekit ``Judge`` this matcher asks."""
        return resolve_judge(self.judge)

    def verdict(self, actual: Any) -> Any:
        """The judge's verdict on ``actual`` if it was reached (None otherwise)."""
        return known_verdict(self.resolved_judge(), self.value, actual)

    def matches(self, value: Any) -> bool:
        if values_match(self.value, value):
            return True
        try:
            return bool(verdict_for(self.resolved_judge(), "value", self.value, value).equivalent)
        except Exception as exc:
            self.last_error = exc
            raise

    @classmethod
    def prefetch(cls, wanted: Sequence[tuple[Matcher, str, list[Any]]]) -> None:
        """Judge, in one batch per judge, every value each matcher may meet (values exact
        matching accepts are skipped)."""
        batches: dict[int, tuple[Any, list[Any]]] = {}
        for matcher, label, seen in wanted:
            assert isinstance(matcher, Semantic)
            judge = matcher.resolved_judge()
            for actual in seen:
                if not values_match(matcher.value, actual):
                    entry = batches.setdefault(id(judge), (judge, []))
                    entry[1].append(equivalence_item(label, matcher.value, actual))
        for judge, items in batches.values():
            judge_items(judge, items)

    def __repr__(self) -> str:
        extra = f", judge={self.judge!r}" if self.judge is not None else ""
        return f"Semantic({self.value!r}{extra})"
