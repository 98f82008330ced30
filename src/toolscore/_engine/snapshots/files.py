"""Snapshot files on disk: their names and their canonical text.

The text is canonical so that saving the same snapshot twice gives the same bytes and a change
shows in ``git diff`` as the lines that changed: keys sorted at every level, two-space indent,
one argument per line, a matcher (a JSON object with a ``$`` key) kept on one line, UTF-8 as
written (no ``\\u`` escapes), one trailing newline.

File names follow Toolscore 1.10, so a snapshot folder recorded by either tool is read by both:
``<name with unsafe characters replaced>-<first 8 hex digits of sha1(name)>.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["CHANGE_SUFFIX", "dumps_canonical", "shown_path", "snapshot_file_name"]

CHANGE_SUFFIX = ".new"
"""Appended to a snapshot's file name for its pending change (``<stem>.json.new``)."""

# Path separators, drive and pytest node separators, glob and redirection characters, quotes
# and white space: none of them may reach a file name.
_UNSAFE = re.compile(r'[/\\:\[\]<>|*?"]|\s')
_STEM_CHARS = 100  # as Toolscore 1.10; the digest keeps shortened names unique
_STEM_BYTES = 200  # file systems allow 255 bytes per name, and "é" takes two


def snapshot_file_name(name: str) -> str:
    """The file name of the snapshot called ``name`` (unique per name, never a path).

    Example:
        >>> snapshot_file_name("tests/test_agent.py::test_booking")
        'tests__test_agent.py__test_booking-5befce50.json'
    """
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    readable = (_UNSAFE.sub("__", name.replace("::", "__")).strip(".") or "snapshot")[:_STEM_CHARS]
    while len(readable.encode("utf-8")) > _STEM_BYTES:
        readable = readable[:-1]
    return f"{readable}-{digest}.json"


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _inline(value: Any) -> str:
    return json.dumps(
        value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(", ", ": ")
    )


def _dump(value: Any, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        if not value or any(isinstance(k, str) and k.startswith("$") for k in value):
            return _inline(value)
        items = [f"{inner}{_scalar(k)}: {_dump(value[k], depth + 1)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [f"{inner}{_dump(v, depth + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return _scalar(value)


def dumps_canonical(document: Any) -> str:
    """The canonical JSON text of an encoded document (see the module docstring).

    Example:
        >>> print(dumps_canonical({"tool": "get_weather", "args": {"city": {"$regex": "N.*"}}}))
        {
          "args": {
            "city": {"$regex": "N.*"}
          },
          "tool": "get_weather"
        }
        <BLANKLINE>
    """
    return _dump(document, 0) + "\n"


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the working directory when it lies below it (for messages)."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(p)
