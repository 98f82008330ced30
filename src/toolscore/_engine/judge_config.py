"""The tool-call judge: are arguments that exact matching rejected right in meaning?

Behind :mod:`toolscore.metrics.llm_judge`, which re-exports it (the same objects).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from scorekit.judges import Judge
    from toolscore._engine.tool_call import ToolCall

__all__ = [
    "JudgeConfig",
    "Provider",
    "calculate_batch_semantic_correctness",
    "calculate_semantic_correctness",
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
    from scorekit._cache import open_cache
    from scorekit._session import current_session
    from scorekit.judges import Judge, JudgeConfigError
    from scorekit.judges._factory import build_backend

    provider = infer_provider(config)
    if provider in ("anthropic", "gemini"):
        raise JudgeConfigError(
            f"the {provider} judge is not built in: reach {config.model!r} through an"
            " OpenAI-compatible endpoint (the provider's own, LiteLLM or OpenRouter) with"
            " JudgeConfig(model=..., base_url=...)"
        )
    if (
        isinstance(config.max_retries, bool)
        or not isinstance(config.max_retries, int)
        or (config.max_retries < 0)
    ):
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
        backend = build_backend(settings)
        judge = Judge(
            backend,
            max_concurrency=settings.max_concurrency,
            cache=open_cache(settings, session.cache_dir_factory),
            cache_mode=settings.cache,
            stats=session.stats,
            max_retries=config.max_retries,
            surface=settings.surface,
        )
        known[key] = judge
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
        from scorekit._session import current_session

        return current_session().judge()
    if isinstance(judge, str):
        judge = JudgeConfig(model=judge)
    if isinstance(judge, JudgeConfig):
        return _judge_for_config(judge)
    raise TypeError(
        f"judge must be True, a JudgeConfig or a model name, got {type(judge).__name__}"
    )


def _as_calls(calls: Sequence[Any]) -> list[Any]:
    return [c.to_dict() if hasattr(c, "to_dict") and not isinstance(c, dict) else c for c in calls]


def calculate_semantic_correctness(
    gold_calls: Sequence[ToolCall] | Sequence[dict[str, Any]],
    trace_calls: Sequence[ToolCall] | Sequence[dict[str, Any]],
    *,
    judge: JudgeConfig | str | bool | None = None,
) -> dict[str, Any]:
    """Semantic correctness of the calls made: exact matching first, the judge for the
    arguments it rejected.

    The calls are paired one-to-one as in :func:`toolscore.evaluate`; every argument of a
    paired call that the comparison rule rejected (and whose expected value is a literal, not
    a matcher) is judged, all of them in batched concurrent calls.

    Args:
        gold_calls: the expected calls (``ToolCall`` objects or ``{"tool", "args"}`` dicts).
        trace_calls: the calls made.
        judge: see :func:`resolve_judge`.

    Returns:
        ``semantic_score`` (mean over ``max(expected, actual)`` calls of each expected call's
        share of agreeing arguments, exact or judged; missing and extra calls lower it),
        ``per_call_scores`` and ``explanations`` (one per expected call), ``model_used``,
        ``gold_count``, ``trace_count``, and ours: ``judge``, ``method`` (``llm`` or
        ``similarity``), ``judged_arguments`` (each with ``equivalent`` and ``reason``),
        ``equivalent_arguments``, and for the offline fallback ``threshold`` and ``note``.

    Raises:
        JudgeUnavailableError: the judge failed after its retries (an error, not a score).
    """
    from toolscore._engine.judging import judged_evaluate

    _, metrics = judged_evaluate(
        _as_calls(gold_calls), _as_calls(trace_calls), resolve_judge(judge)
    )
    return metrics


def calculate_batch_semantic_correctness(
    evaluations: Sequence[tuple[Sequence[Any], Sequence[Any]]],
    *,
    judge: JudgeConfig | str | bool | None = None,
) -> dict[str, Any]:
    """Semantic correctness of several ``(gold_calls, trace_calls)`` cases.

    Every argument pair of every case goes to the judge in one batch (concurrent calls,
    identical pairs judged once), then each case is scored.

    Returns:
        ``average_score``, ``individual_scores``, ``total_evaluations`` and ``results`` (each
        case's full semantic metrics).
    """
    from toolscore._engine.evaluate import evaluate_calls
    from toolscore._engine.judging import judge_items, judged_evaluate, mismatch_items

    resolved = resolve_judge(judge)
    cases = [(_as_calls(g), _as_calls(t)) for g, t in evaluations]
    items = [item for g, t in cases for item in mismatch_items(evaluate_calls(g, t))]
    if items:
        judge_items(resolved, items)  # one batch; each case below reads the memo
    results = [judged_evaluate(g, t, resolved)[1] for g, t in cases]
    scores = [r["semantic_score"] for r in results]
    return {
        "average_score": sum(scores) / len(scores) if scores else 0.0,
        "individual_scores": scores,
        "total_evaluations": len(scores),
        "results": results,
    }
