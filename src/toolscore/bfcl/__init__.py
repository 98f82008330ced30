"""BFCL compatibility: score tool calls exactly as the Berkeley Function Calling Leaderboard's
AST checker does (its Python rules), with toolscore's readable failures, reports and pytest
integration on top.

* :func:`check` gives BFCL's verdict on one model output, with BFCL's error type and
  sentences that name the call, the parameter, the value and what the answer allows.
* :func:`to_expected` turns a possible answer into ``evaluate()`` / ``assert_tools()``
  expectations (:class:`BFCLString`, :class:`BFCLDict`, ``OneOf``).
* :func:`load` reads BFCL's question and answer files into :class:`BFCLCase` objects;
  :func:`score` scores a whole model-result file the way the leaderboard does; the command
  ``toolscore bfcl`` does that from the shell.
* :func:`assert_bfcl` and :func:`parametrize` run a BFCL category as one pytest test per
  question.

Java and JavaScript categories are out of scope (a clear error says so).

Example:
    >>> from toolscore import bfcl
    >>> fn = {"name": "spotify.play", "parameters": {"type": "dict", "properties": {
    ...     "artist": {"type": "string"}, "duration": {"type": "integer"}},
    ...     "required": ["artist", "duration"]}}
    >>> verdict = bfcl.check([fn], [{"spotify.play": {"artist": ["Taylor Swift"],
    ...                                               "duration": [20]}}],
    ...                      "[spotify.play(artist='taylor swift', duration=20.0)]")
    >>> verdict.valid, verdict.error_type
    (False, 'type_error:simple')
"""

from toolscore._engine.bfcl.matchers import BFCLDict, BFCLString
from toolscore._engine.bfcl.values import SchemaError, normalise
from toolscore.bfcl._data import BFCLCase, BFCLDataError, category_of, load
from toolscore.bfcl._expected import to_expected
from toolscore.bfcl._message import render_failure
from toolscore.bfcl._output import DecodeFailure, to_calls
from toolscore.bfcl._pytest import BFCLAssertionError, assert_bfcl, parametrize
from toolscore.bfcl._score import BFCLResult, BFCLScore, read_outputs, score
from toolscore.bfcl._verdict import BFCLVerdict, check

__all__ = [
    "BFCLAssertionError",
    "BFCLCase",
    "BFCLDataError",
    "BFCLDict",
    "BFCLResult",
    "BFCLScore",
    "BFCLString",
    "BFCLVerdict",
    "DecodeFailure",
    "SchemaError",
    "assert_bfcl",
    "category_of",
    "check",
    "load",
    "normalise",
    "parametrize",
    "read_outputs",
    "render_failure",
    "score",
    "to_calls",
    "to_expected",
]
