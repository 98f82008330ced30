"""configure(): plain-Python judge selection, inside a run and in a plain script."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from texts_judges import ScriptedJudge

import pytest_texts_score as pts
from scorekit.session._session import ScoreSession, current_session

pytest_plugins = ["texts_fixtures"]

SRC = str(Path(pts.__file__).resolve().parents[1])


@pytest.fixture
def session(use_judge: Any) -> ScoreSession:
    """An active throwaway session, so configure() never touches the outer run's."""
    s: ScoreSession = use_judge(ScriptedJudge(name="first"))
    return s


def test_configure_changes_the_active_session(session: ScoreSession) -> None:
    judge = ScriptedJudge(name="second")
    pts.configure(backend=judge, max_concurrency=3, llm_temperature=0.5)
    assert current_session() is session
    assert session.backend_override is judge
    assert session.settings.max_concurrency == 3
    assert session.settings.temperature == 0.5
    assert session.settings.sources["max_concurrency"] == "configure"
    assert session.settings.cache == "off"  # untouched settings keep their values
    pts.texts_expect_f1_equal("A is B.", "A is B.")
    assert judge.count("questions") == 2
    assert session.recorder.rows[-1].judge == "second"


def test_settings_accumulate_and_backend_stays(session: ScoreSession) -> None:
    backend = session.backend_override
    pts.configure(model="m1")
    pts.configure(timeout=7)
    assert (session.settings.model, session.settings.timeout) == ("m1", 7.0)
    assert session.backend_override is backend


def test_naming_a_provider_drops_a_configured_backend(session: ScoreSession) -> None:
    pts.configure(provider="openai", model="m")
    assert session.backend_override is None
    assert session.settings.resolved_provider == "openai"


def test_unknown_setting_is_named(session: ScoreSession) -> None:
    with pytest.raises(ValueError, match=r"Unknown setting 'modle'; known settings: .*model"):
        pts.configure(modle="gpt-4o")


def test_unusable_value_is_named(session: ScoreSession) -> None:
    with pytest.raises(ValueError, match=r"^configure\(max_concurrency=\.\.\.\) must be at least"):
        pts.configure(max_concurrency=0)
    with pytest.raises(ValueError, match=r"^configure\(cache=\.\.\.\) must be one of off,"):
        pts.configure(cache="sometimes")


def test_backend_must_be_a_judge(session: ScoreSession) -> None:
    with pytest.raises(TypeError, match="has no make_questions or answer_questions"):
        pts.configure(backend=object())  # type: ignore[arg-type]


def _script(body: str) -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(body)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )


def test_plain_script_outside_pytest() -> None:
    result = _script(
        """
        import pytest_texts_score as pts
        from pytest_texts_score.evaluate_score import texts_evaluate_f1

        class Judge:
            name = "script"
            def make_questions(self, text):
                return [s.strip() + "?" for s in text.split(".") if s.strip()]
            def answer_questions(self, text, questions):
                return [1.0 if q[:-1] in text else 0.0 for q in questions]

        pts.configure(backend=Judge(), max_concurrency=2)
        score = texts_evaluate_f1("A is B. C is D.", "A is B.")
        print(type(score).__name__, round(score, 4))
        pts.texts_expect_recall_equal("A is B. C is D.", "A is B. C is D.")
        try:
            pts.texts_expect_recall_equal("A is B. C is D.", "A is B.")
        except AssertionError as exc:
            print(str(exc).splitlines()[0])
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "float 0.6667",
        "Text recall below minimum: 0.5000 < 0.8 (allowed [0.8, 1.0]; judge: script).",
    ]


def test_plain_script_judge_error_is_not_an_assertion() -> None:
    result = _script(
        """
        import pytest_texts_score as pts
        from scorekit.judges import JudgeError

        pts.configure(provider="azure", endpoint="http://127.0.0.1:9/", deployment="d")
        try:
            pts.texts_expect_f1_equal("A is B.", "A is B.")
        except AssertionError:
            print("assertion")
        except JudgeError as exc:
            print("judge error:", exc)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("judge error: ")
    assert "API key" in result.stdout


def test_a_replaced_llm_judge_closes_its_connections_on_the_judge_loop(
    fake_llm: Any, fake_llm_settings: Any
) -> None:
    """Closing a session closes the SDK client where its connections live (the judge loop):
    dropped from another thread, their sockets closed behind the loop's back and a new
    connection reusing a file descriptor waited for events that never came (a 60 s stall after
    configure() replaced an LLM judge)."""
    from pytest_texts_score._pipeline import evaluate_texts

    for _ in range(3):
        session = ScoreSession(fake_llm_settings.replace(max_concurrency=64, timeout=5.0))
        evaluate_texts("A is b. C is d.", "A is b.", question_runs=20, session=session)
        client = session.judge().backend.async_client
        session.close()
        assert client.is_closed()
        assert session.stats.retries == 0
