"""The rows a resumed run skips: ids already in the output, as compact 64-bit hashes.

A million ids as Python strings take ~80 MB in every worker process; their 64-bit hashes in a
sorted array take 8 MB and are checked a whole batch at a time. Two different ids share a hash
with probability about n^2 / 2^65 (3e-8 for a million ids): a run would then skip one row it
should have scored. Rows without an id (a line that is not JSON, or a run identified by
position) are matched by their position in the source instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

__all__ = ["DoneIds", "done_of_rows", "id_hash"]

Int64Array = npt.NDArray[np.int64]


def id_hash(value: str) -> int:
    """The signed 64-bit hash of an id (stable across processes and machines).

    Example:
        >>> id_hash("row-1") == id_hash("row-1"), id_hash("row-1") == id_hash("row-2")
        (True, False)
    """
    digest = hashlib.blake2b(value.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def _sorted(values: Iterable[int]) -> Int64Array:
    arr = np.fromiter(values, dtype=np.int64)
    arr.sort()
    return arr


@dataclass(frozen=True)
class DoneIds:
    """What the output of an earlier run already holds.

    Attributes:
        hashes: sorted :func:`id_hash` values of the ids.
        positions: sorted source positions of the rows that had no id.
    """

    hashes: Int64Array = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    positions: Int64Array = field(default_factory=lambda: np.empty(0, dtype=np.int64))

    @classmethod
    def of(cls, ids: Iterable[str], positions: Iterable[int] = ()) -> DoneIds:
        """Build from ids and id-less positions.

        Example:
            >>> done = DoneIds.of(["a", "b"], [7])
            >>> done.skip_mask(["a", "c", None, None], start=4)  # the last row is at 7
            [True, False, False, True]
        """
        return cls(_sorted(id_hash(i) for i in ids), _sorted(positions))

    @property
    def empty(self) -> bool:
        """True when nothing is to be skipped."""
        return self.hashes.size == 0 and self.positions.size == 0

    def __len__(self) -> int:
        return int(self.hashes.size + self.positions.size)

    def done_positions(self, positions: Sequence[int]) -> list[bool]:
        """For each position: is the id-less row there done?"""
        if not self.positions.size or not positions:
            return [False] * len(positions)
        return _member(self.positions, np.asarray(positions, dtype=np.int64))

    def skip_mask(self, ids: Sequence[str | None], start: int | None) -> list[bool]:
        """For each row of a batch: is it done? Rows with an id are matched by id; rows
        without one by position (``start`` + their index), when ``start`` is known."""
        out = [False] * len(ids)
        with_id = [i for i, v in enumerate(ids) if v is not None]
        if with_id and self.hashes.size:
            found = _member(self.hashes, np.fromiter((id_hash(ids[i]) for i in with_id), np.int64))  # type: ignore[arg-type]
            for i, hit in zip(with_id, found, strict=True):
                out[i] = hit
        if start is not None and self.positions.size:
            without = [i for i, v in enumerate(ids) if v is None]
            if without:
                found = _member(self.positions, np.asarray([start + i for i in without]))
                for i, hit in zip(without, found, strict=True):
                    out[i] = hit
        return out


def done_of_rows(rows: Sequence[tuple[str | None, int]]) -> DoneIds:
    """The :class:`DoneIds` of ``(id, position)`` pairs: by id, or by position without one."""
    return DoneIds.of([k for k, _ in rows if k is not None], [p for k, p in rows if k is None])


def _member(haystack: Int64Array, needles: npt.NDArray[np.int64]) -> list[bool]:
    where = np.searchsorted(haystack, needles)
    where = np.minimum(where, haystack.size - 1)
    return [bool(x) for x in haystack[where] == needles]
