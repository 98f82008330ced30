"""Fixtures shared by every test suite.

``fake_llm``: a real HTTP fake of the OpenAI and Azure chat-completions APIs on 127.0.0.1 (see
``tests/fakes/openai_server.py`` for its controls). One server per test session (per xdist
worker), reset before every test that uses it.

``fake_llm_settings`` / ``fake_azure_settings``: resolved ``JudgeSettings`` pointing at it
(cache off, key ``FAKE_KEY``). ``fake_llm_args``: the same as pytest command-line arguments,
for pytester runs. ``fake_llm_options``: the same as ``configure(...)`` keyword arguments.

Every test runs without the developer's LLM environment variables, so no test can reach a
real judge by accident.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

# numpy is imported once per process here: an in-process pytester run drops the modules it
# imported when it ends, and numpy cannot be imported a second time in one process.
import numpy  # noqa: F401
import pytest

from fakes.openai_server import FakeLLM
from scorekit.judges import JudgeSettings, resolve_settings
from scorekit.report import recording

# Under `coverage run` (pyproject: patch = ["subprocess"]) a child process is measured when it
# inherits COVERAGE_PROCESS_CONFIG. The MCP SDK starts stdio servers with a short list of safe
# variables only, so the servers (the sample server, `toolscore mcp record`) went unmeasured
# although the tests run them; let the one variable through, for this test process only.
if "COVERAGE_PROCESS_CONFIG" in os.environ:
    try:
        from mcp.client import stdio as _mcp_stdio
    except ImportError:  # the mcp extra is not installed: no MCP server runs
        pass
    else:
        if "COVERAGE_PROCESS_CONFIG" not in _mcp_stdio.DEFAULT_INHERITED_ENV_VARS:
            _mcp_stdio.DEFAULT_INHERITED_ENV_VARS.append("COVERAGE_PROCESS_CONFIG")

#: The API key the fixtures configure (deliberately recognisable in leak checks).
FAKE_KEY = "sk-fake-SECRET-0123456789abcdef"

_LLM_ENV = (
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_ENDPOINT",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_API_VERSION",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "SCOREKIT_CACHE_DIR",
    "SCOREKIT_LOCAL_MODEL",
)


def pytest_configure(config: pytest.Config) -> None:
    # The suite starts many pytest subprocesses (pytester, the docs' commands); keep langsmith's
    # plugin (test-sdks) out of them as pyproject's addopts keeps it out of this run: it costs
    # about a second per start and no test uses it.
    addopts = os.environ.get("PYTEST_ADDOPTS", "")
    if "no:langsmith_plugin" not in addopts:
        os.environ["PYTEST_ADDOPTS"] = f"{addopts} -p no:langsmith_plugin".strip()


@pytest.fixture(autouse=True)
def _no_llm_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _LLM_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _own_report_rows() -> Iterator[None]:
    # Assertions these tests make on purpose (many fail by design) are recorded into a
    # recorder of the test's own, not into this run's summary of tool and text scores.
    with recording():
        yield


@pytest.fixture(scope="session")
def _fake_llm_server() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fake_llm(_fake_llm_server: FakeLLM) -> Iterator[FakeLLM]:
    """The fake chat-completions server, reset for this test."""
    _fake_llm_server.reset()
    yield _fake_llm_server
    _quiesce(_fake_llm_server)
    _fake_llm_server.reset()


def _quiesce(server: FakeLLM, settle: float = 0.05, limit: float = 2.0) -> None:
    # A test that ends on an error cancels its sibling calls, but requests already sent still
    # reach the shared server; wait until none is in flight and none has arrived for `settle`
    # seconds, so they cannot consume the next test's scripted replies.
    deadline = time.monotonic() + limit
    seen = -1
    while time.monotonic() < deadline:
        with server._lock:
            calls, busy = server.calls, server.in_flight
        if busy == 0 and calls == seen:
            return
        seen = calls
        time.sleep(settle)


@pytest.fixture
def fake_llm_options(fake_llm: FakeLLM) -> dict[str, object]:
    """``configure(...)`` keyword arguments for the openai judge on the fake server."""
    return {
        "provider": "openai",
        "base_url": fake_llm.base_url,
        "api_key": FAKE_KEY,
        "model": "fake-model",
        "cache": "off",
        "timeout": 5.0,
    }


@pytest.fixture
def fake_llm_settings(fake_llm_options: dict[str, object]) -> JudgeSettings:
    """Resolved settings for the openai judge on the fake server."""
    return resolve_settings(overrides=fake_llm_options, env={})


@pytest.fixture
def fake_azure_settings(fake_llm: FakeLLM) -> JudgeSettings:
    """Resolved settings for the azure judge on the fake server (deployment ``fake-dep``)."""
    return resolve_settings(
        overrides={
            "provider": "azure",
            "endpoint": fake_llm.azure_endpoint,
            "deployment": "fake-dep",
            "api_key": FAKE_KEY,
            "cache": "off",
            "timeout": 5.0,
        },
        env={},
    )


@pytest.fixture
def fake_llm_args(fake_llm: FakeLLM) -> list[str]:
    """pytest command-line arguments selecting the openai judge on the fake server."""
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake_llm.base_url}",
        f"--llm-api-key={FAKE_KEY}",
        "--llm-model=fake-model",
        "--llm-cache=off",
        "--llm-timeout=5",
    ]
