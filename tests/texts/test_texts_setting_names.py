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


@pytest.mark.parametrize(
    ("args", "ini", "message"),
    [
        (["--llm-provider=nope"], "", "ERROR: --llm-provider 'nope' is not local, openai, azure*"),
        ([], "llm_provider = OpenAI\n", "ERROR: ini llm_provider 'OpenAI' is not local, *"),
    ],
    ids=["option", "ini"],
)
def test_an_unknown_provider_stops_pytest_even_without_text_tests(
    pytester: pytest.Pytester, args: list[str], ini: str, message: str
) -> None:
    # No test scores a text: a typo in the judge's name must still not pass silently.
    pytester.makepyfile("def test_plain():\n    assert True\n")
    pytester.makeini("[pytest]\n" + ini)
    result = pytester.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message + "package.module:attr."])


def test_a_custom_provider_is_checked_only_when_used(pytester: pytest.Pytester) -> None:
    # ``package.module:attr`` is imported when a test needs the judge, not at start-up.
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess("--llm-provider=not_installed_pkg:Judge")
    result.assert_outcomes(passed=1)


def test_each_surface_names_its_own_local_model_setting(
    pytester: pytest.Pytester, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.onnx"
    code, err = _cli([*TEXTS, "--local-model", str(missing)], capsys)
    assert code == EXIT_BAD_INPUT
    assert f"--local-model {missing} does not exist; check the path." in err
    assert "--llm-" not in err
    pytester.makepyfile(
        """
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal("Paris is in France.", "Paris is big.")
        """
    )
    # In a subprocess: loading the local judge imports numpy, which an in-process run would
    # drop from sys.modules afterwards (and numpy cannot be imported twice in one process).
    result = pytester.runpytest_subprocess(f"--llm-local-model={missing}")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*JudgeConfigError: --llm-local-model {missing} does not exist*"])
    script = tmp_path / "plain.py"
    script.write_text(
        "import pytest_texts_score as pts\n"
        f"pts.configure(local_model={str(missing)!r})\n"
        "try:\n"
        "    pts.texts_expect_f1_equal('Paris is in France.', 'Paris is big.')\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert proc.stdout.strip() == (
        f"JudgeConfigError configure(local_model={str(missing)!r}) does not exist; check the path."
    ), proc.stderr


def test_a_replay_miss_names_the_cache_flag_of_the_cli(
    fake_llm: FakeLLM, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judge = ["--provider", "openai", "--base-url", fake_llm.base_url, "--model", "m",
             "--api-key", FAKE_KEY, "--cache-dir", str(tmp_path / "cache")]  # fmt: skip
    code, err = _cli([*TEXTS, *judge, "--cache", "replay"], capsys)
    assert code == EXIT_JUDGE_FAILED
    assert "--cache replay: no cached questions reply of the openai judge" in err
    assert "run once with --cache on to record it" in err
    assert "--llm-" not in err
    assert fake_llm.calls == 0
    # Recorded once, the same command replays without calling the judge.
    assert _cli([*TEXTS, *judge], capsys)[0] == 0
    calls = fake_llm.calls
    assert _cli([*TEXTS, *judge, "--cache", "replay"], capsys)[0] == 0
    assert fake_llm.calls == calls


def test_a_cache_that_cannot_be_written_names_the_cli_flags(
    fake_llm: FakeLLM, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    judge = ["--provider", "openai", "--base-url", fake_llm.base_url, "--model", "m",
             "--api-key", FAKE_KEY, "--cache-dir", str(blocker / "cache")]  # fmt: skip
    code, err = _cli([*TEXTS, *judge], capsys)
    assert code == 0, err  # the run goes on without the cache
    # One line on stderr, as the command's own warning (no file name, no source line).
    (message,) = err.splitlines()
    assert message.startswith("texts-score: warning: scorekit judge cache: error opening ")
    assert "point --cache-dir or SCOREKIT_CACHE_DIR at a writable folder" in message
    assert "turn the cache off with --cache off" in message
    assert "--llm-" not in message


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--provider", "openai"],
            "The openai judge needs a model: --model; and an API key: --api-key or OPENAI_API_KEY.",
        ),
        (["--cache", "maybe"], "--cache must be one of off, on, replay, got 'maybe'."),
        (["--provider", "nope"], "--provider 'nope' is not local, openai, azure or"),
    ],
    ids=["openai", "cache", "unknown"],
)
def test_eval_dataset_names_its_own_flags_and_exits_2_for_unusable_settings(
    flags: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    rows = tmp_path / "pairs.jsonl"
    rows.write_text('{"id": 1, "expected": "Paris is in France.", "given": "Paris."}\n')
    code, err = _cli(["eval-dataset", str(rows), *flags], capsys)
    assert code == EXIT_BAD_INPUT, err
    assert message in err
    assert "--llm-" not in err and "ini llm_" not in err
