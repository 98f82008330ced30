"""Lint rules for what a model reads of an MCP server: names, descriptions and schemas.

Errors are defects that make a tool hard or impossible to call right; warnings cost the model
accuracy or context. Every issue carries one concrete fix.

Errors:
    ``schema-missing`` no ``inputSchema`` or not an object schema; ``schema-invalid`` not a
    valid JSON Schema; ``required-unknown`` a required name that is no property;
    ``param-untyped`` a parameter without ``type``/``enum``/``const``/``$ref``;
    ``name-invalid`` a tool name outside ``[A-Za-z0-9_.-]{1,128}`` (the MCP naming rule);
    ``name-duplicate`` two tools with one name.
Warnings:
    ``description-missing`` / ``description-short`` (fewer than 20 characters or 3 words);
    ``param-undocumented`` a parameter without a description; ``schema-loose`` an object
    without declared properties that still accepts anything, an array without ``items``, or a
    parameter that allows every type; ``name-confusable`` two names that differ only in case
    or separators (``get_user`` / ``getUser``) or by one character; ``tokens-large`` a
    definition over :data:`LARGE_TOOL_TOKENS` estimated tokens.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolscore.mcp._tokens import tool_definition_tokens

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPToolDef

__all__ = ["LARGE_TOOL_TOKENS", "MIN_DESCRIPTION_CHARS", "LintIssue", "lint_tools"]

#: A description shorter than this (or of fewer than 3 words) earns a warning.
MIN_DESCRIPTION_CHARS = 20
#: A tool definition above this many estimated tokens earns a warning.
LARGE_TOOL_TOKENS = 400

_NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,128}$")
_ALL_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}


@dataclass
class LintIssue:
    """One problem in a tool's definition.

    Attributes:
        tool: the tool's name (or several names joined by ``, `` for a pair rule).
        severity: ``"error"`` or ``"warning"``.
        message: what is wrong, in a sentence.
        fix: what to do about it.
        rule: the rule's short id (``param-untyped``...).
    """

    tool: str
    severity: str
    message: str
    fix: str = ""
    rule: str = ""

    def to_dict(self) -> dict[str, str]:
        """Plain data for JSON."""
        return {
            "tool": self.tool,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "fix": self.fix,
        }


def _typed(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if any(key in schema for key in ("type", "enum", "const", "$ref")):
        return True
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            return all(_typed(b) for b in branches)
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_typed(b) for b in branches)


def _schema_errors(schema: dict[str, Any]) -> str | None:
    """The first reason ``schema`` is not a valid JSON Schema, or None (None without
    ``jsonschema`` installed: it comes with the ``mcp`` SDK)."""
    try:
        from jsonschema import exceptions, validators
    except ImportError:  # pragma: no cover - the mcp extra brings it
        return None
    try:
        validators.validator_for(schema, default=validators.Draft202012Validator).check_schema(
            schema
        )
    except exceptions.SchemaError as exc:
        where = "/".join(str(p) for p in exc.path) or "the top level"
        return f"{exc.message} (at {where})"
    except Exception as exc:  # an unresolvable $ref and the like
        return " ".join(str(exc).split())[:200]
    return None


def _words(name: str) -> str:
    """The name without case and separators: ``getUser`` and ``get_user`` give ``getuser``."""
    return re.sub(r"[_.\-\s]", "", name).lower()


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


#: Each rule's severity and the fix its issues carry (``schema-loose`` has one fix per case).
_RULES = {
    "name-invalid": ("error", "Use 1 to 128 letters, digits, '_', '-' or '.'."),
    "description-missing": (
        "warning",
        "Say what the tool does, when to use it and what it returns: models pick tools by their"
        " description.",
    ),
    "description-short": ("warning", "Say what the tool does, when to use it and what it returns."),
    "tokens-large": (
        "warning",
        f"Trim the description and schema to under {LARGE_TOOL_TOKENS} tokens, or split the tool.",
    ),
    "schema-missing": (
        "error",
        'Declare {"type": "object", "properties": {...}, "required": [...]}.',
    ),
    "schema-invalid": ("error", "Fix the schema so that a validator accepts it."),
    "schema-loose": ("warning", ""),
    "param-untyped": (
        "error",
        "Give it a JSON type (and an enum when the values are fixed) so the model need not guess.",
    ),
    "param-undocumented": (
        "warning",
        "Describe what the parameter means, its unit and an example value.",
    ),
    "required-unknown": ("error", "List only declared properties in 'required', or declare it."),
    "name-duplicate": ("error", "Give every tool its own name."),
    "name-confusable": ("warning", "Merge the tools or name them for what sets them apart."),
}


def _issue(tool: str, rule: str, message: str, fix: str = "") -> LintIssue:
    severity, default_fix = _RULES[rule]
    return LintIssue(tool, severity, message, fix or default_fix, rule)


def _tool_issues(tool: MCPToolDef) -> Iterable[LintIssue]:  # noqa: C901 (one lint rule per branch, in the order the report lists them)
    name = tool.name
    issue = functools.partial(_issue, name)
    if not _NAME_RE.match(name):
        yield issue(
            "name-invalid", f"the tool name {name!r} uses characters or a length MCP does not allow"
        )
    description = (tool.description or "").strip()
    if not description:
        yield issue("description-missing", "the tool has no description")
    elif len(description) < MIN_DESCRIPTION_CHARS or len(description.split()) < 3:
        yield issue(
            "description-short",
            f"the description {description!r} is too short to choose the tool by",
        )
    tokens = tool_definition_tokens(tool)
    if tokens > LARGE_TOOL_TOKENS:
        yield issue("tokens-large", f"the definition costs about {tokens} tokens on every request")
    schema = tool.input_schema
    if not isinstance(schema, dict) or not schema or schema.get("type") != "object":
        yield issue("schema-missing", "the inputSchema is missing or is not an object schema")
        return
    problem = _schema_errors(schema)
    if problem:
        yield issue("schema-invalid", f"the inputSchema is not a valid JSON Schema: {problem}")
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    if not properties and schema.get("additionalProperties", True) is not False:
        yield issue(
            "schema-loose",
            "the inputSchema declares no properties but accepts any",
            'Declare the parameters, or add "additionalProperties": false if the tool takes none.',
        )
    for prop, sub in properties.items():
        if not _typed(sub):
            yield issue("param-untyped", f"parameter {prop!r} has no type")
            continue
        if not (isinstance(sub, dict) and str(sub.get("description", "")).strip()):
            yield issue("param-undocumented", f"parameter {prop!r} has no description")
        if isinstance(sub, dict):
            types = sub.get("type")
            named = {t for t in types if isinstance(t, str)} if isinstance(types, list) else set()
            if _ALL_TYPES - {"null"} <= named:
                yield issue(
                    "schema-loose",
                    f"parameter {prop!r} allows every type",
                    "Narrow it to the type the tool actually reads.",
                )
            elif types == "array" and "items" not in sub:
                yield issue(
                    "schema-loose",
                    f"array parameter {prop!r} does not say what its items are",
                    'Add "items" with the item schema.',
                )
    required = schema.get("required")
    if isinstance(required, list):
        for req in required:
            if not isinstance(req, str) or req not in properties:
                yield issue("required-unknown", f"{req!r} is required but is not a property")


def _pair_issues(tools: list[MCPToolDef]) -> Iterable[LintIssue]:
    seen = Counter(tool.name for tool in tools)
    for name, count in seen.items():
        if count > 1:
            message = f"{count} tools are named {name!r}; a client can call only one of them"
            yield _issue(name, "name-duplicate", message)
    names = sorted(seen)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            same_words = _words(a) == _words(b)
            if same_words or (min(len(a), len(b)) >= 5 and _one_edit(a.lower(), b.lower())):
                how = "differ only in case or separators" if same_words else "differ by one letter"
                message = f"the tool names {a!r} and {b!r} {how}; a model can mix them up"
                yield _issue(f"{a}, {b}", "name-confusable", message)


def lint_tools(tools: list[MCPToolDef], instructions: str | None = None) -> list[LintIssue]:
    """Lint the tools' names, descriptions and schemas (see the module's list of rules).

    Args:
        tools: the server's tools.
        instructions: the server's instructions (accepted for compatibility; their token cost
            is counted in the scorecard).

    Returns:
        Every issue, tool by tool in the server's order, then the rules over pairs of tools.

    Example:
        >>> from toolscore.mcp.client import MCPToolDef
        >>> issues = lint_tools([MCPToolDef("find", "", {"type": "object",
        ...     "properties": {"q": {}}})])
        >>> [(i.severity, i.rule) for i in issues]
        [('warning', 'description-missing'), ('error', 'param-untyped')]
    """
    return [issue for tool in tools for issue in _tool_issues(tool)] + list(_pair_issues(tools))
