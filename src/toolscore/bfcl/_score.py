"""Score a model's BFCL result file the way the leaderboard does: accuracy per category.

A result file holds one JSON object a line, ``{"id": ..., "result": <raw model output>}``
(what BFCL's generation step writes: a prompt-mode text, or a function-calling model's
``[{name: "<JSON arguments>"}]``). Each output is decoded and checked against its question;
accuracy is the share of outputs BFCL counts as correct, per category and overall.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolscore.bfcl._data import BFCLCase, BFCLDataError, category_of, read_records
from toolscore.bfcl._output import DECODER_FAILED
from toolscore.bfcl._verdict import BFCLVerdict

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow

__all__ = ["BFCLResult", "BFCLScore", "read_outputs", "score"]

_OUTPUT_KEYS = ("result", "model_output", "output")


@dataclass(frozen=True)
class BFCLResult:
    """One model output and BFCL's verdict on it."""

    id: str
    category: str
    verdict: BFCLVerdict
    output: Any = None


@dataclass
class BFCLScore:
    """The verdicts on a run of outputs, with accuracy per category.

    Attributes:
        results: one per output, in the order of the outputs.
        missing: questions (of the scored categories) that have no output, by category;
            only non-empty with ``partial=True``.
    """

    results: list[BFCLResult]
    missing: dict[str, list[str]] = field(default_factory=dict)

    @property
    def by_category(self) -> dict[str, tuple[int, int]]:
        """``{category: (correct, total)}``, categories sorted by name."""
        total = Counter(r.category for r in self.results)
        correct = Counter(r.category for r in self.results if r.verdict.valid)
        return {k: (correct[k], total[k]) for k in sorted(total)}

    @property
    def correct(self) -> int:
        """Outputs BFCL counts as correct."""
        return sum(r.verdict.valid for r in self.results)

    @property
    def accuracy(self) -> float:
        """Correct outputs / all outputs scored (1.0 for no output)."""
        return self.correct / len(self.results) if self.results else 1.0

    @property
    def category_mean(self) -> float:
        """The unweighted mean of the per-category accuracies."""
        per = [c / t for c, t in self.by_category.values()]
        return sum(per) / len(per) if per else 1.0

    @property
    def failures(self) -> list[BFCLResult]:
        """The outputs BFCL counts as wrong, in order."""
        return [r for r in self.results if not r.verdict.valid]

    def rows(self, threshold: float | None = None) -> list[ToolScoreRow]:
        """One report row per output (score 1.0 or 0.0), for ``scorekit.report``."""
        return [
            verdict_row(r.verdict, f"bfcl {r.category}", r.id, threshold, category=r.category)
            for r in self.results
        ]

    def to_dict(self) -> dict[str, Any]:
        """Accuracy per category, overall, and every failure with its reasons."""
        return {
            "accuracy": self.accuracy,
            "correct": self.correct,
            "total": len(self.results),
            "category_mean": self.category_mean,
            "categories": {
                k: {"correct": c, "total": t, "accuracy": c / t}
                for k, (c, t) in self.by_category.items()
            },
            "missing": {k: list(v) for k, v in self.missing.items()},
            "failures": [
                {"id": r.id, "category": r.category, **r.verdict.to_dict()} for r in self.failures
            ],
        }


def verdict_row(
    verdict: BFCLVerdict,
    function: str,
    test_id: str | None = None,
    threshold: float | None = None,
    seconds: float = 0.0,
    **details: Any,
) -> ToolScoreRow:
    """A verdict as a report row (score 1.0 or 0.0), ``details`` before the verdict's own."""
    from scorekit.report import ToolScoreRow

    return ToolScoreRow(
        test_id=test_id,
        function=function,
        score=1.0 if verdict.valid else 0.0,
        threshold=threshold,
        outcome="passed" if verdict.valid else "failed",
        seconds=seconds,
        details={**details, **verdict.to_dict()},
    )


