"""BFCL answers as toolscore expectations: to_expected(), BFCLString, BFCLDict, gold files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolscore
from toolscore import ANY, IsType, OneOf, assert_tools, evaluate
from toolscore.bfcl import BFCLDict, BFCLString, check, load, to_calls, to_expected
from toolscore.cli import main
from toolscore.matchers import Matcher

DATA = Path(__file__).resolve().parent / "data"


def case(category: str, index: int) -> Any:
    cases = load(
        DATA / f"BFCL_v4_{category}.json", DATA / f"possible_answer_BFCL_v4_{category}.json"
    )
    return cases[index]


# --- the matchers ---------------------------------------------------------------------


def test_bfcl_string_compares_like_bfcl() -> None:
    m = BFCLString("New York, NY")
    assert m == "new york ny" and m == "NEW-YORK/NY" and m == "newyork,ny"
    assert m != "New York; NY" and m != "New York" and m != 5


def test_matchers_never_raise_and_read_like_their_constructor() -> None:
    class Weird:
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("boom")

    for m in (BFCLString("a"), BFCLDict({"k": ["v", ""]})):
        assert isinstance(m, Matcher)
        for value in (None, 1, [1], {"k": Weird()}, Weird(), {"k": [1, 2]}):
            assert (m == value) in (True, False)
    assert repr(BFCLString("it's")) == 'BFCLString("it\'s")'
    assert repr(BFCLDict({"k": ["v", ""]})) == "BFCLDict({'k': ['v', '']})"


def test_matchers_compose() -> None:
    either = BFCLString("celsius") | BFCLString("C")
    assert either == "Celsius" and either == "c" and either != "kelvin"
    assert repr(either) == "BFCLString('celsius') | BFCLString('C')"
    assert (~BFCLString("x")) == "y" and (~BFCLString("x")) != "X"
    assert (BFCLString("a") & IsType(str)) == "A"


def test_bfcl_dict_applies_the_dict_rule() -> None:
    m = BFCLDict({"min": [300000], "unit": ["USD", ""]})
    assert m == {"min": 300000} and m == {"min": 300000.0, "unit": "usd"}
    assert m != {"min": 300000, "unit": "EUR"} and m != {"unit": "USD"}
    assert m != {"min": 300000, "max": 1} and m != [("min", 300000)]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: BFCLString(5), "BFCLString\\(value\\) takes a string"),
        (lambda: BFCLDict(["k"]), "BFCLDict\\(answer\\) takes BFCL's dict answer"),
        (lambda: BFCLDict({"k": "v"}), "the alternatives of 'k' must be a list"),
    ],
)
def test_bad_matcher_arguments_say_what_to_pass(make: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make()


# --- to_expected ----------------------------------------------------------------------


def test_a_simple_answer_becomes_one_expected_call() -> None:
    c = case("simple_python", 0)  # calculate_triangle_area(base=10, height=5, unit=units|"")
    assert c.ground_truth == [
        {"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}
    ]
    assert to_expected(c.ground_truth, c.functions) == [
        {"tool": "calculate_triangle_area", "args": {"base": 10, "height": 5}}
    ]
    expected = to_expected(c.ground_truth, c.functions, optional="expect")
    assert repr(expected[0]["args"]["unit"]) == "OneOf(BFCLString('units'), BFCLString(''))"


def test_alternatives_become_one_of_and_dotted_names_follow_underscore_to_dot() -> None:
    c = case("parallel", 3)  # protein_info.get_sequence_and_3D
    expected = to_expected(c.ground_truth, c.functions, underscore_to_dot=True)
    assert expected[0]["tool"] == "protein_info_get_sequence_and_3D"
    assert repr(expected[0]["args"]["protein_name"]) == (
        "OneOf(BFCLString('human HbA1c'), BFCLString('HbA1c'))"
    )


def test_lists_dicts_and_variable_slots() -> None:
    schema = {
        "name": "f",
        "parameters": {
            "type": "dict",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "rows": {"type": "array", "items": {"type": "dict"}},
                "budget": {"type": "dict"},
                "df": {"type": "integer"},
                "never": {"type": "string"},
            },
            "required": ["tags"],
        },
    }
    truth = [
        {
            "f": {
                "tags": [["a", "b"], ["b", "a"]],
                "rows": [[{"k": ["v"]}]],
                "budget": [{"min": [1], "max": [2, ""]}],
                "df": ["data['x']"],
                "never": [""],
                "not_in_schema": [1],
            }
        }
    ]
    (call,) = to_expected(truth, [schema])
    # matchers compare by matching, so the expectation is compared through its repr
    assert repr(call["args"]) == repr(
        {
            "tags": OneOf([BFCLString("a"), BFCLString("b")], [BFCLString("b"), BFCLString("a")]),
            "rows": [BFCLDict({"k": ["v"]})],
            "budget": BFCLDict({"min": [1], "max": [2, ""]}),
            "df": "data['x']",
        }
    )


def test_bad_arguments_to_to_expected() -> None:
    c = case("simple_python", 0)
    with pytest.raises(ValueError, match="optional must be 'omit' or 'expect'"):
        to_expected(c.ground_truth, c.functions, optional="maybe")
    with pytest.raises(ValueError, match="the answer calls 'calculate_triangle_area', which"):
        to_expected(c.ground_truth, [case("simple_python", 1).functions[0]])


# --- inside evaluate() and assert_tools() ---------------------------------------------


def bfcl_valid_outputs(category: str) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Each sample record with an output BFCL accepts: the first alternative of every
    answered parameter, optional ones left out."""
    out = []
    cases = load(
        DATA / f"BFCL_v4_{category}.json", DATA / f"possible_answer_BFCL_v4_{category}.json"
    )
    for c in cases:
        calls = []
        for answered in c.ground_truth:
            ((name, params),) = answered.items()
            args = {p: a[0] for p, a in params.items() if "" not in a and a}
            calls.append({"tool": name, "args": args})
        out.append((c, calls))
    return out


