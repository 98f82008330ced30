"""How work runs: coroutines on an event-loop thread, the garbage collector paused."""

from scorekit.runtime._gc_pause import gc_paused
from scorekit.runtime._loop_thread import LoopTask, LoopThread, run_sync

__all__ = ["LoopTask", "LoopThread", "gc_paused", "run_sync"]
