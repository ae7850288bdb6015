"""Read the warehouse into pandas, read-only, and let go of the file before validating.

GX's SQL datasource cannot talk to DuckDB here, so every suite validates a DataFrame.  The
reads also derive the few columns a per-row expectation needs (a review's venue, a paper's
review count, a category's size), so each failure points at the offending rows.  The marts
read are those of the build in the warehouse (marts.build_marts): a build of the ranking
alone is checked without the extras' marts, and a mart an earlier build left is never
checked as this build's.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from paperrank.core.errors import PaperrankError
from paperrank.core.schema import SIGNALS
from paperrank.core.warehouse import connect, db_path
from paperrank.engines import open_marts

RAW_SQL = {
    "papers": """
        select paper_id, venue, title, primary_area, is_accepted
        from raw.papers
        order by paper_id
    """,
    "reviews": f"""
        select r.review_id, r.paper_id, p.venue, {', '.join(f'r.{s}' for s in SIGNALS)},
               p.paper_id is not null as paper_in_raw_papers
        from raw.reviews as r
        left join raw.papers as p on p.paper_id = r.paper_id
        order by r.paper_id, r.review_id
    """,
    # accepted papers with how many reviews and whether they carry a label of the taxonomy
    "accepted_papers": """
        select p.paper_id, p.venue, p.title,
               (select count(*) from raw.reviews as r where r.paper_id = p.paper_id)
                   as review_count,
               exists (
                   select 1 from raw.paper_labels as l
                   where l.paper_id = p.paper_id and l.taxonomy = $taxonomy
               ) as has_label
        from raw.papers as p
        where p.is_accepted
        order by p.paper_id
    """,
}

# each query with the mart it reads: the marts stage reads only the marts of the build in the
# warehouse (marts.build_marts: the ranking's and the extras it built), never a mart an
# earlier build of other extras left beside them
MART_SQL: dict[str, tuple[str, str]] = {
    "paper_rankings": ("paper_rankings", """
        select *, count(*) over (partition by venue, category) as papers_in_category
        from marts.paper_rankings
        order by venue, category, category_rank
    """),
    "category_counts": ("paper_rankings", """
        select venue, category, count(*) as papers
        from marts.paper_rankings
        group by venue, category
        order by venue, category
    """),
    "paper_rank_sets": ("paper_rank_sets", """
        select venue, category, paper_id, category_rank, marginal_lower, marginal_upper
        from marts.paper_rank_sets
        order by venue, category, category_rank
    """),
}
BUILD_MARTS_SQL = "select distinct mart from marts.build_marts"


def read_stage(stage: str, db: Path | None, taxonomy: str | None,
               engine: str = "duckdb") -> dict[str, pd.DataFrame]:
    """Run the stage's queries on a read-only connection that is closed before returning.

    The raw layer is always DuckDB's; the marts are those `engine` built (a Spark build's
    Parquet tables are read through DuckDB views, so the queries are the same).
    """
    con = connect(db, read_only=True) if stage == "raw" else open_marts(engine, db or db_path())
    try:
        if stage == "raw":
            queries = RAW_SQL
        else:
            held = {row[0] for row in _execute(con, stage, BUILD_MARTS_SQL, None).fetchall()}
            queries = {name: sql for name, (mart, sql) in MART_SQL.items() if mart in held}
        frames = {}
        for name, sql in queries.items():
            params = {"taxonomy": taxonomy} if "$taxonomy" in sql else None
            frames[name] = _execute(con, stage, sql, params).df()
        return frames
    finally:
        con.close()


def _execute(con: duckdb.DuckDBPyConnection, stage: str, sql: str,
             params: dict[str, str | None] | None) -> duckdb.DuckDBPyConnection:
    try:
        return con.execute(sql, params)
    except duckdb.CatalogException as error:
        hint = "load data first" if stage == "raw" else "run dbt build first"
        detail = str(error).splitlines()[0]
        raise PaperrankError(f"{stage} tables missing ({hint}): {detail}") from error
