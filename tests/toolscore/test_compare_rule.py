"""The comparison rule on the values a mutation run showed untested: strict mode inside
nested values, subclasses of the built-in types, where matchers hide, and `args_satisfy`
without arguments. Expected verdicts follow from the rule as documented in
`toolscore._engine.compare.rule` (lenient: numbers numerically, strings stripped; strict: exact
types, recursing)."""

from __future__ import annotations

import enum
from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np
import pytest

import toolscore
from toolscore import ANY, Regex
from toolscore._engine.align.pairing import args_key
from toolscore._engine.compare.rule import (
    NOT_CANONICAL,
    args_satisfy,
    canonical,
    contains_matcher,
    values_match,
)


class Tag(str):
    """A str subclass (as a StrEnum or a pydantic constrained string is)."""


class Level(enum.IntEnum):
    LOW = 1


class Point(NamedTuple):
    x: int
    y: int


class Items(list[Any]):
    pass


@pytest.mark.parametrize(
    ("expected", "actual", "lenient", "strict"),
    [
        ({"a": {"n": 1}}, {"a": {"n": 1.0}}, True, False),
        ({"a": {"s": "x"}}, {"a": {"s": " x "}}, True, False),
        ([[1, 2]], [[1, 2.0]], True, False),
        ([{"s": "x"}], [{"s": "x "}], True, False),
        ([1, [2]], [1, [2]], True, True),
        ({"a": [True]}, {"a": [1]}, False, False),  # a bool is never a number
        ({"a": {"n": 1}}, {"a": {"n": 1, "extra": 2}}, False, False),  # nested extra key
    ],
)
def test_strict_mode_holds_inside_nested_values(
    expected: Any, actual: Any, lenient: bool, strict: bool
) -> None:
    assert values_match(expected, actual, False) is lenient
    assert values_match(expected, actual, True) is strict


def test_strict_evaluate_reports_a_nested_float_where_an_int_was_expected() -> None:
    expected = [{"tool": "book", "args": {"seats": [{"row": 3}]}}]
    actual = [{"tool": "book", "args": {"seats": [{"row": 3.0}]}}]
    assert toolscore.evaluate(expected, actual).argument_f1 == 1.0
    assert toolscore.evaluate(expected, actual, strict=True).argument_f1 == 0.0


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        (np.float64(2.5), 2.5),
        (Tag(" a "), "a"),
        (Level.LOW, 1),
        (Point(1, 2), (1, 2)),
        (Items([1, "b "]), [1, "b"]),
        (OrderedDict(a=1), {"a": 1}),
    ],
)
def test_subclasses_of_built_in_types_read_as_their_base_type(value: Any, plain: Any) -> None:
    # Lenient: the same verdict and the same canonical form as the plain value.
    assert values_match(plain, value, False)
    assert canonical(value, False) == canonical(plain, False)
    # Strict: exact types, so no canonical form; the rule itself decides (types differ).
    assert canonical(value, True) is NOT_CANONICAL
    assert not values_match(plain, value, True)


def test_a_nan_of_a_float_subclass_has_no_canonical_form() -> None:
    assert canonical(np.float64("nan"), False) is NOT_CANONICAL
    assert canonical([np.float64("nan")], False) is NOT_CANONICAL


def test_canonical_forms_exist_for_every_plain_json_value_in_both_modes() -> None:
    for value in (1, 1.5, "a", None, True, [1, 2.5], {"a": [None, False]}):
        for strict in (False, True):
            assert canonical(value, strict) is not NOT_CANONICAL, (value, strict)
    # Objects the rule knows nothing of have no form in either mode.
    for strict in (False, True):
        assert canonical(object(), strict) is NOT_CANONICAL
        assert canonical({"a": object()}, strict) is NOT_CANONICAL


def test_strict_keys_of_unwritable_nested_values_keep_strings_apart() -> None:
    # Nested str subclasses cannot take the marshal key; the fallback must be the strict
    # form (none here), not the lenient one, which strips " a " to "a".
    assert not values_match([Tag(" a ")], [Tag("a")], True)
    key = args_key({"v": [Tag(" a ")]}, True)
    assert key is NOT_CANONICAL or key != args_key({"v": [Tag("a")]}, True)
    expected = [{"tool": "tag", "args": {"v": [Tag(" a ")]}}]
    actual = [{"tool": "tag", "args": {"v": [Tag("a")]}}]
    assert toolscore.evaluate(expected, actual, strict=True).argument_f1 == 0.0
    assert toolscore.evaluate(expected, actual).argument_f1 == 1.0


def test_contains_matcher_finds_a_matcher_at_any_depth() -> None:
    assert contains_matcher(ANY)
    assert contains_matcher({"a": 1, "b": Regex("x")})
    assert contains_matcher([1, (2, {"c": ANY})])
    assert not contains_matcher({"a": [1, (2, {"c": "x"})]})
    assert not contains_matcher("ANY")
    assert not contains_matcher({})


def test_args_satisfy_needs_every_named_argument() -> None:
    assert args_satisfy(None, {}, False)
    assert not args_satisfy(None, {"path": "/etc/passwd"}, False)
    assert not args_satisfy({}, {"path": "/etc/passwd"}, False)
    assert not args_satisfy({"mode": "r"}, {"path": "/etc/passwd"}, False)
    assert args_satisfy({"path": " /etc/passwd", "mode": "r"}, {"path": "/etc/passwd"}, False)
    assert not args_satisfy({"path": " /etc/passwd"}, {"path": "/etc/passwd"}, True)
