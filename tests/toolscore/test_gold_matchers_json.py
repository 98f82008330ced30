"""Matchers in gold files: every malformed JSON form is refused with where it sits, and what
cannot be written as JSON says why."""

from __future__ import annotations

import re
from typing import Any

import pytest

from toolscore import Approx, IsType, Regex
from toolscore._engine.read.gold_encoding import MatcherEncodingError, encode_value
from toolscore._engine.read.gold_files import GoldFormatError, decode_value
from toolscore.matchers import Matcher

W = "gold.json: [0].args.x"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ({"$regex": 5}, "$regex needs a string pattern, got 5"),
        ({"$regex": "a", "flags": "iq"}, "$regex flag 'q' is not one of i, m, s, x"),
        ({"$regex": "("}, "$regex '(' is not a valid pattern ("),
        ({"$approx": "1"}, "$approx needs a number, got '1'"),
        ({"$approx": 1, "rel": True}, "$approx 'rel' needs a number, got True"),
        ({"$approx": 1, "abs": -1}, "$approx: "),
        ({"$one_of": []}, "$one_of needs a non-empty list of candidates, got []"),
        ({"$type": "decimal"}, "$type 'decimal' is not a known type name ("),
        ({"$type": []}, "$type needs a type name or a non-empty list of them"),
        ({"$all_of": [{"$any": True}]}, "$all_of needs a list of at least two matchers"),
        ({"$any": 1}, '$any takes true ({"$any": true}), got 1'),
    ],
)
def test_a_malformed_matcher_says_where_and_what(spec: dict[str, Any], problem: str) -> None:
    with pytest.raises(GoldFormatError) as info:
        decode_value(spec, W)
    assert str(info.value).startswith(f"{W}: {problem}")


def test_regex_flags_and_approx_tolerances_go_both_ways() -> None:
    matcher = decode_value({"$regex": "^nyc$", "flags": "IM"}, W)
    assert isinstance(matcher, Matcher)
    assert matcher == "NYC" and matcher != "NYC!"
    assert encode_value(Regex("^nyc$", re.I | re.M), W) == {"$regex": "^nyc$", "flags": "im"}
    approx = decode_value({"$approx": 10, "rel": 0.1, "abs": 0.5}, W)
    assert approx == 10.9 and approx != 11.6  # within max(0.1 * 10, 0.5) = 1.0 of 10
    assert encode_value(Approx(10, rel=0.1, abs=0.5), W) == {"$approx": 10, "rel": 0.1, "abs": 0.5}


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (Regex("a", re.ASCII), "Regex flags"),
        (IsType(complex), "IsType(complex) cannot be written as JSON"),
        (float("nan"), "nan has no JSON form; use a string"),
        ({1: "a"}, "key 1 is a int; JSON keys are strings"),
        ({"$lit": Regex("a")}, "a dict whose keys start with '$' is stored as a literal"),
        (b"raw", "a bytes (b'raw') has no JSON form"),
    ],
)
def test_what_has_no_json_form_is_named(value: Any, problem: str) -> None:
    with pytest.raises(MatcherEncodingError, match=re.escape(problem)):
        encode_value(value, W)
