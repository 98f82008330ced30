"""The MCP scorecard: one grade for a server, the numbers behind it and what to fix first.

Score (in ``[0, 1]``, graded A to F like every toolscore score)::

    score = 0.6 * happy_pass_rate + 0.2 * edge_resilience_rate + 0.2 * lint_score

and when effect probes ran (``probes=True``)::

    score = 0.45 * happy + 0.15 * edge + 0.15 * lint + 0.25 * effect_rate

* ``happy_pass_rate``: share of happy paths that returned a result that is not an error
  (1.0 when there are none);
* ``edge_resilience_rate``: share of edge cases the server answered, with an error or not,
  instead of timing out or crashing (1.0 when there are none);
* ``lint_score``: the mean over tools of ``1 - 0.5 * errors - 0.1 * warnings``, each at least
  0 (an issue about a pair of tools counts for both);
* ``effect_rate``: share of effect probes whose change could be read back (see
  :mod:`toolscore.mcp._probes`); probes whose write failed do not count.

Example:
    >>> import sys
    >>> from toolscore.mcp import MCPStdioClient, score_server
    >>> with MCPStdioClient([sys.executable, "-m", "toolscore.mcp.sample_server"]) as client:
    ...     card = score_server(client)
    >>> card.grade, len(card.tools)
    ('B', 5)
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from toolscore.mcp._probe_file import planned_probes
from toolscore.mcp._probes import ProbeResult, run_probes
from toolscore.mcp._scorecard_text import markdown, print_card
from toolscore.mcp._tokens import estimate_tokens, tool_definition_tokens
from toolscore.mcp.harness import (
    LintIssue,
    ScenarioResult,
    generate_scenarios,
    lint_tools,
    run_scenarios,
)
from toolscore.verdict import GRADE_ORDER, FixSuggestion, letter_grade

if TYPE_CHECKING:
    from toolscore.mcp.client import MCPClient, MCPToolDef

__all__ = [
    "GRADE_ORDER",
    "FixSuggestion",
    "MCPScorecard",
    "build_fix_list",
    "grade_meets",
    "print_scorecard",
    "score_server",
    "scorecard_to_json",
    "scorecard_to_markdown",
]

WEIGHTS = {"happy_pass_rate": 0.6, "edge_resilience_rate": 0.2, "lint_score": 0.2}
#: The weights once effect probes ran.
WEIGHTS_WITH_EFFECT = {
    "happy_pass_rate": 0.45,
    "edge_resilience_rate": 0.15,
    "lint_score": 0.15,
    "effect_rate": 0.25,
}
_ERROR_COST = 0.5
#: The fixes for a tool that fails on valid input (priority 0) and on bad input (1).
_SCENARIO_FIXES = (
    "Check the handler against the schema it advertises: valid arguments must give a result,"
    " not an error.",
    "Validate the arguments and return an error result instead of crashing or blocking.",
)
_WARNING_COST = 0.1


@dataclass
class MCPScorecard:
    """Everything the scorecard found about one server.

    Attributes:
        server_info: the server's ``serverInfo`` (``name``, ``version``).
        tools: its tools.
        results: one result per scenario run.
        lint: the lint issues.
        instructions: the server's instructions (sent to the model with every session).
        protocol_version: the protocol version negotiated.
        transport: ``"stdio"`` or ``"streamable-http"``.
        seconds: wall time of the whole run.
        seed: the seed the scenarios were planned with.
    """

    server_info: dict[str, Any]
    tools: list[MCPToolDef]
    results: list[ScenarioResult]
    lint: list[LintIssue]
    instructions: str | None = None
    protocol_version: str | None = None
    transport: str = ""
    seconds: float = 0.0
    seed: int = 0
    restarts: int = field(default=0)
    probes: list[ProbeResult] | None = None

    def _rate(self, kind: str) -> float:
        chosen = [r for r in self.results if r.scenario.kind == kind]
        return sum(r.ok for r in chosen) / len(chosen) if chosen else 1.0

    @property
    def happy_pass_rate(self) -> float:
        """Share of happy paths that succeeded (1.0 with none)."""
        return self._rate("happy")

    @property
    def edge_resilience_rate(self) -> float:
        """Share of edge cases the server answered without timing out or crashing."""
        return self._rate("edge")

    @property
    def lint_error_count(self) -> int:
        """Lint issues of severity ``error``."""
        return sum(1 for i in self.lint if i.severity == "error")

    @property
    def lint_warning_count(self) -> int:
        """Lint issues of severity ``warning``."""
        return sum(1 for i in self.lint if i.severity == "warning")

    @property
    def lint_score(self) -> float:
        """Mean per-tool lint score (see the module docstring); 1.0 with no tools."""
        if not self.tools:
            return 1.0
        cost = {tool.name: 0.0 for tool in self.tools}
        for issue in self.lint:
            for name in issue.tool.split(", "):
                if name in cost:
                    cost[name] += _ERROR_COST if issue.severity == "error" else _WARNING_COST
        return sum(max(0.0, 1.0 - c) for c in cost.values()) / len(cost)

    @property
    def effect_rate(self) -> float | None:
        """Share of effect probes that held (None when no probe ran)."""
        ran = [p for p in self.probes or [] if p.held is not None]
        return sum(bool(p.held) for p in ran) / len(ran) if ran else None

    @property
    def weights(self) -> dict[str, float]:
        """The weights of :attr:`score` (with ``effect_rate`` once probes ran)."""
        return WEIGHTS if self.effect_rate is None else WEIGHTS_WITH_EFFECT

    @property
    def score(self) -> float:
        """The weighted score in ``[0, 1]``."""
        total = float(sum(w * (getattr(self, name) or 0.0) for name, w in self.weights.items()))
        return min(1.0, max(0.0, total))

    @property
    def grade(self) -> str:
        """The letter grade of :attr:`score`."""
        return letter_grade(self.score)

    @property
    def total_tool_tokens(self) -> int:
        """Estimated tokens of every tool definition together (sent with every request)."""
        return sum(tool_definition_tokens(t) for t in self.tools)

    @property
    def instructions_tokens(self) -> int:
        """Estimated tokens of the server's instructions (0 without)."""
        return estimate_tokens(self.instructions or "")

    @property
    def context_tokens(self) -> int:
        """Estimated context the server costs on every request: tools plus instructions."""
        return self.total_tool_tokens + self.instructions_tokens

    @property
    def title(self) -> str:
        """``name version`` of the server."""
        name = str(self.server_info.get("name") or "unnamed server")
        return f"{name} {self.server_info.get('version') or ''}".strip()

    def tool_summaries(self) -> list[dict[str, Any]]:
        """Per tool: scenarios passed of run, happy and edge counts, mean latency, tokens,
        lint issues."""
        out = []
        for tool in self.tools:
            mine = [r for r in self.results if r.scenario.tool == tool.name]
            ran = [r for r in mine if r.outcome != "skipped"]
            timed = [r.duration for r in ran]
            happy = [r for r in mine if r.scenario.kind == "happy"]
            edge = [r for r in mine if r.scenario.kind == "edge"]
            out.append(
                {
                    "name": tool.name,
                    "passed": sum(r.ok for r in ran),
                    "total": len(ran),
                    "happy_passed": sum(r.ok for r in happy),
                    "happy_total": len(happy),
                    "edge_survived": sum(r.ok for r in edge),
                    "edge_total": len(edge),
                    "skipped": sum(1 for r in mine if r.outcome == "skipped"),
                    "avg_latency_ms": round(1000 * sum(timed) / len(timed), 1) if timed else 0.0,
                    "tokens": tool_definition_tokens(tool),
                    "lint_issues": sum(1 for i in self.lint if tool.name in i.tool.split(", ")),
                }
            )
        return out


