"""Compare two JSON reports: which scored assertions regressed, improved, are new or gone.

Every assertion is keyed by its test id, function and metric (a test with several assertions of
one kind adds ``#2``, ``#3``... in order). A pair of scores is

* regressed when the score fell by more than ``min_delta`` and, for assertions with at least
  three run scores in both reports (aggregated texts assertions), the fall is also significant
  (one-sided Welch t-test on the run scores, p < ``alpha``);
* improved when it rose the same way;
* unchanged otherwise.

Tests with an ``llm_repeat`` summary (a ``repeat`` object with ``runs`` and ``passed``) and at
least three runs in both reports are compared on their pass rate, with Fisher's exact test on
the pass counts. Assertions without a score in either report (a judge error) are left out.

The comparison as text (the "vs baseline" lines, the failing line) is in ``_comparison_text``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scorekit.format._rounding import rounded_scores
from scorekit.report._document import SCHEMA
from scorekit.stats._significance import fisher_less, welch_less

__all__ = [
    "BaselineError",
    "Change",
    "Comparison",
    "changes_by_row",
    "changes_of_test",
    "compare_reports",
    "load_report",
]

#: The fewest run scores (or repeat runs) in both reports for a significance test.
MIN_RUNS = 3


class BaselineError(ValueError):
    """A report to compare is missing, unreadable or not an llm-scorekit report."""


def load_report(
    path: str | os.PathLike[str], what: str = "report", *, shown: str | None = None
) -> dict[str, Any]:
    """Read a JSON report written by ``--llm-report`` (or ``write_json``).

    ``shown`` is how messages name the file (the path as the user gave it).

    Raises:
        BaselineError: the file is missing, not JSON, or not such a report (the message names
            it and says what to pass instead).
    """
    head = f"{what} {shown if shown is not None else os.fspath(path)!r}"
    advice = "pass the JSON file an earlier run wrote with --llm-report PATH"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"{head} cannot be read: {exc.strerror or exc}; {advice}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise BaselineError(f"{head} is not JSON ({exc}); {advice}") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise BaselineError(
            f'{head} is not an llm-scorekit report (no "schema": "{SCHEMA}"); {advice}'
        )
    return doc


@dataclass
class _Entry:
    key: str
    test_id: str
    label: str
    score: float
    runs: list[float] = field(default_factory=list)
    passed: int | None = None
    repeats: int | None = None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _run_scores(row: Mapping[str, Any], metric: str) -> list[float]:
    """The run scores of an aggregated row (those that are numbers)."""
    values = [
        _number(r.get(metric)) if isinstance(r, Mapping) else None for r in row.get("runs") or []
    ]
    return [v for v in values if v is not None]


def _entries(
    doc: Mapping[str, Any], row_keys: dict[tuple[str, int], str] | None = None
) -> dict[str, _Entry]:
    """The compared entries of a report by key; ``row_keys`` gets the key of each compared row
    by ``("texts" | "tools", index in that list)``."""
    out: dict[str, _Entry] = {}
    seen: dict[str, int] = {}

    def add(test_id: str, label: str, **entry: Any) -> str:
        base = f"{test_id} {label}"
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base} #{seen[base]}"
        out[key] = _Entry(key=key, test_id=test_id, label=label, **entry)
        return key

    repeats: dict[str, Mapping[str, Any]] = {}
    # The report keeps llm_repeat summaries under "tests" (a row may carry one too).
    tests = doc.get("tests")
    for test_id, item in tests.items() if isinstance(tests, Mapping) else ():
        if isinstance(item, Mapping):
            _note_repeat(repeats, str(test_id), item.get("repeat"))
    for kind in ("texts", "tools"):
        for index, row in enumerate(doc.get(kind) or []):
            if not isinstance(row, Mapping):
                continue
            test_id = str(row.get("test_id") or "-")
            _note_repeat(repeats, test_id, row.get("repeat"))
            score = _number(row.get("score"))
            if score is None:
                continue
            metric = str(row.get("metric") or "score") if kind == "texts" else "score"
            runs = _run_scores(row, metric) if kind == "texts" and row.get("aggregation") else []
            key = add(test_id, f"{row.get('function') or kind} {metric}", score=score, runs=runs)
            if row_keys is not None:
                row_keys[(kind, index)] = key
    for test_id, rep in repeats.items():
        passed, runs_n = rep["passed"], rep["runs"]
        add(test_id, "llm_repeat pass rate", score=passed / runs_n, passed=passed, repeats=runs_n)
    return out


def _note_repeat(found: dict[str, Mapping[str, Any]], test_id: str, rep: Any) -> None:
    if test_id in found or not isinstance(rep, Mapping):
        return
    runs, passed = rep.get("runs"), rep.get("passed")
    if isinstance(runs, int) and isinstance(passed, int) and 0 <= passed <= runs and runs > 0:
        found[test_id] = rep


@dataclass
class Change:
    """One compared assertion: ``status`` is regressed, improved, unchanged, new or gone."""

    key: str
    test_id: str
    label: str
    status: str
    old: float | None
    new: float | None
    delta: float | None
    p_value: float | None = None
    test: str | None = None  # "welch", "fisher" or None (a single score)


@dataclass
class Comparison:
    """The outcome of :func:`compare_reports`."""

    min_delta: float
    changes: list[Change] = field(default_factory=list)

    def of(self, status: str) -> list[Change]:
        """The changes with that status, sorted: regressions by the biggest fall first."""
        chosen = [c for c in self.changes if c.status == status]
        if status in ("regressed", "improved"):
            sign = 1.0 if status == "regressed" else -1.0
            return sorted(chosen, key=lambda c: (sign * (c.delta or 0.0), c.key))
        return sorted(chosen, key=lambda c: c.key)

    @property
    def regressed(self) -> bool:
        """True when at least one assertion regressed."""
        return any(c.status == "regressed" for c in self.changes)

    def counts(self) -> dict[str, int]:
        """How many assertions have each status."""
        names = ("regressed", "improved", "new", "gone", "unchanged")
        return {n: sum(1 for c in self.changes if c.status == n) for n in names}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``scorekit diff --json``)."""
        return {
            "min_delta": self.min_delta,
            "counts": self.counts(),
            "changes": [asdict(c) for c in self.changes],
        }


