"""Frozen question sets: where the judge's questions come from (``--llm-questions``).

Three modes:

* ``generate`` (the default): the judge writes the questions of every question run, as always.
* ``record``: questions come from a reviewable JSON file per test module,
  ``__llm_questions__/<module>.json`` next to it; an entry that is missing is written by the
  judge and added to the file at the end of the run. Existing entries are kept as they are, so
  hand edits survive.
* ``frozen``: questions come only from those files; no question-generation call is made, and a
  missing entry is an error (:class:`QuestionsMissingError`) naming the test, the text's start
  and the ``record`` command.

An entry is keyed by the text (its SHA-256), the question run and the question prompt's
version; the judge that wrote it is kept as information only, so questions written once by a
strong model can be answered by any judge. The repeated runs of an ``llm_repeat`` test share
one question set per question run: reruns vary only where they must (the answers).

Files are written with a lock held and the file read again under it, so entries another run
added meanwhile are merged, never lost; the write is an atomic replace.

The file format (reading, checking, writing, locking) is ``_questions_file``; the pytest side
lives in ``scorekit._pytest._questions_plugin``.

Example:
    >>> import tempfile, pathlib
    >>> from scorekit.judges import Judge, run_sync
    >>> class Echo:
    ...     def make_questions(self, text): return ["Is it so?"]
    ...     def answer_questions(self, text, qs): return [1.0] * len(qs)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> store = QuestionStore("record", directory=folder, surface="python")
    >>> run_sync(Judge(Echo(), questions=store).questions("It is so."))
    ['Is it so?']
    >>> [r.added for r in store.flush()]
    [1]
    >>> frozen = QuestionStore("frozen", directory=folder, surface="python")
    >>> run_sync(Judge(Echo(), questions=frozen).questions("It is so."))
    ['Is it so?']
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekit.files._atomic import write_text_atomic
from scorekit.format._shorten import shorten
from scorekit.judges._errors import JudgeError
from scorekit.judges._prompts import PROMPT_VERSION
from scorekit.session._questions_file import (
    Key,
    QuestionsFileError,
    entry_key,
    file_lock,
    read_entries,
    render,
    sort_key,
    text_hash,
)

if TYPE_CHECKING:
    from scorekit.judges._judge import Judge

__all__ = [
    "DIR_NAME",
    "MODES",
    "PREVIEW",
    "QuestionStore",
    "QuestionsFileError",
    "QuestionsMissingError",
    "current_test",
    "questions_test",
]

MODES = ("generate", "record", "frozen")
#: The folder of the question files, next to each test module.
DIR_NAME = "__llm_questions__"
#: Characters of the text an entry shows (the key is the whole text's hash).
PREVIEW = 80


class QuestionsMissingError(JudgeError):
    """``--llm-questions=frozen`` and the question set of a text is not in its file."""


@dataclass(frozen=True)
class _Test:
    nodeid: str | None = None
    module: Path | None = None


_test_lock = threading.Lock()
_test = _Test()


def current_test() -> tuple[str | None, Path | None]:
    """The test in progress (node id, module path), or ``(None, None)`` outside a test."""
    with _test_lock:
        return _test.nodeid, _test.module


@contextlib.contextmanager
def questions_test(nodeid: str, module: Path | None) -> Iterator[None]:
    """Mark the question sets used inside the block as those of test ``nodeid`` in ``module``.

    A plain module value (as ``scorekit.stats._repeat.repeat_run``): the judge's calls run on the
    judge loop's thread, which would not see the test thread's context.
    """
    global _test
    with _test_lock:
        previous, _test = _test, _Test(nodeid, module)
    try:
        yield
    finally:
        with _test_lock:
            _test = previous


def prompt_version_of(judge: Judge) -> str:
    """The question prompt's version an entry is keyed by: the judge's own when it names one
    (its cache identity's ``prompt_version`` or a ``prompt_version`` attribute), else ours
    (the local judge and custom judges share the LLM judges' entries)."""
    identity = judge.identity or {}
    version = identity.get("prompt_version") or getattr(judge.backend, "prompt_version", None)
    return str(version) if version else PROMPT_VERSION


def _judge_label(judge: Judge) -> str:
    model = getattr(judge.backend, "deployment", None) or getattr(judge.backend, "model", None)
    return f"{judge.name} {model}" if isinstance(model, str) and model else judge.name


def _main_stem() -> str:
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    return Path(main).stem if isinstance(main, str) and main else "questions"


@dataclass
class FlushResult:
    """What a flush did to one file: entries added, and the unused ones listed or removed."""

    path: Path
    added: int = 0
    unused: list[dict[str, Any]] = field(default_factory=list)
    pruned: bool = False


class QuestionStore:
    """The question source of one run (``--llm-questions``, ``configure(questions=...)``).

    Args:
        mode: ``generate``, ``record`` or ``frozen``.
        directory: one folder for every file (``--llm-questions-dir``); None: the
            ``__llm_questions__`` folder next to each test module (outside a test: in the
            current folder).
        root: inside pytest with ``directory``, file names are the module's path below this
            folder, dotted (``tests.test_x.json``), so modules of the same name do not share one.
        surface: ``pytest`` or ``python``: how messages name the settings.
    """

    def __init__(
        self,
        mode: str,
        *,
        directory: str | os.PathLike[str] | None = None,
        root: Path | None = None,
        surface: str = "pytest",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"questions must be one of {', '.join(MODES)}; got {mode!r}")
        self.mode = mode
        self.directory = Path(directory) if directory is not None else None
        self.root = root
        self.surface = surface
        self._lock = threading.Lock()
        self._loaded: dict[Path, dict[Key, dict[str, Any]]] = {}
        #: Entries written by the judge in this run (record), by file.
        self.new: dict[Path, dict[Key, dict[str, Any]]] = {}
        #: Keys the run's tests used, by file.
        self.used: dict[Path, set[Key]] = {}

    # -- where --------------------------------------------------------------------------------
    def path_for(self, module: Path | None) -> Path:
        """The question file of ``module`` (None: outside a test)."""
        if module is None:
            folder = self.directory if self.directory is not None else Path.cwd() / DIR_NAME
            return (folder / f"{_main_stem()}.json").absolute()
        if self.directory is None:
            return module.parent / DIR_NAME / f"{module.with_suffix('').name}.json"
        name = module.with_suffix("").name
        if self.root is not None:
            with contextlib.suppress(ValueError):
                name = ".".join(module.with_suffix("").relative_to(self.root).parts)
        return (self.directory / f"{name}.json").absolute()

    def entries(self, path: Path) -> dict[Key, dict[str, Any]]:
        """The entries of ``path`` as read at first use (plus those recorded since)."""
        with self._lock:
            if path not in self._loaded:
                self._loaded[path] = read_entries(path)
            return {**self._loaded[path], **self.new.get(path, {})}

    # -- the judge's question source ---------------------------------------------------------
    async def questions(self, judge: Judge, text: str, *, run: int, retry: bool) -> list[str]:
        """The question set of ``text`` for question run ``run``: from the file, else (record)
        written by the judge and kept for the file.

        Raises:
            QuestionsMissingError: frozen, and the file has no entry for it.
            QuestionsFileError: the file is unreadable or holds a bad entry.
        """
        nodeid, module = current_test()
        path = self.path_for(module)
        version = prompt_version_of(judge)
        key: Key = (text_hash(text), run, version)
        found = self.entries(path).get(key)
        if found is not None:
            with self._lock:
                self.used.setdefault(path, set()).add(key)
            return list(found["questions"])
        if self.mode == "frozen":
            raise QuestionsMissingError(self._missing(nodeid, path, text, run, version))
        written = await judge.write_questions(text, run=run, retry=retry)
        entry = {
            "text": text[:PREVIEW],
            "text_sha256": key[0],
            "run": run,
            "prompt_version": version,
            "judge": _judge_label(judge),
            "questions": list(written),
        }
        with self._lock:
            # Two calls for one key (both sides of an F1 of identical texts) use one set.
            kept = self.new.setdefault(path, {}).setdefault(key, entry)
            self.used.setdefault(path, set()).add(key)
        return list(kept["questions"])

    def _missing(self, nodeid: str | None, path: Path, text: str, run: int, version: str) -> str:
        shown = _shown(path)
        where = f"test {nodeid}" if nodeid else "this call"
        if self.surface == "python":
            how = "configure(questions='record')"
        else:
            how = f"pytest --llm-questions=record {nodeid or ''}".rstrip()
        return (
            f"{_label('frozen', self.surface)}: no question set for {where}, text"
            f" {shorten(text, 60)!r} (question run {run}, prompt {version}) in {shown}; record"
            f" it with: {how}"
        )

    # -- xdist --------------------------------------------------------------------------------
    def export(self) -> dict[str, Any]:
        """What a worker sends to the controller: recorded entries and used keys, as JSON."""
        with self._lock:
            return {
                "new": {str(p): list(e.values()) for p, e in self.new.items()},
                "used": {str(p): sorted(list(k) for k in keys) for p, keys in self.used.items()},
            }

    def merge(self, data: Mapping[str, Any]) -> None:
        """Add what a worker recorded and used (the first entry recorded for a key is kept)."""
        with self._lock:
            for path, entries in (data.get("new") or {}).items():
                table = self.new.setdefault(Path(path), {})
                for entry in entries:
                    table.setdefault(entry_key(entry), dict(entry))
            for path, keys in (data.get("used") or {}).items():
                self.used.setdefault(Path(path), set()).update(
                    (str(k[0]), int(k[1]), str(k[2])) for k in keys
                )

    # -- the end of the run ------------------------------------------------------------------
    def flush(self, *, prune: bool = False, complete: set[Path] | None = None) -> list[FlushResult]:
        """Write the recorded entries to their files (record mode; each entry once).

        Each file is read again under its lock and the new entries are added to what it holds
        then, so a concurrent run's entries and hand edits are kept. ``complete`` names the
        files whose every test ran: their entries no test used are listed, and removed with
        ``prune``.

        Returns:
            One result per file written or listed.
        """
        if self.mode != "record":
            return []
        with self._lock:
            new = {p: dict(e) for p, e in self.new.items()}
            used = {p: set(k) for p, k in self.used.items()}
        paths = set(new) | (complete or set())
        results: list[FlushResult] = []
        for path in sorted(paths):
            result = FlushResult(path)
            if not new.get(path) and not path.is_file():
                continue
            with file_lock(path):
                current = read_entries(path)
                for key, entry in new.get(path, {}).items():
                    if key not in current:
                        current[key] = entry
                        result.added += 1
                if complete is not None and path in complete:
                    keys = used.get(path, set())
                    result.unused = sorted(
                        (e for k, e in current.items() if k not in keys), key=sort_key
                    )
                    if prune and result.unused:
                        for entry in result.unused:
                            current.pop(entry_key(entry), None)
                        result.pruned = True
                if result.added or result.pruned:
                    write_text_atomic(path, render(current, _about(path)))
            with self._lock:
                # Written: from now on they are the file's entries, not this run's news.
                self._loaded[path] = current
                for key in new.get(path, {}):
                    self.new.get(path, {}).pop(key, None)
            if result.added or result.unused:
                results.append(result)
        return results


def _label(value: str, surface: str) -> str:
    return f"configure(questions={value!r})" if surface == "python" else f"--llm-questions={value}"


def _shown(path: Path) -> str:
    with contextlib.suppress(ValueError):
        return str(path.relative_to(Path.cwd()))
    return str(path)


def _about(path: Path) -> str:
    return (
        f"Question sets of {path.stem} (pytest --llm-questions=record). Edit the questions"
        " freely: --llm-questions=frozen asks them as written."
    )


def flush_lines(results: list[FlushResult], surface: str = "pytest") -> list[str]:
    """The lines that tell what a flush did, for the terminal summary."""
    lines: list[str] = []
    prune = "--llm-questions-prune" if surface != "python" else "prune=True"
    for result in results:
        shown = _shown(result.path)
        if result.added:
            lines.append(f"scorekit: {result.added} question set(s) recorded in {shown}")
        if result.unused:
            what = "removed" if result.pruned else f"unused (remove them with {prune})"
            lines.append(f"scorekit: {len(result.unused)} question set(s) in {shown} {what}:")
            lines.extend(
                f"  {shorten(str(e.get('text', '')), 60)!r} run {e['run']} ({e['prompt_version']})"
                for e in result.unused
            )
    return lines
