"""Every decision rule of BFCL's AST checker (../shared/spec/BFCL.md), one test each.

Expected verdicts are worked out by hand from the rules, not read from our code; the
conformance test (test_bfcl_conformance.py) checks the same rules against BFCL's own checker.
"""

from __future__ import annotations

from typing import Any

import bfcl_reference
import pytest

from toolscore.bfcl import SchemaError, check, render_failure


def fn(name: str, required: tuple[str, ...] = (), **params: Any) -> dict[str, Any]:
    """A BFCL schema; a param given as a string is its type, as a dict its full spec."""
    props = {p: ({"type": t} if isinstance(t, str) else t) for p, t in params.items()}
    return {
        "name": name,
        "description": "test function",
        "parameters": {"type": "dict", "properties": props, "required": list(required)},
    }


def verdict(
    schema: dict[str, Any] | list[dict[str, Any]],
    answer: dict[str, Any] | list[dict[str, Any]],
    output: Any,
    **kw: Any,
) -> tuple[bool, str | None]:
    """Our (valid, error_type); where BFCL's checker is installed, it must say the same."""
    schemas = schema if isinstance(schema, list) else [schema]
    truth = answer if isinstance(answer, list) else [answer]
    v = check(schemas, truth, output, **kw)
    category = kw.get("category") or (
        "parallel" if len(truth) > 1 else "simple_python" if len(schemas) == 1 else "multiple"
    )
    # BFCL's checker runs after its decoder's format gate; compare where the gate passes.
    gate = isinstance(output, list) and all(
        isinstance(c, dict) and len(c) == 1 and isinstance(next(iter(c.values())), dict)
        for c in output
    )
    if bfcl_reference.available() and gate and "relevance" not in category:
        theirs = bfcl_reference.reference_check(
            schemas, truth, output, category, kw.get("underscore_to_dot", False)
        )
        assert theirs == (v.valid, v.error_type), f"BFCL's checker says {theirs}"
    return v.valid, v.error_type


OK = (True, None)
AREA = fn("geometry.area", ("base",), base="integer", unit="string")
AREA_ANSWER = {"geometry.area": {"base": [10], "unit": ["units", ""]}}


# --- function names -------------------------------------------------------------------


def test_a_dotted_name_is_written_with_dots_in_prompt_mode() -> None:
    assert verdict(AREA, AREA_ANSWER, [{"geometry.area": {"base": 10}}]) == OK
    assert verdict(AREA, AREA_ANSWER, [{"geometry_area": {"base": 10}}]) == (
        False,
        "simple_function_checker:wrong_func_name",
    )


def test_underscore_to_dot_wants_underscores_and_rejects_the_dotted_name() -> None:
    u2d = {"underscore_to_dot": True}
    assert verdict(AREA, AREA_ANSWER, [{"geometry_area": {"base": 10}}], **u2d) == OK
    assert verdict(AREA, AREA_ANSWER, [{"geometry.area": {"base": 10}}], **u2d) == (
        False,
        "simple_function_checker:wrong_func_name",
    )


def test_underscore_to_dot_leaves_names_without_dots_alone() -> None:
    schema = fn("get_weather", ("city",), city="string")
    answer = {"get_weather": {"city": ["Paris"]}}
    out = [{"get_weather": {"city": "Paris"}}]
    assert verdict(schema, answer, out, underscore_to_dot=True) == OK
    assert verdict(schema, answer, out) == OK


def test_names_are_case_sensitive_and_otherwise_not_normalised() -> None:
    for name in ("Geometry.area", "geometry.area ", "geometry-area"):
        assert verdict(AREA, AREA_ANSWER, [{name: {"base": 10}}])[1] == (
            "simple_function_checker:wrong_func_name"
        )


def test_the_wrong_name_message_says_how_to_fix_the_dot() -> None:
    v = check([AREA], [AREA_ANSWER], [{"geometry_area": {"base": 10}}])
    assert "underscore_to_dot=True" in v.errors[0]
    assert "'geometry.area'" in v.errors[0]


# --- required, optional, unexpected ---------------------------------------------------


