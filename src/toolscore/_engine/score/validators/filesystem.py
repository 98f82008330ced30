"""Did a call leave the file it should? Check that it exists, its size and its content.

Behind :mod:`toolscore.validators.filesystem`, which re-exports it (the same objects).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolscore._engine.read.inputs import as_call

__all__ = ["FileSystemValidator"]

_PATH_ARGS = ("path", "file", "filename", "filepath", "file_path", "output", "output_path")


class FileSystemValidator:
    """Side-effect check ``file_exists``: the file a call wrote is there (and looks right).

    The file is ``expected`` when it is a path string, else the call's first path-like
    argument (``path``, ``file``, ``filename``, ``filepath``, ``file_path``, ``output``,
    ``output_path``), else the path in its result. Relative paths are resolved against
    ``base_path``.

    Args:
        base_path: folder for relative paths (default: the working directory when checking).
        contains: text (or texts) the file must contain.
        min_size / max_size: bounds on the file size in bytes.

    Example:
        >>> import tempfile, pathlib
        >>> from toolscore._engine.read.tool_call import ToolCall
        >>> folder = tempfile.mkdtemp()
        >>> _ = (pathlib.Path(folder) / "out.txt").write_text("done")
        >>> v = FileSystemValidator(base_path=folder, contains="done")
        >>> v.validate(ToolCall("write_file", {"path": "out.txt"}), True)
        True
    """

    def __init__(
        self,
        base_path: str | Path | None = None,
        contains: str | list[str] | None = None,
        min_size: int | None = None,
        max_size: int | None = None,
    ) -> None:
        self.base_path = Path(base_path) if base_path else None
        self.contains = [contains] if isinstance(contains, str) else list(contains or [])
        self.min_size = min_size
        self.max_size = max_size

    def path(self, call: Any, expected: Any = True) -> Path | None:
        """The file the check looks at, or ``None`` when the call names none."""
        tool_call = as_call(call)
        args = tool_call.args or {}
        from_args = (args[key] for key in _PATH_ARGS if isinstance(args.get(key), str))
        named: Any = expected if isinstance(expected, str) else next(from_args, None)
        result = tool_call.result
        if named is None and isinstance(result, dict) and isinstance(result.get("path"), str):
            named = result["path"]
        if named is None and isinstance(result, str) and result.strip():
            named = result
        if not named:
            return None
        path = Path(named)
        return path if path.is_absolute() else (self.base_path or Path.cwd()) / path

    def validate(self, call: Any, expected: Any) -> bool:
        """True when the file exists and meets the size and content conditions."""
        path = self.path(call, expected)
        if path is None or not path.exists():
            return False
        checks_content = bool(self.contains) or self.min_size is not None
        if path.is_dir():
            return not checks_content and self.max_size is None
        size = path.stat().st_size
        if self.min_size is not None and size < self.min_size:
            return False
        if self.max_size is not None and size > self.max_size:
            return False
        if self.contains:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return False
            return all(part in text for part in self.contains)
        return True
