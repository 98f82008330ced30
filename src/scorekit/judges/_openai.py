"""The ``openai`` and ``azure`` judges, through the official ``openai`` SDK.

``openai`` talks to OpenAI or any OpenAI-compatible server (vLLM, Ollama, LM Studio, LiteLLM)
through ``--llm-base-url``; ``azure`` to an Azure OpenAI deployment (``--llm-endpoint``,
``--llm-deployment``, ``--llm-api-version``). The SDK never retries (``max_retries=0``): the
judge layer does, with backoff and ``Retry-After``. SDK errors become the judge layer's errors,
each with a message that says what to check, and never with any part of the key.

The SDK (and httpx) load on first use of a judge, not when pytest starts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from scorekit.judges._backend import Reply, Usage
from scorekit.judges._equivalence import EquivalenceItem, equivalence_messages, parse_verdicts
from scorekit.judges._errors import InvalidReplyError, JudgeConfigError, JudgeError
from scorekit.judges._openai_errors import translate_sdk_error, transport_failure
from scorekit.judges._parse import parse_answers, parse_questions, quote_reply
from scorekit.judges._prompts import (
    PROMPT_VERSION,
    get_system_answers_prompt,
    get_system_questions_prompt,
    get_user_answers_prompt,
    get_user_questions_prompt,
    number_questions,
)
from scorekit.judges._settings import JudgeSettings, setting_label

__all__ = ["OpenAIBackend", "build_openai_backend"]

_OPENAI_HOST = "api.openai.com"
# A compatible server without authentication still needs some key for the SDK to send.
_NO_KEY = "no-key-configured"


class OpenAIBackend:
    """A judge on the chat-completions API of OpenAI, a compatible server, or Azure OpenAI.

    Build it with :func:`build_openai_backend`. ``endpoint`` is the base URL (openai) or the
    Azure endpoint; ``model`` on Azure is the deployment unless a model is configured.
    """

    deterministic = False

    def __init__(
        self,
        *,
        provider: str,
        api_key: str,
        model: str,
        endpoint: str | None,
        deployment: str | None = None,
        api_version: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 8192,
        timeout: float = 60.0,
        surface: str = "python",
    ) -> None:
        self.name = provider
        self.surface = surface
        self.model = model
        self.endpoint = endpoint
        self.deployment = deployment
        self.api_version = api_version
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.__key = api_key
        self._async_client: Any = None
        self._sync_client: Any = None

    def __repr__(self) -> str:
        where = self.deployment if self.name == "azure" else self.model
        return f"<OpenAIBackend {self.name} {where!r} at {self.endpoint or 'api.openai.com'}>"

    # -- identity --------------------------------------------------------------------------
    def cache_identity(self) -> dict[str, Any]:
        """Everything a reply depends on (never the key)."""
        return {
            "provider": self.name,
            "endpoint": self.endpoint or f"https://{_OPENAI_HOST}/v1",
            "deployment": self.deployment,
            "model": self.model,
            "api_version": self.api_version if self.name == "azure" else None,
            "prompt_version": PROMPT_VERSION,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }

    def describe(self) -> str:
        """A one-line description for headers and messages (no key)."""
        if self.name == "azure":
            return (
                f"azure deployment {self.deployment!r} at {self.endpoint}"
                f" (api-version {self.api_version})"
            )
        return f"openai model {self.model!r} at {self.endpoint or 'api.openai.com'}"

    # -- SDK clients -----------------------------------------------------------------------
    def _client_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"api_key": self.__key, "max_retries": 0, "timeout": self.timeout}
        if self.name == "azure":
            kwargs.update(
                azure_endpoint=self.endpoint,
                azure_deployment=self.deployment,
                api_version=self.api_version,
            )
        elif self.endpoint:
            kwargs["base_url"] = self.endpoint
        return kwargs

    @property
    def async_client(self) -> Any:
        """The SDK's async client (``AsyncOpenAI`` or ``AsyncAzureOpenAI``) the judge uses."""
        if self._async_client is None:
            import openai

            cls = openai.AsyncAzureOpenAI if self.name == "azure" else openai.AsyncOpenAI
            self._async_client = cls(**self._client_kwargs())
        return self._async_client

    @property
    def client(self) -> Any:
        """A synchronous SDK client (``OpenAI`` or ``AzureOpenAI``) with the same settings.

        For users who call the model themselves (``texts_score_client``); the judge does not.
        It keeps the SDK's own retries, as the reference's client did.
        """
        if self._sync_client is None:
            import openai

            cls = openai.AzureOpenAI if self.name == "azure" else openai.OpenAI
            kwargs = self._client_kwargs()
            del kwargs["max_retries"]
            self._sync_client = cls(**kwargs)
        return self._sync_client

    async def aclose(self) -> None:
        """Close the async client's connections (call on the loop that used it)."""
        if self._async_client is not None:
            client, self._async_client = self._async_client, None
            await client.close()

    # -- the judge calls -------------------------------------------------------------------
    async def make_questions(self, text: str) -> Reply:
        """Ask for yes/no questions about ``text``."""
        system, user = get_system_questions_prompt(), get_user_questions_prompt(text)
        return await self._ask(system, user, "questions", parse_questions)

    async def answer_questions(self, text: str, questions: Sequence[str]) -> Reply:
        """Ask for one support number in ``[0, 1]`` per question, read from ``text``."""
        user = get_user_answers_prompt(text, number_questions(list(questions)))
        parse = partial(parse_answers, n_questions=len(questions))
        return await self._ask(get_system_answers_prompt(), user, "answers", parse)

    async def judge_equivalence(self, items: Sequence[EquivalenceItem]) -> Reply:
        """Ask whether each item's actual value means the same as its expected value."""
        system, user = equivalence_messages(items)
        parse = partial(parse_verdicts, n_items=len(items))
        return await self._ask(system, user, "equivalence", parse)

    async def _ask(self, system: str, user: str, kind: str, parse: Callable[[str], Any]) -> Reply:
        """One chat completion, parsed; a reply cut off at ``max_tokens`` says so."""
        raw, usage, finish = await self._chat(system, user, kind)
        try:
            return Reply(parse(raw), usage)
        except InvalidReplyError as exc:
            if finish == "length":
                exc = InvalidReplyError(
                    f"{exc} (the reply was cut off at {self._label('max_tokens')}"
                    f" {self.max_tokens}; raise it)"
                )
            raise exc from None

    async def _chat(self, system: str, user: str, kind: str) -> tuple[str, Usage, str | None]:
        """One chat completion: the reply text, its usage and the finish reason.

        Raises:
            TransientJudgeError: rate limit, 5xx, timeout, connection problem, empty reply.
            PermanentJudgeError: authentication, not found, bad request.
        """
        import openai

        try:
            response = await self.async_client.chat.completions.create(
                model=self.model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
                temperature=self.temperature,
                max_tokens=self.max_tokens,
            )
        except openai.OpenAIError as exc:
            raise self._translate(exc) from None
        except Exception as exc:
            # The SDK wraps the transport's errors, but in CI a bare httpcore2 ReadTimeout came
            # through (late in a long run, not reproduced alone): the same outage either way.
            if transport_failure(exc) is None:
                raise
            raise self._translate(exc) from None
        try:
            choice = response.choices[0]
            raw = choice.message.content
            finish = choice.finish_reason
        except (AttributeError, IndexError, TypeError):
            raise InvalidReplyError(
                f"the {self.name} judge sent a response without a message:"
                f" {quote_reply(_dump(response))}"
            ) from None
        if raw is None or not raw.strip():
            raise InvalidReplyError(
                f"the {self.name} judge sent an empty {kind} reply (finish_reason {finish!r})"
            )
        usage = getattr(response, "usage", None)
        return (
            raw,
            Usage(
                prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            ),
            finish,
        )

    # -- errors ----------------------------------------------------------------------------
    def _label(self, name: str) -> str:
        """The setting as its user gives it (``--llm-model``, ``--model``, ``configure(...)``)."""
        return setting_label(name, self.surface, "cli")

    def _translate(self, exc: Exception) -> JudgeError:
        label = self._label
        if self.name == "azure":
            fix_404 = (
                f"check {label('deployment')}, {label('endpoint')} and {label('api_version')}"
                f" (deployment {self.deployment!r}, endpoint {self.endpoint})"
            )
        else:
            fix_404 = (
                f"check {label('model')} ({self.model!r}) and {label('base_url')}"
                f" ({self.endpoint or 'api.openai.com'})"
            )
        return translate_sdk_error(
            exc,
            provider=self.name,
            where=self.describe(),
            timeout=self.timeout,
            fix_404=fix_404,
            surface=self.surface,
            key=None if self.__key == _NO_KEY else self.__key,
        )


