"""A custom judge that raises is an outage of the judge, not a failed comparison.

Whether it comes from ``--llm-provider module:attr`` or ``configure(backend=...)``, a judge whose
method raises makes the test ERROR (like an HTTP outage), and the report names the judge's own
exception and where it was raised.
"""

from __future__ import annotations

import pytest

pytest_plugins = ["texts_fixtures"]

BROKEN_JUDGE = """
class BrokenJudge:
    def make_questions(self, text):
        return ["Is it so?"]

    def answer_questions(self, text, questions):
        raise RuntimeError("model crashed: CUDA out of memory")


BROKEN = BrokenJudge()
"""

TEST = """
from pytest_texts_score import texts_expect_f1_equal

def test_f1():
    texts_expect_f1_equal("Paris is in France.", "Paris is in France.")
"""


@pytest.fixture
def broken(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(broken_judge=BROKEN_JUDGE)
    pytester.syspathinsert()
    return pytester


def _assert_judge_error(result: pytest.RunResult) -> None:
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at call of test_f1*",
            "test_texts.py:4: JudgeUnavailableError: The BrokenJudge judge raised RuntimeError:"
            " model crashed: CUDA out of memory (broken_judge.py:6, in answer_questions)",
            "ERROR test_texts.py::test_f1 - *",
        ]
    )


def test_a_raising_provider_judge_errors_the_test(broken: pytest.Pytester) -> None:
    broken.makepyfile(test_texts=TEST)
    _assert_judge_error(broken.runpytest("--llm-provider=broken_judge:BROKEN"))


def test_a_raising_configured_judge_errors_the_test(broken: pytest.Pytester) -> None:
    broken.makeconftest(
        """
        import pytest_texts_score
        from broken_judge import BROKEN

        pytest_texts_score.configure(backend=BROKEN)
        """
    )
    broken.makepyfile(test_texts=TEST)
    # A fresh process: in-process, the outer run's session would be the one configured.
    _assert_judge_error(broken.runpytest_subprocess())


def test_a_raising_judge_is_not_retried(use_judge: object) -> None:
    import pytest_texts_score as pts
    from scorekit.judges import JudgeUnavailableError

    calls: list[str] = []

    class Raising:
        def make_questions(self, text: str) -> list[str]:
            calls.append(text)
            raise KeyError("no such model")

        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            return [1.0] * len(questions)

    use_judge(Raising())  # type: ignore[operator]
    with pytest.raises(JudgeUnavailableError) as info:
        pts.texts_expect_precision_equal("A.", "A.")
    assert isinstance(info.value.__cause__, KeyError)
    assert calls == ["A."]  # not a transient error: one call, no retries


def test_a_connection_error_of_a_judge_is_retried(use_judge: object) -> None:
    import pytest_texts_score as pts

    calls: list[str] = []

    class Flaky:
        def make_questions(self, text: str) -> list[str]:
            calls.append(text)
            if len(calls) < 3:
                raise ConnectionError("connection reset")
            return ["Is A so?"]

        def answer_questions(self, text: str, questions: list[str]) -> list[float]:
            return [1.0] * len(questions)

    use_judge(Flaky())  # type: ignore[operator]
    pts.texts_expect_precision_equal("A.", "A.")
    assert len(calls) == 3
