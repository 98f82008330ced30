"""The on-disk judge reply cache (SQLite, WAL). Placeholder until the cache issue lands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekit.judges._settings import JudgeSettings


def open_cache(settings: JudgeSettings, cache_dir_factory: Callable[[], str] | None) -> Any:
    """Open the cache the settings ask for, or return None (no cache)."""
    return None
