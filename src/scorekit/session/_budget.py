"""Judge budgets: a hard cap on the calls, tokens and estimated US dollars of one session.

The counter is one small SQLite database (like the reply cache), so every pytest-xdist worker
of a run draws on the same budget: the controller creates the file and hands its path to the
workers. A run without a cap never creates it, and the judge never looks at it.

A call is reserved before it is sent (the call cap is exact); its tokens and cost are known
only when the reply arrives, so the calls in flight when the token or dollar cap is reached
still finish, and the spend can pass that cap by those few calls. Cached replies cost nothing.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekit.judges._errors import JudgeUnavailableError

__all__ = [
    "BudgetCaps",
    "BudgetExhaustedError",
    "JudgeBudget",
    "price_of",
]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS spend ("
    " id INTEGER PRIMARY KEY CHECK (id = 0),"
    " calls INTEGER NOT NULL, tokens INTEGER NOT NULL, usd REAL NOT NULL)"
)


class BudgetExhaustedError(JudgeUnavailableError):
    """A cap of the judge budget is reached and a test needs a new judge call.

    A judge error, so the test errors (it did not fail its assertion).
    """


@dataclass(frozen=True)
class BudgetCaps:
    """The caps of one session (None: no cap) and the prices used for the dollar estimate.

    Attributes:
        usd: estimated US dollars the judge may spend.
        calls: judge requests (each retry counts).
        tokens: prompt plus completion tokens.
        price_input / price_output: US dollars per million prompt / completion tokens.
    """

    usd: float | None = None
    calls: int | None = None
    tokens: int | None = None
    price_input: float = 0.0
    price_output: float = 0.0

    @property
    def any(self) -> bool:
        """True when at least one cap is set."""
        return self.usd is not None or self.calls is not None or self.tokens is not None

    def cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        """Estimated dollars of one reply's usage.

        Example:
            >>> BudgetCaps(price_input=1.0, price_output=2.0).cost(1_000_000, 500_000)
            2.0
        """
        return (prompt_tokens * self.price_input + completion_tokens * self.price_output) / 1e6


def price_of(model: str | None) -> tuple[float, float] | None:
    """The (input, output) list price per million tokens of ``model``, from the documented
    table in ``scorekit.report._prices``, or None when the model is not in it.

    Example:
        >>> price_of("gpt-4o-mini-2024-07-18")
        (0.15, 0.6)
        >>> price_of("my-model") is None
        True
    """
    from scorekit.report._prices import PRICES_PER_MILLION, price_prefix

    best = price_prefix(model)
    return PRICES_PER_MILLION[best] if best else None


class JudgeBudget:
    """The shared counter of one session's judge spend.

    Args:
        caps: the caps and prices.
        path: the counter database; every process of the run opens the same file.

    Example:
        >>> import tempfile, os
        >>> budget = JudgeBudget(BudgetCaps(calls=1), os.path.join(tempfile.mkdtemp(), "b.db"))
        >>> budget.reserve()
        >>> try:
        ...     budget.reserve()
        ... except BudgetExhaustedError as exc:
        ...     print(exc)
        judge budget exhausted: 1 calls of 1; raise --llm-budget-calls
        >>> budget.close()
    """

    def __init__(self, caps: BudgetCaps, path: str | Path) -> None:
        self.caps = caps
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(
                str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute(_SCHEMA)
            conn.execute("INSERT OR IGNORE INTO spend (id, calls, tokens, usd) VALUES (0, 0, 0, 0)")
            self._conn = conn
        return self._conn

    def _exhausted(self, calls: int, tokens: int, usd: float) -> str | None:
        caps = self.caps
        if caps.calls is not None and calls >= caps.calls:
            return f"{calls} calls of {caps.calls}; raise --llm-budget-calls"
        if caps.tokens is not None and tokens >= caps.tokens:
            return f"{tokens} tokens of {caps.tokens}; raise --llm-budget-tokens"
        if caps.usd is not None and usd >= caps.usd:
            return f"{calls} calls / ${usd:.4f} of ${caps.usd:.4f}; raise --llm-budget-usd"
        return None

    def reserve(self) -> None:
        """Count one judge call about to be sent.

        Raises:
            BudgetExhaustedError: a cap is already reached (the call is not counted).
        """
        with self._lock:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                calls, tokens, usd = db.execute(
                    "SELECT calls, tokens, usd FROM spend WHERE id = 0"
                ).fetchone()
                why = self._exhausted(int(calls), int(tokens), float(usd))
                if why is None:
                    db.execute("UPDATE spend SET calls = calls + 1 WHERE id = 0")
            finally:
                db.execute("COMMIT")
        if why is not None:
            raise BudgetExhaustedError(f"judge budget exhausted: {why}")

    def spend(self, prompt_tokens: int, completion_tokens: int) -> None:
        """Add one reply's usage (tokens and estimated dollars)."""
        cost = self.caps.cost(prompt_tokens, completion_tokens)
        with self._lock:
            self._db().execute(
                "UPDATE spend SET tokens = tokens + ?, usd = usd + ? WHERE id = 0",
                (int(prompt_tokens) + int(completion_tokens), cost),
            )

    def totals(self) -> dict[str, Any]:
        """What was spent so far, beside each cap (``None``: no cap)."""
        with self._lock:
            calls, tokens, usd = (
                self._db().execute("SELECT calls, tokens, usd FROM spend WHERE id = 0").fetchone()
            )
        caps = self.caps
        return {
            "calls": int(calls),
            "tokens": int(tokens),
            "usd": float(usd),
            "cap_calls": caps.calls,
            "cap_tokens": caps.tokens,
            "cap_usd": caps.usd,
        }

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()


def budget_lines(totals: Mapping[str, Any]) -> list[str]:
    """The summary lines: spend against each cap that is set.

    Example:
        >>> budget_lines({"calls": 3, "tokens": 10, "usd": 0.5, "cap_calls": 5,
        ...               "cap_tokens": None, "cap_usd": 1.0})
        ['calls: 3 of 5', 'estimated USD: $0.5000 of $1.0000']
    """
    lines = []
    if totals.get("cap_calls") is not None:
        lines.append(f"calls: {totals['calls']} of {totals['cap_calls']}")
    if totals.get("cap_tokens") is not None:
        lines.append(f"tokens: {totals['tokens']} of {totals['cap_tokens']}")
    if totals.get("cap_usd") is not None:
        lines.append(f"estimated USD: ${totals['usd']:.4f} of ${totals['cap_usd']:.4f}")
    return lines
