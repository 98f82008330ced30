"""``toolscore init``: detect a project's agent framework and write a test suite that passes.

Over 400 lines on purpose: most of it is data (one profile per framework: its response shape,
its imports) and the templates of the files it writes, kept beside the code that fills them.

:func:`detect_frameworks` reads the project's declared dependencies (``pyproject.toml``,
``requirements*.txt``) and, when they name no framework, the imports of up to 200 Python
files. :func:`scaffold` writes:

* ``tests/test_agent_tools.py``: a snapshot test and an ``expect()`` test of a sample agent
  that answers in the framework's own response shape, both passing on the first run;
* ``.toolscore/snapshots/.gitkeep``, so the snapshot folder is committed;
* ``.github/workflows/toolscore.yml`` (unless ``with_ci=False``): CI that replays the
  approved snapshots (a missing or unapproved snapshot fails there, by design).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "requirements.txt").write_text("langgraph>=0.2\\nrequests\\n")
    >>> detect_frameworks(root)
    ['langgraph']
    >>> [str(p.relative_to(root)) for p in scaffold("langgraph", root, with_ci=False)]
    ['tests/test_agent_tools.py', '.toolscore/snapshots/.gitkeep']
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

__all__ = [
    "FRAMEWORK_LABELS",
    "SUPPORTED_FRAMEWORKS",
    "FrameworkProfile",
    "detect_frameworks",
    "render_ci_workflow",
    "render_test_file",
    "scaffold",
]

_SCAN_LIMIT = 200
_SKIP_DIRS = {".git", ".venv", "venv", "env", "node_modules", "__pycache__", ".tox", "build"}
_SKIP_DIRS |= {"dist", "site-packages", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


@dataclass(frozen=True)
class FrameworkProfile:
    """What the generated test needs to know about one framework.

    Attributes:
        key: the framework key (one of :data:`SUPPORTED_FRAMEWORKS`).
        label: its display name.
        usage: lines showing how a real agent of this kind is called (shown as a comment).
        response: a sample response in the framework's native shape, as JSON data.
    """

    key: str
    label: str
    usage: tuple[str, ...]
    response: Any


def _search(query: str) -> dict[str, Any]:
    return {"query": query}


_Q = "flights to Lisbon"
_ARGS_JSON = json.dumps(_search(_Q))
_PROFILES = {
    p.key: p
    for p in (
        FrameworkProfile(
            "langgraph",
            "LangGraph",
            (
                "from langgraph.prebuilt import create_react_agent",
                "agent = create_react_agent(model, tools)",
                'return agent.invoke({"messages": [("user", prompt)]})',
            ),
            {
                "messages": [
                    {"type": "human", "content": "Find " + _Q},
                    {
                        "type": "ai",
                        "content": "",
                        "tool_calls": [{"name": "search", "args": _search(_Q), "id": "call_1"}],
                    },
                ]
            },
        ),
        FrameworkProfile(
            "pydantic_ai",
            "Pydantic AI",
            (
                "from pydantic_ai import Agent",
                'agent = Agent("openai:gpt-4o", tools=[search])',
                "return agent.run_sync(prompt).all_messages()",
            ),
            [
                {
                    "kind": "response",
                    "parts": [
                        {
                            "part_kind": "tool-call",
                            "tool_name": "search",
                            "args": _search(_Q),
                            "tool_call_id": "call_1",
                        }
                    ],
                }
            ],
        ),
        FrameworkProfile(
            "openai_agents",
            "OpenAI Agents SDK",
            (
                "from agents import Agent, Runner",
                'agent = Agent(name="assistant", tools=[search])',
                "return Runner.run_sync(agent, prompt).new_items",
            ),
            [
                {
                    "type": "tool_call_item",
                    "raw_item": {
                        "type": "function_call",
                        "name": "search",
                        "arguments": _ARGS_JSON,
                        "call_id": "call_1",
                    },
                }
            ],
        ),
        FrameworkProfile(
            "crewai",
            "CrewAI",
            (
                "from crewai import Agent, Crew, Task",
                "crew = Crew(agents=[...], tasks=[...])",
                'return crew.kickoff(inputs={"prompt": prompt})',
            ),
            {"tools_results": [{"tool_name": "search", "tool_args": _search(_Q)}]},
        ),
        FrameworkProfile(
            "claude_agent_sdk",
            "Claude Agent SDK",
            (
                "from claude_agent_sdk import query",
                "return [message async for message in query(prompt=prompt)]",
            ),
            [
                {
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "toolu_1",
                            "name": "search",
                            "input": _search(_Q),
                        }
                    ]
                }
            ],
        ),
        FrameworkProfile(
            "openai",
            "OpenAI",
            (
                "from openai import OpenAI",
                "return OpenAI().chat.completions.create(",
                '    model="gpt-4o", messages=[{"role": "user", "content": prompt}], tools=TOOLS)',
            ),
            {
                "choices": [
                    {
                        "message": {
                            "role": "assistant",
                            "tool_calls": [
                                {
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {"name": "search", "arguments": _ARGS_JSON},
                                }
                            ],
                        }
                    }
                ]
            },
        ),
        FrameworkProfile(
            "anthropic",
            "Anthropic",
            (
                "import anthropic",
                "return anthropic.Anthropic().messages.create(",
                '    model="claude-sonnet-4-5", max_tokens=1024, tools=TOOLS,',
                '    messages=[{"role": "user", "content": prompt}])',
            ),
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "search", "input": _search(_Q)}
                ],
            },
        ),
        FrameworkProfile(
            "generic",
            "any framework",
            ("from my_app.agent import run_agent", "return run_agent(prompt)"),
            [{"tool": "search", "args": _search(_Q)}],
        ),
    )
}

SUPPORTED_FRAMEWORKS: list[str] = list(_PROFILES)
"""Framework keys, most specific first (agent frameworks before bare provider SDKs)."""

FRAMEWORK_LABELS: dict[str, str] = {key: profile.label for key, profile in _PROFILES.items()}
"""Display names of the framework keys."""

# distribution name (normalised) -> framework; top-level import -> framework
_DISTRIBUTIONS = {f.replace("_", "-"): f for f in SUPPORTED_FRAMEWORKS if f != "generic"}
_DISTRIBUTIONS["pydantic-ai-slim"] = "pydantic_ai"
_IMPORTS = {f: f for f in _DISTRIBUTIONS.values() if f != "openai_agents"}
_IMPORTS["agents"] = "openai_agents"


_TEST_FILE = Template('''\
"""Tool-call tests for your $label agent, written by ``toolscore init``.

