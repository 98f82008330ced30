"""toolscore.scaffold and toolscore init: detection, the files, and a suite that really passes."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from toolscore.cli import main
from toolscore.scaffold import (
    FRAMEWORK_LABELS,
    SUPPORTED_FRAMEWORKS,
    detect_frameworks,
    render_ci_workflow,
    render_test_file,
    scaffold,
)


def test_detects_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["openai>=1.0", "requests"]\n'
        '[project.optional-dependencies]\nagents = ["pydantic-ai-slim[openai]>=0.1"]\n'
    )
    assert detect_frameworks(tmp_path) == ["pydantic_ai", "openai"]


def test_detects_from_requirements(tmp_path: Path) -> None:
    (tmp_path / "requirements-dev.txt").write_text("# tools\n-e .\nClaude_Agent_SDK==0.1\n")
    (tmp_path / "requirements.txt").write_text("anthropic ; python_version >= '3.10'\n")
    assert detect_frameworks(tmp_path) == ["claude_agent_sdk", "anthropic"]


def test_falls_back_to_imports_and_skips_virtualenvs(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "agent.py").write_text("import os\nfrom agents import Runner\n")
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "x.py").write_text("import crewai\n")
    assert detect_frameworks(tmp_path) == ["openai_agents"]
    assert detect_frameworks(tmp_path / "app" / "nothing") == ["generic"]


def test_files_and_overwrite_rules(tmp_path: Path) -> None:
    written = scaffold("openai", tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in written] == [
        "tests/test_agent_tools.py",
        ".toolscore/snapshots/.gitkeep",
        ".github/workflows/toolscore.yml",
    ]
    assert "pip install llm-scorekit pytest" in render_ci_workflow()
    with pytest.raises(FileExistsError, match=r"test_agent_tools\.py"):
        scaffold("openai", tmp_path)
    again = scaffold("anthropic", tmp_path, with_ci=False, force=True)
    assert [p.name for p in again] == ["test_agent_tools.py"]  # the .gitkeep is kept as it is
    assert "Anthropic" in (tmp_path / "tests" / "test_agent_tools.py").read_text()


@pytest.mark.parametrize("framework", SUPPORTED_FRAMEWORKS)
def test_the_generated_suite_passes_then_catches_drift(
    pytester: pytest.Pytester, framework: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    source = render_test_file(framework)
    compile(source, "test_agent_tools.py", "exec")
    assert FRAMEWORK_LABELS[framework] in source
    pytester.makepyfile(test_agent_tools=source)
    result = pytester.runpytest("--strict-markers")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(["toolscore: 1 snapshot created (pending approval)"])
    assert main(["approve", "--all"]) == 0
    pytester.runpytest().assert_outcomes(passed=2)
    drifted = source.replace("flights to Lisbon", "flights to Porto")
    pytester.makepyfile(test_agent_tools=drifted)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(['E       -      "query": "flights to Lisbon"'])


def test_cli_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("requirements.txt").write_text("langgraph\nopenai\n")
    assert main(["init", "--no-ci"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Detected agent framework: LangGraph, OpenAI",
        "Writing tests for: LangGraph",
        "  created tests/test_agent_tools.py",
        "  created .toolscore/snapshots/.gitkeep",
        "",
        "Next steps:",
        "  1. Run pytest: the snapshot test records the sample agent's calls and passes.",
        "  2. Review .toolscore/snapshots/, then approve: toolscore approve --all",
        "  3. Change a value in sample_agent and run pytest again: the test fails with a diff.",
        "  4. Replace sample_agent with a call to your agent.",
    ]
    assert not Path(".github").exists()
    assert main(["init", "--framework", "anthropic"]) == 2
    assert capsys.readouterr().err == (
        "toolscore: error: tests/test_agent_tools.py already exists; pass --force to overwrite it\n"
    )
    assert main(["init", "--framework", "anthropic", "--force", "--dir", "."]) == 0
    out = capsys.readouterr().out
    assert (
        "Writing tests for: Anthropic" in out and "created .github/workflows/toolscore.yml" in out
    )


def test_cli_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("trace.json").write_text(
        '[{"tool": "search", "args": {"q": "x"}}, {"tool": "book", "args": {"id": 7}}]'
    )
    assert main(["validate", "trace.json"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "OK: trace.json is a valid trace file: 2 tool call(s).",
        "  1. search(q='x')",
        "  2. book(id=7)",
    ]
    Path("gold.json").write_text('[{"tool": "search", "args": {"q": {"$regex": "x+"}}}]')
    assert main(["validate", "gold.json", "--gold"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "OK: gold.json is a valid gold file: 1 expected call(s), 1 with argument matchers.",
        "  1. search(q=Regex('x+'))",
    ]
    Path("bad.json").write_text('[{"tool": "search", "args": {"q": {"$regexp": "x"}}}]')
    assert main(["validate", "bad.json", "--gold"]) == 2
    assert "unknown matcher key '$regexp'" in capsys.readouterr().err
    assert main(["validate", "missing.json"]) == 2
    assert capsys.readouterr().err == "toolscore: error: missing.json: no such file\n"


def test_detects_dependency_groups_and_poetry_and_skips_unreadable_files(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[dependency-groups]\ndev = ["langgraph>=0.2", {include-group = "x"}]\n'
        '[tool.poetry.dependencies]\npython = "^3.11"\nanthropic = "*"\n'
    )
    (tmp_path / "requirements.txt").write_bytes(b"crewai\n\xff\xfe not utf-8\n")
    assert detect_frameworks(tmp_path) == ["langgraph", "anthropic"]
    (tmp_path / "pyproject.toml").write_text("[project\nbroken = ")  # not TOML: no hint from it
    (tmp_path / "requirements.txt").unlink()
    (tmp_path / "agent.py").write_text("import anthropic\n")
    assert detect_frameworks(tmp_path) == ["anthropic"]  # the imports decide
    assert render_test_file("no-such-framework") == render_test_file("generic")


class _Terminal(io.StringIO):
    """Keyboard input at a terminal: ``input()`` reads the typed line."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("typed", "chosen"), [("openai\n", "OpenAI"), ("\n", "LangGraph")])
def test_cli_init_asks_at_a_terminal_when_several_frameworks_are_found(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    typed: str,
    chosen: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("requirements.txt").write_text("langgraph\nopenai\n")
    monkeypatch.setattr(sys, "stdin", _Terminal(typed))
    assert main(["init", "--no-ci"]) == 0
    out = capsys.readouterr().out
    assert f"Frameworks: {', '.join(SUPPORTED_FRAMEWORKS)}\n" in out
    assert "Write the tests for which framework? [langgraph] " in out
    assert f"Writing tests for: {chosen}\n" in out


def test_cli_init_refuses_an_unknown_answer_and_a_file_as_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("requirements.txt").write_text("langgraph\nopenai\n")
    monkeypatch.setattr(sys, "stdin", _Terminal("crew\n"))
    assert main(["init"]) == 2
    assert capsys.readouterr().err == (
        "toolscore: error: unknown framework 'crew'; pick one of the list or pass --framework\n"
    )
    assert not Path("tests").exists()
    assert main(["init", "--dir", "requirements.txt"]) == 2
    assert capsys.readouterr().err == (
        "toolscore: error: --dir requirements.txt: is a file, not a project folder\n"
    )
