"""``Semantic``: the matcher a judge decides, kept out of the pure matchers of ``compare/``.

Behind :mod:`toolscore.matchers` (with :mod:`toolscore._engine.compare.matchers`). Also the
judge's verdicts on argument pairs, memoised per judge for the process: every door to the
tool-call judge asks :func:`judge_items` (``Semantic``, judged evaluation), so a ``Semantic``
matcher's ``==`` after the batch before pairing costs nothing.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from toolscore._engine.compare.matchers import Matcher
from toolscore._engine.compare.rule import values_match
from toolscore._engine.judge.config import resolve_judge
from toolscore._engine.score.details import jsonable

if TYPE_CHECKING:
    from scorekit.judges import EquivalenceItem, Judge, Verdict

__all__ = ["Semantic", "equivalence_item", "judge_items"]

_MEMO_SIZE = 8192
# Verdicts per judge (dropped with the judge), most recent last.
_memo: weakref.WeakKeyDictionary[Judge, OrderedDict[str, Verdict]] = weakref.WeakKeyDictionary()
_memo_lock = threading.Lock()


def equivalence_item(label: str, expected: Any, actual: Any) -> EquivalenceItem:
    from scorekit.judges import EquivalenceItem

    return EquivalenceItem(label, jsonable(expected), jsonable(actual))


def judge_items(judge: Judge, items: Sequence[EquivalenceItem]) -> list[Verdict]:
    """Verdicts for ``items`` from ``judge`` (memoised per judge for the process).

    Raises:
        JudgeUnavailableError / CacheMissError: the judge failed or the replay cache missed.
    """
    from scorekit.judges import run_sync

    with _memo_lock:
        table = _memo.setdefault(judge, OrderedDict())
        known: dict[str, Verdict | None] = {_pair_key(i): table.get(_pair_key(i)) for i in items}
    missing = [i for i in items if known[_pair_key(i)] is None]
    if missing:
        fresh = run_sync(judge.equivalence(missing))
        with _memo_lock:
            table = _memo.setdefault(judge, OrderedDict())
            for item, verdict in zip(missing, fresh, strict=True):
                key = _pair_key(item)
                known[key] = table[key] = verdict
                table.move_to_end(key)
            while len(table) > _MEMO_SIZE:
                table.popitem(last=False)
    return cast("list[Verdict]", [known[_pair_key(item)] for item in items])


def _pair_key(item: EquivalenceItem) -> str:
    """The memo's key: the two values (not the label, which a plain ``==`` does not know)."""
    return json.dumps([item.expected, item.actual], sort_keys=True, default=repr)


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
        judge = self.resolved_judge()
        key = _pair_key(equivalence_item("", self.value, actual))
        with _memo_lock:
            return _memo.setdefault(judge, OrderedDict()).get(key)

    def matches(self, value: Any) -> bool:
        if values_match(self.value, value):
            return True
        try:
            judge = self.resolved_judge()
            item = equivalence_item("value", self.value, value)
            return bool(judge_items(judge, [item])[0].equivalent)
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
