"""The probes a scorecard runs: those of a probes file, then pairs found by name and schema."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from toolscore._engine.generate.schema_values import SchemaValues
from toolscore.mcp._probe_file import load_probes
from toolscore.mcp._probes import Probe, plan_probes

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPToolDef

__all__ = ["planned_probes"]


def planned_probes(tools: list[MCPToolDef], probes_file: str | None, seed: int) -> list[Probe]:
    """The file's probes first; then one found pair per write tool the file leaves out."""
    declared = load_probes(probes_file, tools) if probes_file is not None else []
    covered = {p.write for p in declared}

    def values(schema: dict[str, Any]) -> dict[str, Any]:
        rng = random.Random(f"{seed}:probe")
        return SchemaValues(schema, rng).arguments(schema, 0, full=False)

    found = [p for p in plan_probes(tools, values) if p.write not in covered]
    return declared + found
