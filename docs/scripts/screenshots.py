"""Make the documentation's screenshots from real runs (never drawn by hand).

    python docs/scripts/screenshots.py [--out docs/images] [--chromium PATH]

It writes a small test suite that uses both packages into a temporary folder and runs pytest on
it (the offline judge: no key, no network), then:

* ``html-report.png``: the HTML report that run wrote (``--llm-report-html``), screenshotted by
  headless Chromium;
* ``failing-test.png`` and ``failing-texts-test.png``: the terminal output of a failing
  toolscore and a failing pytest_texts_score test (pytest with colours), turned into an SVG
  terminal by rich, screenshotted by headless Chromium.

Needs Chromium (Debian: ``apt-get install chromium``). Run it after changing the report or the
failure messages, and commit the PNGs.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Terminal width, in columns, of the pytest runs and of the rendered terminal.
WIDTH = 120

SUITE = """
import toolscore
from pytest_texts_score import texts_agg_f1_mean, texts_expect_f1_range

EXPECTED_TEXT = (
    "Quillpad 4.1 adds offline sync for shared notebooks. PDF export is twice as fast."
    " Android 8 is no longer supported."
)
EXPECTED_CALLS = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "JFK"}},
    {"tool": "book_flight", "args": {"flight_id": toolscore.Regex(r"FL-\\d+")}},
]


def test_summary_keeps_the_facts():
    given = (
        "Shared notebooks now sync offline in Quillpad 4.1. PDF export got twice as fast."
        " Android 8 is not supported any more."
    )
    texts_expect_f1_range(EXPECTED_TEXT, given, min_score=0.8, max_score=1.0)


def test_summary_over_three_runs():
    given = "Quillpad 4.1 adds offline sync for shared notebooks. PDF export is twice as fast."
    texts_agg_f1_mean(EXPECTED_TEXT, given, target=0.8, max_delta=0.1, full_runs=3)


def test_wrong_speed_is_caught():
    given = (
        "Quillpad 4.1 adds offline sync for shared notebooks. PDF export is three times as fast."
    )
    texts_expect_f1_range(EXPECTED_TEXT, given, min_score=0.8, max_score=1.0)


def test_agent_books_the_flight():
    actual = [
        {"tool": "search_flights", "args": {"origin": "SFO", "destination": "JFK"}},
        {"tool": "book_flight", "args": {"flight_id": "FL-1042"}},
    ]
    toolscore.assert_tools(EXPECTED_CALLS, actual)


def test_agent_searches_the_wrong_city():
    actual = [{"tool": "search_flights", "args": {"origin": "SFO", "destination": "LAX"}}]
    toolscore.assert_tools(EXPECTED_CALLS, actual)
"""


def find_chromium(given: str | None) -> str:
    for name in (given, "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return str(shutil.which(name))
    sys.exit("screenshots: no Chromium found; install Debian's chromium or pass --chromium PATH")


def screenshot(chromium: str, page: Path, png: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-extensions",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                f"--screenshot={png}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    print(f"screenshots: wrote {png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}")


def run_pytest(work: Path, *args: str) -> str:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "OPENAI_", "AZURE_"))
    }
    env.update(COLUMNS=str(WIDTH), PYTEST_ADDOPTS="-p no:langsmith_plugin")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.stdout


def terminal_svg(ansi: str, svg: Path, title: str) -> tuple[int, int]:
    """Render ANSI terminal output as rich's SVG terminal; returns the picture's size."""
    from rich.console import Console
    from rich.text import Text

    # Long lines (pytest does not wrap an assertion message) fold onto the next line: nothing
    # of the message is cut off.
    console = Console(record=True, width=WIDTH, file=io.StringIO(), force_terminal=True)
    console.print(Text.from_ansi(ansi.rstrip("\n")), overflow="fold")
    console.save_svg(str(svg), title=title)
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg.read_text(encoding="utf-8"))
    assert view is not None, "rich's SVG has no viewBox"
    return round(float(view[1])), round(float(view[2]))


def failure_section(ansi: str, test: str) -> str:
    """pytest's failure section of one test, from its header line to the next one."""
    lines = ansi.splitlines()
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    start = next(i for i, line in enumerate(plain) if re.match(rf"_+ {test} _+$", line))
    end = next(
        (i for i in range(start + 1, len(plain)) if re.match(r"^(_+ \w.* _+|=+ .* =+)$", plain[i])),
        len(plain),
    )
    return "\n".join(lines[start:end])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--chromium", help="path of the Chromium binary")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "test_release.py").write_text(SUITE.lstrip(), encoding="utf-8")
        ansi = run_pytest(work, "--color=yes", "--llm-report-html=report.html", "test_release.py")
        report = work / "report.html"
        if not report.is_file():
            sys.exit(f"screenshots: pytest wrote no report:\n{ansi}")
        screenshot(chromium, report, out / "html-report.png", 1100, 1400)

        for test, name in (
            ("test_agent_searches_the_wrong_city", "failing-test.png"),
            ("test_wrong_speed_is_caught", "failing-texts-test.png"),
        ):
            svg = work / f"{test}.svg"
            width, height = terminal_svg(failure_section(ansi, test), svg, f"pytest: {test}")
            screenshot(chromium, svg, out / name, width, height)


if __name__ == "__main__":
    main()