def test_a_required_parameter_missing_fails_even_when_the_answer_allows_omission() -> None:
    schema = fn("f", ("a", "b"), a="integer", b="string")
    answer = {"f": {"a": [1], "b": ["x", ""]}}
    v = check([schema], [answer], [{"f": {"a": 1}}])
    assert (v.valid, v.error_type) == (False, "simple_function_checker:missing_required")
    assert "'b'" in v.errors[0] and "marks it optional" in v.errors[0]


def test_an_optional_parameter_may_be_left_out_only_when_its_answer_has_empty() -> None:
    schema = fn("f", ("a",), a="integer", b="string", c="string")
    answer = {"f": {"a": [1], "b": ["x", ""], "c": ["y"]}}
    assert verdict(schema, answer, [{"f": {"a": 1, "c": "y"}}]) == OK
    assert verdict(schema, answer, [{"f": {"a": 1, "b": "x"}}]) == (
        False,
        "simple_function_checker:missing_optional",
    )


def test_a_schema_parameter_missing_from_the_answer_is_unexpected_when_passed() -> None:
    schema = fn("f", ("a",), a="integer", verbose="boolean")
    answer = {"f": {"a": [1]}}
    assert verdict(schema, answer, [{"f": {"a": 1, "verbose": False}}]) == (
        False,
        "simple_function_checker:unexpected_param",
    )


def test_an_answered_parameter_missing_from_the_schema_only_passes_when_left_out() -> None:
    schema = fn("f", ("a",), a="integer")
    answer = {"f": {"a": [1], "permeability": [0.5, ""]}}
    assert verdict(schema, answer, [{"f": {"a": 1}}]) == OK
    assert verdict(schema, answer, [{"f": {"a": 1, "permeability": 0.5}}]) == (
        False,
        "simple_function_checker:unexpected_param",
    )


def test_the_first_problem_in_bfcls_order_decides_the_error_type() -> None:
    # missing required comes before a bad value of another parameter
    schema = fn("f", ("a", "b"), a="integer", b="integer")
    v = check([schema], [{"f": {"a": [1], "b": [2]}}], [{"f": {"a": 5}}])
    assert v.error_type == "simple_function_checker:missing_required"
    assert len(v.errors) == 2  # every problem is listed: missing b, and a=5
    # supplied parameters are checked in the model's order
    out = [{"f": {"b": 3, "a": 1.5}}]
    assert check([schema], [{"f": {"a": [1], "b": [2]}}], out).error_type == "value_error:others"
    out = [{"f": {"a": 1.5, "b": 3}}]
    assert check([schema], [{"f": {"a": [1], "b": [2]}}], out).error_type == "type_error:simple"


# --- types ----------------------------------------------------------------------------


def test_an_int_is_accepted_for_a_float_parameter() -> None:
    schema = fn("f", ("x",), x="float")
    assert verdict(schema, {"f": {"x": [5.0]}}, [{"f": {"x": 5}}]) == OK


def test_a_float_is_never_turned_into_an_int() -> None:
    schema = fn("f", ("n",), n="integer")
    v = check([schema], [{"f": {"n": [5]}}], [{"f": {"n": 5.0}}])
    assert (v.valid, v.error_type) == (False, "type_error:simple")
    assert "never turns a float into an integer" in v.errors[0]


def test_a_float_passes_an_integer_slot_whose_answer_is_a_float() -> None:
    schema = fn("f", ("n",), n="integer")
    assert verdict(schema, {"f": {"n": [5.0]}}, [{"f": {"n": 5.0}}]) == OK


@pytest.mark.parametrize(
    ("schema_type", "value", "answer"), [("integer", True, 1), ("float", False, 0.0)]
)
def test_bool_is_not_int(schema_type: str, value: Any, answer: Any) -> None:
    schema = fn("f", ("x",), x=schema_type)
    assert verdict(schema, {"f": {"x": [answer]}}, [{"f": {"x": value}}]) == (
        False,
        "type_error:simple",
    )


def test_a_variable_slot_compares_by_python_equality_so_1_matches_true() -> None:
    # A boolean answer for an integer parameter makes the slot a variable one: the int passes
    # the type check (it is the schema's type) and 1 == True in Python's membership test.
    schema = fn("f", ("x",), x="integer")
    assert verdict(schema, {"f": {"x": [True]}}, [{"f": {"x": 1}}]) == OK