Both tests pass on the first run. The snapshot test records the sample agent's tool calls
under .toolscore/snapshots/ and warns that they wait for approval; review the file, then:

    toolscore approve --all

From then on every run compares the agent's calls with the approved ones and fails with a diff
when they change (try it: edit the sample response below and run pytest). Replace
``sample_agent`` with a call to your agent; ``toolscore_snapshot`` reads its response as it is.
"""

import pytest

from toolscore import ANY, expect


def sample_agent(prompt):
    """Stands in for your agent: a response in the $label shape.

    Call your agent here instead, for example:
$usage
    """
    return $response


@pytest.mark.toolscore
def test_tool_calls_match_the_approved_snapshot(toolscore_snapshot):
    toolscore_snapshot(sample_agent("Find $query"))


@pytest.mark.toolscore
def test_searches_and_never_deletes():
    (
        expect(sample_agent("Find $query"))
        .calls("search", query=ANY)
        .does_not_call("delete_account")
        .run()
    )
''')

_CI_FILE = """\
# Written by `toolscore init`: replays the approved tool-call snapshots on every push and PR.
# Snapshots are recorded and approved on a developer machine and committed; in CI (where the
# CI variable is set) a missing or unapproved snapshot fails the run instead of being recorded.
name: toolscore

on:
  push:
    branches: [main]
  pull_request:

jobs:
  tool-calls:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install
        run: |
          python -m pip install --upgrade pip
          pip install llm-scorekit pytest
          # and your agent's own dependencies, e.g.: pip install -r requirements.txt
      - name: Tool-call tests
        run: pytest tests/ -q
