"""Each surface names the settings its user wrote, and texts-score's exit codes say which kind
of problem it met: ``texts-score`` its own flags (``--cache``), pytest its options and ini keys
(``--llm-cache``, ``ini llm_cache``), plain Python the ``configure()`` argument; unusable
settings exit 2, a configured judge that fails at run time exits 3.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM
from pytest_texts_score.cli import EXIT_BAD_INPUT, EXIT_JUDGE_FAILED, main

TEXTS = ["compare", "--expected-text", "Paris is in France.", "--given-text", "Paris is big."]


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv, stdin=io.StringIO(""), stdout=io.StringIO())
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--cache", "maybe"], "--cache must be one of off, on, replay, got 'maybe'."),
        (["--temperature", "-3"], "--temperature must be a finite number >= 0, got '-3'."),
        (["--max-concurrency", "0"], "--max-concurrency must be at least 1, got '0'."),
        (
            ["--provider", "openai"],
            "The openai judge needs a model: --model; and an API key: --api-key or"
            " OPENAI_API_KEY.",
        ),
        (
            ["--provider", "openai", "--model", "gpt-4o-mini"],
            "The openai judge needs an API key: --api-key or OPENAI_API_KEY.",
        ),
        (["--provider", "nope"], "--provider 'nope' is not local, openai, azure or"),
        (
            ["--provider", "azure", "--api-key", "k"],
            "The azure judge needs an endpoint: --endpoint or AZURE_OPENAI_ENDPOINT; and a"
            " deployment: --deployment.",
        ),
        (["--provider", "no_such_module:judge"], "--provider 'no_such_module:judge': cannot"),
    ],
    ids=["cache", "temperature", "concurrency", "openai", "openai-key", "unknown", "azure",
         "custom"],
)  # fmt: skip
def test_unusable_cli_settings_name_the_cli_flags_and_exit_2(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _cli([*TEXTS, *flags], capsys)
    assert code == EXIT_BAD_INPUT
    assert message in err
    assert "--llm-" not in err and "ini llm_" not in err
    assert err.count("\n") == 1


def test_a_configured_judge_failing_at_run_time_exits_3(
    fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.expected_key = "another key"  # the judge is reachable but rejects ours: HTTP 401
    code, err = _cli(
        [*TEXTS, "--provider", "openai", "--base-url", fake_llm.base_url, "--model", "m",
         "--api-key", FAKE_KEY],
        capsys,
    )  # fmt: skip
    assert code == EXIT_JUDGE_FAILED
    assert "the judge failed" in err and "HTTP 401" in err
    assert "check --api-key or OPENAI_API_KEY" in err
    assert FAKE_KEY not in err


def test_pytest_names_its_options_and_ini_keys(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal("Paris is in France.", "Paris is big.")
        """
    )
    result = pytester.runpytest("--llm-temperature=-3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --llm-temperature must be a finite number >= 0, *"])
    pytester.makeini("[pytest]\nllm_cache = maybe\n")
    result = pytester.runpytest()
    result.stderr.fnmatch_lines(["ERROR: ini llm_cache must be one of off, on, replay, *"])
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest("--llm-provider=openai")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*JudgeConfigError: The openai judge needs a model: --llm-model (ini llm_model); *"]
    )


PLAIN_SCRIPT = """
import pytest_texts_score as pts

try:
    pts.configure(cache="maybe")
except ValueError as exc:
    print("configure:", exc)
pts.configure(provider="openai")
try:
    pts.texts_expect_f1_equal("Paris is in France.", "Paris is big.")
except Exception as exc:
    print("assertion:", type(exc).__name__, exc)
"""


def test_plain_python_names_the_configure_arguments(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text(PLAIN_SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AZURE_"))}
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.stdout.splitlines() == [
        "configure: configure(cache=...) must be one of off, on, replay, got 'maybe'.",
        "assertion: JudgeConfigError The openai judge needs a model: configure(model=...); and"
        " an API key: configure(api_key=...) or OPENAI_API_KEY.",
    ], proc.stderr
