"""The fake chat-completions server itself: others build on it, so pin its behaviour."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from fakes.openai_server import FakeLLM, content, refused_url, status
from scorekit.judges._prompts import (
    get_system_answers_prompt,
    get_system_questions_prompt,
    get_user_answers_prompt,
    get_user_questions_prompt,
)


def _post(url: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _chat(system: str, user: str) -> dict[str, object]:
    return {
        "model": "m",
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
    }


def test_smart_questions_one_per_sentence(fake_llm: FakeLLM) -> None:
    code, body = _post(
        fake_llm.base_url + "/chat/completions",
        _chat(get_system_questions_prompt(), get_user_questions_prompt("A cat sat. A dog ran!")),
    )
    assert code == 200
    assert body["object"] == "chat.completion"
    assert body["model"] == "m"
    questions = json.loads(body["choices"][0]["message"]["content"])
    assert questions == [
        "Does the text state that A cat sat?",
        "Does the text state that A dog ran?",
    ]
    assert body["usage"]["total_tokens"] > 0
    assert fake_llm.calls == 1
    assert fake_llm.requests[0].kind == "questions"


def test_smart_answers_by_content_words(fake_llm: FakeLLM) -> None:
    questions = json.dumps(["Does the text state that a cat sat?", "Is the moon green?"])
    code, body = _post(
        fake_llm.base_url + "/chat/completions",
        _chat(get_system_answers_prompt(), get_user_answers_prompt("The cat sat down.", questions)),
    )
    assert code == 200
    assert json.loads(body["choices"][0]["message"]["content"]) == {"1": 1.0, "2": 0.0}
    assert fake_llm.requests_of("answers")[0].body["model"] == "m"


def test_azure_path_and_script_order(fake_llm: FakeLLM) -> None:
    fake_llm.script(status(429, retry_after="7"), content("hello"))
    url = fake_llm.azure_endpoint + "/openai/deployments/dep1/chat/completions?api-version=v1"
    code, body = _post(url, _chat("s", "u"), {"api-key": "k"})
    assert code == 429
    assert body["error"]["message"]
    code, body = _post(url, _chat("s", "u"), {"api-key": "k"})
    assert (code, body["choices"][0]["message"]["content"], body["model"]) == (200, "hello", "m")
    assert fake_llm.requests[0].deployment == "dep1"
    assert fake_llm.requests[0].query == {"api-version": ["v1"]}
    assert fake_llm.requests[0].headers["api-key"] == "k"
    assert fake_llm.pending == 0


def test_kind_scripts_and_expected_key(fake_llm: FakeLLM) -> None:
    fake_llm.script(content("[]"), kind="answers")
    fake_llm.expected_key = "right"
    url = fake_llm.base_url + "/chat/completions"
    code, _ = _post(
        url, _chat("s", get_user_questions_prompt("x.")), {"Authorization": "Bearer bad"}
    )
    assert code == 401
    code, body = _post(
        url, _chat("s", get_user_questions_prompt("x.")), {"Authorization": "Bearer right"}
    )
    assert code == 200 and json.loads(body["choices"][0]["message"]["content"]) == [
        "Does the text state that x?"
    ]
    assert fake_llm.pending == 1  # the answers step is still waiting


def test_refused_url_refuses() -> None:
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(refused_url() + "/chat/completions", timeout=2)