"""


def _python_literal(value: Any, indent: int) -> str:
    """``value`` as Python source, one item per line, indented to sit at ``indent``."""
    pad, inner = " " * indent, " " * (indent + 4)
    if isinstance(value, dict) and value:
        items = [
            f"{inner}{json.dumps(k)}: {_python_literal(v, indent + 4)}," for k, v in value.items()
        ]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value:
        items = [f"{inner}{_python_literal(v, indent + 4)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{pad}]"
    if isinstance(value, str):
        return json.dumps(value)  # a valid Python string literal too
    return repr(value)


def render_test_file(framework: str) -> str:
    """The generated test module for ``framework`` (unknown keys get the generic one)."""
    profile = _PROFILES.get(framework, _PROFILES["generic"])
    usage = "\n".join(f"        {line}" for line in profile.usage)
    return _TEST_FILE.substitute(
        label=profile.label, usage=usage, response=_python_literal(profile.response, 4), query=_Q
    )


def render_ci_workflow() -> str:
    """The GitHub Actions workflow that runs the tests in CI."""
    return _CI_FILE


def _distribution(requirement: str) -> str:
    spec = requirement.split("#", 1)[0].strip()
    name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec)
    return name.group(0).lower().replace("_", "-").replace(".", "-") if name else ""


def _from_requirements(text: str) -> set[str]:
    return {
        _DISTRIBUTIONS[d]
        for line in text.splitlines()
        if not line.strip().startswith(("-", "#"))
        and (d := _distribution(line.strip())) in _DISTRIBUTIONS
    }


def _pyproject_requirements(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if sys.version_info >= (3, 11):
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return []
        project = data.get("project", {})
        found = list(project.get("dependencies", []))
        for group in (project.get("optional-dependencies") or {}).values():
            found.extend(group)
        for group in (data.get("dependency-groups") or {}).values():
            found.extend(item for item in group if isinstance(item, str))
        found.extend((data.get("tool", {}).get("poetry", {}).get("dependencies") or {}).keys())
        return [item for item in found if isinstance(item, str)]
    # Python 3.10 has no TOML reader: every quoted string and every key is a candidate.
    return re.findall(r'"([^"\n]+)"', text) + re.findall(r"^\s*([\w.-]+)\s*=", text, re.M)


def _from_imports(root: Path) -> set[str]:
    found: set[str] = set()
    pattern = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][\w]*)", re.M)
    for scanned, path in enumerate(p for p in root.rglob("*.py") if not _SKIP_DIRS & set(p.parts)):
        if scanned >= _SCAN_LIMIT:
            break
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found.update(_IMPORTS[m] for m in pattern.findall(text) if m in _IMPORTS)
    return found


def detect_frameworks(root: str | Path) -> list[str]:
    """The agent frameworks a project uses, most specific first; ``["generic"]`` if none.

    Args:
        root: the project folder.
    """
    root = Path(root)
    found: set[str] = set()
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        found |= _from_requirements("\n".join(_pyproject_requirements(pyproject)))
    for requirements in sorted(root.glob("requirements*.txt")):
        try:
            found |= _from_requirements(requirements.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    if not found:
        found = _from_imports(root)
    return [f for f in SUPPORTED_FRAMEWORKS if f in found] or ["generic"]


def scaffold(
    framework: str, output_dir: str | Path, with_ci: bool = True, force: bool = False
) -> list[Path]:
    """Write the test suite (and the CI workflow) for ``framework`` into ``output_dir``.

    Args:
        framework: one of :data:`SUPPORTED_FRAMEWORKS` (anything else gets the generic suite).
        output_dir: the project folder.
        with_ci: also write ``.github/workflows/toolscore.yml``.
        force: overwrite files that exist (else nothing is written and an error is raised).

    Returns:
        The files written (an existing ``.gitkeep`` is kept and not listed).

    Raises:
        FileExistsError: a file to write exists and ``force`` is false; its path is the message.
    """
    root = Path(output_dir)
    targets = [(root / "tests" / "test_agent_tools.py", render_test_file(framework))]
    targets.append((root / ".toolscore" / "snapshots" / ".gitkeep", ""))
    if with_ci:
        targets.append((root / ".github" / "workflows" / "toolscore.yml", render_ci_workflow()))
    existing = [path for path, content in targets if content and path.exists()]
    if existing and not force:
        raise FileExistsError(str(existing[0]))
    written: list[Path] = []
    for path, content in targets:
        if not content and path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        written.append(path)
    return written
