"""Judge settings: one option table, resolved command line > ini > environment > default.

The table is the single source of the ``--llm-*`` options and their ini twins; the pytest plugin
registers exactly these, and plain Python (``pytest_texts_score.configure``) accepts the same
names as keyword arguments.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

CACHE_MODES = ("off", "on", "replay")


@dataclass(frozen=True)
class Option:
    """One setting: its name (ini twin and ``configure()`` keyword), flag, type and sources."""

    name: str
    help: str
    default: Any = None
    kind: str = "str"  # str | int | float | choice
    env: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    secret: bool = False

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


OPTIONS: tuple[Option, ...] = (
    Option(
        "llm_api_key",
        "API key of the LLM judge (never printed); from the environment:"
        " AZURE_OPENAI_API_KEY for azure, OPENAI_API_KEY for openai.",
        env=("AZURE_OPENAI_API_KEY", "OPENAI_API_KEY"),
        secret=True,
    ),
    Option(
        "llm_endpoint",
        "Azure OpenAI endpoint URL; selects the azure judge.",
        env=("AZURE_OPENAI_ENDPOINT",),
    ),
    Option(
        "llm_api_version",
        "Azure OpenAI API version.",
        default="2024-05-01",
        env=("OPENAI_API_VERSION",),
    ),
    Option("llm_deployment", "Azure OpenAI deployment name."),
    Option("llm_model", "Model name of the judge."),
    Option("llm_max_tokens", "Maximum tokens per judge reply.", default=8192, kind="int"),
    Option("llm_provider", "Judge: local, openai, azure, or package.module:attr for a custom one."),
    Option(
        "llm_base_url",
        "Base URL of an OpenAI-compatible server; selects the openai judge.",
        env=("OPENAI_BASE_URL",),
    ),
    Option("llm_temperature", "Sampling temperature of the judge.", default=0.0, kind="float"),
    Option(
        "llm_timeout", "Seconds before one judge request times out.", default=60.0, kind="float"
    ),
    Option(
        "llm_max_concurrency",
        "Judge calls in flight at once, process-wide.",
        default=16,
        kind="int",
    ),
    Option(
        "llm_cache",
        "Judge reply cache: off, on or replay (never call the judge).",
        default="on",
        kind="choice",
        choices=CACHE_MODES,
    ),
    Option(
        "llm_cache_dir",
        "Folder of the judge reply cache (inside pytest: pytest's cache dir).",
        env=("SCOREKIT_CACHE_DIR",),
    ),
    Option(
        "llm_local_model",
        "Path to another ONNX embedding model for the local judge.",
        env=("SCOREKIT_LOCAL_MODEL",),
    ),
    Option("llm_report", "Write a JSON report of every scored assertion to this path."),
    Option("llm_report_html", "Write a self-contained HTML report to this path."),
)

OPTIONS_BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}


#: The built-in judges; any other provider names a custom backend as ``package.module:attr``.
BUILTIN_PROVIDERS = ("local", "openai", "azure")
_IMPORT_SPEC = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def unknown_provider(label: str, provider: str) -> str:
    """The message for a provider that is neither built in nor ``package.module:attr``."""
    return f"{label} {provider!r} is not local, openai, azure or package.module:attr."


#: The environment variable that holds the key of each provider.
_KEY_ENV_BY_PROVIDER = {"azure": "AZURE_OPENAI_API_KEY", "openai": "OPENAI_API_KEY"}


class SettingsError(ValueError):
    """A setting has an unusable value; the message names the option and the fix."""


def setting_label(name: str, surface: str = "pytest", source: str | None = None) -> str:
    """How a user names the setting ``name`` (``model`` or ``llm_model``) on ``surface``.

    With ``source`` (where a value came from: ``cli``, ``ini``, ``configure``, ``$VAR``) the
    label names that place; without it, every way to give the setting there.

    Example:
        >>> setting_label("model", "pytest"), setting_label("model", "cli")
        ('--llm-model (ini llm_model)', '--model')
        >>> setting_label("cache", "python"), setting_label("cache", "pytest", "ini")
        ('configure(cache=...)', 'ini llm_cache')
    """
    short = name.removeprefix("llm_")
    if source == "ini":
        return f"ini llm_{short}"
    if source is not None and source.startswith("$"):
        return f"{source[1:]} (environment)"
    if source == "configure" or (surface == "python" and source in (None, "cli")):
        return f"configure({short}=...)"
    if surface == "cli":
        return "--" + short.replace("_", "-")
    flag = "--llm-" + short.replace("_", "-")
    return flag if source == "cli" else f"{flag} (ini llm_{short})"


def setting_value(name: str, value: str, surface: str = "pytest") -> str:
    """How a user gives the setting ``name`` the value ``value`` on ``surface``, for a hint.

    Example:
        >>> setting_value("cache", "off"), setting_value("cache", "off", "cli")
        ('--llm-cache=off', '--cache off')
        >>> setting_value("llm_cache", "replay", "python")
        "configure(cache='replay')"
    """
    short = name.removeprefix("llm_")
    if surface == "python":
        return f"configure({short}={value!r})"
    if surface == "cli":
        return f"--{short.replace('_', '-')} {value}"
    return f"--llm-{short.replace('_', '-')}={value}"


def setting_with_env(name: str, surface: str = "pytest") -> str:
    """Every way to give ``name`` on ``surface``, its environment variables included.

    Example:
        >>> setting_with_env("cache_dir", "cli")
        '--cache-dir or SCOREKIT_CACHE_DIR'
    """
    option = OPTIONS_BY_NAME["llm_" + name.removeprefix("llm_")]
    return " or ".join([setting_label(name, surface), *option.env])


def _convert(opt: Option, raw: Any, label: str) -> Any:
    if isinstance(raw, str):
        raw = raw.strip() or None
    if raw is None:
        return None
    if opt.kind in ("int", "float"):
        number = int if opt.kind == "int" else float
        try:
            if isinstance(raw, bool):
                raise ValueError
            value: Any = number(raw)
        except (TypeError, ValueError):
            kind = "an integer" if opt.kind == "int" else "a number"
            raise SettingsError(f"{label} must be {kind}, got {raw!r}.") from None
        if opt.kind == "int" and value < 1:
            raise SettingsError(f"{label} must be at least 1, got {raw!r}.")
        if opt.kind == "float" and (not math.isfinite(value) or value < 0):
            raise SettingsError(f"{label} must be a finite number >= 0, got {raw!r}.")
        return value
    if opt.kind == "choice":
        value = str(raw).lower()
        if value not in opt.choices:
            raise SettingsError(f"{label} must be one of {', '.join(opt.choices)}, got {raw!r}.")
        return value
    return str(raw)


@dataclass(frozen=True)
class JudgeSettings:
    """Resolved judge settings. ``repr`` never shows the key.

    Attributes mirror the option table (without the ``llm_`` prefix), plus ``sources`` (where
    each value came from: ``cli``, ``ini``, ``env``, ``configure`` or ``default``).
    """

    api_key: str | None = field(default=None, repr=False)
    endpoint: str | None = None
    api_version: str = "2024-05-01"
    deployment: str | None = None
    model: str | None = None
    max_tokens: int = 8192
    provider: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    timeout: float = 60.0
    max_concurrency: int = 16
    cache: str = "on"
    local_model: str | None = None
    report: str | None = None
    report_html: str | None = None
    cache_dir: str | None = None
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    surface: str = field(default="pytest", compare=False, repr=False)

    def label(self, name: str) -> str:
        """How the user of these settings gives ``name`` (``--llm-model (ini llm_model)``
        under pytest, ``--model`` on the ``texts-score`` command line, ``configure(model=...)``
        in plain Python)."""
        return setting_label(name, self.surface)

    def given_as(self, name: str) -> str:
        """Where the value of ``name`` was given (``--llm-provider``, ``ini llm_provider``,
        ``--provider``, ``configure(provider=...)``, ``SCOREKIT_LOCAL_MODEL (environment)``),
        for a message about that value."""
        short = name.removeprefix("llm_")
        source = self.sources.get(short)
        if source == "env":
            variables = OPTIONS_BY_NAME[f"llm_{short}"].env
            return f"{' or '.join(variables)} (environment)" if variables else short
        return setting_label(name, self.surface, source)

    @property
    def resolved_provider(self) -> str:
        """The judge kind: an explicit provider wins; else Azure settings pick ``azure``;
        else a base URL picks ``openai``; else the embedded ``local`` judge.

        An ``OPENAI_API_KEY`` alone does not switch the judge: a CI that happens to hold a key
        must not start paying for calls nobody asked for.
        """
        if self.provider:
            return self.provider
        if self.endpoint or self.deployment:
            return "azure"
        if self.base_url:
            return "openai"
        return "local"

    def replace(self, **changes: Any) -> JudgeSettings:
        """A copy with some fields changed."""
        return replace(self, **changes)


def resolve_settings(
    cli: Mapping[str, Any] | None = None,
    ini: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    *,
    surface: str = "pytest",
) -> JudgeSettings:
    """Resolve settings: overrides (``configure()``) > cli > ini > environment > default.

    Args:
        cli: values from the command line, keyed by option name (``llm_model``).
        ini: values from the ini file, keyed by option name.
        env: the environment (defaults to ``os.environ``).
        overrides: values given to ``configure()``; keys with or without the ``llm_`` prefix.
        surface: ``pytest``, ``cli`` (``texts-score``) or ``python``: how messages name the
            settings (see :func:`setting_label`).

    Raises:
        SettingsError: a value is unusable; the message names the option.

    Example:
        >>> resolve_settings(cli={"llm_model": "gpt-4o"}, env={}).model
        'gpt-4o'
    """
    env = os.environ if env is None else env
    cli = cli or {}
    ini = ini or {}
    norm_over: dict[str, Any] = {}
    for key, value in (overrides or {}).items():
        name = key if key.startswith("llm_") else f"llm_{key}"
        if name not in OPTIONS_BY_NAME:
            known = ", ".join(o.name.removeprefix("llm_") for o in OPTIONS)
            raise SettingsError(f"Unknown setting {key!r}; known settings: {known}.")
        norm_over[name] = value
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    given_in = (("configure", norm_over), ("cli", cli), ("ini", ini))
    for opt in OPTIONS:
        chosen, source = opt.default, "default"
        given = [(name, src.get(opt.name), name) for name, src in given_in]
        given += [("env", env.get(var), f"${var}") for var in opt.env]
        for src_name, raw, where in given:
            conv = _convert(opt, raw, setting_label(opt.name, surface, where))
            if conv is not None:
                chosen, source = conv, src_name
                break
        values[opt.name.removeprefix("llm_")] = chosen
        sources[opt.name.removeprefix("llm_")] = source
    provider = values["provider"]
    if provider not in (None, *BUILTIN_PROVIDERS) and not _IMPORT_SPEC.fullmatch(provider):
        # A typo must stop the run at once, not pass every test that never scores a text.
        label = setting_label("provider", surface, sources["provider"])
        raise SettingsError(unknown_provider(label, provider))
    if sources["api_key"] in ("env", "default"):
        # A key from the environment belongs to one provider: never send the Azure key to an
        # OpenAI-compatible server (or the reverse) just because it is the one that is set.
        provider = JudgeSettings(**values).resolved_provider
        key_var = _KEY_ENV_BY_PROVIDER.get(provider)
        env_key: str | None = None
        if key_var is not None:
            env_key = _convert(OPTIONS_BY_NAME["llm_api_key"], env.get(key_var), key_var)
        values["api_key"] = env_key
        sources["api_key"] = "env" if env_key is not None else "default"
    return JudgeSettings(**values, sources=sources, surface=surface)
