"""Write a file so that a reader sees the old content or the new one, never half of it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomic"]


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically; returns the path.

    The text goes to a temporary file in the same folder (created if needed), is flushed to
    disk, gets the permissions of a normally created file, then replaces ``path`` with
    ``os.replace`` (atomic on POSIX and Windows). Parallel writers (pytest-xdist workers) never
    interleave: the last one wins with a whole file. On failure the temporary file is removed
    and the old file is left as it was.

    Raises:
        OSError: the folder or the file cannot be written.

    Example:
        >>> import tempfile, os
        >>> p = write_text_atomic(os.path.join(tempfile.mkdtemp(), "a", "b.txt"), "hi\\n")
        >>> p.read_text()
        'hi\\n'
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # A short prefix: the temporary name must fit the file system's name limit too.
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:60]}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates the file 0600; these files are meant to be read (and committed).
        umask = os.umask(0)  # the only way to read it is to set it
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise
    return target
