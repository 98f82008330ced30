"""The pytest plugin, through real pytest runs (pytester): options, header, fixtures, outcomes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM, status

pytest_plugins = ["texts_fixtures"]

JUDGE_MODULE = """
from scorekit.judges import JudgeUnavailableError


def sentences(text):
    return [s.strip() for s in text.split(".") if s.strip()]


class SentenceJudge:
    name = "sentences"

    def make_questions(self, text):
        return [s + "?" for s in sentences(text)]

    def answer_questions(self, text, questions):
        return [1.0 if q[:-1] in text else 0.0 for q in questions]


SENTENCES = SentenceJudge()


class DownJudge:
    def make_questions(self, text):
        raise JudgeUnavailableError("judge service unreachable (scripted outage)")

    def answer_questions(self, text, questions):
        return [1.0] * len(questions)


def down():
    return DownJudge()
"""

EXPECTED = "Paris is in France. The Seine flows through Paris. Paris has a tower."
GIVEN = "Paris is in France. Paris is big."


@pytest.fixture
def judges(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(scripted_judges=JUDGE_MODULE)
    pytester.syspathinsert()
    return pytester


def test_unrelated_suite_passes_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_one():
            assert 1 + 1 == 2

        def test_two(tmp_path):
            assert tmp_path.exists()
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)
    assert result.ret == 0
    result.stdout.no_fnmatch_line("llm-scorekit: *")
    result.stdout.no_fnmatch_line("*text scores*")


def test_unrelated_suite_in_a_fresh_process(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import sys

        def test_plugin_is_loaded_but_light(pytestconfig):
            assert pytestconfig.pluginmanager.hasplugin("texts_score")
            heavy = {"openai", "onnxruntime", "rich"} & set(sys.modules)
            assert not heavy, heavy
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_importing_the_plugin_is_cheap() -> None:
    code = (
        "import sys, pytest_texts_score.plugin, pytest_texts_score;"
        "print(sorted({'openai', 'onnxruntime', 'rich', 'numpy'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_help_lists_every_option(pytester: pytest.Pytester) -> None:
    from scorekit.judges import OPTIONS

    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*LLM judge (llm-scorekit*"])
    text = result.stdout.str()
    for opt in OPTIONS:
        assert opt.flag in text, opt.flag
        assert f"{opt.name} (" in text, opt.name  # the ini twin
    result.stdout.fnmatch_lines(["*--llm-cache={off,on,replay}*"])


def test_invalid_option_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("--llm-max-concurrency=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--llm-max-concurrency must be at least 1*"])


def test_no_header_line_without_settings_but_with_verbose(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest("-v")
    result.stdout.fnmatch_lines(
        ["llm-scorekit: judge=local (offline), max_concurrency=16, cache=on"]
    )


def test_a_key_alone_in_the_environment_adds_no_header(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("llm-scorekit: *")
    assert FAKE_KEY not in result.stdout.str()


def test_header_shows_the_judge_but_no_key(
    pytester: pytest.Pytester, fake_llm: FakeLLM, fake_llm_args: list[str]
) -> None:
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest(*fake_llm_args)
    result.stdout.fnmatch_lines(
        [
            f"llm-scorekit: judge=openai, base_url='{fake_llm.base_url}', model='fake-model',"
            " temperature=0.0, max_tokens=8192, timeout=5.0, max_concurrency=16, cache=off,"
            " api_key=set (cli)"
        ]
    )
    everything = result.stdout.str() + result.stderr.str()
    assert FAKE_KEY not in everything
    assert FAKE_KEY[0] + "*" * 8 not in everything  # not even masked


def test_header_for_azure_from_ini_and_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://user:pw@example.invalid/?api-key=x")
    pytester.makeini(
        """
        [pytest]
        llm_deployment = gpt-dep
        llm_model = gpt-4o
        """
    )
    pytester.makepyfile("def test_x(): pass")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "llm-scorekit: judge=azure, endpoint='https://example.invalid/',"
            " deployment='gpt-dep', api_version='2024-05-01', model='gpt-4o', *,"
            " api_key=set (env)"
        ]
    )
    everything = result.stdout.str()
    assert FAKE_KEY not in everything and "pw@" not in everything and "api-key=x" not in everything


def test_mask_api_key_as_documented() -> None:
    from pytest_texts_score.plugin import mask_api_key

    assert mask_api_key("sk-123") == "s*****"
    assert mask_api_key("x") == "x"
    assert mask_api_key(None) is None
    assert mask_api_key("") is None


def test_get_config_inside_and_outside_a_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from pytest_texts_score.plugin import get_config

        def test_x(pytestconfig):
            assert get_config() is pytestconfig
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
    code = (
        "from pytest_texts_score.plugin import get_config\n"
        "try:\n    get_config()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "no pytest run is configured" in out.stdout


def test_texts_score_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest_texts_score as pts

        def test_fixture(texts_score):
            assert len(texts_score) == 35
            assert texts_score["expect_f1_equal"] is pts.texts_expect_f1_equal
            assert texts_score["agg_completeness_average"] is pts.texts_agg_completeness_average
            assert all(not key.startswith("texts_") for key in texts_score)
            assert {f"texts_{key}" for key in texts_score} == set(pts.ASSERTIONS)
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_client_fixture_without_an_llm_judge_errors(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_client(texts_score_client):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*RuntimeError: The local judge has no LLM client; configure*"])


def test_client_fixture_with_the_openai_judge(
    pytester: pytest.Pytester, fake_llm: FakeLLM, fake_llm_args: list[str]
) -> None:
    pytester.makepyfile(
        f"""
        import openai

        def test_client(texts_score_client):
            assert isinstance(texts_score_client, openai.OpenAI)
            assert str(texts_score_client.base_url).rstrip("/") == "{fake_llm.base_url}"
        """
    )
    pytester.runpytest(*fake_llm_args).assert_outcomes(passed=1)


def test_failure_text(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal({EXPECTED!r}, {GIVEN!r})
        """
    )
    result = judges.runpytest("--llm-provider=scripted_judges:SENTENCES")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E * pytest_texts_score.TextsAssertionError: Text F1 below minimum: 0.4000 < 0.8"
            " (allowed [[]0.8, 1.0[]]; judge: sentences).",
            "E * Precision side: questions from `given`, answered from `expected`:"
            " precision 0.5000; 1 of 2 answers below 1:",
            "E *   0.0000  Paris is big?",
            "E * Recall side: questions from `expected`, answered from `given`:"
            " recall 0.3333; 2 of 3 answers below 1:",
            "E *   0.0000  The Seine flows through Paris?",
            "E *   0.0000  Paris has a tower?",
            f"E * `expected`: {EXPECTED!r}",
            f"E * `given`: {GIVEN!r}",
            "test_texts.py:4: TextsAssertionError",
            "FAILED test_texts.py::test_f1 - pytest_texts_score.TextsAssertionError*",
        ]
    )
    # The traceback is the user's line, not our internals.
    assert "_assertion.py" not in result.stdout.str()
    assert "_pipeline.py" not in result.stdout.str()


