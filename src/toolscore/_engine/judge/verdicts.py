"""The judge's verdicts on argument pairs, memoised per judge for the process.

Every door to the tool-call judge asks here (``Semantic``, judged evaluation): a pair judged
once is read from the memo afterwards, so a ``Semantic`` matcher's ``==`` after the batch
before pairing costs nothing.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolscore._engine.score.details import jsonable

if TYPE_CHECKING:
    from scorekit.judges import EquivalenceItem, Judge, Verdict

__all__ = ["equivalence_item", "judge_items", "known_verdict", "verdict_for"]

_MEMO_SIZE = 8192
# Verdicts per judge (dropped with the judge), most recent last.
_memo: weakref.WeakKeyDictionary[Judge, OrderedDict[str, Verdict]] = weakref.WeakKeyDictionary()
_memo_lock = threading.Lock()


def _memo_of(judge: Judge) -> OrderedDict[str, Verdict]:
    table = _memo.get(judge)
    if table is None:
        table = _memo[judge] = OrderedDict()
    return table


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
        table = _memo_of(judge)
        known: dict[str, Verdict | None] = {_pair_key(i): table.get(_pair_key(i)) for i in items}
    missing = [i for i in items if known[_pair_key(i)] is None]
    if missing:
        fresh = run_sync(judge.equivalence(missing))
        with _memo_lock:
            table = _memo_of(judge)
            for item, verdict in zip(missing, fresh, strict=True):
                key = _pair_key(item)
                known[key] = table[key] = verdict
                table.move_to_end(key)
            while len(table) > _MEMO_SIZE:
                table.popitem(last=False)
    out: list[Verdict] = []
    for item in items:
        found = known[_pair_key(item)]
        assert found is not None
        out.append(found)
    return out


def _pair_key(item: EquivalenceItem) -> str:
    """The memo's key: the two values (not the label, which a plain ``==`` does not know)."""
    return json.dumps([item.expected, item.actual], sort_keys=True, default=repr)


def known_verdict(judge: Judge, expected: Any, actual: Any) -> Verdict | None:
    """A verdict already reached for this pair, without asking the judge."""
    key = _pair_key(equivalence_item("", expected, actual))
    with _memo_lock:
        return _memo_of(judge).get(key)


def verdict_for(judge: Judge, label: str, expected: Any, actual: Any) -> Verdict:
    """One pair's verdict (from the memo when it was prefetched)."""
    return judge_items(judge, [equivalence_item(label, expected, actual)])[0]
