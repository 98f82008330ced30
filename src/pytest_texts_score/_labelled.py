"""The labelled file of a judge calibration: JSON lines, one labelled pair of texts a line,
read and checked with an error that names the file, the line and what to do.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekit.files import quoted_words, read_text_file

__all__ = [
    "DEFAULT_METRIC",
    "METRICS",
    "NO_DOMAIN",
    "CalibrationError",
    "LabelledItem",
    "read_labelled",
]

METRICS = ("precision", "recall", "f1")
DEFAULT_METRIC = "precision"
#: The domain name of items that give none.
NO_DOMAIN = ""

_FIELDS_HINT = (
    'write one JSON object per line: {"id": ..., "expected": ..., "given": ..., "label": 1 or 0}'
)


class CalibrationError(ValueError):
    """A labelled file the command cannot use; the message is one line naming the file, the
    line when there is one, and what to do."""


@dataclass(frozen=True)
class LabelledItem:
    """One labelled pair of texts: ``label`` is 1 when ``given`` is supported by ``expected``,
    else 0; ``line`` is its line in the file (1-based)."""

    id: str
    expected: str
    given: str
    label: int
    domain: str = NO_DOMAIN
    metric: str = DEFAULT_METRIC
    line: int = 0


def _text_field(where: str, row: Mapping[str, Any], name: str) -> str:
    if name not in row or row[name] is None:
        raise CalibrationError(f"{where}: no {name!r}; {_FIELDS_HINT}")
    value = row[name]
    if not isinstance(value, str):
        raise CalibrationError(f"{where}: {name!r} must be text, got {type(value).__name__}")
    if not value.strip():
        raise CalibrationError(f"{where}: {name!r} is empty; give a text with some words")
    return value


def _item(where: str, line: int, row: Any, seen: dict[str, int]) -> LabelledItem:
    if not isinstance(row, dict):
        raise CalibrationError(
            f"{where}: a row must be a JSON object, got {type(row).__name__}; {_FIELDS_HINT}"
        )
    raw_id = row.get("id")
    if raw_id is None or isinstance(raw_id, (bool, list, dict)) or str(raw_id).strip() == "":
        raise CalibrationError(
            f"{where}: no 'id' (a string or a number); give every row an id of its own"
        )
    item_id = str(raw_id)
    if item_id in seen:
        raise CalibrationError(
            f"{where}: id {item_id!r} is already used on line {seen[item_id]};"
            " give every row an id of its own"
        )
    expected = _text_field(where, row, "expected")
    given = _text_field(where, row, "given")
    if "label" not in row:
        raise CalibrationError(
            f"{where}: no 'label'; label each row 1 (given is supported by expected) or 0 (not)"
        )
    label = row["label"]
    if isinstance(label, bool) or label not in (0, 1):
        raise CalibrationError(
            f"{where}: label must be 0 or 1, got {json.dumps(label)}; label each row 1"
            " (given is supported by expected) or 0 (not)"
        )
    metric = DEFAULT_METRIC if row.get("metric") is None else row["metric"]
    if metric not in METRICS:
        raise CalibrationError(
            f"{where}: unknown metric {json.dumps(metric)}; use precision, recall or f1"
            " (or leave it out for precision)"
        )
    domain = row.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise CalibrationError(f"{where}: 'domain' must be text, got {type(domain).__name__}")
    seen[item_id] = line
    return LabelledItem(
        id=item_id,
        expected=expected,
        given=given,
        label=int(label),
        domain=(domain or NO_DOMAIN).strip(),
        metric=str(metric),
        line=line,
    )


def read_labelled(path: str | Path) -> list[LabelledItem]:
    """The items of a labelled JSON lines file (blank lines are skipped).

    Raises:
        CalibrationError: the file is missing, unreadable, empty, holds a line that is not a
            JSON object with ``id``, ``expected``, ``given`` and a ``label`` of 0 or 1, an
            unknown ``metric``, an id used twice, or labels of one class only.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "l.jsonl")
        >>> _ = open(p, "w").write('{"id": 1, "expected": "A.", "given": "A.", "label": 2}\\n')
        >>> try:
        ...     read_labelled(p)
        ... except CalibrationError as exc:
        ...     print(str(exc).split(": ", 1)[1])
        label must be 0 or 1, got 2; label each row 1 (given is supported by expected) or 0 (not)
    """
    name = str(path)
    text = read_text_file(
        path, words=quoted_words("labelled", "a JSON lines file"), error=CalibrationError
    )
    items: list[LabelledItem] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            row = json.loads(line)
        except ValueError as exc:
            reason = str(exc).split(":")[0]
            raise CalibrationError(f"{where}: not valid JSON ({reason}); {_FIELDS_HINT}") from None
        items.append(_item(where, number, row, seen))
    if not items:
        raise CalibrationError(f"{name} is empty; {_FIELDS_HINT}")
    classes = {i.label for i in items}
    if len(classes) < 2:
        (only,) = classes
        other = 1 - only
        raise CalibrationError(
            f"{name}: every label is {only} ({len(items)} rows); calibration needs both"
            f" classes: add rows labelled {other}"
        )
    return items
