"""toolscore.validators: side-effect checks and argument schemas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscore import OneOf
from toolscore.adapters.base import ToolCall
from toolscore.validators import (
    FileSystemValidator,
    HTTPValidator,
    SchemaValidationError,
    SQLValidator,
    calculate_schema_validation_metrics,
    validate_argument_schema,
)

# --- HTTP -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "metadata", "expected", "ok"),
    [
        ({"status": 200}, None, True, True),
        ({"status_code": 204}, None, True, True),
        ({"status": 299}, None, True, True),
        ({"status": 302}, None, True, False),
        ({"status": 404}, None, 404, True),
        ({"status": 404}, None, "4xx", True),
        ({"status": 404}, None, [200, 404], True),
        ({"status": 500}, None, "2xx", False),
        (201, None, True, True),
        (None, {"http_status": 201}, True, True),
        ({"status": "oops"}, None, True, False),
        ({"body": "ok"}, None, True, False),  # nothing shows the call succeeded
        (None, None, True, False),
        ({"status": 201}, None, " 2XX ", True),  # a class is read without case or blanks
        ({"status": 201}, None, "201", True),  # a status written as text
        ({"status": 201}, None, "20x", False),  # not a class: one digit then "xx"
        ({"status": 201}, None, "created", False),
        ({"status": 1}, None, False, False),  # a bool is no status
        ({"status": 200}, None, [True, "3xx"], False),
        ({"status": 200}, None, 200.0, False),  # a float is no status
    ],
)
def test_http(result: object, metadata: object, expected: object, ok: bool) -> None:
    call = ToolCall("fetch", {"url": "https://x"}, result=result, metadata=metadata)  # type: ignore[arg-type]
    assert HTTPValidator().validate(call, expected) is ok


def test_http_reads_trace_dicts() -> None:
    assert HTTPValidator().validate({"tool": "fetch", "args": {}, "result": {"status": 200}}, True)


# --- SQL --------------------------------------------------------------------------------------

ROWS = [{"id": 1, "status": "active"}, {"id": 2, "status": "trial"}]


@pytest.mark.parametrize(
    ("result", "expected", "ok"),
    [
        (ROWS, True, True),
        (ROWS, 2, True),
        (ROWS, 3, False),
        ({"rows": ROWS}, {"min": 1, "max": 2}, True),
        ({"rows": ROWS}, {"min": 3}, False),
        ({"rows_affected": 0}, True, False),
        ({"rowcount": 5}, 5, True),
        (7, {"max": 10}, True),
        ([], True, False),
        ({"rows": 4}, 4, True),
        ("done", True, False),
        (ROWS, "many", False),
    ],
)
def test_sql_counts(result: object, expected: object, ok: bool) -> None:
    assert SQLValidator().validate(ToolCall("query", {}, result=result), expected) is ok


def test_sql_row_conditions_use_the_comparison_rule_and_matchers() -> None:
    call = ToolCall("query", {}, result={"rows": ROWS})
    assert SQLValidator(where={"status": OneOf("active", "trial")}).validate(call, True)
    assert not SQLValidator(where={"status": "active"}).validate(call, True)
    assert SQLValidator(contains_row={"id": 2.0, "status": " trial "}).validate(call, True)
    assert not SQLValidator(contains_row={"id": 3}).validate(call, True)
    assert SQLValidator().validate(ToolCall("q", {}, metadata={"row_count": 3}), 3)


# --- files ------------------------------------------------------------------------------------


def test_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "out.txt").write_text("report: done\n")
    (tmp_path / "dir").mkdir()
    base = FileSystemValidator(base_path=str(tmp_path))
    assert base.validate(ToolCall("write", {"path": "out.txt"}), True)
    assert base.validate(ToolCall("write", {}), "out.txt")
    assert base.validate(ToolCall("write", {}, result={"path": str(tmp_path / "out.txt")}), True)
    assert not base.validate(ToolCall("write", {"path": "missing.txt"}), True)
    assert not base.validate(ToolCall("write", {}), True)  # no path named at all
    assert base.validate(ToolCall("mkdir", {"path": "dir"}), True)
    assert FileSystemValidator(base_path=tmp_path, contains=["report", "done"]).validate(
        ToolCall("w", {"file": "out.txt"}), True
    )
    assert not FileSystemValidator(base_path=tmp_path, contains="missing").validate(
        ToolCall("w", {"file": "out.txt"}), True
    )
    size = len("report: done\n")
    assert FileSystemValidator(base_path=tmp_path, min_size=size, max_size=size).validate(
        ToolCall("w", {"file": "out.txt"}), True
    )
    assert not FileSystemValidator(base_path=tmp_path, max_size=3).validate(
        ToolCall("w", {"file": "out.txt"}), True
    )
    assert not FileSystemValidator(base_path=tmp_path, contains="x").validate(
        ToolCall("mkdir", {"path": "dir"}), True
    )
    # a directory has no size or text: size and content conditions fail on it
    assert not FileSystemValidator(base_path=tmp_path, max_size=10).validate(
        ToolCall("mkdir", {"path": "dir"}), True
    )
    assert not FileSystemValidator(base_path=tmp_path, min_size=size + 1).validate(
        ToolCall("w", {"file": "out.txt"}), True
    )
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9 report")  # not UTF-8: no text to search
    assert not FileSystemValidator(base_path=tmp_path, contains="report").validate(
        ToolCall("w", {"file": "latin.txt"}), True
    )
    # a tool that answers with the path as plain text
    assert base.validate(ToolCall("write", {}, result="out.txt"), True)
    assert not base.validate(ToolCall("write", {}, result="   "), True)
    monkeypatch.chdir(tmp_path)  # relative paths resolve against the working directory
    assert FileSystemValidator().validate(ToolCall("write", {"path": "out.txt"}), True)


# --- schemas ----------------------------------------------------------------------------------

FLAT = {
    "query": {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "[a-z]"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "required": False},
    "unit": {"type": "string", "enum": ["C", "F"], "required": False},
}


@pytest.mark.parametrize(
    ("args", "errors"),
    [
        ({"query": "shoes", "limit": 10}, []),
        ({"query": "shoes", "limit": 10.0}, []),  # 10.0 is an integer in JSON Schema
        ({}, ["Missing required argument: query"]),
        ({"query": 5}, ["Argument 'query' has wrong type: expected string, got int"]),
        (
            {"query": ""},
            [
                "Argument 'query' is too short: 0 < 1",
                "Argument 'query' doesn't match pattern: [a-z]",
            ],
        ),
        ({"query": "UPPER only"}, []),  # pattern is searched, as in JSON Schema
        ({"query": "x" * 21}, ["Argument 'query' is too long: 21 > 20"]),
        ({"query": "a", "limit": 0}, ["Argument 'limit' is below minimum: 0 < 1"]),
        ({"query": "a", "limit": 101}, ["Argument 'limit' exceeds maximum: 101 > 100"]),
        (
            {"query": "a", "limit": True},
            ["Argument 'limit' has wrong type: expected integer, got bool"],
        ),
        ({"query": "a", "unit": "K"}, ["Argument 'unit' has invalid value: 'K' not in ['C', 'F']"]),
    ],
)
def test_flat_schema(args: dict[str, object], errors: list[str]) -> None:
    assert validate_argument_schema(ToolCall("search", args), FLAT) == (not errors, errors)


def test_json_schema_objects_nest() -> None:
    schema = {
        "type": "object",
        "properties": {
            "filters": {
                "type": "object",
                "properties": {"max_price": {"type": "number", "exclusiveMinimum": 0}},
                "required": ["max_price"],
                "additionalProperties": False,
            },
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "note": {"type": ["string", "null"]},
        },
        "required": ["filters"],
    }
    ok = {"filters": {"max_price": 10}, "tags": ["a"], "note": None}
    assert validate_argument_schema({"tool": "s", "args": ok}, schema) == (True, [])
    bad = {"filters": {"max_price": 0, "color": "red"}, "tags": ["a", 2, "c"]}
    assert validate_argument_schema({"tool": "s", "args": bad}, schema) == (
        False,
        [
            "Argument 'filters.max_price' is not above the exclusive minimum: 0 <= 0",
            "Argument 'filters.color' is not allowed (additionalProperties is false)",
            "Argument 'tags' has too many items: 3 > 2",
            "Argument 'tags[1]' has wrong type: expected string, got int",
        ],
    )
    assert validate_argument_schema({"tool": "s", "args": {"filters": {}}}, schema)[1] == [
        "Missing required argument: filters.max_price"
    ]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ([], "must be a dict of argument rules"),
        ({"q": "string"}, "the schema of argument 'q' must be a dict of rules"),
        ({"q": {"type": "strng"}}, "unknown type 'strng'"),
        ({"q": {"type": "string", "pattern": "("}}, "invalid pattern"),
    ],
)
def test_unusable_schemas_are_errors(schema: object, message: str) -> None:
    with pytest.raises(SchemaValidationError, match=message):
        validate_argument_schema(ToolCall("s", {"q": "x"}), schema)  # type: ignore[arg-type]


def test_schema_metrics() -> None:
    gold = [
        ToolCall("search", {"query": "a"}, metadata={"schema": FLAT}),
        ToolCall("book", {"id": 1}),  # no schema: its calls are not checked
    ]
    trace = [
        {"tool": "search", "args": {"query": "shoes"}},
        {"tool": "search", "args": {"query": "", "limit": 500}},
        {"tool": "book", "args": {"id": "x"}},
    ]
    metrics = calculate_schema_validation_metrics(gold, trace)
    assert metrics["schema_compliance_rate"] == 0.5
    assert (metrics["total_validated"], metrics["failed_count"], metrics["total_errors"]) == (
        2,
        1,
        3,
    )
    assert metrics["failed_calls"][0]["args"] == {"query": "", "limit": 500}
    assert metrics["error_details"][0] == "search: Argument 'query' is too short: 0 < 1"
    assert calculate_schema_validation_metrics([], trace)["schema_compliance_rate"] == 1.0


def test_evaluate_trace_runs_the_validators(tmp_path: Path) -> None:
    from toolscore import evaluate_trace

    gold = [
        {"tool": "fetch", "args": None, "side_effects": {"http_ok": True}},
        {"tool": "query", "args": None, "side_effects": {"sql_rows": {"min": 2}}},
        {"tool": "save", "args": None, "side_effects": {"file_exists": str(tmp_path / "a.txt")}},
    ]
    trace = [
        {"tool": "fetch", "args": {}, "result": {"status_code": 503}},
        {"tool": "query", "args": {}, "result": {"rows": [{"id": 1}, {"id": 2}]}},
        {"tool": "save", "args": {}},
    ]
    (tmp_path / "g.json").write_text(json.dumps(gold))
    (tmp_path / "t.json").write_text(json.dumps(trace))
    (tmp_path / "a.txt").write_text("x")
    metrics = evaluate_trace(tmp_path / "g.json", tmp_path / "t.json").metrics
    details = {d["check"]: d["passed"] for d in metrics["side_effect_metrics"]["details"]}
    assert details == {"http_ok": False, "sql_rows": True, "file_exists": True}
    off = evaluate_trace(tmp_path / "g.json", tmp_path / "t.json", validate_side_effects=False)
    assert "side_effect_metrics" not in off.metrics


def test_evaluate_trace_checks_generated_schemas(tmp_path: Path) -> None:
    from toolscore import evaluate_trace

    gold = [{"tool": "search", "args": {"q": "x"}, "metadata": {"schema": FLAT}}]
    (tmp_path / "g.json").write_text(json.dumps(gold))
    (tmp_path / "t.json").write_text(json.dumps([{"tool": "search", "args": {"q": ""}}]))
    schema = evaluate_trace(tmp_path / "g.json", tmp_path / "t.json").metrics["schema_metrics"]
    assert schema["schema_compliance_rate"] == 0.0 and schema["total_validated"] == 1
