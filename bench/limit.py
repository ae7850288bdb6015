"""The limit: the whole ranking as one hand-written DuckDB statement over the raw layer.

No layers, no views, no dbt: one pass over the reviews, one over the labels, one window pass
per category for the z-scores and one for the rank. Measured two ways:

- with texts (the default): every column of marts.paper_rankings, titles, authors, abstracts
  and links included, so it does the same work the project does, minus the layering;
- numbers only (`--numbers-only`): the ranking's numbers alone (per-paper means and
  rating_std from raw.reviews, category z-scores, composite, rank), the floor for the
  arithmetic, which the long texts hide when they dominate both sides.

    python -m bench.limit --db DB [--numbers-only] [--taxonomy icml2026] [--venue V]
                          [--label-model M]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import duckdb

from bench.seeds import SEEDS, SIGNALS, Method, load

TABLE = "bench.limit_rankings"
NUMBERS_TABLE = "bench.limit_numbers"


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _values(rows: list[tuple[str, ...]], columns: str) -> str:
    body = ", ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in rows)
    return f"(values {body}) as t({columns})" if rows else f"(select {_null_row(columns)} where false)"


def _null_row(columns: str) -> str:
    return ", ".join(f"null::varchar as {c.strip()}" for c in columns.split(","))


def ranking_sql(method: Method, top_n: int = 30, venue: str | None = None,
                label_model: str | None = None, table: str = TABLE,
                texts: bool = True) -> str:
    """The one statement: `create or replace table <table> as <ranking>`; without `texts`,
    only the numbers (and the keys: venue, paper_id, category)."""
    venue_filter = "" if venue is None else f" and p.venue = {_literal(venue)}"
    model_filter = "" if label_model is None else f" and model = {_literal(label_model)}"
    window = "partition by venue, category"
    z = ",\n".join(
        f"coalesce(({s} - avg({s}) over w) / nullif(stddev_samp({s}) over w, 0), 0) as z_{s}"
        for s in SIGNALS
    )
    terms = ",\n".join(f"{method.weights[s]!r}::double * z_{s} as {s}_term" for s in SIGNALS)
    composite = " + ".join(f"{s}_term" for s in SIGNALS)
    label_columns = ("paper_id, category, confidence, rationale, model, prompt_hash" if texts
                     else "paper_id, category")
    paper_texts = """
        p.title, p.authors, p.abstract,
        c.slug as category_slug,
        case when o.category is not null then 'primary_area_override' else 'label' end
            as category_source,
        l.model as label_model, l.prompt_hash as label_prompt_hash,
        l.confidence as label_confidence, l.rationale as label_rationale,
        p.primary_area, p.status, p.forum_url, p.pdf_url,""" if texts else ""
    return f"""
create or replace table {table} as
with
categories as (select * from {_values(sorted(method.ranked.items()), 'category, slug')}),
overrides as (select * from {_values(sorted(method.overrides.items()), 'area_key, category')}),
labels as (
    select {label_columns}
    from raw.paper_labels
    where taxonomy = {_literal(method.taxonomy)}{model_filter}
    qualify row_number() over (
        partition by paper_id order by labeled_at desc, loaded_at desc, record_hash asc) = 1
),
reviews as (
    select
        paper_id,
        count(*) as review_count,
        avg(contribution) as contribution_mean,
        avg(rating) as rating_mean,
        avg(confidence) as confidence_mean,
        avg(soundness) as soundness_mean,
        avg(presentation) as presentation_mean,
        stddev_pop(rating) as rating_std
    from raw.reviews
    group by paper_id
),
ranked_papers as (
    select
        p.venue, p.paper_id,
        coalesce(o.category, l.category) as category,{paper_texts}
        r.review_count, {", ".join(f"r.{s}" for s in SIGNALS)}
    from raw.papers as p
    left join labels as l on l.paper_id = p.paper_id
    left join overrides as o on o.area_key = lower(trim(p.primary_area))
    inner join categories as c on c.category = coalesce(o.category, l.category)
    inner join reviews as r on r.paper_id = p.paper_id
    where p.is_accepted{venue_filter}
),
standardized as (
    select *, {z},
        count(*) over w as category_size
    from ranked_papers
    window w as ({window})
),
scored as (
    select *, {composite} as local_top_overall
    from (select *, {terms} from standardized)
)
select
    *,
    row_number() over (
        {window}
        order by round(local_top_overall, 12) desc, rating_mean desc nulls last, paper_id asc
    ) as category_rank,
    category_rank <= {int(top_n)} as is_top_n
from scored
"""


# the DuckDB settings of the project's profile (profiles.yml), so both run alike
THREADS = int(os.environ.get("PAPERRANK_DUCKDB_THREADS", "2"))
MEMORY_LIMIT = os.environ.get("PAPERRANK_MEMORY_LIMIT", "1GB")


def run(db: Path, method: Method, top_n: int = 30, venue: str | None = None,
        label_model: str | None = None, threads: int = THREADS,
        memory_limit: str = MEMORY_LIMIT, texts: bool = True) -> float:
    """Run the statement on `db` (with the profile's DuckDB settings); seconds it took."""
    con = duckdb.connect(str(db), config={"threads": threads, "memory_limit": memory_limit})
    try:
        con.execute("create schema if not exists bench")
        started = time.perf_counter()
        table = TABLE if texts else NUMBERS_TABLE
        con.execute(ranking_sql(method, top_n, venue, label_model, table, texts))
        return time.perf_counter() - started
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.limit", description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--taxonomy", default="icml2026")
    parser.add_argument("--weight-set", default="article_2026")
    parser.add_argument("--seeds", type=Path, default=SEEDS,
                        help="folder of the seed CSVs (default: the project's seeds/)")
    parser.add_argument("--top-n", type=int, default=30)
    parser.add_argument("--venue")
    parser.add_argument("--label-model")
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--memory-limit", default=MEMORY_LIMIT)
    parser.add_argument("--numbers-only", action="store_true",
                        help=f"only the ranking's numbers, into {NUMBERS_TABLE}")
    args = parser.parse_args(argv)
    cpu = time.process_time()
    seconds = run(args.db, load(args.taxonomy, args.weight_set, args.seeds), args.top_n,
                  args.venue, args.label_model, args.threads, args.memory_limit,
                  texts=not args.numbers_only)
    print(json.dumps({"sql_seconds": seconds, "cpu_seconds": time.process_time() - cpu}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
