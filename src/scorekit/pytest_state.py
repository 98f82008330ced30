"""The scoring session of a pytest run, kept in ``config.stash``.

Both plugins (``toolscore.pytest_plugin`` and ``pytest_texts_score.plugin``) and the reporting
plugin (``scorekit.pytest_plugin``) reach the one session through :func:`ensure_session`.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from scorekit.judges._settings import OPTIONS, JudgeSettings, SettingsError, resolve_settings
from scorekit.session._session import ScoreSession

SESSION_KEY = pytest.StashKey[ScoreSession]()


class IniDefault(str):
    """The default of an ini twin (``getini("llm_max_tokens") == "8192"``).

    ``getini`` returns the registered default object itself when neither the ini file nor
    ``-o`` sets the key, so its type says "not set": the resolver then skips it, and the
    environment (``OPENAI_API_VERSION``) keeps its place before the default.
    """

    __slots__ = ()


def _option_values(config: pytest.Config) -> tuple[dict[str, Any], dict[str, Any]]:
    cli: dict[str, Any] = {}
    ini: dict[str, Any] = {}
    for opt in OPTIONS:
        # Options are missing when the texts plugin is disabled (-p no:texts_score).
        with contextlib.suppress(ValueError):
            cli[opt.name] = config.getoption(opt.name)
        try:
            value = config.getini(opt.name)
        except ValueError:
            continue
        if value not in (None, "", []) and not isinstance(value, IniDefault):
            ini[opt.name] = value
    return cli, ini


def settings_from_config(config: pytest.Config) -> JudgeSettings:
    """Resolve the judge settings of a pytest run (command line > ini > environment > default).

    Raises:
        pytest.UsageError: a value is unusable; the message names the option.
    """
    cli, ini = _option_values(config)
    try:
        return resolve_settings(cli=cli, ini=ini, surface="pytest")
    except SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None


def ensure_session(config: pytest.Config) -> ScoreSession:
    """Return the run's session, creating and activating it on first call."""
    session = config.stash.get(SESSION_KEY, None)
    if session is not None:
        return session
    settings = settings_from_config(config)
    session = ScoreSession(settings, in_pytest=True)
    cache = getattr(config, "cache", None)
    if cache is not None:
        # Resolved lazily: an unrelated run must not create folders it never uses.
        session.cache_dir_factory = lambda: str(cache.mkdir("llm-scorekit"))
    config.stash[SESSION_KEY] = session
    session.activate()
    config.add_cleanup(session.close)
    config.add_cleanup(session.deactivate)  # first: cleanups run last in, first out
    return session


def get_session(config: pytest.Config) -> ScoreSession | None:
    """The run's session if one was created."""
    return config.stash.get(SESSION_KEY, None)