def test_a_boolean_parameter_rejects_an_int() -> None:
    schema = fn("f", ("on",), on="boolean")
    assert verdict(schema, {"f": {"on": [True]}}, [{"f": {"on": 1}}]) == (
        False,
        "type_error:simple",
    )


def test_any_means_string() -> None:
    schema = fn("f", ("v",), v="any")
    assert verdict(schema, {"f": {"v": ["x"]}}, [{"f": {"v": "X"}}]) == OK
    assert verdict(schema, {"f": {"v": ["x"]}}, [{"f": {"v": 1}}]) == (False, "type_error:simple")


def test_a_tuple_is_accepted_for_tuple_but_not_for_array() -> None:
    t = fn("f", ("p",), p={"type": "tuple", "items": {"type": "integer"}})
    a = fn("f", ("p",), p={"type": "array", "items": {"type": "integer"}})
    answer = {"f": {"p": [[1, 2]]}}
    assert verdict(t, answer, "[f(p=(1, 2))]") == OK
    assert verdict(a, answer, "[f(p=(1, 2))]") == (False, "type_error:simple")


def test_variable_slots_take_the_type_of_the_first_non_empty_alternative() -> None:
    s = fn("f", ("v",), v="string")
    assert verdict(s, {"f": {"v": ["", None]}}, [{"f": {"v": None}}]) == OK
    assert verdict(s, {"f": {"v": ["", True]}}, [{"f": {"v": True}}]) == OK
    # the value check of a variable slot is plain membership: "x" is not in ["", None]
    assert verdict(s, {"f": {"v": ["", None]}}, [{"f": {"v": "x"}}]) == (
        False,
        "value_error:others",
    )
    n = fn("f", ("v",), v="integer")
    assert verdict(n, {"f": {"v": ["data['sales']"]}}, [{"f": {"v": "data['sales']"}}]) == OK
    # no string normalisation in a variable slot
    assert verdict(n, {"f": {"v": ["data['sales']"]}}, [{"f": {"v": 'data["sales"]'}}]) == (
        False,
        "value_error:others",
    )


# --- nested list items ----------------------------------------------------------------


FLOATS = fn("f", ("xs",), xs={"type": "array", "items": {"type": "float"}})
INTS = fn("f", ("xs",), xs={"type": "array", "items": {"type": "integer"}})


def test_ints_are_not_turned_into_floats_inside_lists() -> None:
    v = check([FLOATS], [{"f": {"xs": [[1.0, 2.5]]}}], [{"f": {"xs": [1, 2.5]}}])
    assert (v.valid, v.error_type) == (False, "type_error:nested")
    assert "never inside a list" in v.errors[0]
    # ... but an alternative whose own first item is an int lets int items through
    assert verdict(FLOATS, {"f": {"xs": [[1, 2.5]]}}, [{"f": {"xs": [1, 2.5]}}]) == OK


def test_bool_items_fail_an_integer_list() -> None:
    assert verdict(INTS, {"f": {"xs": [[1, 0]]}}, [{"f": {"xs": [True, 0]}}]) == (
        False,
        "type_error:nested",
    )


def test_an_empty_list_and_a_non_list_alternative_pass_the_item_check() -> None:
    assert verdict(INTS, {"f": {"xs": [[]]}}, [{"f": {"xs": []}}]) == OK
    # "" accepts any items at once; the value check then finds no equal list
    assert verdict(INTS, {"f": {"xs": [[1], ""]}}, [{"f": {"xs": ["a"]}}]) == (
        False,
        "value_error:list/tuple",
    )


# --- values ---------------------------------------------------------------------------


@pytest.mark.parametrize("char", list(" ,./-_*^"))
def test_string_normalisation_deletes_exactly_the_listed_characters(char: str) -> None:
    schema = fn("f", ("city",), city="string")
    answer = {"f": {"city": ["New York"]}}
    assert verdict(schema, answer, [{"f": {"city": f"new{char}york"}}]) == OK


@pytest.mark.parametrize("char", ["\t", "\u00a0", ":", ";", "!", "?", "(", ")", "#", "+"])
def test_other_characters_are_compared(char: str) -> None:
    schema = fn("f", ("city",), city="string")
    answer = {"f": {"city": ["New York"]}}
    assert verdict(schema, answer, [{"f": {"city": f"new{char}york"}}]) == (
        False,
        "value_error:string",
    )


