"""Run a module as ``python -m`` does, and SIGKILL it at one exact step of its own.

``KILL_AT`` names the step by an audit event (:func:`sys.addaudithook`) and the end of the path
the event is about: ``open:_merged`` (a file is opened, as ``Path.touch`` does),
``os.rename:.merging`` (``os.replace`` of that file), ``os.remove:NAME``, ``os.rmdir:NAME``;
``after:NAME`` kills at the first removal (file or folder) after the removal of ``NAME``. The
process writes ``kill_at: <step>`` to stderr and kills itself: a real kill at a known point of a
real run, with no hook in the code under test.

Usage: ``KILL_AT=os.rename:.merging python kill_at.py toolscore.cli eval-dataset ...``
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
from typing import Any

_REMOVALS = ("os.remove", "os.rmdir")


def _path(event: str, args: tuple[Any, ...]) -> str:
    if not args:
        return ""
    target = args[0]
    return os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike)) else ""


def _kill(step: str) -> None:
    sys.stderr.write(f"kill_at: {step}\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def _install(spec: str) -> None:
    kind, _, name = spec.partition(":")
    seen = {"removed": False}

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if kind == "after":
            if event in _REMOVALS:
                if seen["removed"]:
                    _kill(f"{event} {_path(event, args)} after {name}")
                elif _path(event, args).endswith(name):
                    seen["removed"] = True
        elif event == kind and _path(event, args).endswith(name):
            _kill(spec)

    sys.addaudithook(hook)


if __name__ == "__main__":
    _install(os.environ["KILL_AT"])
    module, sys.argv = sys.argv[1], sys.argv[1:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
