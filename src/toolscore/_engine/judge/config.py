"""The tool-call judge's configuration: which judge a ``judge=`` argument names.

Behind :mod:`toolscore.metrics.llm_judge` (with :mod:`toolscore._engine.judge.evaluation`).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import astuple, dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from scorekit.judges import Judge

__all__ = [
    "JudgeConfig",
    "Provider",
    "infer_provider",
    "resolve_judge",
]

Provider = Literal["openai", "openai_compatible", "azure", "local", "anthropic", "gemini"]
_PROVIDERS = ("openai", "openai_compatible", "azure", "local", "anthropic", "gemini")


@dataclass
class JudgeConfig:
    """Which LLM judges tool-call arguments (the settings not named here come from the
    session: ``--llm-*`` options, the environment, ``configure()``).

    Args:
        model: the model (for Azure: the deployment).
        provider: ``openai``, ``openai_compatible`` (needs ``base_url``), ``azure`` (``base_url``
            is the Azure endpoint), ``local`` (the offline similarity), or None to infer it
            (see :func:`infer_provider`).
        api_key: the key; None reads ``OPENAI_API_KEY`` (``AZURE_OPENAI_API_KEY`` for azure).
        base_url: an OpenAI-compatible server (vLLM, Ollama, LM Studio, LiteLLM...).
        temperature: sampling temperature.
        max_retries: retries of a call after a transient failure (429, 5xx, timeout,
            connection error, invalid reply), with backoff and ``Retry-After``.

    The key never appears in the repr, messages, reports or the cache.
    """

    model: str = "gpt-4o-mini"
    provider: Provider | None = None
    api_key: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    max_retries: int = 2

    def __repr__(self) -> str:
        key = ", api_key='***'" if self.api_key else ""
        return (
            f"JudgeConfig(model={self.model!r}, provider={self.provider!r}{key},"
            f" base_url={self.base_url!r}, temperature={self.temperature!r},"
            f" max_retries={self.max_retries!r})"
        )


def infer_provider(config: JudgeConfig) -> Provider:
    """The provider a config means: an explicit one wins (checked against ``base_url``);
    else a ``base_url`` means ``openai_compatible``; else ``claude-*`` and ``gemini-*`` model
    names mean ``anthropic`` and ``gemini``; else ``openai``.

    Raises:
        ValueError: an unknown provider, ``openai_compatible`` or ``azure`` without a
            ``base_url``, or ``openai``/``anthropic``/``gemini`` with one.

    Example:
        >>> infer_provider(JudgeConfig(model="llama3.1", base_url="http://127.0.0.1:11434/v1"))
        'openai_compatible'
    """
    provider = config.provider
    if provider is not None:
        if provider not in _PROVIDERS:
            raise ValueError(
                f"JudgeConfig(provider={provider!r}) is not one of {', '.join(_PROVIDERS)}"
            )
        if provider in ("openai_compatible", "azure") and not config.base_url:
            where = "the Azure endpoint" if provider == "azure" else "the server's URL"
            raise ValueError(f"JudgeConfig(provider={provider!r}) needs base_url ({where})")
        if provider in ("openai", "anthropic", "gemini") and config.base_url:
            raise ValueError(
                f"JudgeConfig(provider={provider!r}) with base_url={config.base_url!r} is"
                " ambiguous: use provider='openai_compatible' for a server at that URL"
            )
        return provider
    if config.base_url:
        return "openai_compatible"
    model = config.model.lower()
    if model.startswith("claude"):
        return "anthropic"
    if model.startswith("gemini"):
        return "gemini"
    return "openai"


# The judges JudgeConfig objects named, per scoring session (dropped with the session).
_judges: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Judge]] = weakref.WeakKeyDictionary()
_judges_lock = threading.Lock()


def _judge_for_config(config: JudgeConfig) -> Judge:
    from scorekit.judges import Judge, JudgeConfigError, build_backend
    from scorekit.session import current_session, open_cache

    provider = infer_provider(config)
    if provider in ("anthropic", "gemini"):
        raise JudgeConfigError(
            f"the {provider} judge is not built in: reach {config.model!r} through an"
            " OpenAI-compatible endpoint (the provider's own, LiteLLM or OpenRouter) with"
            " JudgeConfig(model=..., base_url=...)"
        )
    retries = config.max_retries
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError("JudgeConfig(max_retries=...) must be an integer >= 0")
    session = current_session()
    key = astuple(config)
    with _judges_lock:
        known = _judges.setdefault(session, {})
        judge = known.get(key)
        if judge is not None:
            return judge
        changes: dict[str, Any] = {"temperature": float(config.temperature), "model": config.model}
        if provider == "local":
            changes.update(provider="local")
        elif provider == "azure":
            changes.update(provider="azure", endpoint=config.base_url, deployment=config.model)
        else:
            changes.update(provider="openai", base_url=config.base_url)
        if config.api_key:
            changes["api_key"] = config.api_key
        settings = session.settings.replace(**changes)
        judge = known[key] = Judge(
            build_backend(settings),
            max_concurrency=settings.max_concurrency,
            cache=open_cache(settings, session.cache_dir_factory),
            cache_mode=settings.cache,
            stats=session.stats,
            max_retries=config.max_retries,
            surface=settings.surface,
        )
        return judge


def resolve_judge(judge: JudgeConfig | str | bool | Any | None = None) -> Judge:
    """The scorekit ``Judge`` that ``judge`` names.

    Args:
        judge: None or True: the session's judge (``--llm-*`` options, their ini twins, the
            environment, ``configure()``; the offline similarity when none is configured).
            A ``JudgeConfig`` or a model name: that LLM, with the session's other settings
            (cache, concurrency limit, timeout). A scorekit ``Judge``: itself.

    Raises:
        JudgeConfigError: the judge cannot be built (a missing key, endpoint or model).
        ValueError: a config that contradicts itself.
    """
    from scorekit.judges import Judge

    if isinstance(judge, Judge):
        return judge
    if judge is None or judge is True:
        from scorekit.session import current_session

        return current_session().judge()
    if isinstance(judge, str):
        judge = JudgeConfig(model=judge)
    if isinstance(judge, JudgeConfig):
        return _judge_for_config(judge)
    raise TypeError(
        f"judge must be True, a JudgeConfig or a model name, got {type(judge).__name__}"
    )
