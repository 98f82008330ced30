"""The installed distribution's version (``toolscore.__version__``)."""

from __future__ import annotations

import functools


@functools.cache
def package_version() -> str:
    """The version of the installed ``llm-scorekit`` distribution, ``0+unknown`` when none is.

    Read from the distribution's metadata on first use (``importlib.metadata`` is slow to
    import, and every pytest run imports toolscore).

    Example:
        >>> package_version() != ""
        True
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("llm-scorekit")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