def read_outputs(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
) -> list[tuple[str, Any]]:
    """``(id, raw output)`` pairs from BFCL result files (``{"id", "result"}`` per line).

    Raises:
        BFCLDataError: a file is missing or malformed, a record has no output, or an id
            appears twice.
    """
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for path in paths:
        for number, record in read_records(path, "model outputs"):
            where = f"{os.fspath(path)}, line {number} ({record['id']})"
            key = next((k for k in _OUTPUT_KEYS if k in record), None)
            if key is None:
                raise BFCLDataError(
                    f'{where}: no model output; BFCL result files hold it under "result"'
                )
            if record["id"] in seen:
                raise BFCLDataError(f"{where}: the id appears twice")
            seen.add(record["id"])
            out.append((record["id"], record[key]))
    return out


def score(
    outputs: str
    | os.PathLike[str]
    | Sequence[str | os.PathLike[str]]
    | Mapping[str, Any]
    | Sequence[tuple[str, Any]],
    cases: Iterable[BFCLCase],
    *,
    underscore_to_dot: bool = False,
    partial: bool = False,
) -> BFCLScore:
    """BFCL's verdict on every output, with accuracy per category.

    Args:
        outputs: result file path(s), ``{id: raw output}``, or ``(id, raw output)`` pairs.
        cases: the questions with their answers (:func:`load`); outputs of other categories
            are an error, questions of categories without any output are ignored.
        underscore_to_dot: the outputs come from a function-calling model whose API forbids
            dots in names.
        partial: score only the outputs given; by default a scored category's question
            without an output is an error, as on the leaderboard.

    Raises:
        BFCLDataError: an output whose id has no question, a missing output (without
            ``partial``), or a question BFCL's Python checker cannot apply.

    Example:
        >>> from toolscore.bfcl import load
        >>> cases = load("tests/toolscore/bfcl/data/BFCL_v4_simple_python.json",
        ...              "tests/toolscore/bfcl/data/possible_answer_BFCL_v4_simple_python.json")
        >>> result = score({"simple_python_0": "[calculate_triangle_area(base=10, height=5)]"},
        ...                cases, partial=True)
        >>> result.by_category, result.accuracy
        ({'simple_python': (1, 1)}, 1.0)
    """
    pairs = _pairs(outputs)
    by_id = {case.id: case for case in cases}
    results = []
    for test_id, raw in pairs:
        case = by_id.get(test_id)
        if case is None:
            raise BFCLDataError(
                f"output {test_id!r} has no question among the {len(by_id)} loaded "
                f"(category {category_of(test_id)!r}); pass its questions file"
            )
        results.append(
            BFCLResult(case.id, case.category, _verdict(case, raw, underscore_to_dot), raw)
        )
    scored = {r.category for r in results}
    given = {r.id for r in results}
    missing: dict[str, list[str]] = {}
    for case in by_id.values():
        if case.category in scored and case.id not in given:
            missing.setdefault(case.category, []).append(case.id)
    if missing and not partial:
        count = sum(len(v) for v in missing.values())
        first = next(iter(missing.values()))[:3]
        raise BFCLDataError(
            f"{count} question(s) of the scored categories have no output "
            f"({', '.join(first)}{', ...' if count > len(first) else ''}); the leaderboard "
            "needs every one: add them, or score only the outputs given (partial=True, "
            "--partial)"
        )
    return BFCLScore(results, missing)


def _pairs(outputs: Any) -> list[tuple[str, Any]]:
    if isinstance(outputs, Mapping):
        return list(outputs.items())
    if isinstance(outputs, (str, os.PathLike)):
        return read_outputs(outputs)
    items = list(outputs)
    if items and all(isinstance(i, (str, os.PathLike)) for i in items):
        return read_outputs(items)
    return [(str(i), o) for i, o in items]


def _verdict(case: BFCLCase, raw: Any, underscore_to_dot: bool) -> BFCLVerdict:
    try:
        return case.check(raw, underscore_to_dot=underscore_to_dot)
    except ValueError as exc:  # SchemaError: a question the Python checker cannot apply
        raise BFCLDataError(f"{case.id}: {exc}") from None
    except TypeError as exc:
        # A result that is no kind of model output: BFCL's decoder fails on it too.
        message = " ".join(str(exc).split())
        return BFCLVerdict(False, DECODER_FAILED, [message], "", None)
