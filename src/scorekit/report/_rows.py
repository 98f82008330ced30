"""What the reporting layer records: one row per scored assertion.

Rows are plain dataclasses of JSON-serialisable values, so pytest-xdist workers can send them
to the controller and the JSON/HTML writers can dump them as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass
class Evidence:
    """One judge question with its answer, for a failure message or a report.

    Attributes:
        side: ``"precision"`` (questions from ``given``, answered from ``expected``) or
            ``"recall"`` (questions from ``expected``, answered from ``given``).
        question: the question text.
        answer: the support number in [0, 1].
        run: ``[question_run, answer_run]``.
        reason: why the answer is low, when the judge says (the local judge names the unit
            that was missing or contradicted); None otherwise.
    """

    side: str
    question: str
    answer: float
    run: list[int] = field(default_factory=lambda: [0, 0])
    reason: str | None = None


@dataclass
class RunScore:
    """The scores of one (question run, answer run) pair."""

    question_run: int
    answer_run: int
    precision: float | None = None
    recall: float | None = None
    f1: float | None = None


@dataclass
class TextScoreRow:
    """One text-scoring assertion.

    Attributes:
        test_id: pytest node id, or ``None`` outside pytest.
        function: the public function called (``texts_expect_f1_equal``).
        metric: ``precision``, ``recall`` or ``f1``.
        aggregation: ``None`` for single-run assertions, else ``mean``/``median``/``min``/``max``.
        score: the single score or the aggregate (``None`` when the judge failed).
        low / high: the bounds the score had to fall in.
        outcome: ``passed``, ``failed`` or ``error``.
        runs: every run's scores.
        evidence: questions and answers (at least those below 1).
        judge: the judge's name (``local``, ``openai``, ``azure``, custom class name).
        expected / given: the texts (reports may truncate them).
        error: the error message when ``outcome == "error"``.
        seconds: wall time of the assertion.
        mean / stdev: the mean and sample standard deviation of an aggregated assertion's
            run scores (None for a single run).
        interval: the 95 % interval ``[low, high]`` of the aggregate (t-interval for the
            mean, bootstrap percentile for median, min and max); None with one run.
        borderline_runs: question runs made when borderline reruns added some, else None.
        audit: how the verdict was reached (judge facts, runs, question sets, each judge
            request with its source, tokens and cost), collected only when a JSON or HTML
            report is written (``scorekit._audit``; schema in ``docs/reports.md``), else None.
    """

    test_id: str | None
    function: str
    metric: str
    aggregation: str | None
    score: float | None
    low: float
    high: float
    outcome: str
    runs: list[RunScore] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    judge: str = ""
    expected: str = ""
    given: str = ""
    error: str | None = None
    seconds: float = 0.0
    mean: float | None = None
    stdev: float | None = None
    interval: list[float] | None = None
    borderline_runs: int | None = None
    audit: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict."""
        d = asdict(self)
        if d["audit"] is None:
            del d["audit"]  # only reports that collect audits carry the key
        d["kind"] = "texts"
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TextScoreRow:
        """Rebuild a row from :meth:`to_dict` output (pytest-xdist workers send dicts).

        Example:
            >>> row = TextScoreRow(None, "texts_expect_f1_equal", "f1", None, 1.0, 0.9, 1, "passed")
            >>> TextScoreRow.from_dict(row.to_dict()) == row
            True
        """
        d = _known_fields(cls, data)
        d["runs"] = [RunScore(**_known_fields(RunScore, r)) for r in d.get("runs", [])]
        d["evidence"] = [Evidence(**_known_fields(Evidence, e)) for e in d.get("evidence", [])]
        return cls(**d)


@dataclass
class ToolScoreRow:
    """One tool-call evaluation that went through an assertion (``assert_tools``, ``expect``).

    Attributes:
        test_id: pytest node id, or ``None``.
        function: ``assert_tools``, ``test_agent``, ``expect``...
        score: the weighted score.
        threshold: the minimum score asked for.
        outcome: ``passed`` or ``failed``.
        metrics: the EvaluationResult's scalar fields.
        missing / extra: tool names of missing and extra calls.
        details: optional full detail (``EvaluationResult.to_dict()``: pairs, per-argument
            comparison) for file reports; empty inside pytest to keep rows small.
    """

    test_id: str | None
    function: str
    score: float
    threshold: float | None
    outcome: str
    metrics: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict."""
        d = asdict(self)
        d["kind"] = "tools"
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolScoreRow:
        """Rebuild a row from :meth:`to_dict` output."""
        return cls(**_known_fields(cls, data))


#: Either kind of row, as the recorder holds them and every writer reads them.
Row = TextScoreRow | ToolScoreRow


def _known_fields(cls: type, data: Mapping[str, Any]) -> dict[str, Any]:
    # Extra keys (``kind``, or fields a newer worker added) are dropped, not fatal.
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def row_from_dict(data: Mapping[str, Any]) -> Row:
    """Rebuild a text or tool row from its ``to_dict()`` form, by its ``kind`` key.

    Raises:
        ValueError: ``kind`` is neither ``"texts"`` nor ``"tools"``.
    """
    kind = data.get("kind")
    if kind == "texts":
        return TextScoreRow.from_dict(data)
    if kind == "tools":
        return ToolScoreRow.from_dict(data)
    raise ValueError(f"report row has kind {kind!r}; expected 'texts' or 'tools'.")
