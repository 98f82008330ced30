"""The frame of every HTML report page: its style, its one script, a Content-Security-Policy
that loads nothing from outside, and the escaping every piece of run text goes through.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Sequence

from scorekit.report._document import SCHEMA, created_stamp
from scorekit.report._totals import JudgeTotals

__all__ = ["card", "escape", "html_table", "judge_cards", "page_html"]

_CSS = """
:root{--ok:#1a7f37;--bad:#c62828;--err:#8250df;--mut:#57606a;--bg:#fff;--fg:#1f2328;
--band:#d7f0dc;--line:#d0d7de;--card:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--fg);background:var(--bg)}
header,main{max-width:960px;margin:0 auto;padding:12px 14px}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.2rem 0 .4rem}
h3{font-size:1rem;margin:0 0 .3rem;display:flex;gap:.5rem;align-items:baseline;flex-wrap:wrap}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
h3 code{overflow-wrap:anywhere}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:.6rem 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:6px 10px}
.card b{display:block;font-size:1.1rem}
.controls{display:flex;flex-wrap:wrap;gap:12px;align-items:center;position:sticky;top:0;
background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);z-index:1}
.controls label{display:flex;gap:6px;align-items:center;min-height:44px;cursor:pointer}
.controls input{width:20px;height:20px}
article{border:1px solid var(--line);border-left:5px solid var(--ok);border-radius:8px;
padding:10px 12px;margin:10px 0}
article[data-outcome=failed]{border-left-color:var(--bad)}
article[data-outcome=error]{border-left-color:var(--err)}
.badge{font-size:.75rem;font-weight:700;color:#fff;border-radius:4px;padding:1px 6px;
background:var(--ok)}
.badge.failed{background:var(--bad)}.badge.error{background:var(--err)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:.3rem 0}
dl.facts dt{color:var(--mut)}dl.facts dd{margin:0;overflow-wrap:anywhere}
svg.chart{width:100%;max-width:520px;height:auto;display:block;margin:.4rem 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
figure.plot{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:0}
figure.plot figcaption{font-weight:600}
details{margin:.3rem 0}summary{cursor:pointer;min-height:32px;padding:4px 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);padding:8px;
border-radius:6px;margin:.2rem 0;max-height:24rem;overflow:auto}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem;width:100%}
th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.error-msg{color:var(--err);white-space:pre-wrap;overflow-wrap:anywhere}
.findings{list-style:none;padding:0;margin:.3rem 0}
.finding{border-left:4px solid #bf8700;background:#fff8c5;padding:4px 8px;margin:3px 0;
border-radius:4px;overflow-wrap:anywhere}
.finding.error{border-left-color:var(--bad);background:#ffebe9}
.muted{color:var(--mut)}tr.bad td:first-child{color:var(--bad)}.legend{font-size:.8rem;margin:0}
.delta.regressed{color:var(--bad);font-weight:700}.delta.improved{color:var(--ok)}
@media (max-width:520px){body{font-size:14px}header,main{padding:8px}}
"""

_JS = """
(function () {
  var box = document.getElementById("only-failures");
  var rows = Array.prototype.slice.call(document.querySelectorAll("article.row"));
  var shown = document.getElementById("shown");
  function apply() {
    var n = 0;
    rows.forEach(function (r) {
      var hide = box.checked && r.getAttribute("data-outcome") === "passed";
      r.hidden = hide;
      if (!hide) { n += 1; }
    });
    shown.textContent = n + " of " + rows.length + " shown";
  }
  if (location.hash === "#failures") { box.checked = true; }
  box.addEventListener("change", apply);
  apply();
  document.body.setAttribute("data-filter-ready", "1");
  // Lets a headless browser check confirm that nothing overflows a phone-wide screen.
  var fits = document.documentElement.scrollWidth <= window.innerWidth + 1;
  document.body.setAttribute("data-fits-width", fits ? "1" : "0");
})();
"""


# Only this exact script may run: a script smuggled in through a text under test would be
# blocked by the browser even if an escape were ever missed.
_JS_HASH = base64.b64encode(hashlib.sha256(_JS.encode()).digest()).decode()


def escape(value: object) -> str:
    """``value`` as HTML text (quotes escaped too)."""
    return html.escape(str(value), quote=True)


def card(title: str, value: str) -> str:
    """One figure of a page's header."""
    return f'<div class="card">{escape(title)}<b>{escape(value)}</b></div>'


def judge_cards(totals: JudgeTotals | None) -> list[str]:
    """The judge's calls and estimated cost as a page's header figures (none without)."""
    if totals is None:
        return []
    cost = "n/a" if totals.cost_usd is None else f"~${totals.cost_usd:.4f}"
    calls = f"{totals.calls:,} (+{totals.cache_hits:,} cached)"
    return [card("judge calls", calls), card("est. cost", cost)]


def page_html(
    title: str, header: str, main: str, *, script: bool = False, schema: str = SCHEMA
) -> str:
    """One self-contained report page: the shared style, a Content-Security-Policy that loads
    nothing from outside, ``header`` under the title, ``main`` below it. ``script`` adds the
    row filter's script (the only one the policy lets run)."""
    scripts = f"script-src 'sha256-{_JS_HASH}'" if script else "script-src 'none'"
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"style-src 'unsafe-inline'; {scripts}; img-src data:\">"
        f"<title>{escape(title)}</title><style>{_CSS}</style></head>"
        f'<body data-filter-ready="0"><header><h1>{escape(title)}</h1>'
        f'<p class="muted">{escape(created_stamp())} · {escape(schema)}</p>'
        f"{header}</header>"
        f"<main>{main}</main>{f'<script>{_JS}</script>' if script else ''}</body></html>\n"
    )


def html_table(rows: Sequence[Sequence[object]], numeric: int = 1) -> str:
    """A scrolling table: ``rows[0]`` the header, the columns from ``numeric`` on numbers."""
    head = "".join(f"<th>{escape(h)}</th>" for h in rows[0])
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{escape(c)}</td>' if i >= numeric else f"<td>{escape(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows[1:]
    )
    return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'
