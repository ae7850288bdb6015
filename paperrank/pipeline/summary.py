"""The closing words of a ranking run: papers per ranked category, and what was not ranked.

`paperrank rank` and `paperrank demo` both end with it, read from the published warehouse.
"""

from __future__ import annotations

from pathlib import Path

import duckdb


def category_summary(published: Path, venue: str) -> str:
    """The venue's ranked papers per category (with the papers the primary-area override moved
    out), then its accepted papers not ranked, by reason with an example."""
    return "\n".join(category_lines(published, venue)[0])


def category_lines(published: Path, venue: str) -> tuple[list[str], str, int]:
    """The summary's lines, the venue's published build id and its top_n (the published
    warehouse holds every venue: each line is this venue's)."""
    con = duckdb.connect(str(published), read_only=True)
    try:
        build_id, top_n = con.execute(
            "select min(build_id), min(top_n) from marts.build_settings where venue = $venue",
            {"venue": venue}).fetchall()[0]
        categories = con.execute("""
            with papers as (
                select category, category as label_category, category_source from marts.paper_rankings
                where category_source = 'label' and venue = $venue
                union all select category, label_category, category_source from marts.excluded_papers
                where venue = $venue
            )
            select s.category, s.ranked_papers, s.is_category_ranked,
                   (select count(*) from papers as p where p.label_category = s.category) as labelled,
                   (select count(*) from papers as p where p.label_category = s.category
                        and p.category_source = 'primary_area_override'
                        and p.category <> s.category) as moved_out
            from marts.category_summary as s
            where s.venue = $venue
            order by s.is_category_ranked desc, s.ranked_papers desc, s.category
        """, {"venue": venue}).fetchall()
        excluded = con.execute("""
            select exclusion_reason, count(*), any_value(exclusion_detail)
            from marts.excluded_papers where venue = $venue group by 1 order by 2 desc
        """, {"venue": venue}).fetchall()
    finally:
        con.close()
    lines = ["", f"Ranked papers per category (the top {top_n} of each go to the experts):"]
    for category, ranked, is_ranked, labelled, moved in categories:
        if not is_ranked:
            continue
        note = f"  ({labelled} labelled; {moved} moved out by the primary-area override)" if moved else ""
        lines.append(f"  {category:<28} {ranked:>6}{note}")
    lines.append(f"Not ranked: {sum(n for _, n, _ in excluded)} accepted papers")
    for reason, count, example in excluded:
        lines.append(f"  {reason:<22} {count:>6}  e.g. {example}")
    return lines, build_id, top_n
