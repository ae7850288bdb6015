"""The audit's last check: the marts agree with each other and with the accepted papers.

dbt's tests check each mart alone, and the quality gate checks values; neither notices a
shortlist built from another build's rankings (a killed `dbt build` once left 76 of 180
shortlist rows pointing at papers no longer ranked).  Each query here returns the rows that
break one rule; any row fails the audit, and nothing is published.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core.warehouse import open_duckdb
from paperrank.engines import open_marts

SAMPLE = 5

RULES: dict[str, str] = {
    "category_top_n is exactly the is_top_n rows of paper_rankings": """
        (select venue, paper_id, category, category_rank, local_top_overall from marts.category_top_n
         except all
         select venue, paper_id, category, category_rank, local_top_overall
         from marts.paper_rankings where is_top_n)
        union all
        (select venue, paper_id, category, category_rank, local_top_overall
         from marts.paper_rankings where is_top_n
         except all
         select venue, paper_id, category, category_rank, local_top_overall from marts.category_top_n)
    """,
    "each category's shortlist holds min(top_n, its size) papers": """
        select r.venue, r.category, count(*) filter (where r.is_top_n) as shortlisted,
               count(*) as ranked, any_value(s.top_n) as top_n
        from marts.paper_rankings as r
        left join marts.build_settings as s on s.venue = r.venue
        group by r.venue, r.category
        having shortlisted is distinct from least(ranked, any_value(s.top_n))
    """,
    "category_summary counts match paper_rankings and category_top_n": """
        with ranked as (
            select venue, category, count(*) as ranked_papers, count(*) filter (where is_top_n) as top_n
            from marts.paper_rankings group by venue, category
        )
        select coalesce(s.venue, r.venue) as venue, coalesce(s.category, r.category) as category,
               s.ranked_papers as summary_ranked, r.ranked_papers as rankings_ranked,
               s.top_n_papers as summary_top_n, r.top_n as rankings_top_n
        from (select * from marts.category_summary where ranked_papers > 0) as s
        full join ranked as r on r.venue = s.venue and r.category = s.category
        where s.ranked_papers is distinct from r.ranked_papers
           or s.top_n_papers is distinct from r.top_n
    """,
    "every accepted paper is ranked or excluded, never both": """
        with accepted as (
            select venue, count(*) as accepted from staging.stg_raw__papers
            where is_accepted and venue in (select venue from marts.build_settings)
            group by venue
        ),
        ranked as (select venue, count(*) as ranked from marts.paper_rankings group by venue),
        excluded as (select venue, count(*) as excluded from marts.excluded_papers group by venue),
        both_ as (
            select venue, count(*) as in_both from marts.paper_rankings
            where paper_id in (select paper_id from marts.excluded_papers) group by venue
        )
        select a.venue, a.accepted, coalesce(r.ranked, 0) as ranked,
               coalesce(e.excluded, 0) as excluded, coalesce(b.in_both, 0) as in_both
        from accepted as a
        left join ranked as r using (venue)
        left join excluded as e using (venue)
        left join both_ as b using (venue)
        where a.accepted <> coalesce(r.ranked, 0) + coalesce(e.excluded, 0) or b.in_both > 0
    """,
    "category_summary's accepted papers add up to the categorized accepted papers": """
        select s.venue, sum(s.accepted_papers) as summary_accepted,
               any_value(c.categorized) as categorized
        from marts.category_summary as s
        left join (
            select venue, count(*) as categorized from (
                select venue, category from marts.paper_rankings
                union all select venue, category from marts.excluded_papers
            ) where category is not null group by venue
        ) as c on c.venue = s.venue
        group by s.venue
        having sum(s.accepted_papers) is distinct from any_value(c.categorized)
    """,
    "expert_picks agree with paper_rankings": """
        select p.paper_id, p.category_rank, r.category_rank as rankings_rank,
               p.is_top_n, r.is_top_n as rankings_is_top_n, p.local_top_overall,
               r.local_top_overall as rankings_score
        from marts.expert_picks as p
        left join marts.paper_rankings as r on r.paper_id = p.paper_id
        where p.is_ranked <> (r.paper_id is not null)
           or p.category_rank is distinct from r.category_rank
           or p.is_top_n <> coalesce(r.is_top_n, false)
           or p.local_top_overall is distinct from r.local_top_overall
    """,
    "one build: build_settings has one build id and a row for every ranked venue": """
        select 'build ids' as what, count(distinct build_id) as n from marts.build_settings
        having count(distinct build_id) <> 1
        union all
        select 'ranked venue without settings: ' || venue, 1 from (
            select distinct venue from marts.paper_rankings
            except select venue from marts.build_settings)
    """,
}


def check(db: Path, engine: str = "duckdb") -> list[str]:
    """Every broken rule with a few offending rows; empty when the marts agree.

    On Spark the rules run, through DuckDB, on the Parquet tables Spark built."""
    con = (open_duckdb(db, read_only=True) if engine == "duckdb"
           else open_marts(engine, db, ("marts", "staging")))
    problems = []
    try:
        for rule, sql in RULES.items():
            result = con.execute(f"select * from ({sql}) limit {SAMPLE + 1}")
            rows = result.fetchall()
            if rows:
                names = [d[0] for d in result.description]
                shown = "; ".join(str(dict(zip(names, row, strict=True))) for row in rows[:SAMPLE])
                more = " ..." if len(rows) > SAMPLE else ""
                problems.append(f"{rule}: {shown}{more}")
    finally:
        con.close()
    return problems
