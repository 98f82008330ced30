"""Judge settings: precedence, provider selection, per-provider keys, clear errors."""

from __future__ import annotations

import pytest

from scorekit.judges import OPTIONS, SettingsError, resolve_settings


def test_defaults() -> None:
    s = resolve_settings(env={})
    assert s.resolved_provider == "local"
    assert (s.api_version, s.max_tokens, s.temperature, s.timeout) == (
        "2024-05-01",
        8192,
        0.0,
        60.0,
    )
    assert (s.max_concurrency, s.cache, s.api_key) == (16, "on", None)
    assert s.sources["api_version"] == "default"


def test_precedence_configure_cli_ini_env_default() -> None:
    env = {"OPENAI_API_VERSION": "env-v", "AZURE_OPENAI_ENDPOINT": "https://env.example"}
    ini = {"llm_api_version": "ini-v", "llm_endpoint": "https://ini.example"}
    cli = {"llm_api_version": "cli-v"}
    s = resolve_settings(cli=cli, ini=ini, env=env)
    assert (s.api_version, s.sources["api_version"]) == ("cli-v", "cli")
    assert (s.endpoint, s.sources["endpoint"]) == ("https://ini.example", "ini")
    s = resolve_settings(cli={}, ini={}, env=env)
    assert (s.api_version, s.sources["api_version"]) == ("env-v", "env")
    s = resolve_settings(cli=cli, ini=ini, env=env, overrides={"api_version": "conf-v"})
    assert (s.api_version, s.sources["api_version"]) == ("conf-v", "configure")


def test_blank_values_fall_through() -> None:
    s = resolve_settings(cli={"llm_model": "  "}, ini={"llm_model": "ini-model"}, env={})
    assert s.model == "ini-model"


def test_numbers_are_converted() -> None:
    s = resolve_settings(
        cli={"llm_max_concurrency": "64", "llm_timeout": "2.5"},
        ini={"llm_temperature": "0.7", "llm_max_tokens": "512"},
        env={},
    )
    assert (s.max_concurrency, s.timeout, s.temperature, s.max_tokens) == (64, 2.5, 0.7, 512)


@pytest.mark.parametrize(
    ("env", "cli", "provider"),
    [
        ({}, {}, "local"),
        ({"OPENAI_API_KEY": "k"}, {}, "local"),
        ({"AZURE_OPENAI_API_KEY": "k"}, {}, "local"),
        ({"AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com"}, {}, "azure"),
        ({}, {"llm_deployment": "gpt4"}, "azure"),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}, {}, "openai"),
        (
            {"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "AZURE_OPENAI_ENDPOINT": "https://a"},
            {},
            "azure",
        ),
        ({"AZURE_OPENAI_ENDPOINT": "https://a"}, {"llm_provider": "openai"}, "openai"),
        ({}, {"llm_provider": "pkg.mod:Judge"}, "pkg.mod:Judge"),
    ],
)
def test_provider_selection(env: dict[str, str], cli: dict[str, str], provider: str) -> None:
    assert resolve_settings(cli=cli, env=env).resolved_provider == provider


def test_env_key_belongs_to_its_provider() -> None:
    env = {"AZURE_OPENAI_API_KEY": "azure-key", "OPENAI_API_KEY": "openai-key"}
    openai = resolve_settings(cli={"llm_base_url": "http://127.0.0.1:1/v1"}, env=env)
    assert (openai.api_key, openai.sources["api_key"]) == ("openai-key", "env")
    azure = resolve_settings(cli={"llm_endpoint": "https://a", "llm_deployment": "d"}, env=env)
    assert azure.api_key == "azure-key"
    assert resolve_settings(env=env).api_key is None  # local judge: no key picked up
    only_azure = {"AZURE_OPENAI_API_KEY": "azure-key"}
    s = resolve_settings(cli={"llm_base_url": "http://127.0.0.1:1/v1"}, env=only_azure)
    assert s.api_key is None  # the Azure key is never sent to another server


def test_explicit_key_wins_over_env() -> None:
    env = {"OPENAI_API_KEY": "env-key"}
    s = resolve_settings(cli={"llm_provider": "openai", "llm_api_key": "cli-key"}, env=env)
    assert (s.api_key, s.sources["api_key"]) == ("cli-key", "cli")
    s = resolve_settings(ini={"llm_provider": "openai", "llm_api_key": "ini-key"}, env=env)
    assert s.api_key == "ini-key"


def test_repr_never_shows_the_key() -> None:
    s = resolve_settings(overrides={"api_key": "sk-very-secret-123"}, env={})
    assert "sk-very-secret-123" not in repr(s)
    assert "secret" not in repr(s)


@pytest.mark.parametrize(
    ("cli", "message"),
    [
        ({"llm_max_concurrency": "many"}, "--llm-max-concurrency must be an integer"),
        ({"llm_max_concurrency": "0"}, "--llm-max-concurrency must be at least 1"),
        ({"llm_timeout": "-1"}, "--llm-timeout must be a finite number >= 0"),
        ({"llm_temperature": "nan"}, "--llm-temperature must be a finite number"),
        ({"llm_temperature": "hot"}, "--llm-temperature must be a number"),
        ({"llm_cache": "maybe"}, "--llm-cache must be one of off, on, replay"),
    ],
)
def test_bad_values_name_the_option(cli: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as info:
        resolve_settings(cli=cli, env={})
    assert message in str(info.value)


def test_booleans_are_not_numbers() -> None:
    with pytest.raises(SettingsError, match=r"^ini llm_max_tokens must be an integer"):
        resolve_settings(ini={"llm_max_tokens": True}, env={})


def test_unknown_configure_keyword() -> None:
    with pytest.raises(SettingsError, match="Unknown setting 'modle'; known settings: api_key"):
        resolve_settings(overrides={"modle": "x"}, env={})


def test_option_table_flags_and_ini_names() -> None:
    flags = {o.flag for o in OPTIONS}
    for flag in (
        "--llm-api-key",
        "--llm-endpoint",
        "--llm-api-version",
        "--llm-deployment",
        "--llm-model",
        "--llm-max-tokens",
        "--llm-provider",
        "--llm-base-url",
        "--llm-temperature",
        "--llm-timeout",
        "--llm-max-concurrency",
        "--llm-cache",
    ):
        assert flag in flags
    assert [o for o in OPTIONS if o.secret] == [o for o in OPTIONS if o.name == "llm_api_key"]