def grade_meets(grade: str, threshold: str) -> bool:
    """True when ``grade`` is ``threshold`` or better (A best, F worst; case-insensitive).

    Raises:
        ValueError: either is not one of A, B, C, D, F.

    Example:
        >>> grade_meets("B", "C"), grade_meets("D", "C")
        (True, False)
    """
    ranks = {g: i for i, g in enumerate(GRADE_ORDER)}
    for name, value in (("grade", grade), ("threshold", threshold)):
        if not isinstance(value, str) or value.strip().upper() not in ranks:
            raise ValueError(f"{name} must be one of A, B, C, D, F; got {value!r}")
    return ranks[grade.strip().upper()] <= ranks[threshold.strip().upper()]


def build_fix_list(card: MCPScorecard, limit: int | None = None) -> list[FixSuggestion]:
    """What to fix, most urgent first (``priority``): 0 tools failing on valid input, 1 tools
    that crash or hang on bad input, 2 lint errors, 3 lint warnings (one scenario entry per
    tool and kind)."""
    fixes: list[FixSuggestion] = [
        FixSuggestion(
            p.probe.write,
            f"reports success but its change is not there: {p.probe.read} after it -> {p.missing}",
            "Make the tool change the state it reports changing (or report the failure).",
            0,
        )
        for p in card.probes or []
        if p.held is False
    ]
    failed = Counter((r.scenario.tool, r.scenario.kind) for r in card.results if not r.ok)
    seen: set[tuple[str, str]] = set()
    for result in card.results:
        tool, kind = result.scenario.tool, result.scenario.kind
        if result.ok or (tool, kind) in seen or result.outcome == "skipped":
            continue
        seen.add((tool, kind))
        what = f"{failed[tool, kind]} scenario(s): {result.scenario.description} ->"
        if kind == "happy":
            problem = f"fails on valid input in {what} {result.outcome}: {result.detail}"
        else:
            how = "hangs" if result.outcome == "timeout" else "crashes"
            problem = f"{how} on bad input in {what} {result.detail}"
        priority = 0 if kind == "happy" else 1
        fixes.append(FixSuggestion(tool, problem, _SCENARIO_FIXES[priority], priority))
    fixes += [
        FixSuggestion(i.tool, i.message, i.fix, 2 if i.severity == "error" else 3)
        for i in card.lint
    ]
    fixes.sort(key=lambda f: f.priority)
    return fixes[:limit] if limit is not None else fixes


