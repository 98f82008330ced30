"""Decoding JSON lines into rows: the standard library's values, faster where possible.

Decoding is a fifth of the time of a small tool-call row. Where ``orjson`` is installed (the
``parquet`` and ``ray`` extras bring it) a line is decoded by it, else by :func:`json.loads`;
both give the same values for every line orjson accepts, with one exception handled here:
orjson reads an integer beyond 64 bits as a float, so a line with a run of 19 or more digits
goes to :func:`json.loads`. Every line orjson refuses (``NaN``, ``Infinity``, a lone
surrogate, an out-of-range float, invalid UTF-8, broken JSON) goes to :func:`json.loads` too,
which either reads it as before or gives the same error message as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorekit.batch._errors import RowError

__all__ = ["NO_FACTS", "LineFacts", "decode_line", "decode_lines", "line_facts"]

_fast_loads: Callable[[bytes], Any] | None
try:
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover  # the extras bring it; JSON lines work without
    _fast_loads = None

#: Integers of 19 digits or more may not fit 64 bits: orjson would read them as floats. A
#: line's digits become "0" and the rest " ", where 19 zeros in a row are looked for: ten
#: times faster than a regular expression.
_DIGITS_ONLY = bytes(ord("0") if chr(i) in "0123456789" else ord(" ") for i in range(256))
_LONG_RUN = b"0" * 19


@dataclass(frozen=True)
class LineFacts:
    """What is known of a set of lines as a whole (False: not known).

    Attributes:
        no_dollar: no line holds a ``$``.
        no_long_digits: no line holds a run of 19 digits (orjson reads them all as we do).
    """

    no_dollar: bool = False
    no_long_digits: bool = False


#: Nothing known: each line is looked at on its own.
NO_FACTS = LineFacts()


def line_facts(data: bytes) -> LineFacts:
    """:class:`LineFacts` of the lines in ``data``, found out for the whole at once.

    The per-line searches cost a tenth of decoding a small line; over a byte range they cost
    a hundredth: ``$`` is one ``memchr``, and a run of 19 digits is looked for in every
    fourth byte only. Such a run covers four of those in a row, so where no four in a row
    are digits there is none; where some are (a 13-digit timestamp may do it), nothing is
    claimed and each line is looked at as before.

    Example:
        >>> line_facts(b'{"n": 1}\\n{"price": "$5"}')
        LineFacts(no_dollar=False, no_long_digits=True)
        >>> line_facts(b'{"n": 12345678901234567890}').no_long_digits
        False
    """
    sample = np.frombuffer(data, dtype=np.uint8)[::4]
    digit = (sample - np.uint8(48)) < 10  # wraps below "0": only "0"-"9" stay under 10
    run = digit[:-3] & digit[1:-2] & digit[2:-1] & digit[3:]
    return LineFacts(no_dollar=b"$" not in data, no_long_digits=not run.any())


def decode_line(line: bytes) -> dict[str, Any] | RowError:
    """One line as a row, or the :class:`RowError` that says why it is not one.

    Example:
        >>> decode_line(b'{"id": 1}')
        {'id': 1}
        >>> decode_line(b"[1, 2]").message
        'the line holds a JSON array, not an object with columns'
    """
    try:
        value = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return RowError(
            "bad_json", f"the line is not UTF-8 text ({exc.reason} at byte {exc.start})"
        )
    except ValueError as exc:
        return RowError("bad_json", f"the line is not valid JSON ({exc})")
    if not isinstance(value, dict):
        return RowError(
            "bad_json", f"the line holds a JSON {_json_type(value)}, not an object with columns"
        )
    return value


def decode_lines(
    lines: Sequence[bytes], facts: LineFacts = NO_FACTS
) -> list[dict[str, Any] | RowError]:
    """Each line as :func:`decode_line` reads it (the same rows and errors), faster.

    ``facts`` (:func:`line_facts` of the lines' byte range) may spare the per-line search for
    long integers.

    Example:
        >>> rows = decode_lines([b'{"n": 12345678901234567890}', b"{}", b"oops"])
        >>> rows[0], rows[1], rows[2].kind
        ({'n': 12345678901234567890}, {}, 'bad_json')
    """
    out: list[dict[str, Any] | RowError] = []
    add = out.append
    fast, digits_only, long_run = _fast_loads, _DIGITS_ONLY, _LONG_RUN
    if fast is None:
        return [decode_line(line) for line in lines]
    check = not facts.no_long_digits
    for line in lines:
        if check and long_run in line.translate(digits_only):
            add(decode_line(line))
            continue
        try:
            value = fast(line)
        except ValueError:  # orjson's JSONDecodeError: the standard library says why
            add(decode_line(line))
            continue
        add(value if type(value) is dict else decode_line(line))
    return out


def _json_type(value: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number"
    )
