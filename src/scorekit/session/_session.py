"""A scoring session: resolved settings, the judge (built on first use), counters and rows.

Inside pytest the plugin creates one session per ``pytest.Config``, keeps it in
``config.stash`` and activates it for the run; nested pytester runs activate their own and the
outer one is restored after. Outside pytest, :func:`current_session` returns a process default
built from the environment, which ``pytest_texts_score.configure(...)`` replaces.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekit.judges._backend import Backend
from scorekit.judges._judge import Judge
from scorekit.judges._settings import JudgeSettings, resolve_settings
from scorekit.judges._stats import JudgeStats
from scorekit.report._recorder import Recorder
from scorekit.runtime import run_sync

_stack: list[ScoreSession] = []
_default: ScoreSession | None = None
_lock = threading.RLock()


class ScoreSession:
    """Everything one run of scoring shares.

    Args:
        settings: resolved judge settings.
        backend: a judge object to use instead of the one the settings name.
        in_pytest: True when a pytest plugin created it (the cache is on only then, unless
            ``cache_dir`` was configured explicitly).
    """

    def __init__(
        self,
        settings: JudgeSettings,
        *,
        backend: Backend | None = None,
        in_pytest: bool = False,
    ) -> None:
        self.settings = settings
        self.backend_override = backend
        self.in_pytest = in_pytest
        self.stats = JudgeStats()
        self.recorder = Recorder()
        #: ``--llm-max-runs``: the most question runs a borderline mean or median may grow to
        #: (None: off, every aggregated assertion makes exactly ``full_runs`` runs).
        self.max_runs: int | None = None
        #: ``--llm-questions``: ``generate``, ``record`` or ``frozen`` (question sets from files).
        self.questions = "generate"
        #: ``--llm-questions-dir``: one folder for every question file (None: next to modules).
        self.questions_dir: str | None = None
        #: Inside pytest: the rootdir (file names below ``questions_dir``).
        self.questions_root: Any = None
        #: Run settings given to ``configure()`` (``max_runs``, ``questions``, ...): the
        #: plugin's options do not replace them.
        self.configured: set[str] = set()
        self._store: Any = None
        #: Returns the cache folder (pytest's cache dir); called only when the cache opens.
        self.cache_dir_factory: Callable[[], str] | None = None
        #: The judge budget (``--llm-budget-*``, a ``scorekit.session.JudgeBudget``), or None.
        self.budget: Any = None
        #: Collect an audit record per assertion (set when a JSON or HTML report is written).
        self.audit = False
        self._judge: Judge | None = None
        self._cache: Any = None
        self._lock = threading.Lock()

    @property
    def judge_name(self) -> str:
        """The judge's short name, without building it."""
        if self.backend_override is not None:
            from scorekit.judges._backend import backend_name

            return backend_name(self.backend_override)
        provider = self.settings.resolved_provider
        return provider if ":" not in provider else provider.rsplit(":", 1)[-1]

    @property
    def built_judge(self) -> Judge | None:
        """The judge if it was built already (None: not yet used, or it could not be)."""
        return self._judge

    def judge(self) -> Judge:
        """The judge, built on first use (heavy imports happen here, not at start-up)."""
        with self._lock:
            if self._judge is None:
                from scorekit.judges._factory import build_backend
                from scorekit.session._cache import open_cache

                backend = self.backend_override or build_backend(self.settings)
                self._cache = open_cache(self.settings, self.cache_dir_factory)
                self._judge = Judge(
                    backend,
                    max_concurrency=self.settings.max_concurrency,
                    cache=self._cache,
                    cache_mode=self.settings.cache,
                    stats=self.stats,
                    surface=self.settings.surface,
                    budget=self.budget,
                    questions=self.question_store(),
                )
            return self._judge

    def question_store(self) -> Any:
        """The question source of ``questions`` / ``questions_dir`` (a
        ``scorekit.session._questions.QuestionStore``; None for ``generate``), made once and
        kept while they stay the same, so what it recorded survives a rebuilt judge."""
        if self.questions == "generate":
            return None
        store = self._store
        if store is None or (store.mode, store.directory) != (
            self.questions,
            None if self.questions_dir is None else Path(self.questions_dir),
        ):
            from scorekit.session._questions import QuestionStore

            if store is not None and not self.in_pytest:
                store.flush()
            store = QuestionStore(
                self.questions,
                directory=self.questions_dir,
                root=self.questions_root,
                surface="pytest" if self.in_pytest else "python",
            )
            if not self.in_pytest and self.questions == "record":
                # Plain Python has no end of run to hook: write at exit (or on close()).
                atexit.register(store.flush)
            self._store = store
        return store

    def close(self) -> None:
        """Release the cache and the backend's resources."""
        with self._lock:
            if self._store is not None and not self.in_pytest:
                # Inside pytest the plugin writes the files at the end of the run.
                self._store.flush()
            cache, self._cache = self._cache, None
            if cache is not None and hasattr(cache, "close"):
                cache.close()
            judge, self._judge = self._judge, None
            if judge is None:
                return
            # A failing close must not mask the run's result.
            with contextlib.suppress(Exception):
                aclose = getattr(judge.backend, "aclose", None)
                if callable(aclose):
                    # On the judge loop that owns the connections: dropped elsewhere, their
                    # sockets would be closed behind the loop's back, and a new connection
                    # reusing a file descriptor could then wait for events that never come.
                    run_sync(aclose())
                elif hasattr(judge.backend, "close"):
                    judge.backend.close()

    @property
    def is_active(self) -> bool:
        """True while activated (a pytest run's session, or a nested one's); the process
        default is not."""
        with _lock:
            return any(s is self for s in _stack)

    def activate(self) -> None:
        """Make this the session that :func:`current_session` returns."""
        with _lock:
            _stack.append(self)
        self.recorder.activate()

    def deactivate(self) -> None:
        """Undo :meth:`activate` (idempotent)."""
        self.recorder.deactivate()
        with _lock:
            for i in range(len(_stack) - 1, -1, -1):
                if _stack[i] is self:
                    del _stack[i]
                    break


def current_session() -> ScoreSession:
    """The innermost active session, else the process default (from the environment)."""
    global _default
    with _lock:
        if _stack:
            return _stack[-1]
        if _default is None:
            _default = ScoreSession(resolve_settings(surface="python"))
        return _default


def set_default_session(session: ScoreSession | None) -> None:
    """Replace the process default session (``configure()``); None resets to the environment."""
    global _default
    with _lock:
        old, _default = _default, session
    if old is not None and old is not session:
        old.close()
