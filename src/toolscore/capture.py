"""Capture what an agent does in production and turn good runs into test cases.

``TraceCapture`` writes one JSON file per captured run (``{"id", "name", "timestamp",
"tools": [{"tool", "args", ...}], "metadata"}``), which ``toolscore eval`` and
:func:`toolscore.evaluate_trace` read directly; :meth:`TraceCapture.to_gold_standard` turns
such a file into a gold file.

Example:
    >>> import tempfile
    >>> from toolscore import TraceCapture, evaluate_trace
    >>> capture = TraceCapture(dataset_dir=tempfile.mkdtemp())
    >>> @capture.trace(name="weather")
    ... def agent(city):
    ...     return {"tools": [{"tool": "get_weather", "args": {"city": city}}], "answer": "sunny"}
    >>> agent("Oslo")["answer"]
    'sunny'
    >>> saved = sorted(capture.dataset_dir.glob("weather_*.json"))
    >>> gold = capture.to_gold_standard(saved[0], capture.dataset_dir / "gold.json")
    >>> evaluate_trace(gold, saved[0]).score
    1.0
"""

from __future__ import annotations

import functools
import inspect
import itertools
import json
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from toolscore._engine.read.trace_files import read_json_file
from toolscore._engine.score.details import jsonable
from toolscore.adapters.base import ToolCall
from toolscore.integrations import auto_extract

__all__ = ["TraceCapture", "capture_trace"]

F = TypeVar("F", bound=Callable[..., Any])
_COUNTER = itertools.count()


def _call_dict(call: Any) -> dict[str, Any]:
    if isinstance(call, ToolCall):
        out: dict[str, Any] = {"tool": call.tool, "args": call.args or {}}
        for key in ("result", "duration", "cost"):
            value = getattr(call, key)
            if value is not None:
                out[key] = value
        if call.is_error:
            out["is_error"] = True
        return out
    if isinstance(call, Mapping) and isinstance(call.get("tool"), str):
        return dict(call)
    raise ValueError(
        f"a captured call must be a ToolCall or a {{'tool': name, 'args': {{...}}}} dict, got "
        f"{type(call).__name__}"
    )


def _tools_of(result: Any) -> tuple[list[dict[str, Any]], str | None]:
    """The calls in what an agent returned, and a note when none could be read."""
    if isinstance(result, Mapping) and "tools" in result:
        return [_call_dict(c) for c in result["tools"] or []], None
    if result is None:
        return [], None
    if isinstance(result, list) and all(
        isinstance(c, ToolCall) or (isinstance(c, Mapping) and "tool" in c) for c in result
    ):
        return [_call_dict(c) for c in result], None
    try:
        return [dict(c) for c in auto_extract(result)], None
    except (TypeError, ValueError):
        return [], f"no tool calls could be read from the {type(result).__name__} returned"


