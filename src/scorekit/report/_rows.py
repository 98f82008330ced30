"""What the reporting layer records: one row per scored assertion.

Rows are plain dataclasses of JSON-serialisable values, so pytest-xdist workers can send them
to the controller and the JSON/HTML writers can dump them as they are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
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
    """

    side: str
    question: str
    answer: float
    run: list[int] = field(default_factory=lambda: [0, 0])


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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict."""
        d = asdict(self)
        d["kind"] = "texts"
        return d


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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict."""
        d = asdict(self)
        d["kind"] = "tools"
        return d
