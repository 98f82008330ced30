"""toolscore.generators and toolscore generate: schema-valid, reproducible gold cases."""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path

import pytest

from toolscore.cli import main
from toolscore.generators import generate_from_openai_schema
from toolscore.generators.synthetic import (
    function_definitions,
    generate_cases,
    generate_value_from_schema,
    primary_schema_type,
    schema_types,
)
from toolscore.validators import validate_argument_schema

BOOK = {
    "name": "book_trip",
    "description": "Book a trip",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 2, "maxLength": 30},
            "email": {"type": "string", "format": "email"},
            "when": {"type": "string", "format": "date-time"},
            "nights": {"type": "integer", "minimum": 1, "maximum": 14},
            "budget": {"type": "number", "exclusiveMinimum": 0, "maximum": 5000},
            "cabin": {"type": "string", "enum": ["economy", "business"]},
            "pets": {"type": "boolean"},
            "note": {"type": ["null", "string"], "maxLength": 5},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4},
            "traveller": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
                "required": ["name"],
            },
        },
        "required": ["city", "nights"],
    },
}


@pytest.mark.parametrize("seed", range(8))
def test_every_generated_case_satisfies_its_schema(seed: int) -> None:
    cases = generate_cases(BOOK, count=10, rng=random.Random(seed))
    assert [c["metadata"]["variation"] for c in cases] == ["normal"] * 6 + ["boundary"] * 2 + [
        "edge"
    ] * 2
    for case in cases:
        assert case["tool"] == "book_trip"
        assert validate_argument_schema(case, case["metadata"]["schema"]) == (True, [])


def test_boundary_and_edge_take_the_limits() -> None:
    (boundary,) = generate_cases(BOOK, count=1, rng=random.Random(0), include_edge_cases=False)
    props = BOOK["parameters"]["properties"]  # type: ignore[index]
    low = {k: generate_value_from_schema(k, v, "boundary") for k, v in props.items()}
    high = {k: generate_value_from_schema(k, v, "edge") for k, v in props.items()}
    assert (low["nights"], high["nights"]) == (1, 14)
    assert (len(low["city"]), len(high["city"])) == (2, 30)
    assert (len(low["tags"]), len(high["tags"])) == (1, 4)
    assert (low["cabin"], high["cabin"]) == ("economy", "business")
    assert high["budget"] == 5000 and 0 < low["budget"] < 1
    # a format has no smallest or largest value: it keeps its one well-formed value
    assert low["when"] == high["when"]
    assert datetime.fromisoformat(low["when"].replace("Z", "+00:00")).tzinfo is not None
    assert (low["pets"], high["pets"]) == (False, True)
    assert boundary["metadata"]["variation"] == "normal"


REFS = {
    "name": "plan",
    "parameters": {
        "type": "object",
        "$defs": {"slot": {"type": "integer", "minimum": 7, "maximum": 58, "multipleOf": 15}},
        "properties": {
            "start": {"$ref": "#/$defs/slot"},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "room": {"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 3}]},
            "size": {"allOf": [{"type": "integer"}, {"minimum": 2, "maximum": 4}]},
        },
        "required": ["start"],
    },
}


def test_boundary_and_edge_follow_refs_combinators_and_multiples() -> None:
    # By hand: multiples of 15 in [7, 58] are 15, 30, 45 -> smallest 15, largest 45; an
    # exclusive (0, 1) number moves one step (0.01) inwards -> 0.01 and 0.99; the non-null
    # anyOf branch gives "x" / "xxx"; allOf merges the bounds 2..4.
    cases = generate_cases(REFS, count=5, rng=random.Random(0))
    by_kind = {c["metadata"]["variation"]: c["args"] for c in cases}
    assert by_kind["boundary"] == {"start": 15, "ratio": 0.01, "room": "x", "size": 2}
    assert by_kind["edge"] == {"start": 45, "ratio": 0.99, "room": "xxx", "size": 4}
    # the first normal case sends only what is required
    assert cases[0]["args"].keys() == {"start"} and cases[0]["args"]["start"] in (15, 30, 45)
    for case in cases:
        start = case["args"]["start"]
        assert start % 15 == 0 and 7 <= start <= 58


def test_split_and_reproducibility(tmp_path: Path) -> None:
    schema = tmp_path / "fns.json"
    schema.write_text(json.dumps([BOOK, {"name": "ping"}]))
    cases = generate_from_openai_schema(schema, count=5)
    kinds = [c["metadata"]["variation"] for c in cases if c["tool"] == "book_trip"]
    assert kinds == ["normal"] * 3 + ["boundary", "edge"]
    assert [c["args"] for c in cases if c["tool"] == "ping"] == [{}] * 5
    assert cases == generate_from_openai_schema(schema, count=5)  # seed 0 by default
    others = [generate_from_openai_schema(schema, count=5, seed=s) for s in (1, 2, 3)]
    assert any(o != cases for o in others)
    only_normal = generate_from_openai_schema(schema, count=4, include_edge_cases=False)
    assert {c["metadata"]["variation"] for c in only_normal} == {"normal"}


def test_schema_type_helpers() -> None:
    assert schema_types({}) == ["string"]
    assert schema_types({"type": ["integer", "null"]}) == ["integer", "null"]
    assert primary_schema_type({"type": ["null", "boolean"]}) == "boolean"
    with pytest.raises(ValueError, match="variation must be one of normal, boundary, edge"):
        generate_value_from_schema("x", {}, "weird")


def test_definition_shapes() -> None:
    fn = {"name": "f", "parameters": {"type": "object", "properties": {}}}
    assert function_definitions(fn) == [fn]
    assert function_definitions([{"type": "function", "function": fn}]) == [fn]
    assert function_definitions({"tools": [{"type": "function", "function": fn}]}) == [fn]
    with pytest.raises(ValueError, match=r"definition \[0\] needs a 'name'"):
        function_definitions([{"description": "no name"}])


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        generate_from_openai_schema(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        generate_from_openai_schema(bad)
    with pytest.raises(ValueError, match="count must be a positive whole number"):
        generate_cases(BOOK, count=0)


def test_cli_generate_then_eval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("fns.json").write_text(json.dumps([{"type": "function", "function": BOOK}]))
    assert main(["generate", "--from-openai", "fns.json", "-n", "5", "-o", "out/gold.json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "Generated 5 test case(s) for 1 function(s) (3 normal, 1 boundary, 1 edge) "
        "in out/gold.json."
    )
    assert out[1].startswith("Next: ") and out[1].endswith(
        "toolscore eval out/gold.json trace.json"
    )
    assert main(["validate", "--gold", "out/gold.json"]) == 0
    assert capsys.readouterr().out.startswith(
        "OK: out/gold.json is a valid gold file: 5 expected call(s), 0 with argument matchers."
    )
    # the generated gold file scores a trace of the same calls as perfect
    assert main(["eval", "out/gold.json", "out/gold.json"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("PASS: ")

    assert main(["generate", "--from-openai", "fns.json", "-n", "2", "-v", "--no-edge-cases"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("  1. [normal] book_trip(") and Path("gold_calls.json").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from-openai", "missing.json"], "missing.json: no such file"),
        (["--from-openai", "bad.json"], "bad.json: not valid JSON"),
        (["--from-openai", "noname.json"], "noname.json: definition [0] needs a 'name'"),
        (
            ["--from-openai", "bad.json", "-n", "0"],
            "argument --count/-n: expected a whole number >= 1, got 0",
        ),
    ],
)
def test_cli_generate_bad_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.json").write_text("[")
    Path("noname.json").write_text('[{"parameters": {}}]')
    assert main(["generate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
