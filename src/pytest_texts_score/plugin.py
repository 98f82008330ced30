"""The pytest plugin of ``pytest_texts_score`` (entry point ``texts_score``).

It registers the ``--llm-*`` options and their ini twins (group ``llm-scorekit``), resolves
them into the run's scoring session (``config.stash``; command line > ini > environment >
default), shows the judge in the report header, provides the ``texts_score`` and
``texts_score_client`` fixtures, and makes a test whose judge failed show as ERROR with the
one-line cause instead of a failure with a long traceback.

It is inert for a run that does not use it: with no LLM settings the offline ``local`` judge
is selected but not loaded, nothing aborts the session, and the header line only appears
when a judge setting was given (or with ``-v``). Importing it loads no heavy module (openai,
onnxruntime, rich).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from scorekit.judges import OPTIONS, JudgeError, JudgeSettings
from scorekit.pytest_plugin import mark_judge_error
from scorekit.pytest_state import IniDefault

__all__ = [
    "get_config",
    "mask_api_key",
    "pytest_addoption",
    "pytest_configure",
    "pytest_report_header",
    "pytest_runtest_makereport",
    "texts_score",
    "texts_score_client",
]

# get_config() takes no argument, so the configured runs must be findable without one; a
# stack (not a single slot) keeps a nested pytester run from clobbering the outer run.
_configs: list[pytest.Config] = []

# Settings that alone do not pick or tune a judge: a CI that merely holds OPENAI_API_KEY (the
# local judge stays the default) or asks for a report gets no header line.
_NOT_JUDGE_CHOICES = frozenset({"api_key", "report", "report_html"})


def _help(opt: Any) -> str:
    parts = [opt.help]
    if opt.default is not None:
        parts.append(f"Default: {opt.default}.")
    if opt.env:
        parts.append(f"Environment: {', '.join(opt.env)}.")
    return " ".join(parts)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--llm-*`` command-line options and their ini twins (``llm_*``).

    Every option of the shared judge option table is registered: ``--llm-api-key``,
    ``--llm-endpoint``, ``--llm-api-version``, ``--llm-deployment``, ``--llm-model``,
    ``--llm-max-tokens``, ``--llm-provider``, ``--llm-base-url``, ``--llm-temperature``,
    ``--llm-timeout``, ``--llm-max-concurrency``, ``--llm-cache``, ... Values are resolved
    command line > ini > environment > default.

    Args:
        parser: the pytest option parser.
    """
    group = parser.getgroup("llm-scorekit", "LLM judge (llm-scorekit: pytest_texts_score)")
    for opt in OPTIONS:
        choices = list(opt.choices) or None
        group.addoption(opt.flag, default=None, dest=opt.name, help=_help(opt), choices=choices)
        # getini() returns the documented default (``llm_api_version`` 2024-05-01,
        # ``llm_max_tokens`` 8192, as the reference's) when the ini file does not set the key;
        # marked, so that the environment still comes before it (see IniDefault).
        default = None if opt.default is None else IniDefault(opt.default)
        parser.addini(opt.name, _help(opt), default=default)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Resolve the LLM settings (command line > ini > environment > default) into the run's
    scoring session.

    Cheap: no judge is built and no client created until a scoring function needs one, so a
    run that never scores texts is unaffected, and missing LLM settings are not an error (the
    offline ``local`` judge is the default).

    Args:
        config: the pytest config object.

    Raises:
        pytest.UsageError: a setting has an unusable value (the message names the option).
    """
    from pytest_texts_score._configure import apply_pending
    from scorekit.pytest_state import ensure_session

    ensure_session(config)
    apply_pending()
    _configs.append(config)
    config.add_cleanup(lambda: _configs.remove(config))


def get_config() -> pytest.Config:
    """Return the pytest configuration of the run in progress.

    Returns:
        The pytest config object (its judge settings: ``scorekit.pytest_state``).

    Raises:
        RuntimeError: no pytest run with this plugin is configured (called outside pytest or
            before ``pytest_configure``).
    """
    if not _configs:
        raise RuntimeError(
            "pytest_texts_score: no pytest run is configured; get_config() works inside a"
            " pytest run after pytest_configure. Outside pytest use"
            " pytest_texts_score.configure(...)."
        )
    return _configs[-1]


def mask_api_key(key: str | None) -> str | None:
    """Mask an API key for safe display: keep the first character, star the rest.

    Args:
        key: the API key to mask.

    Returns:
        The masked API key, or None if the input was None or empty.

    Example:
        >>> mask_api_key("sk-abc")
        's*****'
        >>> mask_api_key(None) is None
        True
    """
    if not key:
        return None
    return key[0] + "*" * (len(key) - 1)


def _safe_url(url: str | None) -> str | None:
    """A URL without user info, query or fragment (where keys sometimes hide)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _header_fields(settings: JudgeSettings, judge_override: str | None) -> list[str]:
    provider = settings.resolved_provider
    fields: list[str] = []
    if judge_override is not None:
        fields.append(f"judge={judge_override} (configure(backend=...))")
    elif provider == "local":
        fields.append("judge=local (offline)")
        if settings.local_model:
            fields.append(f"local_model={settings.local_model!r}")
    elif provider == "azure":
        fields += [
            "judge=azure",
            f"endpoint={_safe_url(settings.endpoint)!r}",
            f"deployment={settings.deployment!r}",
            f"api_version={settings.api_version!r}",
            f"model={settings.model!r}",
        ]
    elif provider == "openai":
        fields += [
            "judge=openai",
            f"base_url={_safe_url(settings.base_url) or 'api.openai.com'!r}",
            f"model={settings.model!r}",
        ]
    else:
        fields.append(f"judge={provider}")
    if judge_override is not None or provider in ("azure", "openai"):
        fields += [
            f"temperature={settings.temperature}",
            f"max_tokens={settings.max_tokens}",
            f"timeout={settings.timeout}",
        ]
    fields += [f"max_concurrency={settings.max_concurrency}", f"cache={settings.cache}"]
    if provider in ("azure", "openai"):
        # Whether a key is set, and from where; never any part of it.
        source = settings.sources.get("api_key", "default")
        fields.append(f"api_key={'set (' + source + ')' if settings.api_key else 'not set'}")
    return fields


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Show the resolved LLM judge settings in the report header (no key material at all).

    The line appears when a judge setting other than the key was given (command line, ini,
    environment or ``configure()``) or with ``-v``, so an unrelated test run's output stays as
    it was.

    Args:
        config: the pytest config object.

    Returns:
        The header lines (possibly none).
    """
    from scorekit.pytest_state import get_session

    session = get_session(config)
    if session is None:
        return []
    settings = session.settings
    configured = session.backend_override is not None or any(
        source != "default"
        for name, source in settings.sources.items()
        if name not in _NOT_JUDGE_CHOICES
    )
    if not configured and config.get_verbosity() < 1:
        return []
    override = session.judge_name if session.backend_override is not None else None
    line = "llm-scorekit: " + ", ".join(_header_fields(settings, override))
    key = settings.api_key
    if key and len(key) >= 4 and key in line:  # belt and braces: a key pasted into a URL
        line = line.replace(key, "<redacted>")
    return [line]


def _short_cause(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    where = ""
    for entry in reversed(excinfo.traceback):
        if entry.path == item.path:
            where = f"{item.path.name}:{entry.lineno + 1}: "
            break
    return f"{where}{type(excinfo.value).__name__}: {excinfo.value}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Turn a judge failure into a test ERROR with a one-line cause.

    A judge that cannot be reached or keeps replying nonsense says nothing about the texts,
    so the test must not read as failed: the report is marked (shown as ``E``/``ERROR`` by
    ``scorekit.pytest_plugin``, the one status hook of both packages) and its long traceback
    replaced by the cause.
    """
    report = yield
    excinfo = call.excinfo
    if (
        excinfo is not None
        and report.failed
        and isinstance(excinfo.value, JudgeError)
        and not hasattr(report, "wasxfail")
    ):
        report.longrepr = _short_cause(item, excinfo)
        if report.when == "call":
            mark_judge_error(report)
    return report


@pytest.fixture
def texts_score() -> dict[str, Callable[..., None]]:
    """Provide the 35 text assertion functions as a dict.

    The keys are the function names without the ``texts_`` prefix:
    ``texts_score["expect_f1_equal"](expected, given)``.

    Returns:
        A dictionary mapping function names to the assertion functions.
    """
    from pytest_texts_score import ASSERTIONS

    return {name.removeprefix("texts_"): fn for name, fn in ASSERTIONS.items()}


@pytest.fixture(scope="session")
def texts_score_client(pytestconfig: pytest.Config) -> Any:
    """Provide the SDK client of the run's LLM judge (``openai.OpenAI`` or
    ``openai.AzureOpenAI``), built with the run's settings.

    Errors (the fixture fails) when the judge is the offline ``local`` judge or a custom
    judge, which have no LLM client; the message says how to configure one.
    """
    from pytest_texts_score.client import init_client

    return init_client(pytestconfig)
