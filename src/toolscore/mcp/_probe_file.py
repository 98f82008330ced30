"""The probes file: pairs of a write and a read the tools' names do not show, and the probes
a scorecard runs (those of the file, then pairs found by name and schema).

A JSON file holding ``{"probes": [...]}`` (or the list alone); each probe::

    {
      "write":   {"tool": "remember", "arguments": {"key": "{marker}", "value": "{marker}"}},
      "read":    {"tool": "recall", "arguments": {"key": "{marker}"}},
      "expect":  {"contains": "{marker}"},
      "cleanup": {"tool": "forget", "arguments": {"key": "{marker}"}},
      "setup":   [{"tool": "...", "arguments": {...}}]
    }

``{marker}`` is replaced by the probe's throwaway value, ``{id}`` by the id the write (or the
setup) returned. ``expect`` (default ``{"contains": "{marker}"}``) holds one matcher or more:
``contains`` (a text or a list of texts the read must show), ``absent`` (texts it must not
show: a delete), ``regex`` (a pattern the read's text must match) and ``equals`` (JSON the
read's structured result must equal; a dict matches the keys it names).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore._engine.generate.schema_values import SchemaValues
from toolscore.mcp._probes import MARKER, Probe, plan_probes

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPToolDef

__all__ = ["ProbesFileError", "load_probes", "planned_probes"]

_EXPECT_KEYS = ("contains", "absent", "regex", "equals")
_PROBE_KEYS = {"write", "read", "expect", "cleanup", "setup"}


class ProbesFileError(ValueError):
    """The probes file cannot be used (the message names the file, the probe and the fix)."""


def load_probes(path: str | Path, tools: list[MCPToolDef]) -> list[Probe]:
    """The probes of the file at ``path``, checked against the server's ``tools``.

    Raises:
        ProbesFileError: the file is missing or not JSON, a probe is malformed, or it names a
            tool the server does not have.
    """
    where = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProbesFileError(f"probes file {where}: no such file") from None
    except ValueError as exc:
        raise ProbesFileError(f"probes file {where} is not valid JSON: {exc}") from None
    items = data.get("probes") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise ProbesFileError(
            f'probes file {where}: expected {{"probes": [...]}} or a list of probes, got '
            f"{type(items).__name__}"
        )
    names = {t.name for t in tools}
    return [
        _probe(item, f"probes file {where}: probe {n + 1}", names) for n, item in enumerate(items)
    ]


def planned_probes(tools: list[MCPToolDef], probes_file: str | None, seed: int) -> list[Probe]:
    """The file's probes first; then one found pair per write tool the file leaves out."""
    declared = load_probes(probes_file, tools) if probes_file is not None else []
    covered = {p.write for p in declared}

    def values(schema: dict[str, Any]) -> dict[str, Any]:
        rng = random.Random(f"{seed}:probe")
        return SchemaValues(schema, rng).arguments(schema, 0, full=False)

    found = [p for p in plan_probes(tools, values) if p.write not in covered]
    return declared + found


def _probe(item: Any, where: str, names: set[str]) -> Probe:
    if not isinstance(item, Mapping):
        raise ProbesFileError(f"{where} is not an object with 'write' and 'read'")
    unknown = sorted(set(item) - _PROBE_KEYS)
    if unknown:
        raise ProbesFileError(f"{where}: unknown keys {unknown}; use {sorted(_PROBE_KEYS)}")
    write = _call(item.get("write"), f"{where} 'write'", names)
    read = _call(item.get("read"), f"{where} 'read'", names)
    expect = item.get("expect", {"contains": MARKER})
    if not isinstance(expect, Mapping) or not expect or set(expect) - set(_EXPECT_KEYS):
        raise ProbesFileError(
            f"{where}: 'expect' must be an object with {', '.join(_EXPECT_KEYS)}, got "
            f"{json.dumps(expect)[:80]}"
        )
    probe = Probe(write[0], write[1], read[0], read[1], dict(expect), source="file")
    if item.get("cleanup") is not None:
        probe.cleanup, probe.cleanup_args = _call(item["cleanup"], f"{where} 'cleanup'", names)
    setup = item.get("setup") or []
    if not isinstance(setup, list):
        raise ProbesFileError(f"{where}: 'setup' must be a list of calls")
    probe.setup = [_call(s, f"{where} 'setup'", names) for s in setup]
    return probe


def _call(value: Any, where: str, names: set[str]) -> tuple[str, dict[str, Any]]:
    if not isinstance(value, Mapping) or not isinstance(value.get("tool"), str):
        raise ProbesFileError(
            f'{where} must be {{"tool": NAME, "arguments": {{...}}}}, got {json.dumps(value)[:80]}'
        )
    tool = value["tool"]
    if tool not in names:
        raise ProbesFileError(
            f"{where} names the tool {tool!r}, which the server does not have; its tools are "
            f"{', '.join(sorted(names)) or 'none'}"
        )
    args = value.get("arguments", {})
    if not isinstance(args, Mapping):
        raise ProbesFileError(f"{where}: 'arguments' must be an object")
    return tool, dict(args)