def test_strings_ignore_case_and_single_quotes_equal_double_quotes() -> None:
    schema = fn("f", ("q",), q="string")
    assert verdict(schema, {"f": {"q": ["It's"]}}, [{"f": {"q": 'IT"S'}}]) == OK


def test_a_value_that_normalises_to_empty_passes_an_optional_string() -> None:
    schema = fn("f", (), q="string")
    for value in ("", "-", " . "):
        assert verdict(schema, {"f": {"q": ["x", ""]}}, [{"f": {"q": value}}]) == OK


def test_the_string_error_lists_the_allowed_values() -> None:
    schema = fn("f", ("unit",), unit="string")
    v = check([schema], [{"f": {"unit": ["celsius", "C"]}}], [{"f": {"unit": "kelvin"}}])
    assert v.error_type == "value_error:string"
    assert v.errors[0] == (
        "Output call 1 (f): unit='kelvin' is not an allowed value; allowed: 'celsius' or 'C' "
        "(strings are compared ignoring case, spaces and , . / - _ * ^)."
    )


def test_list_order_matters_unless_the_other_order_is_listed() -> None:
    schema = fn("f", ("xs",), xs={"type": "array", "items": {"type": "string"}})
    one = {"f": {"xs": [["a", "b"]]}}
    both = {"f": {"xs": [["a", "b"], ["b", "a"]]}}
    assert verdict(schema, one, [{"f": {"xs": ["B", "A"]}}]) == (False, "value_error:list/tuple")
    assert verdict(schema, both, [{"f": {"xs": ["B", "A"]}}]) == OK


def test_list_items_normalise_at_the_top_level_only_and_numbers_compare_by_value() -> None:
    nested = fn("f", ("xs",), xs={"type": "array", "items": {"type": "array"}})
    assert verdict(nested, {"f": {"xs": [[["a"]]]}}, [{"f": {"xs": [["A"]]}}]) == (
        False,
        "value_error:list/tuple",
    )
    assert verdict(FLOATS, {"f": {"xs": [[1, 2]]}}, [{"f": {"xs": [1.0, 2.0]}}]) == OK


def test_empty_alternative_counts_as_an_empty_list() -> None:
    assert verdict(INTS, {"f": {"xs": [[1, 2], ""]}}, [{"f": {"xs": []}}]) == OK


DICT = fn("f", ("d",), d="dict")


def test_dict_values_are_normalised_strings_or_equal_by_value() -> None:
    answer = {"f": {"d": [{"school": ["Bluebird HS"], "score": [90], "ok": [True]}]}}
    out = [{"f": {"d": {"school": "bluebird-hs", "score": 90.0, "ok": 1}}}]
    assert verdict(DICT, answer, out) == OK


def test_dict_keys_are_exact_and_required_unless_marked_optional() -> None:
    answer = {"f": {"d": [{"min": [1], "max": [9, ""]}]}}
    assert verdict(DICT, answer, [{"f": {"d": {"min": 1}}}]) == OK
    assert verdict(DICT, answer, [{"f": {"d": {"Min": 1}}}]) == (False, "value_error:dict_key")
    assert verdict(DICT, answer, [{"f": {"d": {"max": 9}}}]) == (False, "value_error:dict_key")
    assert verdict(DICT, answer, [{"f": {"d": {"min": 2}}}]) == (False, "value_error:dict_value")


def test_a_dict_where_the_answer_is_only_empty_fails() -> None:
    schema = fn("f", (), d="dict")
    assert verdict(schema, {"f": {"d": [""]}}, [{"f": {"d": {}}}]) == (
        False,
        "dict_checker:unclear",
    )


def test_a_list_of_dicts_needs_an_alternative_of_the_same_length() -> None:
    schema = fn("f", ("rows",), rows={"type": "array", "items": {"type": "dict"}})
    answer = {"f": {"rows": [[{"name": ["Ann"]}, {"name": ["Bo"]}]]}}
    assert verdict(schema, answer, [{"f": {"rows": [{"name": "ann"}, {"name": "BO"}]}}]) == OK
    assert verdict(schema, answer, [{"f": {"rows": [{"name": "Bo"}, {"name": "Ann"}]}}]) == (
        False,
        "value_error:dict_value",
    )
    assert verdict(schema, answer, [{"f": {"rows": [{"name": "Ann"}]}}]) == (
        False,
        "value_error:list_dict_count",
    )


