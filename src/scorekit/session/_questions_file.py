"""The question file of ``--llm-questions``: its entries read and checked, written in a fixed
order (a diff reads well), and the lock a writer holds across processes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from scorekit.format._shorten import shorten
from scorekit.judges._errors import JudgeError

__all__ = [
    "Key",
    "QuestionsFileError",
    "entry_key",
    "file_lock",
    "read_entries",
    "render",
    "sort_key",
    "text_hash",
]

_HASH_CHARS = 16

#: ``(text hash, question run, prompt version)``.
Key = tuple[str, int, str]


class QuestionsFileError(JudgeError):
    """A question file cannot be read or holds an entry that is not a question set."""


def text_hash(text: str) -> str:
    """The short SHA-256 an entry's text is known by.

    Example:
        >>> text_hash("Paris is in France.")
        'bf72529d9e077431'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HASH_CHARS]


def entry_key(entry: Mapping[str, Any]) -> Key:
    """An entry's key: ``(text hash, question run, prompt version)``."""
    return (str(entry["text_sha256"]), int(entry["run"]), str(entry["prompt_version"]))


def sort_key(entry: Mapping[str, Any]) -> tuple[str, str, int, str]:
    """The order of a file's entries: text start, then the key."""
    return (str(entry["text"]), *entry_key(entry))


def _check_entry(entry: object, path: Path, index: int) -> dict[str, Any]:
    where = f"{path}: entry {index + 1}"
    if not isinstance(entry, dict):
        raise QuestionsFileError(f"{where} is not an object")
    missing = [k for k in ("text_sha256", "run", "prompt_version", "questions") if k not in entry]
    if missing:
        raise QuestionsFileError(f"{where} has no {', '.join(missing)}")
    questions = entry["questions"]
    if (
        not isinstance(questions, list)
        or not questions
        or not all(isinstance(q, str) and q.strip() for q in questions)
    ):
        raise QuestionsFileError(
            f"{where} ({shorten(str(entry.get('text', '')), 40)!r}): questions must be a"
            f" non-empty list of non-empty strings; got {questions!r}"
        )
    run = entry["run"]
    if isinstance(run, bool) or not isinstance(run, int) or run < 0:
        raise QuestionsFileError(f"{where}: run must be a whole number >= 0; got {run!r}")
    out = dict(entry)
    out["questions"] = [q.strip() for q in questions]
    out.setdefault("text", "")
    return out


def read_entries(path: Path) -> dict[Key, dict[str, Any]]:
    """The entries of a question file by key ({} when it does not exist).

    Raises:
        QuestionsFileError: the file is not a question file (the message names it).
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise QuestionsFileError(f"cannot read the question file {path}: {exc}") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise QuestionsFileError(f"{path} is not valid JSON: {exc}") from exc
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise QuestionsFileError(f'{path} is not a question file (no "entries" list)')
    out: dict[Key, dict[str, Any]] = {}
    for index, entry in enumerate(entries):
        checked = _check_entry(entry, path, index)
        out.setdefault(entry_key(checked), checked)
    return out


def render(entries: Mapping[Key, Mapping[str, Any]], about: str) -> str:
    """The file's text: entries sorted by text start, hash, run and prompt version; the
    fields of each in a fixed order, so a diff reads well."""
    order = ("text", "text_sha256", "run", "prompt_version", "judge", "questions")
    rows = []
    for entry in sorted(entries.values(), key=sort_key):
        row = {k: entry[k] for k in order if k in entry}
        row.update({k: v for k, v in entry.items() if k not in row})
        rows.append(row)
    document = {"about": about, "entries": rows}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock for ``path``, across processes where the platform has ``fcntl``
    (within this process always). The lock file lives in the temporary folder, so the folder
    of the question files holds nothing but them."""
    digest = hashlib.sha256(str(path.absolute()).encode("utf-8")).hexdigest()[:24]
    lock_path = Path(tempfile.gettempdir()) / f"scorekit-questions-{digest}.lock"
    with _process_lock, open(lock_path, "a+", encoding="utf-8") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: the process lock only
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


_process_lock = threading.Lock()
