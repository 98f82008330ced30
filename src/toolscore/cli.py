"""The ``toolscore`` command (also installed as ``tool-scorer``, Toolscore's name for it).

The subcommands (``eval``, ``compare``, ``eval-dataset``, ``regression``, ``record``,
``approve``, ``snapshots``, ``validate``, ``generate``, ``honesty``, ``init``, ``bfcl``, ``mcp``,
``demo``) live in the modules of ``toolscore._cli``; ``toolscore --help`` describes them.

Exit codes: 0 success; 1 a score below its threshold, a regression, a forbidden call with
``--fail-on-violations``; 2 bad input (a missing, empty or malformed file, an unknown trace
shape or matcher key, a bad option), with a one-line message that names the file and the
problem.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scorekit.cli import reader_left, warnings_as_lines
from toolscore._cli import (
    compare,
    eval_dataset,
    evaluate,
    generate,
    honesty,
    init,
    regression,
    snapshots,
    validate,
)
from toolscore._cli.common import EXIT_BAD_INPUT, CommandError
from toolscore._engine.read.trace_files import TraceFileError

__all__ = ["main", "run"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Version(argparse.Action):
    """``--version``, reading the installed version only when asked (importing
    importlib.metadata would slow every other command)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from toolscore import __version__

        sys.stdout.write(f"toolscore, version {__version__}\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toolscore",
        description="Score the tool calls of LLM agents: against gold files (eval, compare, "
        "regression), against approved snapshots (record, approve, snapshots), and more.",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="show program's version number and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # ``mcp`` and ``demo`` live in this package's _cli, away from toolscore.mcp: defining
    # their options must not import the MCP client (asyncio would slow every other command).
    from toolscore._cli import bfcl, mcp

    commands = (evaluate, compare, eval_dataset, regression, snapshots, validate, generate)
    for command in (*commands, honesty, init, bfcl, mcp):
        command.register(sub)
    return parser


def run(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the ``toolscore`` command; returns the exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        out: where normal output goes (default: ``sys.stdout``); errors go to ``sys.stderr``.

    Example:
        >>> run(["eval", "missing-gold.json", "trace.json"])
        2
    """
    stream = out or sys.stdout
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        # e.g. arguments that are not valid JSON: the call is kept, the user is told, in one line.
        with warnings_as_lines("toolscore"):
            return int(args.run(args, stream))
    except (TraceFileError, CommandError) as exc:
        sys.stderr.write(f"toolscore: error: {exc}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader left early (`| head`): quiet, and no verdict claimed for a cut output.
        return reader_left()
    except OSError as exc:
        name = exc.filename if exc.filename is not None else "?"
        sys.stderr.write(f"toolscore: error: {os.fspath(name)}: {exc.strerror or exc}\n")
        return EXIT_BAD_INPUT
    except Exception as exc:
        # Input we did not foresee must still end in one line; the traceback is opt-in.
        if os.environ.get("TOOLSCORE_TRACEBACK"):
            raise
        detail = " ".join(str(exc).split())[:300]
        sys.stderr.write(
            f"toolscore: error: {type(exc).__name__}: {detail} "
            "(set TOOLSCORE_TRACEBACK=1 to see where)\n"
        )
        return EXIT_BAD_INPUT


class _Command:
    """The ``toolscore`` command as an object: ``main(argv)`` returns the exit code.

    It also answers click's test runner the way Toolscore's click group does:
    ``CliRunner().invoke(main, ["eval", ...])`` calls ``main.main(args=...)``, which runs the
    command and exits with its code (``standalone_mode=False``: returns it instead).
    """

    name = "toolscore"

    def __call__(self, argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
        return run(argv, out=out)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        """Run with ``args`` (default: the command line); exit with the code when standalone."""
        code = run(list(args) if args is not None else None)
        if standalone_mode:
            sys.exit(code)
        return code


main = _Command()
"""``main(argv=None, *, out=None) -> int``: run the ``toolscore`` command (see :func:`run`).

Example:
    >>> main(["eval", "missing-gold.json", "trace.json"])
    2
"""

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
