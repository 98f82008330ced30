"""End to end over HTTP: the assertions on the openai and azure judges against the fake server.

The fake's smart replies write one question per sentence and answer 1.0 when most of a
question's content words occur in the text, so scores are known in advance.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import pytest_texts_score as pts
from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM, content, status
from pytest_texts_score import communication
from pytest_texts_score.evaluate_score import texts_evaluate_f1, texts_multiple_precision
from scorekit.judges import JudgeError, JudgeSettings

pytest_plugins = ["texts_fixtures"]

EXPECTED = "The tower was completed in 1889. It stands in Paris. Gustave Eiffel built it."
GIVEN = "The tower was completed in 1889. It stands in Paris."


@pytest.fixture(params=["openai", "azure"])
def llm(
    request: pytest.FixtureRequest,
    use_judge: Any,
    fake_llm: FakeLLM,
    fake_llm_settings: JudgeSettings,
    fake_azure_settings: JudgeSettings,
) -> FakeLLM:
    settings = fake_llm_settings if request.param == "openai" else fake_azure_settings
    overrides = {k: v for k, v in vars(settings).items() if k not in ("sources", "surface")}
    use_judge(None, **overrides)
    return fake_llm


def test_scores_over_http(llm: FakeLLM) -> None:
    assert texts_evaluate_f1(EXPECTED, GIVEN) == pytest.approx(2 * 1.0 * (2 / 3) / (1 + 2 / 3))
    assert llm.calls == 4
    assert {r.kind for r in llm.requests} == {"questions", "answers"}


def test_passing_and_failing_assertions(llm: FakeLLM) -> None:
    pts.texts_expect_precision_equal(EXPECTED, GIVEN)
    with pytest.raises(AssertionError) as info:
        pts.texts_expect_recall_equal(EXPECTED, GIVEN, target=1.0, max_delta=0.1)
    message = str(info.value)
    assert message.startswith("Text recall below minimum: 0.6667 < 0.9")
    assert "Gustave Eiffel built it?" in message
    assert FAKE_KEY not in message


def test_aggregated_runs_over_http(llm: FakeLLM) -> None:
    pts.texts_agg_f1_mean(EXPECTED, EXPECTED, 1.0, full_runs=3, each_question_runs=2)
    # 3 question sets per side, each answered twice.
    assert len(llm.requests_of("questions")) == 6
    assert len(llm.requests_of("answers")) == 12


def test_transient_faults_are_retried_to_the_right_score(llm: FakeLLM) -> None:
    llm.script(status(500), status(429, retry_after="0"), kind="questions")
    llm.script(content("not json"), kind="answers")
    assert texts_multiple_precision(EXPECTED, GIVEN, 1, 1) == [1.0]
    # questions: 500, 429, then a reply; answers: invalid JSON, then a reply.
    assert len(llm.requests_of("questions")) == 3
    assert len(llm.requests_of("answers")) == 2


def test_fenced_replies_are_accepted(llm: FakeLLM) -> None:
    llm.script(content('```json\n["Was the tower completed in 1889?"]\n```'), kind="questions")
    llm.script(content('```json\n{"1": 0.5}\n```'), kind="answers")
    assert pts.evaluate_score.texts_evaluate_precision(EXPECTED, GIVEN) == 0.5


def test_permanent_faults_are_errors_not_failures(llm: FakeLLM) -> None:
    llm.script(status(404))
    with pytest.raises(JudgeError) as info:
        pts.texts_expect_f1_equal(EXPECTED, GIVEN)
    assert not isinstance(info.value, AssertionError)
    assert "404" in str(info.value)
    assert FAKE_KEY not in str(info.value)


def test_nonsense_answers_end_in_an_error_that_quotes_them(llm: FakeLLM) -> None:
    for _ in range(6):
        llm.script(content('{"1": "yes"}'), kind="answers")
    with pytest.raises(JudgeError, match="not a number"):
        pts.texts_expect_precision_equal(EXPECTED, "The tower stands in Paris.")


def test_communication_over_http(llm: FakeLLM) -> None:
    questions = communication.make_questions(GIVEN)
    answers = communication.evaluate_questions(EXPECTED, questions)
    assert [a["answer"] for a in answers] == [1.0, 1.0]
    assert [a["question"] for a in answers] == list(json.loads(questions).values())


def test_client_is_the_sdk_client(llm: FakeLLM) -> None:
    import openai

    from pytest_texts_score.client import get_client

    client = get_client()
    assert isinstance(client, (openai.OpenAI, openai.AzureOpenAI))
