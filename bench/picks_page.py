"""The report page with many recorded picks: its size and the report step's time.

    python -m bench.picks_page --db PUBLISHED_WAREHOUSE [--venue NAME] [--picks 100000] [--runs 3]

Targets: with 100,000 picks the page stays under 2 MB and the report step within 1 s
of its time with none. A copy of the warehouse gets `--picks` picks in marts.expert_picks: the
venue's ranked papers in rank order, each picked by one expert after another (expert k picks
every ranked paper once), so every paper is picked about picks / ranked times. The report step
is paperrank.report's write_reports (the marts read, the page rendered and written), timed in
this process after the imports, best of `--runs`, with the picks and with none. Prints one JSON
line.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import duckdb

from paperrank.report import pages

PAGE_LIMIT = 2_000_000
EXTRA_SECONDS = 1.0


def with_picks(source: Path, target: Path, venue: str, picks: int) -> int:
    """Copy `source` to `target` with `picks` picks of `venue` in marts.expert_picks; the number
    of ranked papers they spread over."""
    shutil.copy(source, target)
    con = duckdb.connect(str(target))
    try:
        row = con.execute("select count(*) from marts.paper_rankings where venue = ?", [venue]).fetchone()
        ranked = int(row[0]) if row else 0
        con.execute("delete from marts.expert_picks")
        if picks:
            con.execute("""
                insert into marts.expert_picks by name
                with ranked as (
                    select *, row_number() over (order by category, category_rank, paper_id) - 1 as n
                    from marts.paper_rankings where venue = ?
                )
                select r.venue, r.paper_id, r.category as selected_category,
                       'Expert ' || (i // ?) as selected_by, 'a note of pick ' || i as note,
                       r.title, r.category as paper_category, r.category_rank, r.category_size,
                       r.local_top_overall, true as is_ranked, r.is_top_n,
                       true as is_category_match, not r.is_top_n as is_flagged,
                       case when not r.is_top_n then 'outside the top N' end as flag_reason
                from range(?) as p(i)
                inner join ranked as r on r.n = p.i % ?""", [venue, ranked, picks, ranked])
            con.execute("""
                update marts.expert_picks as e set expert_count = c.experts
                from (select paper_id, selected_category, count(*) as experts
                      from marts.expert_picks group by all) as c
                where c.paper_id = e.paper_id and c.selected_category = e.selected_category""")
    finally:
        con.close()
    return ranked


def draw(db: Path, out: Path, venue: str, runs: int) -> tuple[float, int]:
    """Best time of `runs` report steps, and the page's size in bytes."""
    best, size = float("inf"), 0
    for run in range(runs):
        started = time.perf_counter()
        [(_, page)] = pages.write_reports(db, out / str(run), [venue])
        best = min(best, time.perf_counter() - started)
        size = page.stat().st_size
    return best, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="a published warehouse")
    parser.add_argument("--venue", help="the venue (default: the warehouse's first)")
    parser.add_argument("--picks", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="picks_page_") as scratch:
        folder = Path(scratch)
        con = duckdb.connect(str(args.db), read_only=True)
        try:
            row = con.execute("select min(venue) from marts.paper_rankings").fetchone()
        finally:
            con.close()
        venue = args.venue or (row[0] if row else "")
        results = {}
        for picks in (0, args.picks):
            db = folder / f"{picks}.duckdb"
            ranked = with_picks(args.db, db, venue, picks)
            results[picks] = draw(db, folder / f"out-{picks}", venue, args.runs)
        (none_s, none_bytes), (many_s, many_bytes) = results[0], results[args.picks]
        print(json.dumps({
            "venue": venue, "ranked_papers": ranked, "picks": args.picks,
            "page_bytes": many_bytes, "page_bytes_no_picks": none_bytes,
            "report_s": round(many_s, 3), "report_s_no_picks": round(none_s, 3),
            "page_under_2mb": many_bytes < PAGE_LIMIT,
            "within_1s_of_no_picks": many_s - none_s <= EXTRA_SECONDS,
        }))


if __name__ == "__main__":
    main()
