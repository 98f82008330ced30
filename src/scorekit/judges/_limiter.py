"""The process-wide limit on judge calls in flight."""

from __future__ import annotations

import asyncio

_semaphores: dict[tuple[int, int], asyncio.Semaphore] = {}


def limiter(limit: int) -> asyncio.Semaphore:
    """Return the shared semaphore for ``limit`` on the running event loop.

    All judge calls run on one background loop (see ``scorekit.runtime``), so one semaphore
    per limit bounds the whole process.
    """
    loop = asyncio.get_running_loop()
    key = (id(loop), limit)
    if key not in _semaphores:
        _semaphores[key] = asyncio.Semaphore(limit)
    return _semaphores[key]
