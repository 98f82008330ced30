"""Write a report file: JSON, HTML or Markdown, atomically (a reader never sees half a file)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from scorekit.report._csv_report import render_csv
from scorekit.report._dataset_report import (
    dataset_json,
    render_dataset_html,
    render_dataset_markdown,
)
from scorekit.report._document import finite, report_document
from scorekit.report._html_report import render_html
from scorekit.report._markdown_report import render_markdown
from scorekit.report._rows import Row

FORMATS = ("json", "html", "md", "csv")
_SUFFIXES = {
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".csv": "csv",
}


class ReportError(OSError):
    """A report could not be written; the message names the path and the reason."""


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """Replace every secret (an API key) in ``text`` with ``[redacted]``.

    Belt and braces: no row should hold a key, but an error message from a judge could.
    Secrets shorter than 8 characters are ignored (they would match ordinary words).

    Example:
        >>> redact("auth failed for sk-abcdef123456", ["sk-abcdef123456"])
        'auth failed for [redacted]'
    """
    for secret in secrets:
        if secret and len(secret) >= 8:
            text = text.replace(secret, "[redacted]")
    return text


def write_text(path: str | os.PathLike[str], text: str, secrets: Iterable[str | None] = ()) -> Path:
    """Write a report's text atomically, readable (0644 under the usual umask), with every
    secret in ``secrets`` replaced by ``[redacted]``.

    Raises:
        ReportError: the file cannot be written (the message names it).
    """
    from scorekit.files._atomic import write_text_atomic

    target = Path(path)
    try:
        return write_text_atomic(target, redact(text, secrets))
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise ReportError(f"cannot write report {str(target)!r}: {reason}") from None


def render_json(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    *,
    repeats: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """The JSON report as a string (see ``scorekit.report._document`` for the schema)."""
    doc = report_document(rows, stats, repeats=repeats)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write_json(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    path: str | os.PathLike[str],
    *,
    secrets: Iterable[str | None] = (),
    repeats: Mapping[str, Mapping[str, Any]] | None = None,
) -> Path:
    """Write every row (inputs, scores, runs, evidence) and the judge totals as JSON.

    Args:
        rows: ``TextScoreRow`` / ``ToolScoreRow`` objects.
        stats: ``JudgeStats.as_dict()`` (optionally with ``model`` and ``judge`` keys, for
            the cost estimate and the judge's name), or None.
        path: the file to write; missing parent folders are created.
        secrets: strings (API keys) replaced by ``[redacted]`` wherever they appear.
        repeats: the ``repeat`` object of each ``llm_repeat`` test, by test id.

    Returns:
        The path written.

    Raises:
        ReportError: the file cannot be written (the message names it).

    Example:
        >>> import tempfile, os
        >>> from scorekit.report import ToolScoreRow
        >>> row = ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")
        >>> p = write_json([row], None, os.path.join(tempfile.mkdtemp(), "r.json"))
        >>> p.read_text().count('"kind": "tools"')
        1
    """
    return write_text(path, render_json(rows, stats, repeats=repeats), secrets)


def write_html(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    path: str | os.PathLike[str],
    *,
    secrets: Iterable[str | None] = (),
    repeats: Mapping[str, Mapping[str, Any]] | None = None,
    comparison: Any = None,
    baseline: str | None = None,
) -> Path:
    """Write the self-contained HTML report (no network; opens on a phone).

    Same arguments, return value and errors as :func:`write_json`; ``comparison`` (with the
    ``baseline`` it was made against, ``--llm-baseline``) adds the "vs baseline" column.
    """
    page = render_html(rows, stats, repeats=repeats, comparison=comparison, baseline=baseline)
    return write_text(path, page, secrets)


def write_markdown(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    path: str | os.PathLike[str],
    *,
    secrets: Iterable[str | None] = (),
) -> Path:
    """Write the Markdown report (tables; for CI job summaries and comments)."""
    return write_text(path, render_markdown(rows, stats), secrets)


def write_csv(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    path: str | os.PathLike[str],
    *,
    secrets: Iterable[str | None] = (),
) -> Path:
    """Write the CSV report (one line per number; see ``scorekit.report._csv_report``)."""
    return write_text(path, render_csv(rows, stats), secrets)


def write_report(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    path: str | os.PathLike[str],
    fmt: str,
    *,
    secrets: Iterable[str | None] = (),
) -> Path:
    """Write a report in the format ``fmt``: ``json``, ``html``, ``md`` or ``csv``.

    Raises:
        ValueError: ``fmt`` is not one of the formats.
        ReportError: the file cannot be written.

    Example:
        >>> import tempfile, os
        >>> p = write_report([], None, os.path.join(tempfile.mkdtemp(), "r.md"), "md")
        >>> "No scored assertions" in p.read_text()
        True
    """
    writers = {"json": write_json, "html": write_html, "md": write_markdown, "csv": write_csv}
    writer = writers.get(_format_key(fmt))
    if writer is None:
        raise ValueError(f"fmt must be one of {', '.join(FORMATS)}; got {fmt!r}.")
    return writer(rows, stats, path, secrets=secrets)


def _format_key(fmt: str) -> str:
    key = fmt.lower().strip()
    return "md" if key == "markdown" else key


def write_dataset_report(
    doc: Mapping[str, Any],
    path: str | os.PathLike[str],
    fmt: str,
    *,
    secrets: Iterable[str | None] = (),
) -> Path:
    """Write the report of a dataset run (``DatasetSummary.to_dict()``) as ``json``, ``html``
    (one offline page, charts as inline SVG) or ``md``.

    Raises:
        ValueError: ``fmt`` is not one of the formats.
        ReportError: the file cannot be written.

    Example:
        >>> import tempfile, os
        >>> doc = {"schema": "llm-scorekit-dataset/1", "source": "d.jsonl", "rows": 0,
        ...        "scored": 0, "errors": 0, "seconds": 0.0, "rows_per_second": 0.0,
        ...        "engine": "local", "workers": 1}
        >>> p = write_dataset_report(doc, os.path.join(tempfile.mkdtemp(), "r.md"), "md")
        >>> p.read_text().startswith("# Dataset score report")
        True
    """
    key = _format_key(fmt)
    if key == "json":
        text = json.dumps(finite(dataset_json(doc)), indent=2, ensure_ascii=False) + "\n"
    elif key == "html":
        text = render_dataset_html(doc)
    elif key == "md":
        text = render_dataset_markdown(doc)
    else:
        raise ValueError(f"fmt must be one of json, html, md; got {fmt!r}.")
    return write_text(path, text, secrets)


def report_format(
    report: str | None,
    output: str | os.PathLike[str] | None,
    formats: Sequence[str] = ("json", "md", "html", "csv"),
) -> str | None:
    """The format of a command's ``--report FMT -o PATH`` pair: ``FMT``, else the suffix of
    ``PATH`` (``.json``, ``.html``/``.htm``, ``.md``/``.markdown``, ``.csv``) when it names
    one of ``formats`` (those the command writes), or ``None`` when neither is given.

    Raises:
        ValueError: ``--report`` without ``-o``, or an ``-o`` whose suffix names none of
            ``formats`` (the message says what to add).

    Example:
        >>> report_format(None, "out/report.md"), report_format("html", "r.txt")
        ('md', 'html')
    """
    if report and output is None:
        raise ValueError(f"--report {report} needs -o PATH (where to write it)")
    if report or output is None:
        return report or None
    fmt = _SUFFIXES.get(Path(output).suffix.lower())
    if fmt is None or fmt not in formats:
        raise ValueError(
            f"-o {os.fspath(output)}: cannot tell the report format from the suffix; "
            f"add --report {'|'.join(formats)}"
        )
    return fmt
