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
    assert done.stdout.startswith("precision 0.7518   recall 0.7924   F1 0.7716   (judge: local;")
    assert matches(shown, done.stdout), mismatch_report(
        "README.md", f"`{command}`", shown, done.stdout
    )


def test_the_test_command_is_what_ci_runs() -> None:
    _, second, _ = _two_commands()
    assert second == (
        VENV + 'pip install -e ".[dev]" && pip install --no-deps bfcl-eval && python -m pytest -n 2'
    )
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extras = re.search(r'pip install -q -e "\.\[([^\]]*)\]"', ci)
    assert extras is not None and "dev" in extras[1].split(",")
    assert re.search(r"^pip install -q --no-deps bfcl-eval$", ci, re.M)
    assert re.search(r"^python -m (coverage run -m )?pytest -n 2$", ci, re.M)


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
