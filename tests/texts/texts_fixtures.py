"""Fixtures of the pytest_texts_score tests: scoring sessions with scripted judges.

A plugin module, not a ``conftest.py``: test modules load it with
``pytest_plugins = ["texts_fixtures"]``. A second module named ``conftest`` would shadow
``tests/conftest.py`` for the other suites' ``from conftest import ...``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from texts_judges import ScriptedJudge

from scorekit.judges import Judge, resolve_settings
from scorekit.session._session import ScoreSession


@pytest.fixture(autouse=True)
def _fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    # Retries of invalid replies must not sleep real seconds in unit tests.
    monkeypatch.setattr(Judge, "backoff_base", 0.001)


@pytest.fixture
def use_judge() -> Iterator[Callable[..., ScoreSession]]:
    """Activate a scoring session with the given backend for this test.

    The session is the one the public functions see (``current_session()``) and its
    recorder is the active one, so rows land there, not in the outer run's report.
    """
    sessions: list[ScoreSession] = []

    def make(backend: Any, **settings: Any) -> ScoreSession:
        resolved = resolve_settings(overrides={"cache": "off", **settings}, env={})
        session = ScoreSession(resolved, backend=backend)
        session.activate()
        sessions.append(session)
        return session

    yield make
    for session in reversed(sessions):
        session.deactivate()
        session.close()


@pytest.fixture
def scripted(use_judge: Callable[..., ScoreSession]) -> ScriptedJudge:
    """A ScriptedJudge, active for this test."""
    judge = ScriptedJudge()
    use_judge(judge)
    return judge
