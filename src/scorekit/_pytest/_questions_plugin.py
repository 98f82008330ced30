"""The pytest side of frozen question sets: ``--llm-questions``, ``--llm-questions-dir`` and
``--llm-questions-prune`` (see :mod:`scorekit.session._questions`).

Registered by the shared plugin (``scorekit.pytest_plugin``). Each test's judge calls are
marked with the test and its module, so its question sets go to that module's file. Under
pytest-xdist the workers send what they recorded and used to the controller, which writes the
files once at the end of the run.

The unused entries of a file are those no test used in a run where every test of its module
ran (a ``-k`` or ``-x`` run that left some out lists nothing for that module, so a partial run
never prunes what the tests it skipped need).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from scorekit._pytest._state import option_value
from scorekit.pytest_state import get_session
from scorekit.session._questions import MODES, flush_lines, questions_test

__all__ = ["add_questions_options", "register_questions_plugin"]

WORKER_KEY = "scorekit_questions"
_PLUGIN_NAME = "scorekit-questions"


def add_questions_options(parser: pytest.Parser) -> None:
    """Register ``--llm-questions``, ``--llm-questions-dir``, ``--llm-questions-prune``."""
    group = parser.getgroup("llm-scorekit", "LLM judge (llm-scorekit)")
    help_mode = (
        "Where the texts judge's questions come from: generate (the judge writes them, the"
        " default), record (from __llm_questions__/<module>.json next to each test module;"
        " missing question sets are written by the judge and added) or frozen (only from those"
        " files; no question-generation call, a missing set is an error). Ini: llm_questions."
    )
    help_dir = (
        "One folder for every question file (default: __llm_questions__ next to each test"
        " module). Ini: llm_questions_dir."
    )
    for name, help_text in (("llm_questions", help_mode), ("llm_questions_dir", help_dir)):
        group.addoption("--" + name.replace("_", "-"), dest=name, default=None, help=help_text)
        parser.addini(name, help_text, default=None)
    group.addoption(
        "--llm-questions-prune",
        dest="llm_questions_prune",
        action="store_true",
        default=False,
        help="With --llm-questions=record: remove the question sets no test used from the"
        " files of the modules whose every test ran.",
    )


class _QuestionsPlugin:
    """Per-run hooks: resolve the options, mark each test, collect, write, summarise."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.prune = bool(config.getoption("llm_questions_prune", False))
        #: Test ids per question file, of the tests collected / finished; files with a
        #: deselected test.
        self.expected: dict[str, set[str]] = {}
        self.finished: set[str] = set()
        self.partial: set[str] = set()
        self.lines: list[str] = []

    def _store(self) -> Any:
        session = get_session(self.config)
        return session.question_store() if session is not None else None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # After every pytest_configure, so configure() calls (which win) are all applied.
        score = get_session(self.config)
        if score is None:
            return
        mode, source = option_value(self.config, "llm_questions")
        if "questions" not in score.configured and mode is not None:
            mode = str(mode).strip()
            if mode.lower() not in MODES:
                raise pytest.UsageError(
                    f"{source}: expected one of {', '.join(MODES)}; got {mode!r}"
                )
            score.questions = mode.lower()
        folder, _ = option_value(self.config, "llm_questions_dir")
        if "questions_dir" not in score.configured and folder is not None:
            score.questions_dir = str(self.config.invocation_params.dir / str(folder).strip())
        score.questions_root = self.config.rootpath
        if self.prune and score.questions != "record":
            raise pytest.UsageError(
                "--llm-questions-prune needs --llm-questions=record (it removes the question"
                f" sets a recording run did not use); the questions are {score.questions!r}"
            )

    def _file_of(self, item: pytest.Item) -> str | None:
        store = self._store()
        path = getattr(item, "path", None)
        if store is None or not isinstance(path, Path):
            return None
        return str(store.path_for(path))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            path = self._file_of(item)
            if path is not None:
                self.expected.setdefault(path, set()).add(item.nodeid)

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        for item in items:
            path = self._file_of(item)
            if path is not None:
                self.partial.add(path)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, object, object]:
        path = getattr(item, "path", None)
        with questions_test(item.nodeid, path if isinstance(path, Path) else None):
            result = yield
        self.finished.add(item.nodeid)
        return result

    def export(self) -> dict[str, Any]:
        store = self._store()
        return {
            "store": store.export() if store is not None else {},
            "expected": {p: sorted(ids) for p, ids in self.expected.items()},
            "finished": sorted(self.finished),
            "partial": sorted(self.partial),
        }

    def merge(self, data: dict[str, Any]) -> None:
        store = self._store()
        if store is not None:
            store.merge(data.get("store") or {})
        for path, ids in (data.get("expected") or {}).items():
            self.expected.setdefault(path, set()).update(ids)
        self.finished.update(data.get("finished") or [])
        self.partial.update(data.get("partial") or [])

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        store = self._store()
        if store is None or store.mode != "record":
            return
        if hasattr(self.config, "workerinput"):
            self.config.workeroutput[WORKER_KEY] = self.export()  # type: ignore[attr-defined]
            return
        complete = {
            Path(path)
            for path, ids in self.expected.items()
            if path not in self.partial and ids <= self.finished
        }
        results = store.flush(prune=self.prune, complete=complete)
        self.lines = flush_lines(results)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for line in self.lines:
            terminalreporter.write_line(line)


class _QuestionsXdist:
    """Controller side under pytest-xdist: merge what each worker recorded and used."""

    def __init__(self, plugin: _QuestionsPlugin) -> None:
        self.plugin = plugin

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        data = (getattr(node, "workeroutput", None) or {}).get(WORKER_KEY)
        if data:
            self.plugin.merge(data)


def register_questions_plugin(config: pytest.Config) -> None:
    """Register the hooks of frozen question sets for this run (from ``pytest_configure``)."""
    if config.pluginmanager.has_plugin(_PLUGIN_NAME):
        return
    plugin = _QuestionsPlugin(config)
    config.pluginmanager.register(plugin, _PLUGIN_NAME)
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_QuestionsXdist(plugin), f"{_PLUGIN_NAME}-xdist")
