"""Effect probes: a tool that says it changed something, read back through the server's tools.

A probe writes a throwaway value (``tsprobe`` and six hex digits) with a tool that changes
state, reads the state back with a tool that shows it, and checks the read: the value must be
there after a create/add/update/set, and gone after a delete. It then cleans up with the
server's own delete tool where there is one. A read that fails after a write that reported
success is a failed probe; a write that fails is not a probe of its effect (``held`` None).

Pairs come from the tools' names and schemas (``create_note`` with ``list_notes`` or
``get_note``: the same noun; a generic ``search``/``find`` when no reader shares it), or from a
probes file (:mod:`toolscore.mcp._probe_file`) for pairs the names do not show.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolscore.mcp._scenario_runs import excerpt
from toolscore.mcp.client import MCPError

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient, MCPToolDef, MCPToolResult

__all__ = [
    "MARKER",
    "Probe",
    "ProbeResult",
    "expectation_missing",
    "fill",
    "plan_probes",
    "run_probes",
]

#: Stands for the probe's throwaway value in probe arguments and expectations.
MARKER = "{marker}"

_CREATE = {"create", "add", "insert", "new", "put", "set", "save", "store", "write",
           "append", "post", "upsert", "update", "edit", "rename", "remember",
           "record", "log", "register"}  # fmt: skip
_DELETE = {"delete", "remove", "drop", "clear", "forget", "erase", "destroy", "purge"}
_READ = {"get", "list", "read", "search", "find", "fetch", "show", "query", "lookup",
         "view", "recall", "retrieve", "describe", "load", "browse"}  # fmt: skip
_QUERY_KEYS = {"q", "query", "search", "text", "filter", "keyword", "term", "pattern"}
_ID_RE = re.compile(r"\b(?:id|ID|Id)?\s*[:=#]?\s*(\d+|[0-9a-f]{8}-[0-9a-f-]{27,})\b")


@dataclass
class Probe:
    """One planned probe: the write, the read that must show it, and the cleanup."""

    write: str
    write_args: dict[str, Any]
    read: str
    read_args: dict[str, Any]
    expect: dict[str, Any] = field(default_factory=lambda: {"contains": MARKER})
    cleanup: str | None = None
    cleanup_args: dict[str, Any] | None = None
    setup: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    source: str = "paired"


@dataclass
class ProbeResult:
    """What one probe found.

    Attributes:
        probe: the probe.
        held: the change was there (None: the write failed, so its effect was not probed).
        missing: what the read lacked, in words ("" when it held).
        write_detail / read_detail: what the write and the read answered (shortened).
        cleaned: the cleanup call succeeded (None: there was none).
    """

    probe: Probe
    held: bool | None
    missing: str
    write_detail: str
    read_detail: str
    marker: str
    cleaned: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        p = self.probe
        return {
            "write": {"tool": p.write, "arguments": fill(p.write_args, self.marker)},
            "read": {"tool": p.read, "arguments": fill(p.read_args, self.marker)},
            "source": p.source,
            "held": self.held,
            "missing": self.missing,
            "write_result": self.write_detail,
            "read_result": self.read_detail,
            "cleaned": self.cleaned,
        }


def _words(name: str) -> set[str]:
    parts = re.split(r"[^a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower())
    return {p[:-1] if p.endswith("s") and len(p) > 3 else p for p in parts if p}


def _role(tool: MCPToolDef) -> str | None:
    words = _words(tool.name)
    hints = tool.annotations or {}
    if words & _DELETE:
        return "delete"
    if words & _CREATE and hints.get("readOnlyHint") is not True:
        return "write"
    if words & _READ or hints.get("readOnlyHint") is True:
        return "read"
    return None


def _noun(tool: MCPToolDef) -> set[str]:
    return _words(tool.name) - _CREATE - _DELETE - _READ


def _props(tool: MCPToolDef) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The tool's input schema, its properties and its required names."""
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties")
    required = schema.get("required")
    return (
        schema,
        props if isinstance(props, dict) else {},
        [r for r in required if isinstance(r, str)] if isinstance(required, list) else [],
    )


def _takes_marker(schema: Any) -> bool:
    if not isinstance(schema, dict) or schema.get("type") not in ("string", None):
        return False
    if schema.get("type") is None and not schema.get("description"):
        return False
    if any(k in schema for k in ("enum", "const", "pattern", "format")):
        return False
    limit = schema.get("maxLength")
    return not (isinstance(limit, int) and limit < 13)


def _write_args(tool: MCPToolDef, values: Any) -> dict[str, Any] | None:
    """Valid arguments with the marker in every free string; None when none takes it."""
    schema, props, _ = _props(tool)
    args = dict(values(schema))
    marked = False
    for name, sub in props.items():
        if _takes_marker(sub) and (name in args or not marked):
            args[name] = MARKER
            marked = True
    return args if marked else None


def _read_args(reader: MCPToolDef, write_args: dict[str, Any], values: Any) -> dict[str, Any]:
    schema, props, required = _props(reader)
    args = {k: v for k, v in values(schema).items() if k in required}
    for name in props:
        if name in write_args:
            args[name] = write_args[name]
        elif name.lower() in _QUERY_KEYS:
            args[name] = MARKER
        elif name in required and _is_id(name):
            args[name] = "{id}"
    return args


def _is_id(name: str) -> bool:
    low = name.lower()
    return low == "id" or low.endswith(("_id", "id", "_key")) or low in {"key", "name", "path"}


