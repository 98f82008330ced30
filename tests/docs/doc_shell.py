"""The terminal session of one page: its commands run one after the other, as a reader types them.

Every command runs in a fresh ``bash``, but what a terminal would keep is kept: the folder a
``cd`` moved to and the variables an ``export`` set apply to every later command, file and
Python block of the page. A command that ends with ``&`` runs in the background until the page
ends; its shown output is awaited (up to the timeout), which is how a page waits for a server
it started to be ready.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from doc_blocks import matches

__all__ = ["Background", "Shell"]

#: Variables bash sets for itself; they are not part of what a command exported.
_BASH_OWN = {"_", "SHLVL", "PWD", "OLDPWD"}


@dataclass
class Background:
    """A command started with ``&``: its process group and the file its output goes to."""

    command: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


class Shell:
    """Runs a page's commands in ``cwd`` with ``env``, carrying ``cd`` and ``export`` over."""

    def __init__(self, cwd: Path, env: dict[str, str], state: Path, timeout: float) -> None:
        self.cwd = cwd
        self.env = env
        self.state = state  # a folder outside the page's work folder, for the runner's files
        self.timeout = timeout
        self.background: list[Background] = []
        state.mkdir(parents=True, exist_ok=True)

    def run(self, command: str) -> subprocess.CompletedProcess[str]:
        """Run ``command`` (stdout and stderr together, as a terminal shows them)."""
        saved = self.state / "after"
        saved.unlink(missing_ok=True)
        # After the command, write where it left the shell and what it exported; a command
        # that exits the shell keeps the state it started with.
        script = (
            f"{command}\n__docs_test_rc=$?\n"
            f"{{ printf '%s\\0' \"$PWD\"; env -0; }} > {shlex.quote(str(saved))}\n"
            "exit $__docs_test_rc\n"
        )
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,  # a command that asks (on a terminal) gets no answer
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=self.timeout,
            check=False,
        )
        if saved.exists():
            cwd, *variables = saved.read_text(encoding="utf-8").split("\0")
            self.cwd = Path(cwd)
            pairs = (item.partition("=") for item in variables if "=" in item)
            self.env = {name: value for name, _, value in pairs if name not in _BASH_OWN}
        return done

    def start(self, command: str) -> Background:
        """Start ``command`` (without its ``&``) in the background, in a process group."""
        log = self.state / f"background-{len(self.background) + 1}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                ["bash", "-c", command],
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        job = Background(command, process, log)
        self.background.append(job)
        return job

    def wait_for(self, job: Background, shown: str) -> bool:
        """Wait until ``job`` has printed ``shown``; False when it ends or times out first."""
        deadline = time.monotonic() + self.timeout
        while not matches(shown, job.output()):
            if job.process.poll() is not None or time.monotonic() > deadline:
                return matches(shown, job.output())
            time.sleep(0.05)
        return True

    def stop(self) -> None:
        """End every background command and what it started (SIGTERM, then SIGKILL)."""
        for job in self.background:
            # The whole group: what the command started may outlive the command itself.
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(job.process.pid, sig)
                except ProcessLookupError:
                    break
                with contextlib.suppress(subprocess.TimeoutExpired):
                    job.process.wait(timeout=5)
            job.process.wait()
        self.background.clear()
