"""The SDK client of the configured LLM judge, for tests that call the model themselves.

Only the ``openai`` and ``azure`` judges have one (an ``openai.OpenAI`` or
``openai.AzureOpenAI`` with the run's settings); the offline ``local`` judge and custom judges
do not, and asking for it raises a ``RuntimeError`` that says how to configure one.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekit.session import ScoreSession, current_session

__all__ = ["get_client", "init_client"]

_HOW = (
    "configure an LLM judge: --llm-provider openai --llm-model MODEL (with OPENAI_API_KEY or"
    " --llm-base-url for a compatible server), or the Azure settings --llm-endpoint,"
    " --llm-deployment and AZURE_OPENAI_API_KEY; outside pytest, call"
    " pytest_texts_score.configure(provider='openai', model=...)"
)


def _client_of(session: ScoreSession) -> Any:
    backend = session.backend_override
    if backend is None:
        provider = session.settings.resolved_provider
        if provider not in ("openai", "azure"):
            # Checked before building: the local judge would load its model for nothing.
            raise RuntimeError(f"The {session.judge_name} judge has no LLM client; {_HOW}.")
        from pytest_texts_score._pipeline import judge_of

        backend = judge_of(session).backend
    client = getattr(backend, "client", None)
    if client is None:
        raise RuntimeError(f"The {session.judge_name} judge has no LLM client; {_HOW}.")
    return client


def init_client(config: pytest.Config) -> Any:
    """Build (once) and return the SDK client of the run's judge.

    Args:
        config: the pytest config object holding the LLM settings.

    Returns:
        The ``openai.OpenAI`` or ``openai.AzureOpenAI`` client of the judge.

    Raises:
        RuntimeError: the judge is not an LLM judge (``local`` or custom).
        scorekit.judges.JudgeConfigError: a required setting is missing (the message names it).

    Example:
        >>> client = init_client(request.config)  # doctest: +SKIP
    """
    from scorekit.pytest_state import ensure_session

    return _client_of(ensure_session(config))


def get_client() -> Any:
    """Return the SDK client of the current judge (the pytest run's, or the one configured
    with ``pytest_texts_score.configure`` or the environment outside pytest).

    Returns:
        The ``openai.OpenAI`` or ``openai.AzureOpenAI`` client of the judge.

    Raises:
        RuntimeError: the judge is not an LLM judge (``local`` or custom); the message says how
            to configure one.
        scorekit.judges.JudgeConfigError: a required setting is missing (the message names it).

    Example:
        >>> get_client().models.list()  # doctest: +SKIP
    """
    return _client_of(current_session())