def test_numbers_match_exactly_without_tolerance() -> None:
    schema = fn("f", ("g",), g="float")
    assert verdict(schema, {"f": {"g": [9.81]}}, [{"f": {"g": 9.8}}]) == (
        False,
        "value_error:others",
    )


def test_a_parameter_whose_answer_is_only_empty_fails_whenever_given() -> None:
    schema = fn("f", (), n="integer")
    assert verdict(schema, {"f": {"n": [""]}}, [{"f": {"n": 0}}]) == (False, "value_error:others")
    assert verdict(schema, {"f": {"n": [""]}}, [{"f": {}}]) == OK


# --- whole outputs --------------------------------------------------------------------

PLAY = fn("spotify.play", ("artist", "duration"), artist="string", duration="integer")
PLAY_ANSWER = [
    {"spotify.play": {"artist": ["Taylor Swift"], "duration": [20]}},
    {"spotify.play": {"artist": ["Maroon 5"], "duration": [15]}},
]


def test_parallel_calls_match_in_any_order() -> None:
    out = "[spotify.play(artist='Maroon 5', duration=15), spotify.play(artist='taylor swift', duration=20)]"  # noqa: E501
    assert verdict(PLAY, PLAY_ANSWER, out) == OK


def test_parallel_matching_is_greedy_not_optimal() -> None:
    # Expected call 1 accepts Microsoft or Apple; expected call 2 only Apple (parallel_178).
    schema = fn("stock", ("company_name",), company_name="string")
    answer = [
        {"stock": {"company_name": ["Microsoft", "Apple"]}},
        {"stock": {"company_name": ["Apple"]}},
    ]
    good = [{"stock": {"company_name": "Microsoft"}}, {"stock": {"company_name": "Apple"}}]
    assert verdict(schema, answer, good) == OK
    v = check([schema], answer, list(reversed(good)))
    assert (v.valid, v.error_type) == (
        False,
        "parallel_function_checker_no_order:cannot_find_match",
    )
    assert v.matches == [0, None]  # expected call 1 took output call 1 (Apple)
    assert v.errors[-1] == (
        "Output call 1 would match it, but expected call 1 took it first (BFCL pairs greedily "
        "in the answer's order, not by the best overall pairing)."
    )
    assert v.error_types == [
        "parallel_function_checker_no_order:cannot_find_match",
        "value_error:string",
        "greedy_match",
    ]
    assert render_failure(v, answer).endswith(
        "Hint: In parallel categories each answered call, in the answer's order, takes the first "
        "free output call that passes; an output call that fits two answered calls can be taken "
        "by the wrong one."
    )


@pytest.mark.parametrize(
    ("calls", "category", "error_type"),
    [
        (0, "simple_python", "simple_function_checker:wrong_count"),
        (2, "simple_python", "simple_function_checker:wrong_count"),
        (2, "multiple", "multiple_function_checker:wrong_count"),
        (0, "live_multiple", "multiple_function_checker:wrong_count"),
    ],
)
def test_one_answered_call_needs_exactly_one_output_call(
    calls: int, category: str, error_type: str
) -> None:
    out = [{"geometry.area": {"base": 10}}] * calls
    assert verdict(AREA, AREA_ANSWER, out, category=category) == (False, error_type)


@pytest.mark.parametrize("out", [[0], [0, 1, 1]])
def test_parallel_needs_exactly_as_many_calls_as_the_answer(out: list[int]) -> None:
    calls = [
        {"spotify.play": {"artist": "Taylor Swift", "duration": 20}},
        {"spotify.play": {"artist": "Maroon 5", "duration": 15}},
    ]
    v = check([PLAY], PLAY_ANSWER, [calls[i] for i in out])
    assert (v.valid, v.error_type) == (False, "parallel_function_checker_no_order:wrong_count")
    assert v.errors[0].startswith(f"The output has {len(out)} call")


def test_simple_checks_against_the_first_schema_whatever_its_name() -> None:
    other = fn("other", ("base",), base="integer")
    out = [{"other": {"base": 10}}]
    assert verdict([other, AREA], AREA_ANSWER, out, category="simple_python") == OK
    assert verdict([other, AREA], AREA_ANSWER, out, category="multiple") == (
        False,
        "simple_function_checker:wrong_func_name",
    )