@pytest.mark.parametrize("category", ["simple_python", "multiple", "parallel", "parallel_multiple"])
def test_a_bfcl_valid_output_scores_one_against_its_expectation(category: str) -> None:
    checked = 0
    for c, calls in bfcl_valid_outputs(category):
        if not check(c.functions, c.ground_truth, calls).valid:
            continue  # e.g. a dict answer whose first alternative is BFCL's answer form
        result = evaluate(c.to_expected(), calls)
        assert result.score == 1.0, (c.id, result)
        assert_tools(c.to_expected(), calls, min_score=1.0)
        checked += 1
    assert checked >= 20


def test_a_wrong_value_costs_argument_agreement_and_the_failure_names_the_matcher() -> None:
    c = case("parallel", 0)  # spotify.play Taylor Swift 20 / Maroon 5 15
    calls = [
        {"tool": "spotify.play", "args": {"artist": "taylor swift", "duration": 20}},
        {"tool": "spotify.play", "args": {"artist": "Maroon Five", "duration": 15}},
    ]
    assert not check(c.functions, c.ground_truth, calls)
    with pytest.raises(toolscore.ToolScoreAssertionError) as failure:
        assert_tools(c.to_expected(), calls, min_score=1.0)
    assert "artist: expected BFCLString('Maroon 5'), actual 'Maroon Five' (NOT ok)" in str(
        failure.value
    )


def test_where_partial_credit_and_bfcl_differ_by_design() -> None:
    schema = {
        "name": "stock",
        "parameters": {
            "type": "dict",
            "properties": {"company_name": {"type": "string"}},
            "required": ["company_name"],
        },
    }
    truth = [
        {"stock": {"company_name": ["Microsoft", "Apple"]}},
        {"stock": {"company_name": ["Apple"]}},
    ]
    calls = [{"stock": {"company_name": "Apple"}}, {"stock": {"company_name": "Microsoft"}}]
    # BFCL pairs greedily and fails; evaluate() finds the best one-to-one pairing.
    assert not check([schema], truth, calls)
    assert evaluate(to_expected(truth, [schema]), to_calls(calls)).score == 1.0
    # An optional parameter that was passed: BFCL accepts it, omit-mode expectations count it
    # as an extra argument, expect-mode ones as a match.
    c = case("simple_python", 0)
    calls = [{"calculate_triangle_area": {"base": 10, "height": 5, "unit": "units"}}]
    assert check(c.functions, c.ground_truth, calls).valid
    assert evaluate(c.to_expected(), to_calls(calls)).score < 1.0
    assert evaluate(c.to_expected(optional="expect"), to_calls(calls)).score == 1.0


# --- gold files -----------------------------------------------------------------------


def as_json(value: Any) -> Any:
    """Gold-file JSON of an expectation (OneOf and the BFCL matchers)."""
    if isinstance(value, OneOf):
        return {"$one_of": [as_json(v) for v in value.values]}
    if isinstance(value, (BFCLString, BFCLDict)):
        return value.to_json()
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


def test_expectations_round_trip_through_a_gold_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = case("parallel", 2)
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(as_json(c.to_expected(optional="expect"))))
    assert '"$bfcl_string": "aluminum"' in gold.read_text()
    trace = tmp_path / "trace.json"
    trace.write_text(
        json.dumps(
            [
                {
                    "tool": "calculate_resistance",
                    "args": {"length": 5, "area": 0.01, "resistivity": "Copper"},
                },
                {
                    "tool": "calculate_resistance",
                    "args": {"length": 5, "area": 0.01, "resistivity": "ALUMINUM"},
                },
            ]
        )
    )
    assert main(["eval", str(gold), str(trace), "--min-score", "1"]) == 0
    assert "score 1.000" in capsys.readouterr().out


def test_bfcl_dict_round_trips_and_bad_gold_values_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolscore._engine.read.gold_files import decode_value

    m = BFCLDict({"k": ["v", ""]})
    assert repr(decode_value(m.to_json(), "x")) == repr(m)
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "f", "args": {"a": {"$bfcl_string": 5}}}]))
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps([{"tool": "f", "args": {"a": "x"}}]))
    assert main(["eval", str(gold), str(trace)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$bfcl_string: BFCLString(value) takes a string" in err
    gold.write_text(json.dumps([{"tool": "f", "args": {"a": {"$bfcl_string": "x", "y": 1}}}]))
    assert main(["eval", str(gold), str(trace)]) == 2
    assert "unexpected key 'y' next to '$bfcl_string'" in capsys.readouterr().err


def test_any_and_other_matchers_still_mix_with_bfcl_ones() -> None:
    expected = [{"tool": "f", "args": {"a": BFCLString("x y"), "b": ANY}}]
    assert evaluate(expected, [{"tool": "f", "args": {"a": "X-Y", "b": 3}}]).score == 1.0
