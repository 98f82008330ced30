"""Scores as JUnit XML properties (what ``record_property`` adds), for CI dashboards.

Names, per scored assertion of a test:

- text scoring: ``texts_<metric>[_<aggregation>]_score``, ``..._low``, ``..._high``,
  ``..._outcome``, and for aggregated assertions ``..._runs`` (comma-separated run scores),
  ``..._ci_low`` / ``..._ci_high`` (the 95 % interval of the aggregate) and, after borderline
  reruns, ``..._borderline_runs``;
  e.g. ``texts_f1_score``, ``texts_recall_mean_score``;
- tool calls: ``toolscore_score``, ``toolscore_min_score``, ``toolscore_outcome``.

A second assertion of the same kind in one test gets a ``_2`` (``_3``...) suffix on its prefix
(``texts_f1_2_score``), so no property is overwritten.

With ``--llm-baseline``, each compared test also gets (:func:`junit_baseline_properties`)
``llm_regressed`` (``true``/``false``: did any of its assertions regress) and, per compared
assertion, ``llm_baseline_status`` (regressed, improved, unchanged, new or gone),
``llm_baseline_delta`` (signed, new minus baseline), ``llm_baseline_score`` (the baseline's
score) and ``llm_baseline_p_value`` (when a significance test decided); the second compared
assertion of a test gets ``_2`` (``llm_baseline_delta_2``), and so on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekit.report._rows import Row, TextScoreRow
from scorekit.report._totals import run_scores


def _num(value: float) -> str:
    return f"{value:.6g}"


def junit_properties(rows: Iterable[Row]) -> list[tuple[str, str]]:
    """``(name, value)`` pairs for a test's rows, in recorded order.

    Example:
        >>> row = TextScoreRow("t::a", "texts_expect_f1_range", "f1", None, 0.9, 0.8, 1.0, "passed")
        >>> junit_properties([row])[:2]
        [('texts_f1_score', '0.9'), ('texts_f1_low', '0.8')]
    """
    seen: dict[str, int] = {}
    props: list[tuple[str, str]] = []
    for row in rows:
        if isinstance(row, TextScoreRow):
            base = f"texts_{row.metric}" + (f"_{row.aggregation}" if row.aggregation else "")
        else:
            base = "toolscore"
        seen[base] = seen.get(base, 0) + 1
        prefix = base if seen[base] == 1 else f"{base}_{seen[base]}"
        if isinstance(row, TextScoreRow):
            if row.score is not None:
                props.append((f"{prefix}_score", _num(row.score)))
            props.append((f"{prefix}_low", _num(row.low)))
            props.append((f"{prefix}_high", _num(row.high)))
            props.append((f"{prefix}_outcome", row.outcome))
            scores = run_scores(row)
            if row.aggregation and scores:
                props.append((f"{prefix}_runs", ",".join(_num(s) for s in scores)))
            if row.interval is not None:
                props.append((f"{prefix}_ci_low", _num(row.interval[0])))
                props.append((f"{prefix}_ci_high", _num(row.interval[1])))
            if row.borderline_runs is not None:
                props.append((f"{prefix}_borderline_runs", str(row.borderline_runs)))
        else:
            props.append((f"{prefix}_score", _num(row.score)))
            if row.threshold is not None:
                props.append((f"{prefix}_min_score", _num(row.threshold)))
            props.append((f"{prefix}_outcome", row.outcome))
    return props


def junit_baseline_properties(
    baseline: Mapping[str, Any],
    test_id: str,
    rows: Sequence[Mapping[str, Any]],
    *,
    min_delta: float,
    repeat: Mapping[str, Any] | None = None,
) -> list[tuple[str, str]]:
    """``(name, value)`` pairs of one test's change against the baseline report (see the
    module docstring); ``rows`` are the test's rows as ``to_dict()`` gives them.

    Example:
        >>> old = {"tools": [{"test_id": "t::a", "function": "assert_tools", "score": 0.9}]}
        >>> rows = [{"kind": "tools", "test_id": "t::a", "function": "assert_tools", "score": 0.7}]
        >>> for name, value in junit_baseline_properties(old, "t::a", rows, min_delta=0.05):
        ...     print(name, value)
        llm_regressed true
        llm_baseline_status regressed
        llm_baseline_delta -0.2
        llm_baseline_score 0.9
    """
    from scorekit.report._baseline import changes_of_test

    changes = changes_of_test(baseline, test_id, list(rows), min_delta=min_delta, repeat=repeat)
    regressed = any(c.status == "regressed" for c in changes)
    props: list[tuple[str, str]] = [("llm_regressed", "true" if regressed else "false")]
    for n, change in enumerate(changes, 1):
        suffix = "" if n == 1 else f"_{n}"
        props.append((f"llm_baseline_status{suffix}", change.status))
        if change.delta is not None:
            props.append((f"llm_baseline_delta{suffix}", _num(round(change.delta, 6))))
        if change.old is not None:
            props.append((f"llm_baseline_score{suffix}", _num(change.old)))
        if change.p_value is not None:
            props.append((f"llm_baseline_p_value{suffix}", _num(change.p_value)))
    return props