def _classify(old: _Entry, new: _Entry, min_delta: float, alpha: float) -> Change:
    delta = new.score - old.score
    high, low = (old, new) if delta < 0 else (new, old)  # the one-sided test: is low below high?
    p_value: float | None = None
    test: str | None = None
    status = "unchanged"
    if high.repeats is not None and low.repeats is not None:
        if min(high.repeats, low.repeats) >= MIN_RUNS:
            test = "fisher"
            assert high.passed is not None and low.passed is not None
            p_value = fisher_less(high.passed, high.repeats, low.passed, low.repeats)
    elif len(old.runs) >= MIN_RUNS and len(new.runs) >= MIN_RUNS:
        test = "welch"
        p_value = welch_less(high.runs, low.runs)
    if abs(delta) > min_delta + 1e-12 and (p_value is None or p_value < alpha):
        status = "regressed" if delta < 0 else "improved"
    return Change(
        old.key, new.test_id, new.label, status, old.score, new.score, delta, p_value, test
    )


def compare_reports(
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    *,
    min_delta: float = 0.05,
    alpha: float = 0.05,
) -> Comparison:
    """Compare every assertion scored in both reports (see the module docstring).

    Example:
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9}]}
        >>> new = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.7}]}
        >>> result = compare_reports(old, new)
        >>> result.regressed, result.of("regressed")[0].key
        (True, 't::a assert_tools score')
    """
    olds, news = _entries(old), _entries(new)
    changes = [
        _classify(olds[key], e, min_delta, alpha)
        if key in olds
        else Change(key, e.test_id, e.label, "new", None, e.score, None)
        for key, e in news.items()
    ]
    changes += [
        Change(key, e.test_id, e.label, "gone", e.score, None, None)
        for key, e in olds.items()
        if key not in news
    ]
    return Comparison(min_delta=min_delta, changes=changes)


def changes_by_row(doc: Mapping[str, Any], comparison: Comparison) -> dict[tuple[str, int], Change]:
    """The change of each compared row of ``doc`` (the newer report of ``comparison``), by
    ``("texts" | "tools", index in that list)``: the HTML report's delta column.

    Example:
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9}]}
        >>> new = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.7}]}
        >>> change = changes_by_row(new, compare_reports(old, new))[("tools", 0)]
        >>> change.status, round(change.delta, 4)
        ('regressed', -0.2)
    """
    keys: dict[tuple[str, int], str] = {}
    _entries(doc, keys)
    by_key = {c.key: c for c in comparison.changes if c.status != "gone"}
    return {where: by_key[key] for where, key in keys.items() if key in by_key}


def changes_of_test(
    baseline: Mapping[str, Any],
    test_id: str,
    rows: list[Mapping[str, Any]],
    *,
    min_delta: float,
    repeat: Mapping[str, Any] | None = None,
) -> list[Change]:
    """The compared changes of one test against ``baseline``: its rows (``to_dict()`` form,
    all the rows of the test, in recorded order) and its ``llm_repeat`` summary, if any.
    Entries of the baseline's other tests are left out, so "gone" is only what this test no
    longer scores.

    Example:
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9},
        ...                  {"test_id": "t::b", "function": "assert_tools", "score": 0.9}]}
        >>> rows = [{"kind": "tools", "test_id": "t::a", "function": "assert_tools", "score": 0.7}]
        >>> (change,) = changes_of_test(old, "t::a", rows, min_delta=0.05)
        >>> change.status, round(change.delta, 4)
        ('regressed', -0.2)
    """

    def mine(items: Any) -> list[Any]:
        return [r for r in items or [] if isinstance(r, Mapping) and r.get("test_id") == test_id]

    tests = baseline.get("tests")
    old: dict[str, Any] = {kind: mine(baseline.get(kind)) for kind in ("texts", "tools")}
    if isinstance(tests, Mapping) and test_id in tests:
        old["tests"] = {test_id: tests[test_id]}
    # Scored as the JSON report holds them (rounded), so the verdict is the session's.
    new: dict[str, Any] = {
        "texts": [rounded_scores(r) for r in rows if r.get("kind") == "texts"],
        "tools": [r for r in rows if r.get("kind") == "tools"],
    }
    if repeat is not None:
        new["tests"] = {test_id: {"repeat": dict(repeat)}}
    return compare_reports(old, new, min_delta=min_delta).changes
