"""TraceCapture / capture_trace: runs become trace files, trace files become gold files."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import toolscore
from toolscore import TraceCapture, capture_trace
from toolscore.adapters.base import ToolCall


def _files(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def test_decorated_agent_runs_are_saved_with_their_calls(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace(name="weather")
    def agent(city: str, units: str = "metric") -> dict[str, Any]:
        return {"tools": [{"tool": "get_weather", "args": {"city": city}}], "answer": "sunny"}

    assert agent("Oslo", units="imperial")["answer"] == "sunny"
    (saved,) = _files(tmp_path)
    assert saved["name"] == "weather" and saved["id"].startswith("weather_")
    assert saved["tools"] == [{"tool": "get_weather", "args": {"city": "Oslo"}}]
    assert saved["metadata"] == {"args": ["Oslo"], "kwargs": {"units": "imperial"}, "error": False}


def test_runs_in_the_same_second_get_their_own_files(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace()
    def agent(n: int) -> list[dict[str, Any]]:
        return [{"tool": "step", "args": {"n": n}}]

    for n in range(5):
        agent(n)
    assert sorted(f["tools"][0]["args"]["n"] for f in _files(tmp_path)) == [0, 1, 2, 3, 4]


def test_provider_responses_async_agents_and_errors(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)
    response = {"content": [{"type": "tool_use", "id": "t", "name": "search", "input": {"q": 1}}]}

    @capture.trace(name="anthropic")
    async def agent(prompt: str) -> dict[str, Any]:
        return response

    @capture.trace(name="broken")
    def broken(prompt: str) -> None:
        raise RuntimeError("model down")

    @capture.trace(name="quiet", save_on_error=False)
    def quiet(prompt: str) -> None:
        raise RuntimeError("model down")

    assert asyncio.run(agent("hi")) is response
    with pytest.raises(RuntimeError):
        broken("hi")
    with pytest.raises(RuntimeError):
        quiet("hi")
    by_name = {f["name"]: f for f in _files(tmp_path)}
    assert set(by_name) == {"anthropic", "broken"}
    assert by_name["anthropic"]["tools"] == [{"tool": "search", "args": {"q": 1}}]
    assert by_name["broken"]["metadata"]["error"] is True and by_name["broken"]["tools"] == []


def test_unreadable_results_and_unsaveable_runs_do_not_break_the_agent(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace(name="odd")
    def agent() -> object:
        return object()

    agent()
    (saved,) = _files(tmp_path)
    assert saved["tools"] == [] and "no tool calls could be read" in saved["metadata"]["note"]
    blocked = tmp_path / "file"
    blocked.write_text("")
    stuck = TraceCapture(dataset_dir=blocked / "sub")

    @stuck.trace(name="x")
    def fine() -> list[Any]:
        return []

    with pytest.warns(RuntimeWarning, match="could not save the captured trace"):
        assert fine() == []


def test_auto_save_off_collects_until_save_all(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path, auto_save=False)

    @capture.trace(name="later")
    def agent() -> list[ToolCall]:
        return [ToolCall("a", {"x": 1}, result="r", metadata={"is_error": True})]

    agent()
    assert list(tmp_path.iterdir()) == [] and len(capture.captured_traces) == 1
    (path,) = capture.save_all()
    assert capture.captured_traces == []
    assert json.loads(path.read_text())["tools"] == [
        {"tool": "a", "args": {"x": 1}, "result": "r", "is_error": True}
    ]


def test_to_gold_standard_then_evaluate(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)
    path = capture.capture_tools(
        [ToolCall("search", {"q": "x"}, result=[1, 2]), {"tool": "open", "args": {"id": 2}}],
        name="good run",
        description="a run that went well",
        metadata={"model": "m"},
    )
    gold = capture.to_gold_standard(path, tmp_path / "gold" / "search.json")
    assert json.loads(gold.read_text()) == [
        {"tool": "search", "args": {"q": "x"}, "description": "a run that went well"},
        {"tool": "open", "args": {"id": 2}, "description": "a run that went well"},
    ]
    assert toolscore.evaluate_trace(gold, path).score == 1.0
    with pytest.raises(ValueError, match="must be a ToolCall"):
        capture.capture_tools(["search"], name="bad")  # type: ignore[list-item]


def test_capture_trace_uses_a_traces_folder_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("toolscore.capture._default_capture", None)

    @capture_trace(name="cwd")
    def agent() -> list[dict[str, Any]]:
        return [{"tool": "a", "args": {}}]

    agent()
    assert [f["name"] for f in _files(tmp_path / "traces")] == ["cwd"]
