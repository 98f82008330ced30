"""Building the openai / azure judges: missing settings say which option to set."""

from __future__ import annotations

import pytest

from scorekit.judges import JudgeConfigError, resolve_settings
from scorekit.judges._factory import build_backend
from scorekit.judges._openai import build_openai_backend
from scorekit.judges._settings import SettingsError


def _build(**overrides: object) -> object:
    return build_backend(resolve_settings(overrides=overrides, env={}))


def test_azure_needs_key_endpoint_and_deployment() -> None:
    with pytest.raises(JudgeConfigError) as info:
        _build(provider="azure")
    message = str(info.value)
    assert "--llm-api-key (ini llm_api_key) or AZURE_OPENAI_API_KEY" in message
    assert "--llm-endpoint (ini llm_endpoint) or AZURE_OPENAI_ENDPOINT" in message
    assert "--llm-deployment (ini llm_deployment)" in message


def test_azure_missing_deployment_only() -> None:
    with pytest.raises(JudgeConfigError) as info:
        _build(endpoint="https://x.openai.azure.com", api_key="k")
    assert str(info.value) == (
        "The azure judge needs a deployment: --llm-deployment (ini llm_deployment)."
    )


def test_azure_model_defaults_to_the_deployment() -> None:
    backend = _build(endpoint="https://x.openai.azure.com", api_key="k", deployment="gpt4o")
    identity = backend.cache_identity()  # type: ignore[attr-defined]
    assert identity["model"] == "gpt4o"
    assert identity["deployment"] == "gpt4o"
    assert identity["api_version"] == "2024-05-01"


def test_openai_needs_a_model() -> None:
    with pytest.raises(JudgeConfigError, match=r"needs a model: --llm-model \(ini llm_model\)"):
        _build(provider="openai", api_key="k")


def test_official_openai_needs_a_key() -> None:
    with pytest.raises(JudgeConfigError, match=r"an API key: .* or OPENAI_API_KEY"):
        _build(provider="openai", model="gpt-4o-mini")
    with pytest.raises(JudgeConfigError, match="OPENAI_API_KEY"):
        _build(provider="openai", model="gpt-4o-mini", base_url="https://api.openai.com/v1")


def test_compatible_server_may_have_no_key() -> None:
    backend = _build(base_url="http://127.0.0.1:11434/v1", model="llama3.1")
    assert backend.cache_identity()["endpoint"] == "http://127.0.0.1:11434/v1"  # type: ignore[attr-defined]


def test_identity_tracks_what_replies_depend_on() -> None:
    a = _build(base_url="http://h/v1", model="m", api_key="k1")
    b = _build(base_url="http://h/v1", model="m", api_key="k2", temperature=0.5)
    c = _build(base_url="http://h/v1", model="m", api_key="k2")
    ia, ib, ic = (x.cache_identity() for x in (a, b, c))  # type: ignore[attr-defined]
    assert ia == ic  # the key is not part of it
    assert ia != ib
    assert set(ia) >= {"provider", "endpoint", "model", "prompt_version", "temperature"}


def test_build_openai_backend_refuses_other_providers() -> None:
    with pytest.raises(JudgeConfigError, match="cannot build the 'local' judge"):
        build_openai_backend(resolve_settings(env={}))


def test_unknown_provider_spec() -> None:
    # Caught when the settings are resolved, before any judge is built...
    with pytest.raises(
        SettingsError,
        match=r"^configure\(provider=\.\.\.\) 'anthropic' is not local, openai, azure or"
        r" package\.module:attr\.$",
    ):
        _build(provider="anthropic")
    # ... and by the factory for settings made otherwise.
    settings = resolve_settings(env={}).replace(provider="anthropic")
    with pytest.raises(JudgeConfigError, match=r"'anthropic' is not local, openai, azure or"):
        build_backend(settings)


def test_provider_chosen_later_still_finds_its_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "azure-env-key")
    monkeypatch.setenv("OPENAI_API_KEY", "openai-env-key")
    base = resolve_settings(env={})  # local: no key resolved
    assert base.api_key is None
    backend = build_openai_backend(base.replace(provider="openai", model="gpt-4o-mini"))
    assert backend._client_kwargs()["api_key"] == "openai-env-key"
    azure = base.replace(endpoint="https://x.openai.azure.com", deployment="d")
    assert build_openai_backend(azure)._client_kwargs()["api_key"] == "azure-env-key"
