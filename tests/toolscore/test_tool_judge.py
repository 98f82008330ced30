"""The tool-call judge over HTTP (the fake chat-completions server), and its offline fallback.

The fake's smart verdicts: equal after case and punctuation, initials (``NYC``), or at least
75 % shared content words mean equivalent; anything else does not.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import toolscore
from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM, content, hang, stall, status
from scorekit.judges import Judge, JudgeUnavailableError, resolve_settings
from scorekit.session._session import ScoreSession
from toolscore import JudgeConfig, Semantic
from toolscore.metrics.llm_judge import (
    calculate_batch_semantic_correctness,
    calculate_semantic_correctness,
    infer_provider,
)


@pytest.fixture(autouse=True)
def _fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Judge, "backoff_base", 0.001)


@pytest.fixture
def session() -> Iterator[Callable[..., ScoreSession]]:
    """Activate a scoring session with these settings (cache off unless given)."""
    made: list[ScoreSession] = []

    def make(**settings: Any) -> ScoreSession:
        s = ScoreSession(resolve_settings(overrides={"cache": "off", **settings}, env={}))
        s.activate()
        made.append(s)
        return s

    yield make
    for s in reversed(made):
        s.deactivate()
        s.close()


@pytest.fixture
def llm(fake_llm: FakeLLM, session: Callable[..., ScoreSession]) -> FakeLLM:
    session(provider="openai", base_url=fake_llm.base_url, api_key=FAKE_KEY, model="fake-model")
    return fake_llm


def _items(request: Any) -> dict[str, Any]:
    user = request.body["messages"][-1]["content"]
    body = user.split("<scorekit_items>\n", 1)[1].split("\n</scorekit_items>", 1)[0]
    return dict(json.loads(body))


GOLD = [
    {"tool": "get_weather", "args": {"city": "New York City", "days": 3}},
    {"tool": "search", "args": {"query": "best pizza in Brooklyn"}},
    {"tool": "book", "args": {"city": "Paris"}},
]
TRACE = [
    {"tool": "get_weather", "args": {"city": "NYC", "days": 3}},
    {"tool": "search", "args": {"query": "pizza Brooklyn best"}},
    {"tool": "book", "args": {"city": "London"}},
]


def test_only_rejected_arguments_go_to_the_judge_in_one_call(llm: FakeLLM) -> None:
    result = calculate_semantic_correctness(GOLD, TRACE, judge=True)
    assert llm.calls == 1
    items = _items(llm.requests[0])
    assert [(v["argument"], v["expected"], v["actual"]) for v in items.values()] == [
        ("get_weather.city", "New York City", "NYC"),
        ("search.query", "best pizza in Brooklyn", "pizza Brooklyn best"),
        ("book.city", "Paris", "London"),
    ]
    judged = {(j["tool"], j["argument"]): j for j in result["judged_arguments"]}
    assert judged[("get_weather", "city")]["equivalent"] is True
    assert "initials" in judged[("get_weather", "city")]["reason"]
    assert judged[("search", "query")]["equivalent"] is True
    assert judged[("book", "city")]["equivalent"] is False
    # per call: weather 2/2, search 1/1, book 0/1 -> (1 + 1 + 0) / 3
    assert result["per_call_scores"] == [1.0, 1.0, 0.0]
    assert result["semantic_score"] == pytest.approx(2 / 3)
    assert result["method"] == "llm" and result["model_used"] == "fake-model"
    assert "note" not in result


def test_evaluate_trace_with_the_judge_rescored_and_explained(llm: FakeLLM, tmp_path: Path) -> None:
    gold, trace = tmp_path / "gold.json", tmp_path / "trace.json"
    gold.write_text(json.dumps(GOLD))
    trace.write_text(json.dumps(TRACE))
    plain = toolscore.evaluate_trace(gold, trace)
    judged = toolscore.evaluate_trace(gold, trace, judge=True)
    # exact: 1 of 4 argument units agree; judged: 3 of 4
    assert plain.argument_f1 == pytest.approx(0.25)
    assert judged.argument_f1 == pytest.approx(0.75)
    assert judged.score > plain.score
    semantic = judged.metrics["semantic_metrics"]
    assert semantic["equivalent_arguments"] == 2
    text = judged.explain()
    assert "city judged equivalent: NYC is the initials of new york city." in text
    assert "(NOT ok; judged not equivalent: 'paris' and 'london' name different things.)" in text
    pairs = judged.to_dict()["pairs"]
    assert pairs[2]["arguments"][0]["judge"]["equivalent"] is False


def test_the_semantic_matcher_asks_only_for_its_argument_in_one_batch(llm: FakeLLM) -> None:
    expected = [
        {"tool": "get_weather", "args": {"city": Semantic("New York City"), "days": 3}},
        {"tool": "get_weather", "args": {"city": Semantic("Los Angeles"), "days": 1}},
    ]
    actual = [
        {"tool": "get_weather", "args": {"city": "LA", "days": 1}},
        {"tool": "get_weather", "args": {"city": "NYC", "days": 2}},
    ]
    result = toolscore.evaluate(expected, actual)
    assert llm.calls == 1
    sent = {(v["expected"], v["actual"]) for v in _items(llm.requests[0]).values()}
    # each Semantic meets both actual values; "days" is never sent
    assert sent == {
        ("New York City", "LA"),
        ("New York City", "NYC"),
        ("Los Angeles", "LA"),
        ("Los Angeles", "NYC"),
    }
    assert [(p.expected_index, p.actual_index) for p in result.pairs] == [(0, 1), (1, 0)]
    assert result.pairs[1].ok and not result.pairs[0].ok  # days 3 vs 2
    # plain == reuses the verdicts (no new call), and exact matches never ask
    assert Semantic("New York City") == "NYC"
    assert Semantic("Los Angeles") != "NYC"
    assert Semantic("Paris") == " Paris "
    assert llm.calls == 1


def test_batches_run_concurrently_and_a_rerun_is_served_from_the_cache(
    fake_llm: FakeLLM, session: Callable[..., ScoreSession], tmp_path: Path
) -> None:
    s = session(
        provider="openai",
        base_url=fake_llm.base_url,
        api_key=FAKE_KEY,
        model="fake-model",
        cache="on",
        cache_dir=str(tmp_path),
    )
    fake_llm.latency = 0.2
    gold = [{"tool": "lookup", "args": {"name": f"person number {i}"}} for i in range(30)]
    trace = [{"tool": "lookup", "args": {"name": f"number {i} person"}} for i in range(30)]
    first = calculate_semantic_correctness(gold, trace, judge=True)
    assert first["equivalent_arguments"] == 30
    assert fake_llm.calls == 3  # 30 items, 10 per call
    assert fake_llm.max_in_flight == 3
    calls = s.stats.calls
    again = calculate_semantic_correctness(
        gold, trace, judge=JudgeConfig("fake-model", base_url=fake_llm.base_url, api_key=FAKE_KEY)
    )
    assert again["semantic_score"] == first["semantic_score"]
    assert fake_llm.calls == 3 and s.stats.calls == calls
    assert s.stats.cache_hits >= 30


def test_transient_faults_are_retried_and_an_outage_is_an_error(llm: FakeLLM) -> None:
    llm.script(status(503), content("not json"), kind="equivalence")
    result = calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge=True)
    assert result["equivalent_arguments"] == 1
    assert llm.calls == 3
    llm.script(status(500), status(500), status(500), kind="equivalence")
    with pytest.raises(JudgeUnavailableError, match="HTTP 500"):
        calculate_semantic_correctness(
            GOLD[:1],
            TRACE[:1],
            judge=JudgeConfig("fake-model", base_url=llm.base_url, api_key=FAKE_KEY, max_retries=2),
        )


def test_a_wrong_count_of_verdicts_is_an_invalid_reply(llm: FakeLLM) -> None:
    bad = '{"1": {"equivalent": true, "reason": "x"}}'
    llm.script(*(content(bad) for _ in range(6)), kind="equivalence")
    with pytest.raises(JudgeUnavailableError, match="returned 1 verdicts for 3 items"):
        calculate_semantic_correctness(GOLD, TRACE, judge=True)


def test_the_key_never_shows_and_a_missing_key_is_a_clear_error(
    llm: FakeLLM, session: Callable[..., ScoreSession]
) -> None:
    llm.expected_key = "another-key"
    with pytest.raises(JudgeUnavailableError) as info:
        calculate_semantic_correctness(
            GOLD[:1], TRACE[:1], judge=JudgeConfig(base_url=llm.base_url, api_key=FAKE_KEY)
        )
    assert "HTTP 401" in str(info.value) and FAKE_KEY not in str(info.value)
    assert FAKE_KEY not in repr(JudgeConfig(api_key=FAKE_KEY))
    session()  # nothing configured
    with pytest.raises(Exception, match="OPENAI_API_KEY"):
        calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge="gpt-4o-mini")


def test_without_an_llm_the_offline_similarity_decides_and_says_so(
    session: Callable[..., ScoreSession],
) -> None:
    session()
    result = calculate_semantic_correctness(
        [{"tool": "search", "args": {"q": "python tutorial for beginners", "when": "2024-05-01"}}],
        [{"tool": "search", "args": {"q": "beginner python tutorial", "when": "2024-06-01"}}],
        judge=True,
    )
    judged = {j["argument"]: j for j in result["judged_arguments"]}
    assert result["method"] == "similarity" and result["threshold"] == 0.85
    assert "No LLM judge is configured" in result["note"]
    assert judged["q"]["equivalent"] is True and judged["q"]["similarity"] >= 0.85
    assert judged["when"]["equivalent"] is False
    assert "numbers differ" in judged["when"]["reason"]


def test_batch_semantic_correctness_judges_every_case_in_one_go(llm: FakeLLM) -> None:
    out = calculate_batch_semantic_correctness(
        [(GOLD[:1], TRACE[:1]), (GOLD[2:], TRACE[2:]), (GOLD[:1], TRACE[:1])], judge=True
    )
    assert out["individual_scores"] == [1.0, 0.0, 1.0]
    assert out["average_score"] == pytest.approx(2 / 3)
    assert llm.calls == 1  # two distinct pairs, one call


def test_provider_inference_and_config_errors() -> None:
    assert infer_provider(JudgeConfig()) == "openai"
    assert infer_provider(JudgeConfig("claude-3-5-haiku")) == "anthropic"
    assert infer_provider(JudgeConfig(base_url="http://127.0.0.1:1/v1")) == "openai_compatible"
    with pytest.raises(ValueError, match="needs base_url"):
        infer_provider(JudgeConfig(provider="openai_compatible"))
    with pytest.raises(ValueError, match="ambiguous"):
        infer_provider(JudgeConfig(provider="openai", base_url="http://x"))
    with pytest.raises(Exception, match="not built in"):
        calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge="claude-3-5-haiku")
    assert infer_provider(JudgeConfig("gemini-2.0-flash")) == "gemini"
    assert infer_provider(JudgeConfig("claude-x", provider="openai")) == "openai"  # it decides
    with pytest.raises(ValueError, match=r"JudgeConfig\(provider='bedrock'\) is not one of"):
        infer_provider(JudgeConfig(provider="bedrock"))
    with pytest.raises(ValueError, match=r"needs base_url \(the Azure endpoint\)"):
        infer_provider(JudgeConfig(provider="azure"))
    with pytest.raises(Exception, match="the gemini judge is not built in"):
        calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge="gemini-2.0-flash")
    for retries in (-1, True, 1.5):
        with pytest.raises(ValueError, match=r"max_retries=\.\.\.\) must be an integer >= 0"):
            calculate_semantic_correctness(
                GOLD[:1],
                TRACE[:1],
                judge=JudgeConfig("m", base_url="http://127.0.0.1:1/v1", max_retries=retries),  # type: ignore[arg-type]
            )


def test_resolve_judge_passes_a_judge_through_and_refuses_other_objects() -> None:
    from toolscore.metrics.llm_judge import resolve_judge

    judge = resolve_judge(True)
    assert resolve_judge(judge) is judge
    with pytest.raises(
        TypeError, match=r"judge must be True, a JudgeConfig or a model name, got int"
    ):
        resolve_judge(3)


def test_a_slow_judge_times_out_as_an_error(
    fake_llm: FakeLLM, session: Callable[..., ScoreSession]
) -> None:
    session(provider="openai", base_url=fake_llm.base_url, api_key=FAKE_KEY, model="m", timeout=0.2)
    fake_llm.script(*(hang(1.0) for _ in range(6)), kind="equivalence")
    with pytest.raises(JudgeUnavailableError, match=r"did not answer within 0\.2 s"):
        calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge=True)


def test_a_reply_that_stalls_after_its_headers_times_out_as_an_error(
    fake_llm: FakeLLM, session: Callable[..., ScoreSession]
) -> None:
    # A proxy that sends the headers and then stalls: the client's read timeout fires while the
    # body is read, which is the same outage as no answer at all, and is retried like one.
    session(provider="openai", base_url=fake_llm.base_url, api_key=FAKE_KEY, model="m", timeout=0.2)
    fake_llm.script(*(stall(1.0) for _ in range(6)), kind="equivalence")
    with pytest.raises(
        JudgeUnavailableError, match=r"after \d+ tries: .*did not answer within 0\.2 s"
    ):
        calculate_semantic_correctness(GOLD[:1], TRACE[:1], judge=True)


def test_a_judge_is_named_by_the_api_it_speaks(
    fake_llm: FakeLLM, session: Callable[..., ScoreSession]
) -> None:
    # One rule for both packages: a server reached with the OpenAI API is the `openai` judge,
    # whether Toolscore's spelling `openai_compatible` or texts' `openai` + base URL chose it.
    from toolscore.metrics.llm_judge import resolve_judge

    session(base_url=fake_llm.base_url, api_key=FAKE_KEY, model="fake-model")
    texts_side = resolve_judge(True)
    tools_side = resolve_judge(
        JudgeConfig(model="fake-model", provider="openai_compatible", base_url=fake_llm.base_url,
                    api_key=FAKE_KEY)
    )  # fmt: skip
    assert texts_side.name == tools_side.name == "openai"
    # ... and every output names it so: the CLI's "Judge: openai (llm)" line reads this field.
    result = calculate_semantic_correctness(
        GOLD[:1], TRACE[:1],
        judge=JudgeConfig(model="fake-model", provider="openai_compatible",
                          base_url=fake_llm.base_url, api_key=FAKE_KEY),
    )  # fmt: skip
    assert (result["judge"], result["method"]) == ("openai", "llm")
