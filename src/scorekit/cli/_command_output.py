"""How the commands of both packages (``toolscore``, ``texts-score``) write to the terminal.

* A warning is one line on stderr, ``PROG: warning: ...``: no file name, no source line.
* When the reader leaves early (``texts-score compare a b | head -1``): no message and no
  traceback; the exit code is 141 (128 + SIGPIPE, what ``git`` or ``yes`` end with there), since
  the output was cut and no verdict can be claimed: a script under ``set -o pipefail`` sees
  that, and never a pass nobody read.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Iterator
from typing import IO, Any, TextIO

__all__ = ["EXIT_READER_LEFT", "output_console", "reader_left", "warnings_as_lines"]

#: The exit code of a command whose reader closed its output before the end.
EXIT_READER_LEFT = 141


def reader_left() -> int:
    """End quietly after a ``BrokenPipeError`` on stdout; return :data:`EXIT_READER_LEFT`.

    Points stdout at ``/dev/null`` so that Python's flush at exit does not complain again.
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_READER_LEFT


def output_console(out: IO[str], **options: Any) -> Any:
    """A rich ``Console`` for a command's output ``out``: as wide as the rule of
    :func:`scorekit.format._text_table.console_width` says, and raising ``BrokenPipeError`` when the
    reader leaves (rich itself would exit with status 1, which reads as a failed verdict).
    """
    from rich.console import Console

    from scorekit.format._text_table import console_width

    class _OutputConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError(32, "the reader closed the output")

    return _OutputConsole(file=out, width=console_width(out), **options)


@contextlib.contextmanager
def warnings_as_lines(prog: str, stream: TextIO | None = None) -> Iterator[None]:
    """Within the block, show every warning as ``PROG: warning: ...`` on one line.

    Example:
        >>> import io
        >>> err = io.StringIO()
        >>> with warnings_as_lines("texts-score", err):
        ...     warnings.warn("the cache is\n  off")
        >>> err.getvalue()
        'texts-score: warning: the cache is off\n'
    """

    def show(message: Warning | str, *_: Any, **__: Any) -> None:
        out = stream if stream is not None else sys.stderr
        out.write(f"{prog}: warning: {' '.join(str(message).split())}\n")

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        yield
