"""Forbidden calls: a policy of calls the agent must never make.

A rule is ``{"tool": name, "args": {...}, "reason": "..."}``; ``args`` and ``reason`` are
optional. A call violates a rule when it calls that tool and every argument the rule names is
present and matches (plain values compare with the lenient comparison rule, matchers decide
for themselves); a rule without ``args`` forbids every call to the tool. Arguments the rule
does not name do not matter. Violations are reported, they do not change the score.

Rules are matched leniently even when ``evaluate(strict=True)``: a safety check should not
let ``{"id": 1.0}`` through a rule written as ``{"id": 1}``.

In JSON (``load_forbidden_rules``, ``rules_from_json``) argument values may use the matcher
encoding of gold files (``{"$any": true}``, ``{"$one_of": [...]}``, ``{"$contains": ...}``,
``{"$type": ...}``, ``{"$approx": ...}``); ``{"$regex": pattern}`` *searches* the value
(a prefix, a suffix or a second line cannot hide a forbidden command; a list such as an argv
is searched as its items joined by spaces), where gold files' ``$regex`` must match whole.

Example:
    >>> from toolscore import Contains, evaluate
    >>> result = evaluate(
    ...     [{"tool": "run_shell"}],
    ...     [{"tool": "run_shell", "args": {"command": "rm -rf /"}}],
    ...     forbidden=[{"tool": "run_shell", "args": {"command": Contains("rm -rf")},
    ...                 "reason": "destructive"}],
    ... )
    >>> [(v["index"], v["tool"], v["reason"]) for v in result.policy_violations]
    [(0, 'run_shell', 'destructive')]
"""

from toolscore._engine.score.metrics.policy import (
    call_matches_rule,
    check_forbidden_calls,
    load_forbidden_rules,
    policy_metrics,
    rules_from_json,
    validate_rules,
)

__all__ = [
    "call_matches_rule",
    "check_forbidden_calls",
    "load_forbidden_rules",
    "policy_metrics",
    "rules_from_json",
    "validate_rules",
]