def test_judge_outage_is_an_error_with_a_one_line_cause(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal({EXPECTED!r}, {GIVEN!r})

        def test_plain():
            pass
        """
    )
    result = judges.runpytest("--llm-provider=scripted_judges:down")
    result.assert_outcomes(errors=1, passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "test_texts.py E.*",
            "*ERROR at call of test_f1*",
            "test_texts.py:4: JudgeUnavailableError: judge service unreachable (scripted outage)",
            "ERROR test_texts.py::test_f1 - test_texts.py:4: JudgeUnavailableError:*",
        ]
    )
    result.stdout.no_fnmatch_line("*FAILED*")
    assert "Traceback" not in result.stdout.str()


def test_judge_error_over_http_is_an_error_without_the_key(
    pytester: pytest.Pytester, fake_llm: FakeLLM, fake_llm_args: list[str]
) -> None:
    fake_llm.script(status(401))
    pytester.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_recall_equal

        def test_recall():
            texts_expect_recall_equal({EXPECTED!r}, {GIVEN!r})
        """
    )
    result = pytester.runpytest(*fake_llm_args)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*JudgeUnavailableError:*HTTP 401*"])
    assert FAKE_KEY not in result.stdout.str()


def test_judge_error_in_a_fixture_is_a_setup_error(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        import pytest
        from pytest_texts_score.evaluate_score import texts_evaluate_f1

        @pytest.fixture
        def score():
            return texts_evaluate_f1({EXPECTED!r}, {GIVEN!r})

        def test_uses(score):
            pass
        """
    )
    result = judges.runpytest("--llm-provider=scripted_judges:down")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of test_uses*", "*JudgeUnavailableError*"])


def test_configure_in_conftest_selects_the_judge(judges: pytest.Pytester) -> None:
    judges.makeconftest(
        """
        import pytest_texts_score
        from scripted_judges import SentenceJudge

        pytest_texts_score.configure(backend=SentenceJudge(), max_concurrency=4)
        """
    )
    judges.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_precision_equal
        from scorekit.session._session import current_session

        def test_precision():
            texts_expect_precision_equal({EXPECTED!r}, {GIVEN!r}, target=0.5, max_delta=0.05)
            assert current_session().settings.max_concurrency == 4
        """
    )
    # A fresh process: in-process, the outer run's session would be the one configured.
    result = judges.runpytest_subprocess()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["llm-scorekit: judge=sentences (configure(backend=...)), *"])


