"""The HTML report: escaping and self-containment, then what a real (headless) browser renders."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekit.report import Evidence, RunScore, TextScoreRow, ToolScoreRow, write_html

# If any of this ran in the browser, the body would carry a data-pwned attribute.
HOSTILE = (
    "<script>document.body.dataset.pwned=1</script>"
    '<img src=x onerror="document.body.dataset.pwned=2">'
)


def _rows() -> list[TextScoreRow | ToolScoreRow]:
    return [
        TextScoreRow(
            "t.py::test_pass",
            "texts_expect_f1_range",
            "f1",
            None,
            0.92,
            0.8,
            1.0,
            "passed",
            judge="fake",
            expected="Paris is the capital.",
            given="The capital is Paris.",
        ),
        TextScoreRow(
            f"t.py::test_agg[{HOSTILE}]",
            "texts_agg_f1_mean",
            "f1",
            "mean",
            0.7,
            0.8,
            1.0,
            "failed",
            judge="fake",
            runs=[RunScore(i, i, 0.8, 0.6, s) for i, s in enumerate([0.6, 0.7, 0.8])],
            evidence=[Evidence("recall", f"Is it {HOSTILE}?", 0.0, [1, 1])],
            expected=HOSTILE,
            given="plain & simple",
        ),
        TextScoreRow(
            "t.py::test_outage",
            "texts_expect_recall_equal",
            "recall",
            None,
            None,
            0.9,
            1.0,
            "error",
            error=f"JudgeUnavailableError: {HOSTILE}",
        ),
        ToolScoreRow("t.py::test_tools_ok", "assert_tools", 1.0, 0.9, "passed"),
        ToolScoreRow("t.py::test_tools_bad", "expect", 0.4, 0.9, "failed", missing=["book"]),
    ]


STATS = {"calls": 9, "cache_hits": 2, "judge_seconds": 1.5, "judge": "fake"}


@pytest.fixture
def page(tmp_path: Path) -> Path:
    return write_html(_rows(), STATS, tmp_path / "report.html")


def test_texts_under_test_are_escaped(page: Path) -> None:
    text = page.read_text()
    assert "<script>document.body" not in text
    assert "<img src=x" not in text
    assert "&lt;script&gt;document.body.dataset.pwned=1&lt;/script&gt;" in text
    assert "plain &amp; simple" in text


def test_page_is_self_contained(page: Path) -> None:
    text = page.read_text()
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+", text)) - {"http://www.w3.org"}
    assert urls == set()
    assert not re.search(r"<(?:link|iframe|object|embed)\b", text)
    assert "default-src 'none'" in text
    assert '<meta name="viewport"' in text
    assert text.count("<script>") == 1


def test_every_assertion_is_on_the_page(page: Path) -> None:
    text = page.read_text()
    assert text.count('<article class="row text"') == 3
    assert text.count('<article class="row tool"') == 2
    # aggregated row: one dot per run and the bounds band
    agg = text[text.index('id="text-2"') : text.index('id="text-3"')]
    assert agg.count('<circle class="run"') == 3
    assert agg.count('<rect class="bounds"') == 1
    assert "Runs (3)" in agg and "Evidence (1 questions)" in agg


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _chromium(tmp_path: Path, *args: str) -> str:
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium/Chrome on PATH (CI installs Debian's chromium)")
    cmd = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        *args,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.browser
def test_browser_runs_the_filter_and_draws_the_charts(page: Path, tmp_path: Path) -> None:
    dom = _chromium(tmp_path, "--window-size=390,900", "--dump-dom", page.as_uri())
    assert 'data-filter-ready="1"' in dom, "the filter script did not run"
    assert 'data-fits-width="1"' in dom, "the page is wider than a 390 px phone screen"
    assert len(re.findall(r'<article class="row', dom)) == 5
    assert len(re.findall(r"<svg class=\"chart\"", dom)) == 2  # rows with a score
    assert "5 of 5 shown" in dom
    assert not re.search(r"<article[^>]*hidden", dom)
    assert "data-pwned" not in dom, "text under test ran as script"


@pytest.mark.browser
def test_browser_failure_filter_hides_passed_rows(page: Path, tmp_path: Path) -> None:
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri() + "#failures")
    articles = re.findall(r"<article[^>]*>", dom)
    hidden = [a for a in articles if "hidden" in a]
    assert len(articles) == 5 and len(hidden) == 2
    assert all('data-outcome="passed"' in a for a in hidden)
    assert "3 of 5 shown" in dom


@pytest.mark.browser
def test_browser_screenshot_at_phone_width(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "phone.png"
    _chromium(tmp_path, "--window-size=390,1600", f"--screenshot={shot}", page.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width == 390


def test_tool_details_show_every_argument_escaped(tmp_path: Path) -> None:
    details = {
        "pairs": [
            {
                "expected_index": 0,
                "actual_index": 1,
                "tool": "search",
                "ok": False,
                "arguments": [
                    {
                        "name": "q",
                        "expected": "Regex('a+')",
                        "actual": HOSTILE,
                        "status": "mismatch",
                    },
                    {"name": "limit", "expected": 5, "actual": None, "status": "missing"},
                ],
            }
        ]
    }
    row = ToolScoreRow("trace.json", "toolscore eval", 0.5, 0.9, "failed", details=details)
    text = write_html([row], None, tmp_path / "r.html").read_text()
    assert "expected #0 ↔ actual #1: search (differs)" in text
    assert (
        '<tr class="bad"><td>✗ <code>limit</code><br><span class="muted">missing</span></td>'
        "<td>5</td><td>null</td></tr>" in text
    )
    assert "&lt;script&gt;document.body" in text and "<script>document.body" not in text
