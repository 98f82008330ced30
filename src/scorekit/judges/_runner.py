"""Run the judge layer's coroutines from synchronous code.

The public assertion functions are synchronous. They may be called from a thread that already
runs an event loop (an async test, a notebook), where ``asyncio.run`` is not allowed, so the
coroutines run on one private background loop thread shared by the process.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name="scorekit-judge-loop", daemon=True
            )
            thread.start()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result, from any thread.

    Example:
        >>> async def two() -> int:
        ...     return 2
        >>> run_sync(two())
        2
    """
    loop = _background_loop()
    future = asyncio.run_coroutine_threadsafe(coro, loop)
    return future.result()
