"""BFCL's data files: questions with their function schemas, possible answers, model results.

All three are JSON Lines (one object a line, whatever the ``.json`` suffix says): questions
``{"id", "question", "function"}``, answers ``{"id", "ground_truth"}``, model results
``{"id", "result", ...}``. A record's category is its id without the trailing ``_<index>``
(``live_simple_3-2-1`` -> ``live_simple``), as BFCL reads it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscore.bfcl._verdict import BFCLVerdict, check, checker_for, read_answer, read_schemas

__all__ = ["BFCLCase", "BFCLDataError", "category_of", "load", "read_records"]

_NO_ANSWERS = ("irrelevance", "relevance")
_TOO_DEEP = "the JSON is nested too deeply to read (past Python's recursion limit)"


class BFCLDataError(ValueError):
    """A BFCL data file is missing, unreadable or not in BFCL's format (message says where)."""


def category_of(test_id: str) -> str:
    """The BFCL category of a test id.

    Example:
        >>> category_of("live_parallel_multiple_3-2-0"), category_of("simple_python_12")
        ('live_parallel_multiple', 'simple_python')
    """
    return test_id.split(":")[0].rsplit("_", 1)[0]


@dataclass(frozen=True)
class BFCLCase:
    """One BFCL question with its possible answer.

    Attributes:
        id: BFCL's id (``"parallel_3"``).
        category: the category from the id (``"parallel"``).
        question: BFCL's turns, ``[[{"role": ..., "content": ...}, ...]]``.
        functions: the function schemas offered to the model.
        ground_truth: the possible answer, ``[{name: {param: [alternatives]}}]`` (``None``
            for the relevance categories, which have no answer).
    """

    id: str
    category: str
    question: list[Any] = field(repr=False)
    functions: list[dict[str, Any]] = field(repr=False)
    ground_truth: list[dict[str, Any]] | None = field(repr=False)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages of the question (every turn's messages, in order)."""
        turns = (turn if isinstance(turn, list) else [turn] for turn in self.question)
        return [message for turn in turns for message in turn]

    def check(self, model_output: Any, *, underscore_to_dot: bool = False) -> BFCLVerdict:
        """BFCL's verdict on ``model_output`` for this question (see :func:`check`)."""
        return check(
            self.functions,
            self.ground_truth,
            model_output,
            underscore_to_dot=underscore_to_dot,
            category=self.category,
        )

    def to_expected(
        self, *, underscore_to_dot: bool = False, optional: str = "omit"
    ) -> list[dict[str, Any]]:
        """The answer as ``evaluate()`` expectations (see :func:`to_expected`)."""
        from toolscore.bfcl._expected import to_expected

        if self.ground_truth is None:
            raise ValueError(f"{self.id}: a {self.category} question has no answer to expect")
        return to_expected(
            self.ground_truth,
            self.functions,
            underscore_to_dot=underscore_to_dot,
            optional=optional,
        )


def read_records(path: str | os.PathLike[str], what: str) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON Lines file (or of a JSON array), with their line numbers.

    Raises:
        BFCLDataError: the file is missing, empty, or a line is not a JSON object (or is
            nested too deeply to read).
    """
    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BFCLDataError(f"{name}: no such file ({what})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BFCLDataError(f"{name}: cannot read the {what} ({exc})") from None
    if not text.strip():
        raise BFCLDataError(f"{name}: the file is empty (expected the {what})")
    if text.lstrip().startswith("["):
        data = _json(text, name)
        pairs = list(enumerate(data if isinstance(data, list) else [data], start=1))
    else:
        # Lines end at "\n" only: str.splitlines() also breaks at U+2028, U+0085 and the
        # like, which JSON strings may hold unescaped.
        lines = enumerate(text.split("\n"), start=1)
        note = "; BFCL files hold one JSON object a line"
        pairs = [(n, _json(line, f"{name}, line {n}", note)) for n, line in lines if line.strip()]
    for number, record in pairs:
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            raise BFCLDataError(
                f'{name}, line {number}: each {what} record needs an "id" string, got '
                f"{str(record)[:80]}"
            )
    return pairs


def _json(text: str, where: str, note: str = "") -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise BFCLDataError(f"{where}: {_TOO_DEEP}") from None
    except ValueError as exc:
        raise BFCLDataError(f"{where}: not valid JSON ({exc}){note}") from None


def _selected(categories: str | Sequence[str] | None) -> set[str] | None:
    if categories is None:
        return None
    names = [categories] if isinstance(categories, str) else list(categories)
    parts = [part.strip() for name in names for part in str(name).split(",") if part.strip()]
    for part in parts:
        checker_for(part, 0, 0)  # Java/JavaScript and multi-turn fail here
    return set(parts)


def load(  # noqa: C901 (one loader for every BFCL file layout, each with its error)
    questions_path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    answers_path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    *,
    category: str | Sequence[str] | None = None,
) -> list[BFCLCase]:
    """Read BFCL's question and possible-answer files into cases, joined by id.

    Args:
        questions_path: a ``BFCL_v4_<category>.json`` file (or several).
        answers_path: the matching ``possible_answer/BFCL_v4_<category>.json`` (or several);
            may be left out when every question is a relevance/irrelevance one.
        category: keep only these categories (a name, a comma-separated list or a list).

    Returns:
        The cases in the order of the question files.

    Raises:
        BFCLDataError: a file is missing or malformed, a question has no answer, or a question
            is in a Java/JavaScript or multi-turn category (out of scope).

    Example:
        >>> cases = load("tests/toolscore/bfcl/data/BFCL_v4_parallel.json",
        ...              "tests/toolscore/bfcl/data/possible_answer_BFCL_v4_parallel.json")
        >>> cases[0].id, cases[0].category, len(cases[0].ground_truth)
        ('parallel_0', 'parallel', 2)
    """
    try:
        wanted = _selected(category)
    except ValueError as exc:
        raise BFCLDataError(str(exc)) from None
    answers: dict[str, list[dict[str, Any]]] = {}
    for path in _paths(answers_path):
        for number, record in read_records(path, "possible answers"):
            truth = record.get("ground_truth")
            if not isinstance(truth, list):
                raise BFCLDataError(
                    f'{os.fspath(path)}, line {number} ({record["id"]}): "ground_truth" must '
                    "be a list of {name: {param: [alternatives]}}"
                )
            answers[record["id"]] = truth
    cases: list[BFCLCase] = []
    missing: list[str] = []
    seen: set[str] = set()
    for path in _paths(questions_path):
        for number, record in read_records(path, "questions"):
            test_id = record["id"]
            kind = category_of(test_id)
            if wanted is not None and kind not in wanted:
                continue
            where = f"{os.fspath(path)}, line {number} ({test_id})"
            if not kind:
                raise BFCLDataError(
                    f"{where}: the id names no category; BFCL ids are <category>_<index>, "
                    "like simple_python_0"
                )
            try:
                checker = checker_for(kind, 0, 0)
            except ValueError as exc:
                raise BFCLDataError(f"{where}: {exc}") from None
            if test_id in seen:
                raise BFCLDataError(f"{where}: the id appears twice")
            seen.add(test_id)
            functions = record.get("function")
            if not isinstance(functions, list):
                raise BFCLDataError(f'{where}: "function" must be a list of schemas')
            answered = checker not in _NO_ANSWERS
            truth = answers.get(test_id) if answered else None
            if answered and truth is None:
                missing.append(test_id)
                continue
            try:
                read_schemas(functions)
                if answered:
                    read_answer(truth)
            except TypeError as exc:
                raise BFCLDataError(f"{where}: {exc}") from None
            question = record.get("question")
            question = question if isinstance(question, list) else []
            cases.append(BFCLCase(test_id, kind, question, functions, truth))
    if missing:
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        source = "no answers file was given" if answers_path is None else "not in the answers"
        raise BFCLDataError(
            f"{len(missing)} question(s) have no possible answer ({source}): {shown}"
        )
    if wanted is not None and not cases:
        raise BFCLDataError(
            f"no question of category {', '.join(sorted(wanted))} in "
            + ", ".join(os.fspath(p) for p in _paths(questions_path))
        )
    return cases


def _paths(value: Any) -> list[Any]:
    return [value] if isinstance(value, (str, os.PathLike)) else list(value or ())
