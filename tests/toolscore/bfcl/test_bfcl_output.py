"""Model outputs in every shape: prompt-mode text, function-calling results, provider
responses, toolscore calls; and outputs that do not decode."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolscore.adapters.base import ToolCall
from toolscore.bfcl import check

SCHEMA = {
    "name": "weather.get",
    "parameters": {
        "type": "dict",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["city"],
    },
}
ANSWER = [{"weather.get": {"city": ["Paris"], "days": [3, ""], "tags": [["a", "b"], ""]}}]


def verdict(output: Any, **kw: Any) -> tuple[bool, str | None]:
    v = check([SCHEMA], ANSWER, output, **kw)
    return v.valid, v.error_type


@pytest.mark.parametrize(
    "text",
    [
        "[weather.get(city='Paris', days=3)]",
        "weather.get(city='Paris', days=3)",
        "```\n[weather.get(city='Paris', days=3)]\n```",
        '  [weather.get(city="paris", days=1 + 2)]\n',
        "[weather.get(city='Paris', days=3, tags=['a', 'b'])]",
    ],
)
def test_prompt_mode_text_is_read_as_python_calls(text: str) -> None:
    assert verdict(text) == (True, None)


def test_bfcl_decoder_quirks_are_kept() -> None:
    v = check([SCHEMA], ANSWER, "[weather.get('Paris', days=3)]")
    # a positional argument is dropped, as BFCL's decoder drops it
    assert (v.valid, v.error_type) == (False, "simple_function_checker:missing_required")
    assert v.calls == [{"weather.get": {"days": 3}}]
    # every unary operator negates: +3 reads -3
    assert check([SCHEMA], ANSWER, "[weather.get(city='Paris', days=+3)]").calls == [
        {"weather.get": {"city": "Paris", "days": -3}}
    ]
    # a name reads as its text, a subscript and a call without keywords as their source
    calls = check([SCHEMA], ANSWER, "[weather.get(city=paris, days=d['n'], tags=f(1))]").calls
    assert calls == [{"weather.get": {"city": "paris", "days": "d['n']", "tags": "f(1)"}}]


def test_model_text_is_never_evaluated() -> None:
    text = "[weather.get(city=__import__('os').getcwd() + 'x')]"
    v = check([SCHEMA], ANSWER, text)
    assert (v.valid, v.error_type) == (False, "ast_decoder:decoder_failed")
    assert "only arithmetic on literals" in v.errors[0]


def test_huge_arithmetic_fails_to_decode_instead_of_hanging() -> None:
    for text in ("[weather.get(city='a' * 10**9)]", "[weather.get(days=10**10**10)]"):
        assert verdict(text) == (False, "ast_decoder:decoder_failed")


@pytest.mark.parametrize(
    "text", ["I think it is sunny.", "[weather.get(city=)]", "[1, 2]", "[lambda: 1]"]
)
def test_text_that_is_not_calls_fails_to_decode(text: str) -> None:
    v = check([SCHEMA], ANSWER, text)
    assert (v.valid, v.error_type) == (False, "ast_decoder:decoder_failed")
    assert v.calls is None and v.errors[0].startswith("The output ")


def test_an_empty_text_is_no_call_as_bfcl_reads_it() -> None:
    v = check([SCHEMA], ANSWER, "")
    assert (v.valid, v.error_type, v.calls) == (False, "simple_function_checker:wrong_count", [])


def test_function_calling_results_with_json_arguments() -> None:
    out = [{"weather_get": json.dumps({"city": "Paris", "days": 3})}]
    assert verdict(out, underscore_to_dot=True) == (True, None)
    v = check([SCHEMA], ANSWER, [{"weather_get": '{"city": "Paris",'}], underscore_to_dot=True)
    assert (v.valid, v.error_type) == (False, "ast_decoder:decoder_failed")
    assert "not valid JSON" in v.errors[0] and "'weather_get'" in v.errors[0]


def test_toolscore_calls_and_tool_call_objects() -> None:
    assert verdict([{"tool": "weather.get", "args": {"city": "Paris"}}]) == (True, None)
    assert verdict([ToolCall("weather.get", {"city": "Paris"})]) == (True, None)
    assert verdict(ToolCall("weather.get", {"city": "Paris"})) == (True, None)
    assert verdict([{"tool": "weather.get", "args": '{"city": "Paris"}'}]) == (True, None)


def test_provider_responses_are_extracted() -> None:
    openai = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "weather_get", "arguments": '{"city": "Paris"}'},
                        }
                    ],
                }
            }
        ]
    }
    assert verdict(openai, underscore_to_dot=True) == (True, None)
    anthropic = {
        "content": [{"type": "tool_use", "id": "t", "name": "weather.get", "input": {"city": "x"}}]
    }
    assert verdict(anthropic) == (False, "value_error:string")
    assert verdict([anthropic["content"][0]]) == (False, "value_error:string")
    cohere = [{"tool_name": "weather.get", "parameters": {"city": "Paris"}}]
    assert verdict(cohere) == (True, None)


def test_provider_arguments_that_are_not_json_fail_to_decode() -> None:
    bad = {
        "choices": [
            {
                "message": {
                    "tool_calls": [{"function": {"name": "weather_get", "arguments": "{oops"}}]
                }
            }
        ]
    }
    v = check([SCHEMA], ANSWER, bad, underscore_to_dot=True)
    assert (v.valid, v.error_type) == (False, "ast_decoder:decoder_failed")
    assert "{oops" in v.errors[0]


def test_a_single_bfcl_call_dict_is_one_call() -> None:
    assert verdict({"weather.get": {"city": "Paris"}}) == (True, None)


@pytest.mark.parametrize(
    ("output", "error_type"),
    [
        (None, "ast_decoder:decoder_failed"),
        ([{"weather.get": ["Paris"]}], "ast_decoder:decoder_wrong_output_format"),
        (["weather.get(city='Paris')"], "ast_decoder:decoder_wrong_output_format"),
        ([], "simple_function_checker:wrong_count"),
    ],
)
def test_outputs_without_calls(output: Any, error_type: str) -> None:
    assert verdict(output) == (False, error_type)


@pytest.mark.parametrize("output", [42, 1.5, object(), {"a": 1, "b": 2}])
def test_an_object_that_is_no_model_output_is_a_type_error(output: Any) -> None:
    with pytest.raises(TypeError, match="model_output must be a list of calls"):
        check([SCHEMA], ANSWER, output)
