"""Every code example of README.md and docs/ runs, and prints what the page shows.

One test per page. The conventions (which blocks run, how shown output is compared, how a
block is kept from running) are in ``doc_blocks.py`` and ``docs/contributing.md``.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import KNOWN_LANGUAGES, Block, matches, mismatch_report, read_blocks
from doc_shell import Shell

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("doc_python_runner.py")
PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")],
    key=lambda p: p.relative_to(ROOT).as_posix(),
)
#: Folders of the repository a page's commands may read, linked into its work folder.
LINKED = ("examples", "tests/toolscore/bfcl/data", "tests/fakes")
#: Seconds one command or block may take before the page fails.
TIMEOUT = 120
#: Variables (and prefixes) that would change what the pages' commands do: the pages run as on
#: a developer's machine (a page that shows CI behaviour sets ``CI`` in its command). No xdist
#: or pytest state of this session leaks into a user's pytest run either.
DROPPED = {"CI", "PYTHONPATH"}
DROPPED_PREFIXES = ("GITHUB_", "TOOLSCORE_", "PYTEST_")


def _env(work: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in DROPPED and not key.startswith(DROPPED_PREFIXES)
    }
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "120"  # the width the pages' output was written for
    env["NO_COLOR"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # langsmith (installed with the test-sdks extra) registers a pytest plugin that costs about
    # a second per pytest start and prints nothing: keep the pages' many pytest runs quick.
    # The linked folders are the runner's, not the page's: a bare `pytest` does not collect them.
    ignore = " ".join(shlex.quote(f"--ignore={work / name}") for name in LINKED)
    env["PYTEST_ADDOPTS"] = f"-p no:langsmith_plugin {ignore}"
    env["HOME"] = str(work / ".home")  # no user config or cache outside the work folder
    return env


class Page:
    """A page's work folder, terminal session and Python process, for running its blocks."""

    def __init__(self, path: Path, work: Path, state: Path) -> None:
        self.path = path
        self.work = work
        work.mkdir(parents=True)
        (work / ".home").mkdir()
        for name in LINKED:
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).symlink_to(ROOT / name)
        self.shell = Shell(work, _env(work), state, TIMEOUT)
        self.python: subprocess.Popen[str] | None = None
        self.ran_commands: list[str] = []

    def close(self) -> None:
        try:
            if self.python is not None:
                assert self.python.stdin is not None
                self.python.stdin.close()
                self.python.wait(timeout=TIMEOUT)
        finally:
            self.shell.stop()

    def run_python(self, block: Block) -> None:
        if self.python is None:
            self.python = subprocess.Popen(
                [sys.executable, str(RUNNER)],
                cwd=self.work,
                env=self.shell.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.python.stdin is not None and self.python.stdout is not None
        request = {
            "kind": block.language,
            "code": block.code,
            "name": block.where,
            "cwd": str(self.shell.cwd),
            "env": self.shell.env,
        }
        self.python.stdin.write(json.dumps(request) + "\n")
        self.python.stdin.flush()
        line = self.python.stdout.readline()
        if not line:
            pytest.fail(f"{block.where}: the Python process of this page died", pytrace=False)
        reply = json.loads(line)
        if reply["error"]:
            kind = "doctest" if block.language == "pycon" else "block"
            pytest.fail(f"{block.where}: this {kind} failed:\n{reply['error']}", pytrace=False)
        if block.output is not None:
            _check_shows_something(block.output, block.output.code)
        if block.output is not None and not matches(block.output.code, reply["stdout"]):
            pytest.fail(
                mismatch_report(block.where, "this block", block.output.code, reply["stdout"]),
                pytrace=False,
            )

    def run_command(self, command: str) -> subprocess.CompletedProcess[str]:
        self.ran_commands.append(command)
        return self.shell.run(command)

    def run_console(self, block: Block) -> None:
        for command, shown in _commands(block):
            _check_shows_something(block, shown)
            background = re.fullmatch(r"(?s)(.*[^&])&\s*", command)
            if background:
                self.ran_commands.append(command)
                job = self.shell.start(background[1])
                if not self.shell.wait_for(job, shown):
                    pytest.fail(
                        mismatch_report(block.where, f"`{command}`", shown, job.output()),
                        pytrace=False,
                    )
                continue
            done = self.run_command(command)
            if not shown.strip() and done.returncode != 0:
                pytest.fail(
                    f"{block.where}: `{command}` exited {done.returncode}:\n{done.stdout}",
                    pytrace=False,
                )
            if not matches(shown, done.stdout):
                pytest.fail(
                    mismatch_report(block.where, f"`{command}`", shown, done.stdout),
                    pytrace=False,
                )

    def run_bash(self, block: Block) -> None:
        done = self.run_command(block.code)
        if done.returncode != 0:
            pytest.fail(
                f"{block.where}: this block exited {done.returncode}:\n{done.stdout}",
                pytrace=False,
            )

    def write_file(self, block: Block) -> Path:
        """Write a file block where the session is; a repository file is compared, not written."""
        assert block.title is not None
        target = self.shell.cwd / block.title
        real = target.resolve()
        if real.is_relative_to(ROOT) and not real.is_relative_to(self.work.resolve()):
            # A title in a linked folder shows a file of the repository as it is: never
            # written through the link, compared instead.
            if not real.is_file():
                pytest.fail(f"{block.where}: {block.title} is not in the repository", pytrace=False)
            actual = real.read_text(encoding="utf-8")
            if actual != block.code:
                diff = difflib.unified_diff(
                    block.code.splitlines(), actual.splitlines(), "page", "repository", lineterm=""
                )
                pytest.fail(
                    f"{block.where}: the page shows {block.title} otherwise than the repository"
                    " holds it (a block titled with a path in a linked folder shows that file"
                    " exactly):\n" + "\n".join(diff),
                    pytrace=False,
                )
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.code, encoding="utf-8")
        return target