def score_server(
    client: MCPClient,
    *,
    cases_per_tool: int = 3,
    include_edge_cases: bool = True,
    seed: int = 0,
    concurrency: int = 4,
    timeout: float | None = None,
    max_restarts: int = 6,
    probes: bool = False,
    probes_file: str | None = None,
) -> MCPScorecard:
    """Lint a started server's tools, run their scenarios and build the scorecard.

    Args:
        client: a started :class:`~toolscore.mcp.client.MCPClient`.
        cases_per_tool: happy paths per tool.
        include_edge_cases: run edge cases too.
        seed: the scenarios' seed (the same seed plans the same calls).
        concurrency: calls in flight at once.
        timeout: seconds per call (default: the client's).
        max_restarts: restarts after crashes or hangs before the rest is skipped.
        probes: also run effect probes (write, then read back; see
            :mod:`toolscore.mcp._probes`), after the scenarios.
        probes_file: a probes file of pairs the names do not show (implies ``probes``).

    Raises:
        ProbesFileError: the probes file is unreadable or names a tool the server lacks.
    """
    started = time.perf_counter()
    tools = client.list_tools()
    planned = None
    if probes or probes_file is not None:
        planned = planned_probes(tools, probes_file, seed)  # a bad file fails before any call
    scenarios = generate_scenarios(tools, cases_per_tool, include_edge_cases, seed=seed)
    generation = client.generation
    results = run_scenarios(
        client, scenarios, concurrency=concurrency, timeout=timeout, max_restarts=max_restarts
    )
    probe_results = None if planned is None else run_probes(client, planned, timeout)
    return MCPScorecard(
        server_info=dict(client.server_info),
        tools=tools,
        results=results,
        lint=lint_tools(tools, client.server_instructions),
        instructions=client.server_instructions,
        protocol_version=client.protocol_version,
        transport=client.transport_name,
        seconds=time.perf_counter() - started,
        seed=seed,
        restarts=client.generation - generation,
        probes=probe_results,
    )


def print_scorecard(card: MCPScorecard, console: Any = None) -> None:
    """Print the scorecard with ``rich`` (to ``console``, default a new one on stdout)."""
    print_card(card, build_fix_list(card), console)


def scorecard_to_markdown(card: MCPScorecard) -> str:
    """The scorecard as Markdown (for a pull-request comment or a CI summary)."""
    return markdown(card, build_fix_list(card))


def scorecard_to_json(card: MCPScorecard) -> dict[str, Any]:
    """The scorecard as JSON-serialisable data: grade, scores, tokens, tools, every scenario
    with its outcome, every lint issue and the fix list."""
    return {
        "server": {
            "name": card.server_info.get("name", ""),
            "version": card.server_info.get("version", ""),
        },
        "transport": card.transport,
        "protocol_version": card.protocol_version,
        "grade": card.grade,
        "score": round(card.score, 6),
        "scores": _scores(card),
        "weights": dict(card.weights),
        "total_tool_tokens": card.total_tool_tokens,
        "instructions_tokens": card.instructions_tokens,
        "context_tokens": card.context_tokens,
        "lint_errors": card.lint_error_count,
        "lint_warnings": card.lint_warning_count,
        "seed": card.seed,
        "restarts": card.restarts,
        "seconds": round(card.seconds, 3),
        "tools": card.tool_summaries(),
        "results": [r.to_dict() for r in card.results],
        "lint": [i.to_dict() for i in card.lint],
        "fixes": [asdict(f) for f in build_fix_list(card)],
        **({} if card.probes is None else {"probes": [p.to_dict() for p in card.probes]}),
    }


def _scores(card: MCPScorecard) -> dict[str, float]:
    scores = {name: round(getattr(card, name), 6) for name in WEIGHTS}
    if card.effect_rate is not None:
        scores["effect"] = round(card.effect_rate, 6)
    return scores