class TraceCapture:
    """Capture agent runs as trace files in ``dataset_dir``.

    Args:
        dataset_dir: where trace files are written (created when needed).
        auto_save: write each run when it is captured; when False, runs collect in
            ``captured_traces`` until :meth:`save_all`.
    """

    def __init__(self, dataset_dir: str | os.PathLike[str] = "traces", auto_save: bool = True):
        self.dataset_dir = Path(dataset_dir)
        self.auto_save = auto_save
        self.captured_traces: list[dict[str, Any]] = []

    def trace(self, name: str | None = None, save_on_error: bool = True) -> Callable[[F], F]:
        """Decorator: capture every run of an agent function (sync or async).

        The tool calls are read from what the function returns: a dict with a ``"tools"``
        list, a list of calls, or any provider response :func:`toolscore.auto_extract`
        reads. The function's arguments and whether it raised go to ``metadata``. Writing
        the file never breaks the agent: a failure to save is a warning.

        Args:
            name: the trace name (default: the function's name).
            save_on_error: also capture runs that raise.
        """

        def decorate(func: F) -> F:
            label = name or func.__name__

            if inspect.iscoroutinefunction(func):

                @functools.wraps(func)
                async def run_async(*args: Any, **kwargs: Any) -> Any:
                    try:
                        result = await func(*args, **kwargs)
                    except BaseException:
                        if save_on_error:
                            self._capture_run(label, args, kwargs, None, error=True)
                        raise
                    self._capture_run(label, args, kwargs, result, error=False)
                    return result

                return run_async  # type: ignore[return-value]

            @functools.wraps(func)
            def run(*args: Any, **kwargs: Any) -> Any:
                try:
                    result = func(*args, **kwargs)
                except BaseException:
                    if save_on_error:
                        self._capture_run(label, args, kwargs, None, error=True)
                    raise
                self._capture_run(label, args, kwargs, result, error=False)
                return result

            return run  # type: ignore[return-value]

        return decorate

    def capture_tools(
        self,
        tools: Sequence[ToolCall | Mapping[str, Any]],
        name: str,
        description: str = "",
        metadata: Mapping[str, Any] | None = None,
    ) -> Path:
        """Write a list of calls as a trace file now (whatever ``auto_save`` says).

        Returns:
            The path written.

        Raises:
            ValueError: an item is neither a ``ToolCall`` nor a call dict.
            OSError: the file cannot be written.
        """
        data = self._record(name, [_call_dict(c) for c in tools], dict(metadata or {}))
        if description:
            data["description"] = description
        return self._write(data)

    def save_all(self) -> list[Path]:
        """Write every run collected while ``auto_save`` was False; returns the paths."""
        paths = [self._write(data) for data in self.captured_traces]
        self.captured_traces.clear()
        return paths

    def to_gold_standard(
        self,
        trace_file: str | os.PathLike[str],
        output_file: str | os.PathLike[str],
        description: str = "",
    ) -> Path:
        """Turn a captured trace into a gold file: its calls become the expected calls.

        Every call's arguments are expected exactly as captured (edit the file to loosen them
        with matchers such as ``{"$any": true}``); results are not copied as checks.

        Returns:
            The gold file written.
        """
        data = read_json_file(trace_file)
        calls = data.get("tools") if isinstance(data, Mapping) else data
        if not isinstance(calls, list):
            raise ValueError(f"{os.fspath(trace_file)}: not a captured trace (no 'tools' list)")
        text = description or (data.get("description", "") if isinstance(data, Mapping) else "")
        extra = {"description": text} if text else {}
        items = map(_call_dict, calls)
        gold = [{"tool": item["tool"], "args": item.get("args") or {}, **extra} for item in items]
        return _write_json(Path(output_file), gold)

    # -- internals ---------------------------------------------------------------------
    def _record(
        self, name: str, tools: list[dict[str, Any]], metadata: dict[str, Any]
    ) -> dict[str, Any]:
        now = datetime.now(timezone.utc)
        # Unique even for runs in the same microsecond (a second-resolution id would let one
        # run's file overwrite another's).
        trace_id = f"{name}_{now:%Y%m%d_%H%M%S_%f}_{os.getpid()}_{next(_COUNTER)}"
        return {
            "id": trace_id,
            "name": name,
            "timestamp": now.isoformat(),
            "tools": jsonable(tools),
            "metadata": jsonable(metadata),
        }

    def _capture_run(
        self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], result: Any, error: bool
    ) -> None:
        tools, note = _tools_of(result) if not error else ([], None)
        metadata: dict[str, Any] = {"args": list(args), "kwargs": kwargs, "error": error}
        if note:
            metadata["note"] = note
        data = self._record(name, tools, metadata)
        if not self.auto_save:
            self.captured_traces.append(data)
            return
        try:
            self._write(data)
        except OSError as exc:
            warnings.warn(
                f"toolscore: could not save the captured trace {data['id']!r} in "
                f"{self.dataset_dir}: {exc.strerror or exc}",
                RuntimeWarning,
                stacklevel=3,
            )

    def _write(self, data: dict[str, Any]) -> Path:
        return _write_json(self.dataset_dir / f"{data['id']}.json", data)


def _write_json(path: Path, data: Any) -> Path:
    """Write JSON atomically (a reader never sees half a file)."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


_default_capture: TraceCapture | None = None


def capture_trace(name: str | None = None, save_on_error: bool = True) -> Callable[[F], F]:
    """Decorator: capture every run of an agent function into ``./traces``.

    Shorthand for ``TraceCapture().trace(name, save_on_error)`` with one shared capture.
    """
    global _default_capture
    if _default_capture is None:
        _default_capture = TraceCapture()
    return _default_capture.trace(name=name, save_on_error=save_on_error)
