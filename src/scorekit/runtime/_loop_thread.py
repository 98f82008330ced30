"""Coroutines run from synchronous code, on an asyncio loop in a daemon thread.

The public assertion functions and the MCP client are synchronous. They may be called from a
thread that already runs an event loop (an async test, a notebook), where ``asyncio.run`` is
not allowed, so their coroutines run on a loop thread: :func:`run_sync` on one private loop
shared by the process (the judge layer's), an MCP client on a :class:`LoopThread` of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Awaitable, Coroutine
from typing import Any, TypeVar

__all__ = ["LoopTask", "LoopThread", "run_sync"]

T = TypeVar("T")

#: Seconds :meth:`LoopThread.stop` waits for the thread before abandoning it.
STOP_SECONDS = 10.0


class LoopTask:
    """A task on a loop thread; ``finished`` completes once the task has really ended (a
    cancelled ``run_coroutine_threadsafe`` future completes at once, before the task ran its
    clean-up)."""

    def __init__(self) -> None:
        self.finished: concurrent.futures.Future[None] = concurrent.futures.Future()
        self.task: asyncio.Task[None] | None = None

    def settle(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            self.finished.cancel()
        elif task.exception() is not None:
            self.finished.set_exception(task.exception())
        else:
            self.finished.set_result(None)


class LoopThread:
    """One asyncio loop on a daemon thread, which dies with the process.

    Example:
        >>> async def two() -> int:
        ...     return 2
        >>> loop = LoopThread("example")
        >>> loop.submit(two()).result(), loop.stop()
        (2, None)
    """

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Awaitable[T]) -> concurrent.futures.Future[T]:
        """Run ``coro`` on the loop; its future, for the calling thread.

        The loop's task runs in a copy of the caller's context (its context variables).
        """

        async def wrapped() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop)

    def start_task(self, coro: Coroutine[Any, Any, None]) -> LoopTask:
        """Start ``coro`` as a long-lived task (cancel it with :meth:`cancel`)."""
        handle = LoopTask()

        def create() -> None:
            handle.task = self.loop.create_task(coro)
            handle.task.add_done_callback(handle.settle)

        self.loop.call_soon_threadsafe(create)
        return handle

    def cancel(self, handle: LoopTask) -> None:
        def cancel() -> None:
            if handle.task is not None:
                handle.task.cancel()

        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing runs any more
            self.loop.call_soon_threadsafe(cancel)

    def stop(self) -> None:
        """Stop the loop; close it once its thread has ended (else the thread is abandoned)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=STOP_SECONDS)
        if not self.thread.is_alive():
            self.loop.close()


_lock = threading.Lock()
_shared: LoopThread | None = None


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion on the process's shared loop thread and return its result,
    from any thread.

    Example:
        >>> async def two() -> int:
        ...     return 2
        >>> run_sync(two())
        2
    """
    global _shared
    with _lock:
        if _shared is None or _shared.loop.is_closed():
            _shared = LoopThread("scorekit-judge-loop")
        shared = _shared
    return shared.submit(coro).result()
