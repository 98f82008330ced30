"""Argument matchers for BFCL answers: BFCL's string comparison and its dict rule.

Behind :mod:`toolscore.bfcl`, which re-exports the public names (the same objects).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.bfcl.rules import check_dict
from toolscore._engine.bfcl.values import normalise
from toolscore._engine.compare.matchers import Matcher

__all__ = ["JSON_KEYS", "BFCLDict", "BFCLString", "from_json"]

#: The gold-file keys of these matchers.
JSON_KEYS = ("$bfcl_string", "$bfcl_dict")


class BFCLString(Matcher):
    """A string equal to ``value`` the way BFCL compares strings: ASCII spaces and
    ``, . / - _ * ^`` deleted, case ignored, ``'`` the same as ``"``.

    Args:
        value: the answer's string.

    Example:
        >>> BFCLString("New York, NY") == "new york ny"
        True
        >>> BFCLString("New York") == "New-York!"
        False
        >>> BFCLString("a") | BFCLString("b")
        BFCLString('a') | BFCLString('b')
    """

    def __init__(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"BFCLString(value) takes a string, got {type(value).__name__}")
        self.value = value
        self._key = normalise(value)

    def matches(self, value: Any) -> bool:
        return isinstance(value, str) and normalise(value) == self._key

    def __repr__(self) -> str:
        return f"BFCLString({self.value!r})"

    def to_json(self) -> dict[str, Any]:
        """The gold-file form: ``{"$bfcl_string": value}``."""
        return {"$bfcl_string": self.value}


class BFCLDict(Matcher):
    """A dict that BFCL accepts for one answered dict: every key given is in ``answer``, its
    value is one of that key's alternatives (strings compared like :class:`BFCLString`, other
    values by ``==``), and every key left out allows ``""``.

    Args:
        answer: BFCL's form of a dict answer, ``{key: [alternatives]}``.

    Example:
        >>> m = BFCLDict({"min": [300000], "unit": ["usd", ""]})
        >>> m == {"min": 300000}, m == {"min": 300000, "unit": "USD"}, m == {"max": 1}
        (True, True, False)
    """

    def __init__(self, answer: Mapping[str, list[Any]]) -> None:
        if not isinstance(answer, Mapping):
            raise TypeError(
                "BFCLDict(answer) takes BFCL's dict answer {key: [alternatives]}, "
                f"got {type(answer).__name__}"
            )
        for key, options in answer.items():
            if not isinstance(options, list):
                raise TypeError(
                    f"BFCLDict: the alternatives of {key!r} must be a list, got {options!r}"
                )
        self.answer = dict(answer)

    def matches(self, value: Any) -> bool:
        return isinstance(value, Mapping) and check_dict("", value, [self.answer], "") is None

    def __repr__(self) -> str:
        return f"BFCLDict({self.answer!r})"

    def to_json(self) -> dict[str, Any]:
        """The gold-file form: ``{"$bfcl_dict": answer}``."""
        return {"$bfcl_dict": self.answer}


def from_json(spec: Mapping[str, Any]) -> Matcher:
    """The matcher a gold file's ``{"$bfcl_string": ...}`` or ``{"$bfcl_dict": ...}`` means.

    Raises:
        ValueError: an unknown or extra key, or a value of the wrong kind.

    Example:
        >>> from_json({"$bfcl_string": "NYC"})
        BFCLString('NYC')
    """
    keys = [k for k in JSON_KEYS if k in spec]
    if len(keys) != 1 or len(spec) != 1:
        extra = sorted(set(spec) - set(keys[:1]))
        raise ValueError(f"unexpected key {extra[0]!r} next to {keys[0] if keys else '$bfcl'!r}")
    value = spec[keys[0]]
    try:
        return BFCLString(value) if keys[0] == "$bfcl_string" else BFCLDict(value)
    except TypeError as exc:
        raise ValueError(f"{keys[0]}: {exc}") from None
