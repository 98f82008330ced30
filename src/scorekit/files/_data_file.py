"""Reading a data file the user named: one check of the path, one message per way it fails.

Every command and function that reads a file the user named (a trace, a gold file, a labelled
set, a text to score) goes through :func:`read_text_file`: missing, a folder, not text in the
expected encoding, unreadable. The words of the messages differ between the two packages (each
keeps its own), so they are templates; the checks are the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["PLAIN_WORDS", "DataFileError", "quoted_words", "read_text_file"]


class DataFileError(ValueError):
    """A data file cannot be read; the message names it."""


#: ``toolscore``'s words: ``trace.json: no such file``. Fields: ``name`` (the path as given),
#: ``quoted`` (its repr), ``kind`` (what the file should hold), ``reason`` (the OS's words).
PLAIN_WORDS: Mapping[str, str] = {
    "missing": "{name}: no such file",
    "folder": "{name}: is a folder, not a {kind} file",
    "binary": "{name}: not a text file (expected UTF-8 {kind})",
    "unreadable": "{name}: cannot be read ({reason})",
}


def quoted_words(what: str, kind: str) -> dict[str, str]:
    """``texts-score``'s words: ``labelled file 'l.jsonl' does not exist``.

    Example:
        >>> quoted_words("EXPECTED", "a text file")["folder"]
        'EXPECTED path {quoted} is a folder; give a text file'
    """
    return {
        "missing": f"{what} file {{quoted}} does not exist",
        "folder": f"{what} path {{quoted}} is a folder; give {kind}",
        "binary": f"{what} file {{quoted}} is not UTF-8 text",
        "unreadable": f"{what} file {{quoted}} cannot be read ({{reason}})",
    }


def read_text_file(
    path: str | os.PathLike[str],
    *,
    kind: str = "a text file",
    words: Mapping[str, str] = PLAIN_WORDS,
    error: Callable[[str], Exception] = DataFileError,
    missing_error: Callable[[str], Exception] | None = None,
    encoding: str = "utf-8",
) -> str:
    """The text of the file at ``path``.

    Args:
        path: the file the user named.
        kind: what it should hold, for the messages (``JSON``, ``a JSON lines file``).
        words: the message templates (:data:`PLAIN_WORDS`, :func:`quoted_words`).
        error: the exception raised (called with the message).
        missing_error: the exception for a path that does not exist (default: ``error``).
        encoding: ``utf-8``, or ``utf-8-sig`` to drop a byte-order mark.

    Raises:
        Exception: ``error(message)`` (``missing_error`` for a missing file).

    Example:
        >>> try:
        ...     read_text_file("no-such.json", kind="JSON")
        ... except DataFileError as exc:
        ...     print(exc)
        no-such.json: no such file
    """
    name = os.fspath(path)
    fields = {"name": name, "quoted": repr(name), "kind": kind, "reason": ""}
    p = Path(path)
    if not p.exists():
        raise (missing_error or error)(words["missing"].format(**fields))
    if p.is_dir():
        raise error(words["folder"].format(**fields))
    try:
        return p.read_text(encoding=encoding)
    except UnicodeDecodeError:
        raise error(words["binary"].format(**fields)) from None
    except OSError as exc:
        fields["reason"] = str(exc.strerror or exc)
        raise error(words["unreadable"].format(**fields)) from None