def test_assertions_in_xfail_tests_stay_xfail(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        import pytest
        from pytest_texts_score import texts_expect_f1_equal

        @pytest.mark.xfail(reason="judge down")
        def test_f1():
            texts_expect_f1_equal({EXPECTED!r}, {GIVEN!r})
        """
    )
    result = judges.runpytest("--llm-provider=scripted_judges:down")
    result.assert_outcomes(xfailed=1)


def test_judge_error_shows_as_error_under_xdist(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_f1_equal

        def test_f1():
            texts_expect_f1_equal({EXPECTED!r}, {GIVEN!r})

        def test_plain():
            pass
        """
    )
    result = judges.runpytest_subprocess(
        "-n", "2", "-p", "no:cacheprovider", "--llm-provider=scripted_judges:down"
    )
    result.assert_outcomes(errors=1, passed=1)
    result.stdout.fnmatch_lines(["ERROR test_texts.py::test_f1 - test_texts.py:4: JudgeUnav*"])


def test_provider_may_name_a_class(judges: pytest.Pytester) -> None:
    judges.makepyfile(
        test_texts=f"""
        from pytest_texts_score import texts_expect_precision_equal

        def test_precision():
            texts_expect_precision_equal({EXPECTED!r}, {GIVEN!r}, target=0.5, max_delta=0.05)
        """
    )
    result = judges.runpytest("--llm-provider=scripted_judges:SentenceJudge")
    result.assert_outcomes(passed=1)


RESOLVED = """
from scorekit.session._session import current_session

def test_values(pytestconfig):
    s = current_session().settings
    print("INI", pytestconfig.getini("llm_api_version"), pytestconfig.getini("llm_max_tokens"))
    print("RESOLVED", s.api_version, s.max_tokens)
"""


def test_ini_twins_have_the_documented_defaults(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(RESOLVED)
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*INI 2024-05-01 8192", "RESOLVED 2024-05-01 8192"])


@pytest.mark.parametrize(
    ("ini", "args", "resolved"),
    [
        ("", [], "2025-01-01"),  # the environment comes before the default
        ("llm_api_version = 2024-05-01\n", [], "2024-05-01"),  # set in the file: ini wins
        ("", ["-o", "llm_api_version=2024-10-21"], "2024-10-21"),
        ("llm_api_version = 2024-06-01\n", ["--llm-api-version=2024-02-15"], "2024-02-15"),
    ],
    ids=["env-over-default", "explicit-ini-over-env", "override-ini", "cli-over-ini"],
)
def test_the_environment_keeps_its_place_before_the_ini_default(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    ini: str,
    args: list[str],
    resolved: str,
) -> None:
    monkeypatch.setenv("OPENAI_API_VERSION", "2025-01-01")
    pytester.makeini("[pytest]\n" + ini)
    pytester.makepyfile(RESOLVED)
    result = pytester.runpytest("-s", *args)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"RESOLVED {resolved} 8192"])
