"""toolscore.matchers: every matcher, bool handling, nesting, composition, reprs."""

from __future__ import annotations

import re

import pytest

from toolscore import ANY, Approx, Contains, IsType, Matcher, OneOf, Regex, evaluate
from toolscore._engine.compare.matchers import _AnyMatcher


def test_any_matches_everything_and_is_a_singleton() -> None:
    assert isinstance(ANY, _AnyMatcher)
    for value in (None, 0, "", [], {}, object(), True):
        assert value == ANY
    assert repr(ANY) == "ANY"


def test_regex_is_a_full_match_on_strings_only() -> None:
    assert Regex(r"NYC|JFK") == "NYC"
    assert Regex(r"NYC|JFK") != "NYC airport"
    assert Regex(r"\d+") != 123
    assert Regex(r"nyc", flags=re.IGNORECASE) == "NYC"
    assert Regex(r"a") != None  # noqa: E711


def test_regex_rejects_a_non_string_pattern() -> None:
    with pytest.raises(TypeError, match="pattern"):
        Regex(123)  # type: ignore[arg-type]


def test_approx_uses_the_larger_tolerance() -> None:
    assert Approx(100.0, rel=0.01) == 100.9
    assert Approx(100.0, rel=0.01) != 101.5
    assert Approx(0.0) == 0
    assert Approx(0.0) != 1e-9  # abs defaults to 0.0: pure relative
    assert Approx(0.0, abs=1e-6) == 1e-9
    assert Approx(5) == 5.0


def test_approx_excludes_bool_and_non_numbers() -> None:
    assert Approx(1) != True  # noqa: E712
    assert Approx(0) != False  # noqa: E712
    assert Approx(1) != "1"
    assert Approx(1.0) != None  # noqa: E711


