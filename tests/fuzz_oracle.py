"""The oracle of the fuzz tests: a reader returns, or raises its documented error on purpose.

"On purpose" means by a ``raise`` statement in scorekit's own source, never a built-in error
(``'int' object is not iterable``) escaping from inside it, nor one hidden behind a documented
error (``raise ReaderError(str(exc)) from None`` around an ``AttributeError`` still leaves that
error in ``__context__``, and the message is then Python's, not ours).

Two kinds of error may stand behind a documented one: a ``RecursionError`` (input nested past
Python's recursion limit is refused that way on purpose), and any error of the BFCL text
decoder, which fails wherever BFCL's own decoder (``eval``) fails: ``-'a'`` is a
``TypeError`` there too.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest_texts_score
import scorekit
import toolscore

T = TypeVar("T")

#: Built-in errors that must never come out of our code by accident.
ACCIDENTS: tuple[type[BaseException], ...] = (
    IndexError,
    KeyError,
    TypeError,
    AttributeError,
    RecursionError,
    OverflowError,
    ZeroDivisionError,
)
#: Sources whose errors are, by design, a documented failure (see the module docstring).
DELIBERATE = (str(Path(toolscore.__file__).resolve().parent / "bfcl" / "_python_calls.py"),)
_OURS = tuple(
    str(Path(package.__file__).resolve().parent)
    for package in (toolscore, scorekit, pytest_texts_score)
)


def _innermost(exc: BaseException) -> tuple[str, str]:
    """The file and the source line where ``exc`` was raised."""
    tb = exc.__traceback__
    if tb is None:
        return "", ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = tb.tb_frame.f_code.co_filename
    return filename, linecache.getline(filename, tb.tb_lineno).strip()


def raised_on_purpose(exc: BaseException) -> bool:
    """``exc`` comes from a ``raise`` statement in scorekit's source."""
    filename, line = _innermost(exc)
    ours = str(Path(filename).resolve()).startswith(_OURS) if filename else False
    return ours and (line == "raise" or line.startswith("raise "))


def check_error(exc: BaseException, documented: tuple[type[BaseException], ...]) -> None:
    """Fail unless ``exc`` is a documented error raised on purpose, with no accident behind."""
    assert isinstance(exc, documented), (
        f"undocumented {type(exc).__name__}: {exc} (documented: "
        f"{', '.join(t.__name__ for t in documented)})"
    )
    assert raised_on_purpose(exc), f"{type(exc).__name__} escaped from {_innermost(exc)}: {exc}"
    seen: set[int] = set()
    cause: BaseException | None = exc.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        source = _innermost(cause)[0]
        deliberate = isinstance(cause, RecursionError) or (
            bool(source) and str(Path(source).resolve()) in DELIBERATE
        )
        if isinstance(cause, ACCIDENTS) and not raised_on_purpose(cause) and not deliberate:
            raise AssertionError(
                f"{type(exc).__name__} ({exc}) hides {type(cause).__name__} from "
                f"{_innermost(cause)}: {cause}"
            )
        cause = cause.__context__


def outcome(
    reader: Callable[..., T], *args: Any, errors: tuple[type[BaseException], ...], **kwargs: Any
) -> T | BaseException:
    """What ``reader(*args, **kwargs)`` returns, or the documented error it raised."""
    try:
        return reader(*args, **kwargs)
    except Exception as exc:
        check_error(exc, errors)
        return exc
