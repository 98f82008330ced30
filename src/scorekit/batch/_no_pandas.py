"""Keep pyarrow from importing pandas in a command that never hands it pandas objects.

pyarrow imports pandas the first time it builds an array from Python values, only to recognise
pandas objects (``pd.NA``, a ``Series``) among them. Where pandas is installed (Ray brings it),
that import costs a ``toolscore eval-dataset`` run, whose results are plain numbers and strings,
more than its rows' scoring does (the figure: docs/contributing.md, Benchmarks). Refused, both
pyarrow's Python shim and its C++ converters carry on without pandas, as where it is not
installed.

Only for the command's own process (``toolscore eval-dataset`` on the local engine, where no
user code runs): in a caller's process, pyarrow would go on treating pandas objects as plain
sequences until something asked for pandas outright.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["pandas_refused"]


class _RefusePandas:
    """A meta path finder for which pandas is not installed."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r} (not needed here)", name=name)
        return None


@contextlib.contextmanager
def pandas_refused() -> Iterator[bool]:
    """Within the block, ``import pandas`` fails as if pandas were not installed, unless it is
    imported already; yields whether it is refused.

    Example:
        >>> with pandas_refused():
        ...     pass
    """
    if "pandas" in sys.modules:
        yield False
        return
    finder = _RefusePandas()
    sys.meta_path.insert(0, finder)
    try:
        yield True
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(finder)