def _check_shows_something(block: Block, shown: str) -> None:
    # Shown output made only of '...' would match anything: it checks nothing.
    if shown.strip() and not shown.replace("...", "").strip():
        pytest.fail(f"{block.where}: shown output is only '...'; show real output", pytrace=False)


def _commands(block: Block) -> list[tuple[str, str]]:
    """``$ command`` lines (with ``\\`` continuations) and the output shown after each."""
    out: list[tuple[str, list[str]]] = []
    lines = block.code.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + "\n" + lines[i]
            out.append((command, []))
        elif out:
            out[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"{block.where}: a console block starts with '$ command'")
        i += 1
    return [(command, "\n".join(shown)) for command, shown in out]


def _run_page(path: Path, tmp: Path) -> int:
    blocks = read_blocks(path)
    page = Page(path, tmp / "work", tmp / "runner")
    test_files: list[Path] = []
    ran = 0
    try:
        for block in blocks:
            if block.language not in KNOWN_LANGUAGES:
                pytest.fail(
                    f"{block.where}: unknown code block language {block.language!r}; "
                    f"use one of {', '.join(sorted(KNOWN_LANGUAGES - {''}))}",
                    pytrace=False,
                )
            if block.skip is not None:
                continue
            if block.title is not None:
                written = page.write_file(block)
                if re.fullmatch(r"(.*/)?test_[^/]*\.py", block.title):
                    test_files.append(written)
                continue
            if block.language in ("python", "pycon"):
                page.run_python(block)
            elif block.language == "console":
                page.run_console(block)
            elif block.language == "bash":
                page.run_bash(block)
            elif block.language == "json":
                try:
                    json.loads(block.code)
                except ValueError as exc:
                    pytest.fail(f"{block.where}: not valid JSON: {exc}", pytrace=False)
            else:
                continue
            ran += 1
        unrun = [
            str(file)
            for file in test_files
            if not any("pytest" in c and file.name in c for c in page.ran_commands)
        ]
        if unrun:
            command = "python -m pytest -q -p no:cacheprovider " + " ".join(map(shlex.quote, unrun))
            done = page.run_command(command)
            if done.returncode != 0:
                pytest.fail(
                    f"{path}: the page's test files {unrun} do not pass:\n{done.stdout}",
                    pytrace=False,
                )
            ran += 1
    finally:
        page.close()
    return ran


@pytest.mark.parametrize("path", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_page_examples_run_and_print_what_they_show(path: Path, tmp_path: Path) -> None:
    _run_page(path, tmp_path)


#: Blocks kept from running: each needs an API key, a real server, Chromium, a new virtual
#: environment or a download, or starts a server that prints nothing to wait for.
MAX_SKIPPED = 12


def test_the_pages_hold_examples_and_few_are_skipped() -> None:
    blocks = {p.relative_to(ROOT).as_posix(): read_blocks(p) for p in PAGES}
    # A parser that found no block at all would make every page pass.
    assert len(blocks["README.md"]) >= 5
    assert sum(len(b) for b in blocks.values()) >= 100
    skipped = [f"{b.where}: {b.skip}" for page in blocks.values() for b in page if b.skip]
    assert len(skipped) <= MAX_SKIPPED, "\n".join(skipped)
