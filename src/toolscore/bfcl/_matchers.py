"""Argument matchers for BFCL answers: BFCL's string comparison and its dict rule.

Both are ordinary :class:`toolscore.matchers.Matcher` subclasses: they go anywhere a matcher
goes (``evaluate()``, ``assert_tools()``, ``expect()``, gold files), compose with ``&``, ``|``
and ``~``, and their reprs read like the constructor. In a gold file they are written
``{"$bfcl_string": "New York"}`` and ``{"$bfcl_dict": {"key": ["value", ""]}}``
(:meth:`to_json` gives that form).

Example:
    >>> from toolscore.bfcl._matchers import BFCLString
    >>> BFCLString("New York, NY") == "new york ny"
    True
"""

from toolscore._engine.bfcl_matchers import (
    JSON_KEYS,
    BFCLDict,
    BFCLString,
    from_json,
)

__all__ = ["JSON_KEYS", "BFCLDict", "BFCLString", "from_json"]