def _dump(response: Any) -> str:
    try:
        return str(response.model_dump_json())
    except Exception:  # any SDK object without pydantic dumping
        return repr(response)


def _is_official_openai(base_url: str | None) -> bool:
    if not base_url:
        return True
    return (urlsplit(base_url).hostname or "").lower().endswith(_OPENAI_HOST)


def build_openai_backend(settings: JudgeSettings) -> OpenAIBackend:
    """Build the ``openai`` or ``azure`` judge from resolved settings.

    Raises:
        JudgeConfigError: a required setting is missing; the message names the option and the
            environment variable to set.

    Example:
        >>> from scorekit.judges import resolve_settings
        >>> s = resolve_settings(overrides={"provider": "openai", "base_url":
        ...     "http://127.0.0.1:8000/v1", "model": "llama3"}, env={})
        >>> build_openai_backend(s).describe()
        "openai model 'llama3' at http://127.0.0.1:8000/v1"
    """
    provider = settings.resolved_provider
    key = (settings.api_key or "").strip() or None
    if key is None and settings.sources.get("api_key", "default") == "default":
        # The provider may have been chosen after resolution (configure(provider=...)), when
        # the environment's key for it was not picked up yet.
        var = "AZURE_OPENAI_API_KEY" if provider == "azure" else "OPENAI_API_KEY"
        key = os.environ.get(var, "").strip() or None
    common = {
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
        "timeout": settings.timeout,
        "surface": settings.surface,
    }
    label = settings.label
    if provider == "azure":
        missing = [
            text
            for value, text in (
                (key, f"an API key: {label('api_key')} or AZURE_OPENAI_API_KEY"),
                (settings.endpoint, f"an endpoint: {label('endpoint')} or AZURE_OPENAI_ENDPOINT"),
                (settings.deployment, f"a deployment: {label('deployment')}"),
            )
            if not value
        ]
        if missing:
            raise JudgeConfigError("The azure judge needs " + "; and ".join(missing) + ".")
        assert key is not None and settings.deployment is not None
        return OpenAIBackend(
            provider="azure",
            api_key=key,
            model=settings.model or settings.deployment,
            endpoint=settings.endpoint,
            deployment=settings.deployment,
            api_version=settings.api_version,
            **common,  # type: ignore[arg-type]
        )
    if provider != "openai":
        raise JudgeConfigError(f"build_openai_backend cannot build the {provider!r} judge.")
    missing = []
    if not settings.model:
        missing.append(f"a model: {label('model')}")
    if key is None and _is_official_openai(settings.base_url):
        missing.append(f"an API key: {label('api_key')} or OPENAI_API_KEY")
    if missing:
        raise JudgeConfigError("The openai judge needs " + "; and ".join(missing) + ".")
    assert settings.model is not None
    return OpenAIBackend(
        provider="openai",
        api_key=key or _NO_KEY,
        model=settings.model,
        endpoint=settings.base_url,
        **common,  # type: ignore[arg-type]
    )
