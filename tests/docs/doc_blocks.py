"""Read the fenced code blocks of a Markdown page, and compare shown output with real output.

The convention (also written up in ``docs/contributing.md``, "Examples in the docs"):

* ```` ```python ```` runs, in page order, in one Python process per page (blocks share their
  names). A ```` ```output ```` block right after it (only blank lines between) is what it
  prints; without one its output is not checked, but it must not raise.
* ```` ```pycon ```` is a ``>>>`` session, checked like a doctest.
* ```` ```console ```` holds ``$ command`` lines, each followed by what it prints (stdout and
  stderr as a terminal shows them). A command with no shown output must exit 0.
* ```` ```bash ```` holds commands without shown output; they run and must exit 0.
* A block with ``title="name"`` (any language) is a file: it is written under that name where
  the page's session is when the page reaches it, and not run. A ``test_*.py`` file that no
  shown command runs is run with ``pytest`` after the page and must pass. A title inside a
  folder linked from the repository (``examples/...``) shows that file: the block must equal
  it, and it is never written.
* ```` ```json ```` blocks without a title must parse.
* Everything else (``text``, ``ini``, ``yaml``, ``toml``, ``output`` ...) is not run.
* ``<!-- docs-test: skip REASON -->`` on the line before a block keeps it from running; the
  reason is required (a command that needs an API key, say). Keep these few.

A page's commands are one terminal session (``doc_shell.py``) in a fresh work folder, with
``examples/``, ``tests/toolscore/bfcl/data`` and ``tests/fakes`` linked in (a bare ``pytest``
does not collect them), ``COLUMNS=120`` and no ``CI``, ``GITHUB_*`` or ``TOOLSCORE_*``
variables. ``cd`` and ``export`` carry over to later commands, files and Python blocks; a
command ending in ``&`` runs in the background until the page ends, and the output shown
under it is awaited (how a page waits for a server it started).

Shown output may use ``...``: a line that is only ``...`` stands for any number of lines, and
``...`` inside a line for any text. Trailing white space and blank lines at either end do not
count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Block", "OutputMismatch", "matches", "mismatch_report", "read_blocks"]

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<body>.*?)\s*-->\s*$")
_TITLE = re.compile(r"""title\s*=\s*(?:"([^"]*)"|'([^']*)')""")

RUN_LANGUAGES = {"python", "pycon", "console", "bash"}
KNOWN_LANGUAGES = RUN_LANGUAGES | {
    "output",
    "text",
    "json",
    "ini",
    "toml",
    "yaml",
    "html",
    "xml",
    "sh",
    "",
}


@dataclass
class Block:
    """One fenced code block of a page."""

    path: Path
    line: int  # 1-based line of the opening fence
    language: str
    title: str | None
    code: str
    skip: str | None = None  # the reason, when a directive says skip
    output: Block | None = None  # the ```output block that follows a python block

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def read_blocks(path: Path, text: str | None = None) -> list[Block]:
    """The fenced blocks of ``path`` in order, ``output`` blocks attached to their python block."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    previous_end = -1
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        language = info.split()[0].lower() if info and not info.startswith("{") else ""
        title_match = _TITLE.search(info)
        title = (title_match[1] or title_match[2]) if title_match else None
        body: list[str] = []
        j = i + 1
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        while j < len(lines) and not close.match(lines[j]):
            line = lines[j]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            j += 1
        if j >= len(lines):
            raise ValueError(f"{path}:{i + 1}: code block is never closed")
        skip = None
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        directive = _DIRECTIVE.match(lines[k]) if k >= 0 else None
        if directive:
            body_text = directive["body"]
            if not body_text.startswith("skip"):
                raise ValueError(f"{path}:{k + 1}: unknown docs-test directive {body_text!r}")
            skip = body_text[len("skip") :].strip()
            if not skip:
                raise ValueError(f"{path}:{k + 1}: 'docs-test: skip' needs a reason")
        block = Block(path, i + 1, language, title, "\n".join(body) + "\n", skip)
        previous = blocks[-1] if blocks else None
        between = lines[previous_end + 1 : i] if previous is not None else []
        if (
            language == "output"
            and previous is not None
            and previous.language == "python"
            and previous.title is None
            and not any(line.strip() for line in between)
        ):
            previous.output = block
        elif language == "output":
            # Shown output that no block owns would never be compared: say so, not pass.
            raise ValueError(
                f"{path}:{i + 1}: an ```output block must follow an untitled ```python block"
                " directly (only blank lines between), or its output is never checked"
            )
        blocks.append(block)
        previous_end = j
        i = j + 1
    return blocks


def _pattern(expected: str) -> re.Pattern[str]:
    parts: list[str] = []
    for line in _clean(expected).split("\n"):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")


def matches(expected: str, actual: str) -> bool:
    """``actual`` fits ``expected`` (with ``...`` wildcards, trailing space ignored)."""
    return _pattern(expected).fullmatch(_clean(actual) + "\n") is not None


class OutputMismatch(AssertionError):
    pass


def mismatch_report(where: str, what: str, expected: str, actual: str) -> str:
    import difflib

    diff = "\n".join(
        difflib.unified_diff(
            _clean(expected).split("\n"),
            _clean(actual).split("\n"),
            "shown in the docs",
            "printed",
            lineterm="",
        )
    )
    return (
        f"{where}: the output of {what} is not what the page shows.\n{diff}\n"
        "Update the page (or the code); '...' in the shown output stands for any text."
    )
