"""The charts of the dataset report's HTML page, as inline SVG (the page loads nothing):
a score's histogram and horizontal bars of counts, with the number formats they share with
the text formats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit.format._rounding import format_bound, format_score
from scorekit.format._shorten import shorten
from scorekit.report._html_page import escape
from scorekit.report._totals import score_text

__all__ = ["bars_svg", "count_with_share", "histogram_svg", "score_text"]


def count_with_share(count: int, total: int) -> str:
    """``1,204 (12.0%)``.

    Example:
        >>> count_with_share(1204, 10000)
        '1,204 (12.0%)'
    """
    share = f" ({100 * count / total:.1f}%)" if total else ""
    return f"{count:,}{share}"


_PLOT_LEFT, _PLOT_WIDTH = 40, 460


def histogram_svg(name: str, stats: Mapping[str, Any]) -> str:
    """One score's histogram (20 bins over [0, 1]) with the mean and median marked.

    Example:
        >>> svg = histogram_svg("score", {"histogram": [1] + [0] * 18 + [3], "mean": 0.75,
        ...     "p50": 1.0, "count": 4})
        >>> svg.count('class="bar"'), "mean 0.750" in svg
        (20, True)
    """
    counts = [int(c) for c in stats.get("histogram") or []]
    if not counts:
        return ""
    top = max(counts) or 1
    n = len(counts)
    width = _PLOT_WIDTH / n
    label = (
        f"{name}: {int(stats.get('count') or 0):,} rows, mean {score_text(stats.get('mean'))},"
        f" median {score_text(stats.get('p50'))}"
    )
    parts = [
        f'<svg class="chart" viewBox="0 0 520 150" role="img" aria-label="{escape(label)}"'
        ' xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<line x1="{_PLOT_LEFT}" y1="110" x2="{_PLOT_LEFT + _PLOT_WIDTH}" y2="110"'
        ' stroke="#57606a"/>',
        f'<text x="{_PLOT_LEFT - 4}" y="18" font-size="12" text-anchor="end"'
        f' fill="#57606a">{top:,}</text>',
    ]
    for i, count in enumerate(counts):
        height = 100 * count / top
        x = _PLOT_LEFT + i * width
        low, high = i / n, (i + 1) / n
        parts.append(
            f'<rect class="bar" x="{x + 1:.1f}" y="{110 - height:.1f}" width="{width - 2:.1f}"'
            f' height="{max(height, 0.0):.1f}" fill="#0969da" fill-opacity="0.75">'
            f"<title>{format_bound(low)} to {format_bound(high)}: {count:,} rows</title></rect>"
        )
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = _PLOT_LEFT + _PLOT_WIDTH * tick
        parts.append(f'<line x1="{x:.1f}" y1="110" x2="{x:.1f}" y2="115" stroke="#57606a"/>')
        parts.append(
            f'<text x="{x:.1f}" y="130" font-size="13" text-anchor="middle"'
            f' fill="#57606a">{tick:g}</text>'
        )
    for key, colour, what in (("mean", "#c62828", "mean"), ("p50", "#1a7f37", "median")):
        value = stats.get(key)
        if value is None:
            continue
        x = _PLOT_LEFT + _PLOT_WIDTH * min(max(float(value), 0.0), 1.0)
        parts.append(
            f'<line class="{what}" x1="{x:.1f}" y1="6" x2="{x:.1f}" y2="110" stroke="{colour}"'
            f' stroke-width="2" stroke-dasharray="{"4 3" if what == "median" else "none"}">'
            f"<title>{what} {format_score(float(value))}</title></line>"
        )
    parts.append(
        f'<text x="{_PLOT_LEFT + _PLOT_WIDTH}" y="146" font-size="12" text-anchor="end"'
        f' fill="#57606a">red: mean {score_text(stats.get("mean"))} · green dashed: median'
        f" {score_text(stats.get('p50'))}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def bars_svg(title: str, items: Sequence[tuple[str, int]], total: int) -> str:
    """Horizontal bars, one per item, as a share of ``total`` rows.

    Example:
        >>> bars_svg("grade", [("A", 3), ("F", 1)], 4).count('class="hbar"')
        2
    """
    if not items:
        return ""
    height = 26 * len(items) + 8
    top = max(c for _, c in items) or 1
    parts = [
        f'<svg class="chart" viewBox="0 0 520 {height}" role="img" aria-label="{escape(title)}"'
        ' xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for i, (label, count) in enumerate(items):
        y = 4 + 26 * i
        width = 300 * count / top
        parts.append(
            f'<text x="150" y="{y + 16}" font-size="13" text-anchor="end">'
            f"{escape(shorten(label, 24))}</text>"
            f'<rect class="hbar" x="156" y="{y + 3}" width="{max(width, 1.0):.1f}" height="18"'
            f' fill="#0969da" fill-opacity="0.75"><title>{escape(label)}: {count:,}</title></rect>'
            f'<text x="{160 + width:.1f}" y="{y + 16}" font-size="12" fill="#57606a">'
            f"{escape(count_with_share(count, total))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
