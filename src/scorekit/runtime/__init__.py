"""How work runs: coroutines on an event-loop thread, the garbage collector paused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorekit.runtime._gc_pause import gc_paused

if TYPE_CHECKING:
    from scorekit.runtime._loop_thread import LoopTask, LoopThread, run_sync

__all__ = ["LoopTask", "LoopThread", "gc_paused", "run_sync"]


def __getattr__(name: str) -> Any:
    # asyncio (with ssl and sockets) loads when a loop is first needed, not with `evaluate()`.
    if name in ("LoopTask", "LoopThread", "run_sync"):
        from scorekit.runtime import _loop_thread

        return getattr(_loop_thread, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