def test_multiple_checks_only_the_first_call_against_the_first_answer() -> None:
    first = fn("a", ("x",), x="integer")
    second = fn("b", ("y",), y="integer")
    answer = [{"a": {"x": [1]}}, {"b": {"y": [2]}}]
    out = [{"a": {"x": 1}}, {"b": {"y": 999}}]
    assert verdict([first, second], answer, out, category="multiple") == OK
    assert verdict([first, second], answer, out, category="parallel") == (
        False,
        "parallel_function_checker_no_order:cannot_find_match",
    )


def test_one_answered_call_gets_the_same_validity_on_every_checker() -> None:
    outputs = [
        [{"geometry.area": {"base": 10}}],
        [{"geometry.area": {"base": 11}}],
        [{"geometry.area": {"base": 10, "unit": "cm"}}],
        [{"area": {"base": 10}}],
    ]
    for out in outputs:
        found = {
            check([AREA], [AREA_ANSWER], out, category=c).valid
            for c in ("simple_python", "multiple", "parallel", "live_parallel_multiple")
        }
        assert len(found) == 1


def test_without_a_category_the_record_shape_picks_the_checker() -> None:
    assert check([AREA], [AREA_ANSWER], []).checker == "simple"
    assert check([AREA, PLAY], [AREA_ANSWER], []).checker == "multiple"
    assert check([PLAY], PLAY_ANSWER, []).checker == "parallel"
    assert check([PLAY], PLAY_ANSWER, [], category="simple_python").checker == "simple"


def test_a_list_of_calls_is_required_before_any_check() -> None:
    assert verdict(AREA, AREA_ANSWER, [{"geometry.area": 10}]) == (
        False,
        "ast_decoder:decoder_wrong_output_format",
    )
    assert verdict(AREA, AREA_ANSWER, [{"a": {}, "b": {}}]) == (
        False,
        "ast_decoder:decoder_wrong_output_format",
    )
    assert verdict(AREA, AREA_ANSWER, "not a call") == (False, "ast_decoder:decoder_failed")


def test_relevance_categories_need_no_answer() -> None:
    out = [{"geometry.area": {"base": 10}}]
    assert verdict(AREA, [], [], category="irrelevance") == OK
    assert verdict(AREA, [], "I cannot help with that.", category="live_irrelevance") == OK
    assert verdict(AREA, [], out, category="irrelevance") == (
        False,
        "irrelevance_error:decoder_success",
    )
    assert check([AREA], None, out, category="live_relevance").valid
    assert verdict(AREA, [], [], category="live_relevance") == (
        False,
        "relevance_error:decoder_failed",
    )


# --- out of scope and bad input -------------------------------------------------------


@pytest.mark.parametrize("category", ["simple_java", "simple_javascript"])
def test_java_and_javascript_categories_are_refused_clearly(category: str) -> None:
    with pytest.raises(ValueError, match=r"Python rules only.*Java and JavaScript"):
        check([AREA], [AREA_ANSWER], [], category=category)


def test_a_java_schema_type_is_refused_clearly() -> None:
    schema = fn("f", ("s",), s="String")
    with pytest.raises(SchemaError, match=r"Java/JavaScript type.*out of scope"):
        check([schema], [{"f": {"s": ["x"]}}], [{"f": {"s": "x"}}])


@pytest.mark.parametrize(
    ("functions", "truth", "message"),
    [
        ("f", [], "functions must be the question's 'function' list"),
        ([{"parameters": {}}], [], r"functions\[0\] must be a schema with a 'name'"),
        ([AREA], {"f": {}}, "ground_truth must be the possible answer's 'ground_truth' list"),
        ([AREA], [{"geometry.area": {"base": 10}}], "parameter 'base' must hold a list"),
    ],
)
def test_bad_arguments_raise_a_type_error_naming_them(
    functions: Any, truth: Any, message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        check(functions, truth, [])


def test_an_answer_naming_an_unknown_function_is_an_error() -> None:
    with pytest.raises(ValueError, match="the answer calls 'nope', which is not among"):
        check([PLAY], [{"nope": {}}, {"nope": {}}], [{"x": {}}, {"y": {}}])
