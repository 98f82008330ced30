"""pytest helpers: ``assert_bfcl`` and one test per BFCL question with ``parametrize``.

Both work without the plugin being active; pytest itself is imported only by
:func:`parametrize`. ``assert_bfcl`` records a report row (``assert_bfcl``, score 1 or 0) in
the session's report when a session is recording.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

from toolscore import ToolScoreAssertionError
from toolscore.bfcl._data import BFCLCase, load
from toolscore.bfcl._message import render_failure
from toolscore.bfcl._score import verdict_row
from toolscore.bfcl._verdict import BFCLVerdict, check

__all__ = ["BFCLAssertionError", "assert_bfcl", "parametrize"]


class BFCLAssertionError(ToolScoreAssertionError):
    """Raised by :func:`assert_bfcl` when BFCL counts the output as wrong.

    Attributes:
        verdict: the :class:`BFCLVerdict` behind the failure.
    """

    def __init__(self, message: str, verdict: BFCLVerdict) -> None:
        super().__init__(message)
        self.verdict = verdict


BFCLAssertionError.__module__ = "toolscore.bfcl"


def assert_bfcl(
    *args: Any, underscore_to_dot: bool = False, category: str | None = None
) -> BFCLVerdict:
    """Fail unless BFCL's AST checker counts the model output as correct.

    Call it as ``assert_bfcl(case, model_output)`` with a :class:`BFCLCase`, or as
    ``assert_bfcl(functions, ground_truth, model_output)`` with BFCL's raw fields.

    Args:
        args: ``(case, model_output)`` or ``(functions, ground_truth, model_output)``.
        underscore_to_dot: the model must call ``a_b`` for ``a.b`` (see :func:`check`).
        category: BFCL's category (default: the case's, or the record's shape).

    Returns:
        The (valid) verdict.

    Raises:
        BFCLAssertionError: the output is wrong; the message lists every problem, the
            answer, the output as BFCL reads it and a hint.

    Example:
        >>> fn = {"name": "f", "parameters": {"properties": {"n": {"type": "integer"}}}}
        >>> assert_bfcl([fn], [{"f": {"n": [1]}}], [{"f": {"n": 1}}])
        BFCLVerdict(valid=True, error_type=None, errors=[], checker='simple', calls=[{'f': {'n': 1}}], matches=[0])
    """  # noqa: E501
    __tracebackhide__ = True
    started = time.perf_counter()
    if len(args) == 2 and isinstance(args[0], BFCLCase):
        case, output = args
        functions, truth, case_id = case.functions, case.ground_truth, case.id
        category = category or case.category
    elif len(args) == 3:
        functions, truth, output = args
        case_id = None
    else:
        raise TypeError(
            "assert_bfcl takes (case, model_output) or (functions, ground_truth, model_output), "
            f"got {len(args)} positional argument(s)"
        )
    verdict = check(
        functions, truth, output, underscore_to_dot=underscore_to_dot, category=category
    )
    _record(verdict, case_id, time.perf_counter() - started)
    if not verdict.valid:
        raise BFCLAssertionError(render_failure(verdict, truth, case_id=case_id), verdict)
    return verdict


def _record(verdict: BFCLVerdict, case_id: str | None, seconds: float) -> None:
    from scorekit.report import active_recorder

    recorder = active_recorder()
    if recorder is not None:
        recorder.add(verdict_row(verdict, "assert_bfcl", seconds=seconds, bfcl_id=case_id))


def parametrize(
    questions: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | Sequence[BFCLCase],
    answers: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    *,
    category: str | Sequence[str] | None = None,
    argname: str = "case",
) -> Any:
    """Parametrize a test with BFCL questions: one test per question, named by its BFCL id.

    Args:
        questions: question file(s), or cases from :func:`load`.
        answers: the matching possible-answer file(s) (with question files).
        category: keep only these categories.
        argname: the test's argument that receives each :class:`BFCLCase`.

    Returns:
        A ``pytest.mark.parametrize`` decorator.

    Example:
        >>> from toolscore import bfcl
        >>> @bfcl.parametrize("tests/toolscore/bfcl/data/BFCL_v4_parallel.json",
        ...                   "tests/toolscore/bfcl/data/possible_answer_BFCL_v4_parallel.json")
        ... def test_parallel(case):
        ...     bfcl.assert_bfcl(case, my_agent(case.messages, case.functions))
    """
    import pytest

    items = list(questions) if isinstance(questions, (list, tuple)) else None
    if items and all(isinstance(i, BFCLCase) for i in items):
        cases: list[BFCLCase] = [c for c in items if _wanted(c, category)]
        if not cases:
            names = category if isinstance(category, str) else ", ".join(category or ())
            raise ValueError(
                f"parametrize() found no BFCL question to run (category {names}; "
                f"{len(items)} cases given)"
            )
    else:
        cases = load(questions, answers, category=category)  # type: ignore[arg-type]
    if not cases:
        raise ValueError("parametrize() found no BFCL question to run (no cases given)")
    return pytest.mark.parametrize(argname, cases, ids=[case.id for case in cases])


def _wanted(case: BFCLCase, category: str | Sequence[str] | None) -> bool:
    if category is None:
        return True
    names = [category] if isinstance(category, str) else list(category)
    return case.category in {n.strip() for name in names for n in name.split(",")}
