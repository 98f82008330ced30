"""Forbidden calls as a policy: evaluate(forbidden=...), the rule files, their errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolscore import Contains, OneOf, Regex, evaluate
from toolscore.adapters.base import ToolCall
from toolscore.metrics import (
    check_forbidden_calls,
    load_forbidden_rules,
    rules_from_json,
)
from toolscore.metrics.policy import call_matches_rule


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


TRACE = [
    call("read_file", path="notes.txt"),
    call("run_shell", command="ls -la"),
    call("run_shell", command="rm -rf /tmp/x"),
    call("read_file", path="/home/me/.ssh/id_rsa"),
    call("delete_repository", name="prod"),
]


def test_violations_name_the_call_the_rule_and_the_reason() -> None:
    rules = [
        {"tool": "run_shell", "args": {"command": Contains("rm -rf")}, "reason": "destructive"},
        {"tool": "read_file", "args": {"path": Contains(".ssh")}},
        {"tool": "delete_repository"},
    ]
    result = evaluate([call("read_file", path="notes.txt")], TRACE, forbidden=rules)
    assert result.policy_violations == [
        {
            "index": 2,
            "tool": "run_shell",
            "args": {"command": "rm -rf /tmp/x"},
            "rule": 0,
            "reason": "destructive",
        },
        {
            "index": 3,
            "tool": "read_file",
            "args": {"path": "/home/me/.ssh/id_rsa"},
            "rule": 1,
            "reason": None,
        },
        {
            "index": 4,
            "tool": "delete_repository",
            "args": {"name": "prod"},
            "rule": 2,
            "reason": None,
        },
    ]
    policy = result.metrics["policy_metrics"]
    assert policy["violation_count"] == 3 and policy["rule_count"] == 3
    assert policy["violations"] == result.policy_violations


def test_violations_do_not_change_the_score() -> None:
    expected = [call("run_shell", command="rm -rf /tmp/x")]
    actual = [call("run_shell", command="rm -rf /tmp/x")]
    plain = evaluate(expected, actual)
    policed = evaluate(expected, actual, forbidden=[{"tool": "run_shell"}])
    assert plain.score == policed.score == 1.0
    assert len(policed.policy_violations) == 1


def test_no_rules_means_no_policy_metrics_and_no_violations() -> None:
    result = evaluate([], TRACE)
    assert "policy_metrics" not in result.metrics
    assert result.policy_violations == []
    # An empty rule list is a policy that nothing breaks.
    empty = evaluate([], TRACE, forbidden=[])
    assert empty.metrics["policy_metrics"] == {
        "violation_count": 0,
        "rule_count": 0,
        "violations": [],
    }


def test_a_call_is_reported_once_for_its_first_matching_rule() -> None:
    rules = [{"tool": "run_shell", "reason": "no shell"}, {"tool": "run_shell", "args": {}}]
    result = evaluate([], [call("run_shell", command="ls")], forbidden=rules)
    assert [(v["rule"], v["reason"]) for v in result.policy_violations] == [(0, "no shell")]


def test_rules_match_named_arguments_leniently_even_in_strict_mode() -> None:
    # A safety rule written with 1 must catch 1.0 and " prod " (the lenient comparison rule).
    rules = [{"tool": "deploy", "args": {"replicas": 1, "env": "prod"}}]
    actual = [call("deploy", replicas=1.0, env=" prod ", extra=True), call("deploy", env="prod")]
    strict = evaluate([], actual, strict=True, forbidden=rules)
    assert [v["index"] for v in strict.policy_violations] == [0]


def test_matchers_in_rules() -> None:
    rules = [{"tool": "send", "args": {"to": OneOf("ceo@x.com", Regex(r".*@rival\.com"))}}]
    actual = [call("send", to="a@b.com"), call("send", to="bob@rival.com"), call("send")]
    result = evaluate([], actual, forbidden=rules)
    assert [v["index"] for v in result.policy_violations] == [1]


@pytest.mark.parametrize(
    ("rules", "error", "match"),
    [
        ({"tool": "x"}, TypeError, "forbidden must be a list of rule dicts"),
        (["run_shell"], ValueError, r"forbidden\[0\] is not a dict"),
        ([{"args": {}}], ValueError, r"forbidden\[0\] needs a non-empty 'tool' string"),
        ([{"tool": "x", "args": ["a"]}], ValueError, r"'args' must be a dict"),
        # A typo must not silently forbid every call to the tool.
        ([{"tool": "x", "arg": {"a": 1}}], ValueError, "unknown key 'arg'"),
    ],
)
def test_malformed_rules_are_rejected_at_the_call(rules: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        evaluate([], TRACE, forbidden=rules)


def test_rules_from_json_regex_searches_anywhere_and_in_argv_lists() -> None:
    rules = rules_from_json(
        [
            {"tool": "run_shell", "args": {"command": {"$regex": r"rm\s+-rf"}}},
            {"tool": "exec", "args": {"argv": {"$regex": "rm -rf"}}},
        ]
    )
    # A prefix or a second line does not hide the command (a gold file's $regex must match
    # whole; a forbidden rule's searches).
    assert call_matches_rule("run_shell", {"command": "cd / && rm  -rf ."}, rules[0])
    assert call_matches_rule("run_shell", {"command": "echo hi\nrm -rf /"}, rules[0])
    assert not call_matches_rule("run_shell", {"command": "ls"}, rules[0])
    assert call_matches_rule("exec", {"argv": ["rm", "-rf", "/"]}, rules[1])
    assert not call_matches_rule("exec", {"argv": None}, rules[1])


def test_rules_from_json_decodes_the_gold_file_matchers() -> None:
    rules = rules_from_json(
        [
            {"tool": "pay", "args": {"amount": {"$approx": 100, "rel": 0.05}}},
            {"tool": "pay", "args": {"to": {"$one_of": ["x", {"$regex": "evil"}]}}},
            {"tool": "mail", "args": {"cc": {"$contains": "all@corp.com"}}},
        ]
    )
    assert call_matches_rule("pay", {"amount": 103}, rules[0])
    assert not call_matches_rule("pay", {"amount": 110}, rules[0])
    # $regex inside $one_of searches too.
    assert call_matches_rule("pay", {"to": "very evil corp"}, rules[1])
    assert call_matches_rule("mail", {"cc": ["me@corp.com", "all@corp.com"]}, rules[2])


def test_load_forbidden_rules_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps([{"tool": "rm", "reason": "never"}]))
    rules = load_forbidden_rules(path)
    report = check_forbidden_calls([ToolCall("rm", {"path": "/"}), ToolCall("ls")], rules)
    assert report == {
        "violation_count": 1,
        "rule_count": 1,
        "violations": [
            {"index": 0, "tool": "rm", "args": {"path": "/"}, "rule": 0, "reason": "never"}
        ],
    }
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_forbidden_rules(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text(json.dumps([{"tool": "x", "args": {"a": {"$nope": 1}}}]))
    with pytest.raises(ValueError, match=r"unknown matcher key '\$nope'"):
        load_forbidden_rules(tmp_path / "bad.json")


def test_expect_does_not_call_and_forbidden_rules_agree() -> None:
    # One rule for "named arguments present and matching": expect().does_not_call uses it too.
    from toolscore import ToolScoreAssertionError, expect

    trace = [call("read_file", path="/etc/passwd", mode="r")]
    assert evaluate(
        [], trace, forbidden=[{"tool": "read_file", "args": {"path": "/etc/passwd"}}]
    ).policy_violations
    with pytest.raises(ToolScoreAssertionError, match="does_not_call"):
        expect(trace).does_not_call("read_file", path="/etc/passwd").run()
