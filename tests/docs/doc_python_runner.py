"""Run a page's Python blocks in one process, in order, sharing one namespace.

Started by ``test_docs_examples.py`` with the page's work folder as the current directory. It
reads one JSON request per line on stdin (``{"kind": "python"|"pycon", "code": ..., "name":
..., "cwd": ..., "env": {...}}``) and answers each with one JSON line on stdout: ``{"stdout":
..., "error": ...}``. A block runs in the folder and with the variables the page's terminal
session has reached (a ``cd`` or ``export`` in an earlier console block counts).
A separate process per page keeps what the examples do (``configure()``, warnings filters,
imports) out of the test session.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import sys
import traceback
from typing import Any


def _python(code: str, name: str, namespace: dict[str, Any]) -> tuple[str, str | None]:
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(code, name, "exec"), namespace)
        except BaseException:
            error = traceback.format_exc()
    return out.getvalue(), error


def _pycon(code: str, name: str, namespace: dict[str, Any]) -> tuple[str, str | None]:
    test = doctest.DocTestParser().get_doctest(code, namespace, name, name, 0)
    report = io.StringIO()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test, out=report.write, clear_globs=False)
    namespace.update(test.globs)  # DocTest works on a copy: keep its names for later blocks
    failed = runner.summarize(verbose=False).failed
    return "", (report.getvalue() if failed else None)


def _follow_the_shell(shell: dict[str, Any], request: dict[str, Any]) -> None:
    """Apply what the page's commands changed since the last block (a block's own changes to
    its folder or environment stay, unless a command changed the same thing since)."""
    cwd = request.get("cwd", shell["cwd"])
    if cwd != shell["cwd"]:
        os.chdir(cwd)
    env: dict[str, str] = request.get("env", shell["env"])
    for name in shell["env"].keys() - env.keys():
        os.environ.pop(name, None)
    for name, value in env.items():
        if shell["env"].get(name) != value:
            os.environ[name] = value
    shell["cwd"], shell["env"] = cwd, env


def main() -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    reply = sys.stdout
    sys.path.insert(0, ".")
    shell: dict[str, Any] = {"cwd": os.getcwd(), "env": dict(os.environ)}
    for line in sys.stdin:
        request = json.loads(line)
        _follow_the_shell(shell, request)
        run = _pycon if request["kind"] == "pycon" else _python
        with contextlib.redirect_stdout(io.StringIO()):  # doctest's own summary output
            stdout, error = run(request["code"], request["name"], namespace)
        reply.write(json.dumps({"stdout": stdout, "error": error}) + "\n")
        reply.flush()


if __name__ == "__main__":
    main()
