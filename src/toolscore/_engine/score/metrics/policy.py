"""Forbidden calls: a policy of calls the agent must never make.

Behind :mod:`toolscore.metrics.policy`, which re-exports it (the same objects).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format import shorten
from toolscore._engine.compare.matchers import Contains, Matcher, OneOf, Regex
from toolscore._engine.compare.rule import args_satisfy
from toolscore._engine.read.inputs import CallList, read_calls
from toolscore._engine.read.tool_call import ToolCall

__all__ = [
    "call_matches_rule",
    "check_forbidden_calls",
    "load_forbidden_rules",
    "policy_metrics",
    "rules_from_json",
    "validate_rules",
]

_RULE_KEYS = frozenset(("tool", "args", "reason", "description"))


def validate_rules(rules: Any, name: str = "forbidden") -> list[dict[str, Any]]:
    """Check forbidden rules and return them as a list of dicts.

    Raises:
        TypeError: ``rules`` is not a list.
        ValueError: a rule is not a dict, has no tool name, has non-dict ``args`` or an
            unknown key (a typo such as ``"arg"`` would otherwise forbid every call).
    """
    if not isinstance(rules, (list, tuple)):
        raise TypeError(
            f"{name} must be a list of rule dicts like [{{'tool': 'delete_repo'}}], "
            f"got {type(rules).__name__}"
        )
    out: list[dict[str, Any]] = []
    for i, rule in enumerate(rules):
        where = f"{name}[{i}]"
        if not isinstance(rule, Mapping):
            raise ValueError(
                f"{where} is not a dict: a rule looks like {{'tool': 'run_shell', 'args': "
                f"{{'command': Contains('rm -rf')}}}}, got {shorten(repr(rule), 80)}"
            )
        tool = rule.get("tool")
        if not isinstance(tool, str) or not tool:
            raise ValueError(
                f"{where} needs a non-empty 'tool' string naming the forbidden tool, got "
                f"{shorten(repr(rule), 80)}"
            )
        unknown = sorted(str(k) for k in set(rule) - _RULE_KEYS)
        if unknown:
            raise ValueError(
                f"{where} ({tool!r}) has an unknown key {unknown[0]!r}; a rule has 'tool', "
                "optional 'args' and optional 'reason'"
            )
        args = rule.get("args")
        if args is not None and not isinstance(args, Mapping):
            raise ValueError(
                f"{where} ({tool!r}): 'args' must be a dict of argument values (or matchers), "
                f"got {type(args).__name__} {shorten(repr(args), 60)}"
            )
        out.append(dict(rule))
    return out


def call_matches_rule(
    call_tool: str, call_args: Mapping[str, Any] | None, rule: Mapping[str, Any]
) -> bool:
    """Whether one call (tool name and arguments) breaks one forbidden rule.

    Example:
        >>> call_matches_rule("read_file", {"path": "~/.ssh/id_rsa"},
        ...                   {"tool": "read_file", "args": {"path": Contains(".ssh")}})
        True
    """
    return call_tool == rule.get("tool") and args_satisfy(call_args, rule.get("args") or {}, False)


def policy_metrics(trace: CallList, rules: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Toolscore's ``policy_metrics``: ``violation_count``, ``rule_count``, ``violations``.

    Each violation is ``{"index", "tool", "args", "rule", "reason"}``: the call's position in
    the trace, its tool and arguments, the index of the first rule it breaks and that rule's
    reason (or None). A call is reported once, for its first matching rule.
    """
    by_tool: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for n, rule in enumerate(rules):
        by_tool.setdefault(rule["tool"], []).append((n, rule))
    violations: list[dict[str, Any]] = []
    if by_tool:
        for j, (tool, args) in enumerate(zip(trace.tools, trace.args, strict=False)):
            for n, rule in by_tool.get(tool, ()):
                if args_satisfy(args, rule.get("args") or {}, False):
                    violations.append(
                        {
                            "index": j,
                            "tool": tool,
                            "args": args or {},
                            "rule": n,
                            "reason": rule.get("reason"),
                        }
                    )
                    break
    return {
        "violation_count": len(violations),
        "rule_count": len(rules),
        "violations": violations,
    }


def check_forbidden_calls(
    trace_calls: Sequence[ToolCall | Mapping[str, Any]], rules: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Report every call that breaks a forbidden rule (see the module docstring).

    Args:
        trace_calls: the calls the agent made, in order (``ToolCall`` objects or dicts).
        rules: the forbidden rules.

    Returns:
        ``{"violation_count": int, "rule_count": int, "violations": [...]}``.

    Raises:
        TypeError / ValueError: malformed rules (the message names the rule).

    Example:
        >>> check_forbidden_calls([ToolCall("delete_repo", {"name": "x"})],
        ...                       [{"tool": "delete_repo"}])["violation_count"]
        1
    """
    checked = validate_rules(rules, "rules")
    return policy_metrics(read_calls(list(trace_calls), expected=False), checked)


class _Search(Matcher):
    """``$regex`` in a forbidden rule: the pattern found anywhere in the value."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled = re.compile(pattern, flags)

    def matches(self, value: Any) -> bool:
        if isinstance(value, (list, tuple)):
            text = " ".join(str(item) for item in value)
        elif isinstance(value, str):
            text = value
        elif value is None or isinstance(value, Mapping):
            return False
        else:
            text = str(value)
        return self._compiled.search(text) is not None

    def __repr__(self) -> str:
        flags = f", flags={self.flags}" if self.flags else ""
        return f"RegexSearch({self.pattern!r}{flags})"


def _searching(value: Any) -> Any:
    """Decoded rule values with every full-match ``Regex`` turned into a search."""
    if type(value) is Regex:
        return _Search(value.pattern, value.flags)
    if type(value) is OneOf:
        return OneOf(*(_searching(v) for v in value.values))
    if type(value) is Contains:
        return Contains(_searching(value.item))
    if isinstance(value, list):
        return [_searching(v) for v in value]
    if isinstance(value, dict):
        return {k: _searching(v) for k, v in value.items()}
    return value


def rules_from_json(data: Any, where: str = "forbidden rules") -> list[dict[str, Any]]:
    """Forbidden rules from parsed JSON, with ``$`` matchers decoded (``$regex`` searches).

    Raises:
        TypeError: ``data`` is not a list.
        ValueError: a malformed rule or matcher (the message names it).

    Example:
        >>> rules = rules_from_json(
        ...     [{"tool": "run_shell", "args": {"command": {"$regex": "rm -rf"}}}])
        >>> call_matches_rule("run_shell", {"command": "cd / && rm -rf ."}, rules[0])
        True
    """
    from toolscore._engine.read.gold_files import decode_value

    rules = validate_rules(data, where)
    for i, rule in enumerate(rules):
        if rule.get("args"):
            decoded = decode_value(dict(rule["args"]), f"{where}[{i}].args")
            rule["args"] = _searching(decoded)
    return rules


def load_forbidden_rules(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read forbidden rules from a JSON file (see :func:`rules_from_json`).

    Raises:
        TraceFileError: (a ``ValueError``) the file is missing, empty or not JSON.
        TypeError / ValueError: malformed rules.
    """
    from toolscore._engine.read.trace_files import read_json_file

    return rules_from_json(read_json_file(path), os.fspath(path))