def test_approx_validates_its_arguments() -> None:
    with pytest.raises(TypeError):
        Approx("1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Approx(1.0, rel=-1)


def test_contains_on_every_container_type() -> None:
    assert Contains("NY") == "NYC"
    assert Contains(2) == [1, 2]
    assert Contains(2) == (1, 2)
    assert Contains(2) == {1, 2}
    assert Contains("k") == {"k": 1}
    assert Contains("v") != {"k": "v"}  # dicts: keys only
    assert Contains(1) != 1  # not a container
    assert Contains(1) != "1"  # a non-string in a string never matches


def test_contains_accepts_a_matcher_as_item() -> None:
    assert Contains(Regex("a.*")) == ["xyz", "abc"]
    assert Contains(Regex("a.*")) != ["xyz"]


def test_one_of_with_values_and_matchers() -> None:
    assert OneOf("celsius", "fahrenheit") == "celsius"
    assert OneOf("celsius", "fahrenheit") != "kelvin"
    assert OneOf(Regex("a+"), 3) == "aaa"
    assert OneOf(Regex("a+"), 3) == 3
    with pytest.raises(TypeError):
        OneOf()


def test_is_type_excludes_bool_unless_listed() -> None:
    assert IsType(int) == 3
    assert IsType(int) != True  # noqa: E712
    assert IsType(bool) == True  # noqa: E712
    assert IsType(int, bool) == False  # noqa: E712
    assert IsType(int, float) == 2.5
    assert IsType(str) != 3
    with pytest.raises(TypeError):
        IsType("str")  # type: ignore[arg-type]


def test_matchers_keep_identity_hash() -> None:
    m = Regex("a")
    assert hash(m) == object.__hash__(m)
    assert {m: 1}[m] == 1
    assert len({Regex("a"), Regex("a")}) == 2


def test_eq_never_raises() -> None:
    class Boom(Matcher):
        def matches(self, value: object) -> bool:
            raise RuntimeError("bad matcher")

    assert (Boom() == 1) is False
    assert OneOf(Boom(), 1) == 1


def test_composition_and_or_not() -> None:
    either = Regex("a+") | Approx(1.0, rel=0.01)
    assert either == "aaa"
    assert either == 1.005
    assert either != "b"
    both = IsType(str) & Contains("x")
    assert both == "xyz"
    assert both != "abc"
    assert both != ["x"]
    negated = ~OneOf("a", "b")
    assert negated == "c"
    assert negated != "a"
    assert ~~Regex("a") == "a"


def test_composition_with_plain_values() -> None:
    m = Regex("a+") | "b"
    assert m == "b"
    assert m == "aa"
    assert m != "c"
    assert ("b" | Regex("x")) == "b"  # type: ignore[operator]


def test_reprs_read_like_the_constructor() -> None:
    assert repr(Approx(40.71, rel=0.01)) == "Approx(40.71, rel=0.01)"
    assert repr(Approx(1.0)) == "Approx(1.0)"
    assert repr(Approx(2, abs=0.5)) == "Approx(2, abs=0.5)"
    assert repr(Regex("a")) == "Regex('a')"
    assert repr(Regex("a", flags=re.IGNORECASE)) == "Regex('a', flags=re.IGNORECASE)"
    assert repr(Contains("x")) == "Contains('x')"
    assert repr(OneOf(1, "a")) == "OneOf(1, 'a')"
    assert repr(IsType(int, float)) == "IsType(int, float)"
    assert repr(Regex("a") | Approx(1.0, rel=0.01)) == "Regex('a') | Approx(1.0, rel=0.01)"
    assert repr(IsType(str) & ~Contains("x")) == "IsType(str) & ~Contains('x')"
    assert repr((Regex("a") | Regex("b")) & ANY) == "(Regex('a') | Regex('b')) & ANY"
    assert repr(~(Regex("a") | Regex("b"))) == "~(Regex('a') | Regex('b'))"


def test_matchers_inside_expected_args_nested_lists_and_dicts() -> None:
    expected = [
        {
            "tool": "book",
            "args": {
                "city": Regex("NYC|JFK"),
                "guests": [{"name": IsType(str), "age": Approx(30, abs=1)}, ANY],
                "options": {"window": OneOf(True, None), "tags": Contains("vip")},
            },
        }
    ]
    good = [
        {
            "tool": "book",
            "args": {
                "city": "JFK",
                "guests": [{"name": "Ann", "age": 30.5}, 7],
                "options": {"window": True, "tags": ["vip", "x"]},
            },
        }
    ]
    assert evaluate(expected, good).argument_f1 == 1.0
    bad = [
        {
            "tool": "book",
            "args": {
                "city": "JFK",
                "guests": [{"name": "Ann", "age": 33}, 7],
                "options": {"window": True, "tags": ["vip"]},
            },
        }
    ]
    result = evaluate(expected, bad)
    assert result.argument_f1 < 1.0
    statuses = {a.name: a.status for a in result.pairs[0].arguments}
    assert statuses == {"city": "ok", "guests": "mismatch", "options": "ok"}


def test_the_reference_documentation_example() -> None:
    result = evaluate(
        expected=[{"tool": "get_weather", "args": {"city": Regex(r"NYC|JFK")}}],
        actual=[{"tool": "get_weather", "args": {"city": "NYC"}}],
    )
    assert result.argument_f1 == 1.0


def test_matcher_corner_cases_from_the_coverage_report() -> None:
    import numpy as np

    from toolscore._engine.compare.rule import values_match

    # a plain value on the left of & composes too, and reads like the expression
    both = "NYC" & Regex("N.*")
    assert both == "NYC" and both != "NYT"
    assert repr(both) == "'NYC' & Regex('N.*')"
    # a pattern that a raw string cannot spell (it holds both quote kinds) keeps repr()
    pattern = "\\d+['\"]"
    assert repr(Regex(pattern)) == f"Regex({pattern!r})"
    # numbers too far apart to subtract are simply not approximately equal
    assert Approx(1e308) != 10**400  # int - float overflows
    # an unhashable item is looked for one key at a time in a set or dict
    assert Contains([1]) != {"a": 1}
    assert Contains(IsType(int)) == {"a": 1, 2: "b"}
    # numpy's elementwise == cannot decide; the comparison says "no match" instead of raising
    assert not values_match(np.array([1, 2]), np.array([1, 2]))
    with pytest.raises(TypeError, match=r"IsType\(\) needs at least one type"):
        IsType()
