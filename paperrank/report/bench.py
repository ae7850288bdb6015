"""The report page's own benchmark: how long drawing the pages takes, their weight, time to
interactive, and search time per keystroke in headless Chromium (Debian's, driven by Playwright).

    python -m paperrank.report.bench --db WAREHOUSE [--db ANOTHER ...] [--runs 5]

Targets: the ICLR 2026 page at most 2 MB with related papers (5 a paper); search
under 30 ms a keystroke at the 95th percentile over all ranked papers; interactive within 1 s;
and (the report step of `make rank`) the pages drawn in at most 2 s.  Each warehouse is measured
twice: the page as published (the shortlists and the papers just below each cut) and a page that
lists every ranked paper (`--below` large), which is what "search over all ranked papers" asks
of the script.  Drawing = write_reports (the marts read, the page rendered and written), timed
in this process after the imports, best of `--runs` (and its CPU time, which a busy machine
inflates less).  Interactive = the navigation's
domContentLoadedEventEnd (the page is parsed and its script has run: search, sort and picks
answer), after one warm-up load; a keystroke = the input handler plus the style and layout it
causes (forced by reading offsetHeight), the time the reader waits before the rows change.
Prints one JSON line per page, with how many related-paper links it carries.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from paperrank.report import render
from paperrank.report.pages import write_reports

QUERIES = ("diffusion", "graph neural", "language model", "protein", "robot", "zzzz")
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
KEYSTROKES_JS = """(queries) => {
    const box = document.getElementById('paper-search');
    const times = [];
    for (const query of queries) {
        for (let i = 1; i <= query.length; i++) {
            box.value = query.slice(0, i);
            const start = performance.now();
            box.dispatchEvent(new Event('input'));
            document.body.offsetHeight;
            times.push(performance.now() - start);
        }
        box.value = '';
        box.dispatchEvent(new Event('input'));
    }
    return times;
}"""


def measure(page_path: Path, runs: int) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("PAPERRANK_CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        raise SystemExit("chromium not installed (apt-get install -y chromium)")
    interactive, keystrokes = [], []
    rows = related = 0
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=FLAGS, offline=True,
            viewport={"width": 1366, "height": 900})
        try:
            page = context.new_page()
            page.goto(page_path.resolve().as_uri(), wait_until="load")  # warm-up
            for _ in range(runs):
                page.goto(page_path.resolve().as_uri(), wait_until="load")
                interactive.append(page.evaluate(
                    "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
                keystrokes += page.evaluate(KEYSTROKES_JS, list(QUERIES))
            rows = page.locator("tr[data-paper-id]").count()
            related = page.locator("a.related[data-paper-id]").count()
        finally:
            context.close()
    keystrokes.sort()
    return {
        "page": str(page_path), "bytes": page_path.stat().st_size, "rows": rows,
        "related_links": related,
        "interactive_ms_median": round(statistics.median(interactive), 1),
        "interactive_ms_max": round(max(interactive), 1),
        "keystroke_ms_median": round(statistics.median(keystrokes), 2),
        "keystroke_ms_p95": round(keystrokes[int(0.95 * (len(keystrokes) - 1))], 2),
        "keystroke_ms_max": round(keystrokes[-1], 2),
        "keystrokes": len(keystrokes),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paperrank.report.bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, action="append", required=True,
                        help="a warehouse built by `make rank` (repeatable: one per data shape)")
    parser.add_argument("--runs", type=int, default=5, help="page loads per page (default 5)")
    parser.add_argument("--published-only", action="store_true",
                        help="skip the page that lists every ranked paper")
    parser.add_argument("--out-dir", type=Path, default=None,
                        help="where the pages go (default: a temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out_dir or Path(scratch)
        for number, db in enumerate(args.db):
            shapes = [("published", render.BELOW_CUT), ("every ranked paper", 10**6)]
            for label, below in shapes[:1] if args.published_only else shapes:
                drawn, cpu, pages = [], [], []
                for _ in range(args.runs):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    pages = write_reports(db, out / f"{number}-{below}", None, below)
                    drawn.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)
                for _venue, path in pages:
                    result = measure(path, args.runs)
                    print(json.dumps({"db": str(db), "shape": label,
                                      "draw_s_best": round(min(drawn), 2),
                                      "draw_s_median": round(statistics.median(drawn), 2),
                                      "draw_cpu_s_best": round(min(cpu), 2),
                                      **result}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