def _best_reader(writer: MCPToolDef, readers: list[MCPToolDef]) -> MCPToolDef | None:
    noun = _noun(writer)
    same = [r for r in readers if noun and _noun(r) & noun]
    generic = [r for r in readers if not _noun(r)]
    for group in (same, generic):
        if group:  # a list or a search shows the value whatever its id
            group.sort(key=lambda r: (not _words(r.name) & {"list", "search", "find"}, r.name))
            return group[0]
    return None


def plan_probes(tools: list[MCPToolDef], values: Any) -> list[Probe]:
    """One probe per write or delete tool that can be paired with a read tool.

    ``values(schema)`` gives valid arguments for a schema (the scenarios' generator).
    """
    readers = [t for t in tools if _role(t) == "read"]
    writers = [t for t in tools if _role(t) == "write"]
    deleters = [t for t in tools if _role(t) == "delete"]
    probes: list[Probe] = []
    for writer in writers:
        reader = _best_reader(writer, readers)
        args = _write_args(writer, values)
        if reader is None or args is None:
            continue
        probe = Probe(writer.name, args, reader.name, _read_args(reader, args, values))
        deleter = next((d for d in deleters if _noun(d) & _noun(writer)), None)
        if deleter is not None:
            probe.cleanup = deleter.name
            probe.cleanup_args = _read_args(deleter, args, values)
        probes.append(probe)
    for deleter in deleters:
        creator = next((w for w in writers if _noun(w) & _noun(deleter)), None)
        reader = _best_reader(deleter, readers)
        if creator is None or reader is None:
            continue
        args = _write_args(creator, values)
        if args is None:
            continue
        probes.append(
            Probe(
                deleter.name, _read_args(deleter, args, values), reader.name,
                _read_args(reader, args, values), {"absent": MARKER},
                setup=[(creator.name, args)],
            )
        )  # fmt: skip
    return probes


def fill(value: Any, marker: str, found_id: Any = None) -> Any:
    """``value`` with the marker (and the id the write returned) put in."""
    if isinstance(value, str):
        if value == "{id}":
            return found_id if found_id is not None else marker
        return value.replace(MARKER, marker)
    if isinstance(value, dict):
        return {k: fill(v, marker, found_id) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, marker, found_id) for v in value]
    return value


def _text(answer: MCPToolResult) -> str:
    parts = [answer.text]
    if answer.structured is not None:
        parts.append(json.dumps(answer.structured, default=str))
    return "\n".join(p for p in parts if p)


def _found_id(answer: MCPToolResult) -> Any:
    if isinstance(answer.structured, dict):
        for key in ("id", "key", "name"):
            if answer.structured.get(key) is not None:
                return answer.structured[key]
    m = _ID_RE.search(answer.text or "")
    if m is None:
        return None
    token = m.group(1)
    return int(token) if token.isdigit() else token


def _short(text: str, limit: int = 200) -> str:
    return excerpt(text, limit)


def run_probes(
    client: MCPClient, probes: list[Probe], timeout: float | None = None
) -> list[ProbeResult]:
    """Run every probe, one call at a time (a probe's read must see its own write)."""
    out = []
    for probe in probes:
        marker = "tsprobe" + secrets.token_hex(3)
        try:
            out.append(_run_one(client, probe, marker, timeout))
        except MCPError as exc:
            out.append(
                ProbeResult(probe, False, f"the server failed: {_short(str(exc))}", "", "", marker)
            )
    return out


def _run_one(client: MCPClient, probe: Probe, marker: str, timeout: float | None) -> ProbeResult:
    found_id = None
    for tool, args in probe.setup:
        made = client.call_tool(tool, fill(args, marker), timeout)
        if made.is_error:
            return ProbeResult(
                probe, None, f"the setup call {tool} failed", _short(made.text), "", marker
            )
        found_id = _found_id(made)
    wrote = client.call_tool(probe.write, fill(probe.write_args, marker, found_id), timeout)
    if wrote.is_error:
        return ProbeResult(probe, None, "the write failed, so its effect was not probed",
                           _short(wrote.text), "", marker)  # fmt: skip
    found_id = found_id if probe.setup else _found_id(wrote)
    read = client.call_tool(probe.read, fill(probe.read_args, marker, found_id), timeout)
    if read.is_error:
        missing = f"the read failed after the write reported success: {_short(read.text, 120)}"
    else:
        missing = expectation_missing(fill(probe.expect, marker), _text(read), read.structured)
    held = not missing
    cleaned = None
    if probe.cleanup is not None:
        args = fill(probe.cleanup_args or {}, marker, found_id)
        cleaned = not client.call_tool(probe.cleanup, args, timeout).is_error
    return ProbeResult(probe, held, missing, _short(wrote.text), _short(read.text), marker, cleaned)


def _texts(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value or []]


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, Mapping):
        return isinstance(got, Mapping) and all(
            k in got and _subset(v, got[k]) for k, v in want.items()
        )
    return bool(want == got)


def expectation_missing(expect: Mapping[str, Any], text: str, data: Any) -> str:
    """What ``text`` (and the structured ``data``) lack for ``expect``; "" when nothing."""
    problems = []
    for want in _texts(expect.get("contains")):
        if want not in text:
            problems.append(f"the read does not show {want!r}")
    for unwanted in _texts(expect.get("absent")):
        if unwanted in text:
            problems.append(f"the read still shows {unwanted!r}")
    pattern = expect.get("regex")
    if isinstance(pattern, str) and re.search(pattern, text) is None:
        problems.append(f"the read does not match /{pattern}/")
    if "equals" in expect:
        got = data
        if got is None:
            try:
                got = json.loads(text)
            except ValueError:
                got = text
        if not _subset(expect["equals"], got):
            problems.append(f"the read is not {json.dumps(expect['equals'])[:80]}")
    return "; ".join(problems)
