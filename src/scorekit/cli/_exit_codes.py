"""The exit codes of every command of both packages, and how an error becomes one.

* 0 done; 1 a bound the user gave was missed (``--min-mean``...); 2 bad input (a file, an
  option, settings that name no usable judge); 3 a judge that was configured failed at run
  time; 130 interrupted (Ctrl-C); 141 the reader left (see ``_command_output``).
"""

from __future__ import annotations

import sys
from typing import IO

from scorekit.judges import JudgeConfigError, JudgeError, SettingsError

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BELOW",
    "EXIT_INTERRUPTED",
    "EXIT_JUDGE_FAILED",
    "EXIT_OK",
    "JUDGE_ERRORS",
    "fail",
    "judge_exit",
]

EXIT_OK = 0
EXIT_BELOW = 1
EXIT_BAD_INPUT = 2
EXIT_JUDGE_FAILED = 3
EXIT_INTERRUPTED = 130

#: What :func:`judge_exit` maps: settings that cannot be used, a judge that cannot be built or
#: that failed.
JUDGE_ERRORS = (SettingsError, JudgeError)


def fail(prog: str, code: int, message: object, err: IO[str] | None = None) -> int:
    """Write ``PROG: error: MESSAGE`` as one line on stderr (after stdout) and return ``code``.

    Example:
        >>> import io
        >>> err = io.StringIO()
        >>> fail("texts-score", EXIT_BAD_INPUT, "no such\\n file", err), err.getvalue()
        (2, 'texts-score: error: no such file\\n')
    """
    sys.stdout.flush()
    (err or sys.stderr).write(f"{prog}: error: {' '.join(str(message).split())}\n")
    return code


def judge_exit(prog: str, exc: SettingsError | JudgeError, err: IO[str] | None = None) -> int:
    """Report a judge error and return its exit code: 2 for settings that name no usable
    judge (unknown provider, no model or key), 3 for a configured judge that failed.

    Example:
        >>> import io
        >>> judge_exit("texts-score", JudgeError("down"), io.StringIO())
        3
    """
    if isinstance(exc, SettingsError):
        return fail(prog, EXIT_BAD_INPUT, exc, err)
    if isinstance(exc, JudgeConfigError):
        return fail(prog, EXIT_BAD_INPUT, f"unusable judge settings: {exc}", err)
    return fail(prog, EXIT_JUDGE_FAILED, f"the judge failed: {exc}", err)
