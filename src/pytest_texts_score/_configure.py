"""``pytest_texts_score.configure()``: choose and tune the judge from plain Python.

The rule: ``configure()`` changes the *current* scoring session.

* Outside pytest, that is the process default (built from the environment on first use);
  ``configure()`` replaces it with one whose settings are the old ones plus those you name.
* Inside a pytest run (a ``conftest.py``, a fixture, a test), that is the run's session:
  the settings you name replace the run's resolved values (command line > ini > environment)
  for the rest of the run, and the judge is rebuilt on next use. Report rows and counters
  are kept. Calls made before the run's session exists (at the top of a ``conftest.py``) are
  applied to it when pytest configures the run, so they are not lost either way.

Settings are the ``--llm-*`` option names without the prefix (``provider``, ``model``,
``api_key``, ``endpoint``, ``base_url``, ``temperature``, ``timeout``, ``max_concurrency``,
``cache``, ``cache_dir``, ...); ``llm_``-prefixed names are accepted too. ``backend=obj``
installs a custom judge; it stays until ``backend`` or ``provider`` is given again.

Run settings of the session (not of the judge) are accepted too: ``max_runs`` (borderline
reruns, ``--llm-max-runs``; None turns them off), ``questions`` (``generate``, ``record`` or
``frozen``, ``--llm-questions``) and ``questions_dir`` (``--llm-questions-dir``). Given to
``configure()``, they win over the command line and the ini file, as the judge settings do.
"""

from __future__ import annotations

from typing import Any

from scorekit.judges import Backend, resolve_settings
from scorekit.session import ScoreSession, current_session, set_default_session

__all__ = ["apply_pending", "configure"]

# configure() calls made while no session is active (a conftest.py imported before pytest
# configures the run) must not be lost when the run's own session takes over: they are kept
# here and applied once to that session by the plugin's pytest_configure.
_pending_settings: dict[str, Any] = {}
_pending_backend: list[Backend] = []


def _check_backend(backend: object) -> None:
    missing = [
        m for m in ("make_questions", "answer_questions") if not callable(getattr(backend, m, None))
    ]
    if missing:
        raise TypeError(
            f"configure(backend=...): {type(backend).__name__} has no {' or '.join(missing)}"
            " method; a judge needs make_questions(text) -> list[str] and"
            " answer_questions(text, questions) -> list[float] (see"
            " pytest_texts_score.backends.Backend)."
        )


#: Settings of the session's runs rather than of its judge (see the module's docstring).
RUN_SETTINGS = ("max_runs", "questions", "questions_dir")


def _run_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Take the run settings out of ``settings``, checked (ValueError naming the setting)."""
    from scorekit.session import MODES

    out: dict[str, Any] = {}
    for key in list(settings):
        name = key.removeprefix("llm_")
        if name not in RUN_SETTINGS:
            continue
        value = settings.pop(key)
        if name == "max_runs" and value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"configure(max_runs=...) must be a whole number >= 1 or None; got {value!r}."
                )
        elif name == "questions" and value not in MODES:
            raise ValueError(
                f"configure(questions=...) must be one of {', '.join(MODES)}; got {value!r}."
            )
        elif name == "questions_dir" and value is not None:
            value = str(value)
        out[name] = value
    return out


def _apply_run_settings(session: ScoreSession, run: dict[str, Any]) -> None:
    for name, value in run.items():
        setattr(session, name, value)
        session.configured.add(name)


def configure(backend: Backend | None = None, **settings: Any) -> None:
    """Configure the judge of the current scoring session.

    Args:
        backend: a custom judge (any object with ``make_questions`` and ``answer_questions``).
        **settings: judge settings by option name without the ``llm_`` prefix, and the run
            settings ``max_runs`` (borderline reruns, None: off), ``questions``
            (``generate``, ``record`` or ``frozen``) and ``questions_dir``.

    Raises:
        ValueError: an unknown setting name or an unusable value (the message names it and
            lists the known settings).
        TypeError: ``backend`` is not a judge.

    Example:
        >>> configure(provider="openai", base_url="http://127.0.0.1:11434/v1",
        ...           model="llama3.1", max_concurrency=8)  # doctest: +SKIP
        >>> class AlwaysYes:
        ...     def make_questions(self, text): return ["Is it so?"]
        ...     def answer_questions(self, text, questions): return [1.0] * len(questions)
        >>> configure(backend=AlwaysYes())  # doctest: +SKIP
        >>> configure(questions="frozen", max_runs=20)  # doctest: +SKIP
    """
    if backend is not None:
        _check_backend(backend)
    settings = dict(settings)
    run = _run_settings(settings)
    # Validates names and values (SettingsError is a ValueError naming the setting).
    given = resolve_settings(overrides=settings, env={}, surface="python")
    names = [key.removeprefix("llm_") for key in settings]

    session = current_session()
    changes: dict[str, Any] = {name: getattr(given, name) for name in names}
    sources = {**session.settings.sources, **dict.fromkeys(names, "configure")}
    new_settings = session.settings.replace(**changes, sources=sources)
    if backend is not None:
        new_backend: Backend | None = backend
    elif "provider" in names:
        new_backend = None
    else:
        new_backend = session.backend_override

    if session.in_pytest or session.is_active:
        # Rebuilt on next use; closing first releases the old judge's cache and connections.
        session.close()
        session.settings = new_settings
        session.backend_override = new_backend
        _apply_run_settings(session, run)
    else:
        _pending_settings.update({k.removeprefix("llm_"): v for k, v in settings.items()})
        _pending_settings.update(run)
        if backend is not None:
            _pending_backend[:] = [backend]
        elif "provider" in names:
            _pending_backend.clear()
        fresh = ScoreSession(new_settings, backend=new_backend)
        for name in RUN_SETTINGS:
            setattr(fresh, name, getattr(session, name))
        fresh.configured = set(session.configured)
        _apply_run_settings(fresh, run)
        set_default_session(fresh)


def apply_pending() -> None:
    """Apply the ``configure()`` calls made before the pytest run to its session, once.

    Called by the plugin's ``pytest_configure`` once the run's session is active.
    """
    if not (_pending_settings or _pending_backend):
        return
    settings = dict(_pending_settings)
    backend = _pending_backend[0] if _pending_backend else None
    _pending_settings.clear()
    _pending_backend.clear()
    configure(backend, **settings)
