"""The README is a landing page whose two commands are exactly true, and examples/ runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from doc_blocks import matches, mismatch_report, read_blocks

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
VENV = "python3 -m venv .venv && . .venv/bin/activate && "


def _two_commands() -> tuple[str, str, str]:
    """The two commands of "Two commands for a fresh machine" and the output shown for the first."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Two commands for a fresh machine", 1)[1].split("\n## ", 1)[0]
    blocks = read_blocks(README, section)
    bash = [b.code.strip() for b in blocks if b.language == "bash"]
    shown = [b.code for b in blocks if b.language == "text"]
    assert len(bash) == 2 and len(shown) == 1, "the section holds two commands and one output"
    return bash[0], bash[1], shown[0]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTEST_ADDOPTS"] = "-p no:langsmith_plugin"
    return env


def _run(command: list[str], timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=ROOT,
        env={**_env(), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_the_main_job_command_prints_the_documented_figures() -> None:
    first, _, shown = _two_commands()
    install = VENV + "pip install -e . && "
    assert first.startswith(install), first
    command = first[len(install) :]
    assert command == "texts-score compare examples/texts/expected.txt examples/texts/given.txt"
    # A terminal wide enough for the first line (the README shows it unwrapped).
    done = _run(command.split(), COLUMNS="200")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("precision 0.7550   recall 0.7744   F1 0.7646   (judge: local;")
    assert matches(shown, done.stdout), mismatch_report(
        "README.md", f"`{command}`", shown, done.stdout
    )


def _ci_steps() -> list[str]:
    """The commands of ``.ci/run`` as a user would type them (``-q`` and coverage left out)."""
    steps = []
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        line = re.sub(r"^(pip install) -q ", r"\1 ", line)
        line = line.replace("python -m coverage run -m pytest", "python -m pytest")
        steps.append(line)
    return steps


def test_the_test_command_is_what_ci_runs() -> None:
    _, second, _ = _two_commands()
    steps = second.split(" && ")
    assert steps == [
        "python3 -m venv .venv",
        ". .venv/bin/activate",
        'pip install -e ".[dev]"',
        ".ci/test-tools",
        "python -m pytest -n 2",
    ], second
    ci = _ci_steps()
    # The README's steps, in its order, are CI's steps...
    positions = [ci.index(step) if step in ci else -1 for step in steps]
    assert -1 not in positions and positions == sorted(positions), (steps, ci)
    # ... and CI installs nothing else and runs no other tests: what it adds are checks.
    extra = [s for s in ci if s not in steps]
    assert not [s for s in extra if re.search(r"\b(pip|npm|apt-get)\b.*install|pytest", s)], extra


def test_the_dev_extra_holds_every_extra_the_suite_tests() -> None:
    # A new extra's tests run in CI and on a user's machine only if `dev` pulls it in.
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the copy pip vendors
        from pip._vendor import tomli as tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    dev = extras["dev"]
    pulled: set[str] = set()
    for requirement in dev:
        m = re.fullmatch(r"llm-scorekit\[([^\]]+)\]", requirement)
        if m:
            pulled |= {name.strip() for name in m[1].split(",")}
    for name, requirements in extras.items():
        if name == "dev" or name in pulled:
            continue
        missing = [r for r in requirements if r not in dev]
        assert not missing, f"the dev extra lacks extra {name!r} ({missing})"


def test_the_readme_is_a_landing_page() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; move reference material to docs/"
    # Every docs page it links to exists (mkdocs --strict checks the site's own links).
    for target in re.findall(r"\]\((docs/[^)#]+)", README.read_text(encoding="utf-8")):
        assert (ROOT / target).is_file(), target


def test_every_example_runs() -> None:
    examples = ROOT / "examples"
    scripts = sorted(
        p
        for p in examples.rglob("*.py")
        if not p.name.startswith("test_") and "__main__" in p.read_text(encoding="utf-8")
    )
    assert scripts, "no example script found"
    for script in scripts:
        done = _run([sys.executable, str(script)])
        assert done.returncode == 0, f"{script}:\n{done.stdout}\n{done.stderr}"
    test_files = sorted(str(p) for p in examples.rglob("test_*.py"))
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *test_files], 300)
    assert done.returncode == 0, done.stdout
    assert re.search(r"^\d+ passed in ", done.stdout, re.M), done.stdout
    assert "skipped" not in done.stdout and "error" not in done.stdout.lower(), done.stdout
