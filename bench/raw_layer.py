"""Raw layers for the ranking benchmark: the real ICLR 2026 data or a synthetic venue.

The real data goes through the project's own loaders (`paperrank ingest file`, `paperrank
classify import`), exactly as an operator loads it. A synthetic venue of any size is written
straight into the raw tables with bulk SQL (the loaders hash every row in Python, which is
too slow for a million papers); every NOT NULL column of the raw contract is filled, the record
hash is an md5 computed by DuckDB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa

from paperrank.core import warehouse
from paperrank.ingest.synthetic import DATASETS_AREA, Venue, generate

REPO = Path(__file__).resolve().parents[1]
ICLR_DIR = REPO.parent / "shared" / "data" / "iclr2026"
ICLR_PAPERS = ICLR_DIR / "accepted_papers.parquet"
ICLR_LABELS = ICLR_DIR / "peer_llm_labels.parquet"
ICLR_VENUE = "ICLR 2026"
SYNTHETIC_SOURCE = "bench:synthetic"
SYNTHETIC_MODEL = "synthetic-truth"

# Data shapes of a synthetic venue. `base`: the generator's themes (5 ranked ICML categories
# hold about 35% of the papers, the rest is Other, 8% datasets and benchmarks). `ranked`: few
# large ranked categories holding about 77% of the papers (1 in 14 overridden as datasets and
# benchmarks, about 15% Other). `many`: MANY_CATEGORIES small ranked categories of the bench
# taxonomy MANY_TAXONOMY (about 85% of the papers ranked), which only the benchmark's scratch
# copy of the seeds defines. `short`: the `ranked` labels with one-word titles and abstracts, so
# that moving text no longer hides the arithmetic (the long-text shapes carry ~1 KB per paper).
# `outcomes`: the `short` venue as all its submissions, for the outcome models: about
# 35% not accepted (rejected, some withdrawn or undecided), the accepted ones oral, spotlight or
# poster, and citation counts (1 in 10 unknown); decisions and citations follow the reviews'
# mean rating plus noise, so the validity metrics have something to find. `long`: the `ranked`
# labels with real-looking abstracts of about 1,500 characters (each paper's own three sentences,
# then a real ICLR 2026 abstract picked by its id), so that the cost of carrying abstracts shows.
# `twenty`: the `short` texts with TWENTY_CATEGORIES ranked categories of the bench taxonomy
# TWENTY_TAXONOMY (about 92% of the papers ranked), which only a scratch copy of the seeds defines.
SHAPES = ("base", "ranked", "many", "short", "outcomes", "long", "twenty")
ICML_RANKED = ("Agentic AI", "AI Systems", "Physical AI", "Healthcare & Life Sciences",
               "Sustainable AI")
MANY_TAXONOMY = "bench_many"
MANY_CATEGORIES = 200
TWENTY_TAXONOMY = "bench_twenty"
TWENTY_CATEGORIES = 20
# the longest abstract of the `long` shape, in characters
LONG_ABSTRACT = 1600


def shape_taxonomy(shape: str, taxonomy: str = "icml2026") -> str:
    """The taxonomy a synthetic venue of `shape` is labelled in."""
    return {"many": MANY_TAXONOMY, "twenty": TWENTY_TAXONOMY}.get(shape, taxonomy)


def load_real(db: Path) -> None:
    """Load the shared ICLR 2026 papers, reviews and labels with the project's loaders."""
    for path in (ICLR_PAPERS, ICLR_LABELS):
        if not path.exists():
            raise FileNotFoundError(f"shared data not found: {path}")
    env = dict(os.environ, PAPERRANK_DB=str(db))
    for args in (
        ["ingest", "file", str(ICLR_PAPERS), "--venue", ICLR_VENUE],
        ["classify", "import", str(ICLR_LABELS), "--taxonomy", "iclr2026"],
    ):
        subprocess.run([sys.executable, "-m", "paperrank", *args], cwd=REPO, env=env, check=True,
                       capture_output=True, text=True)


def write_synthetic(db: Path, n_papers: int, seed: int = 2026, venue: str = "SYNTH BENCH",
                    taxonomy: str = "icml2026", history: bool = False,
                    shape: str = "base") -> tuple[int, int]:
    """Generate a venue and write it into a fresh raw layer; returns (papers, reviews)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}; choose from {', '.join(SHAPES)}")
    generated = generate(n_papers, seed=seed, venue=venue)
    write_venue(db, generated, taxonomy=shape_taxonomy(shape, taxonomy), history=history)
    if shape != "base":
        reshape(db, shape)
    return len(generated.papers), len(generated.reviews)


def many_categories(count: int = MANY_CATEGORIES) -> list[str]:
    """The ranked categories of the `many` shape's taxonomy (of the `twenty` shape's with
    count=TWENTY_CATEGORIES): the names reshape gives the labels."""
    return [f"Topic {i:03d}" for i in range(1, count + 1)]


def reshape(db: Path, shape: str) -> None:
    """Relabel the written venue into `shape`, deterministically from each paper's id.

    Reviews stay as generated; only the labels and the primary areas (which decide the
    datasets-and-benchmarks override) change, and for `short` the texts, so every shape ranks
    the same papers' scores.
    """
    number = "cast(regexp_extract(paper_id, '([0-9]+)$', 1) as bigint)"  # 1..n, from generate
    bucket = f"({number} * 7919 % 1000)"
    if shape in ("ranked", "short", "outcomes", "long"):
        ranked = ", ".join("'" + c.replace("'", "''") + "'" for c in ICML_RANKED)
        category = f"case when {bucket} < 850 then [{ranked}][1 + {bucket} % 5] else 'Other' end"
    else:
        count = TWENTY_CATEGORIES if shape == "twenty" else MANY_CATEGORIES
        category = (f"case when {bucket} < 920 then 'Topic ' || lpad(cast(1 + {bucket} * 7 % "
                    f"{count} as varchar), 3, '0') else 'Other' end")
    con = warehouse.connect(db)
    try:
        con.execute("begin transaction")
        con.execute(f"update raw.paper_labels set category = {category}")
        # 1 in 14 papers has the datasets-and-benchmarks primary area, the rest keep theirs
        con.execute(f"""
            update raw.papers set primary_area = case
                when {number} % 14 = 0 then '{DATASETS_AREA}'
                when primary_area = '{DATASETS_AREA}' then 'optimization'
                else primary_area end
        """)
        if shape == "long":
            lengthen_abstracts(con, number)
        if shape in ("short", "outcomes", "twenty"):
            # one word each (the acronym before the title, the abstract's first word); the
            # record hash follows the row, as the loaders' would
            con.execute("""
                update raw.papers set
                    title = split_part(title, ' ', 1),
                    abstract = split_part(abstract, ' ', 1)
            """)
            con.execute("""
                update raw.papers set record_hash = md5(concat_ws('|', paper_id, venue, title,
                    abstract, primary_area, status, forum_url, pdf_url))
            """)
        if shape == "outcomes":
            decide_outcomes(con, number)
        con.execute("commit")
        con.execute("checkpoint")
    finally:
        con.close()


def lengthen_abstracts(con: duckdb.DuckDBPyConnection, number: str) -> None:
    """Give every paper an abstract of about 1,500 characters (the `long` shape): its own three
    sentences, then a real ICLR 2026 abstract chosen by its id, cut at LONG_ABSTRACT characters.
    Real text, so that compression and sorts see what a real venue's abstracts give them; each
    paper's own start, so that few abstracts repeat (about 610,000 distinct at 1M papers)."""
    if not ICLR_PAPERS.exists():
        raise FileNotFoundError(f"shared data not found: {ICLR_PAPERS} (the long shape's texts)")
    con.execute(f"""
        create temp table real_abstracts as
        select row_number() over (order by openreview_id) - 1 as pick, abstract
        from read_parquet('{ICLR_PAPERS}')
        where length(abstract) >= 600
    """)
    (count,) = con.execute("select count(*) from real_abstracts").fetchall()[0]
    # rewritten whole (delete and insert), which DuckDB does far faster than an update of
    # every row's long text
    con.execute(f"""
        create temp table lengthened as
        with picked as (
            select *, {number} * 7919 % {count} as pick
            from raw.papers
        ),
        longer as (
            select
                picked.* exclude (pick) replace (
                    left(picked.abstract || ' ' || real.abstract, {LONG_ABSTRACT}) as abstract)
            from picked
            inner join real_abstracts as real on picked.pick = real.pick
        )
        select * replace (md5(concat_ws('|', paper_id, venue, title, abstract, primary_area,
                                        status, forum_url, pdf_url)) as record_hash)
        from longer
    """)
    con.execute("delete from raw.papers")
    con.execute("insert into raw.papers select * from lengthened")
    con.execute("drop table lengthened")
    con.execute("drop table real_abstracts")


def decide_outcomes(con: duckdb.DuckDBPyConnection, number: str) -> None:
    """Give every paper a decision and a citation count (the `outcomes` shape): the papers
    ordered by mean rating plus a deterministic noise; the lowest 35% are not accepted (1 in 30
    of them withdrawn, 1 in 300 undecided, the rest rejected), the top 2% of the others oral,
    the next 4.5% spotlight, the rest poster. The statuses are paperlists' words, and the status
    columns follow them by the loaders' rule (paperrank.ingest.status)."""
    con.execute(f"""
        create temp table decided as
        with means as (
            select paper_id, avg(rating) as rating_mean from raw.reviews group by paper_id
        ),
        numbered as (
            select
                paper_id,
                {number} as number,
                ({number} * 104729 % 997) / 997.0 - 0.5 as noise
            from raw.papers
        ),
        placed as (
            select
                numbered.paper_id,
                numbered.number,
                numbered.noise,
                means.rating_mean,
                percent_rank() over (
                    order by means.rating_mean + 1.5 * numbered.noise, numbered.paper_id
                ) as place
            from numbered
            inner join means on numbered.paper_id = means.paper_id
        )
        select
            paper_id,
            case
                when place < 0.35 and number % 300 = 1 then 'Active'
                when place < 0.35 and number % 30 = 0 then 'Withdraw'
                when place < 0.35 then 'Reject'
                when place >= 0.98 then 'Oral'
                when place >= 0.935 then 'Spotlight'
                else 'Poster'
            end as status,
            case when number % 10 = 3 then null
                 else cast(floor(exp(0.6 * rating_mean - 1 + 2 * noise)) as bigint)
            end as citations
        from placed
    """)
    con.execute("""
        update raw.papers set
            status = decided.status,
            is_accepted = decided.status in ('Oral', 'Spotlight', 'Poster'),
            decision_tier = case decided.status
                when 'Active' then 'undecided' when 'Withdraw' then 'withdrawn'
                when 'Reject' then 'rejected' else lower(decided.status) end,
            citations = decided.citations,
            citations_source = 'bench:synthetic citations'
        from decided
        where raw.papers.paper_id = decided.paper_id
    """)
    con.execute("""
        update raw.papers set record_hash = md5(concat_ws('|', paper_id, venue, title,
            abstract, primary_area, status, forum_url, pdf_url))
    """)
    con.execute("drop table decided")


def write_venue(db: Path, venue: Venue, taxonomy: str = "icml2026",
                model: str = SYNTHETIC_MODEL, history: bool = False) -> None:
    """Write a generated venue (papers, reviews, true themes as labels) into raw.* of `db`.

    Papers are all accepted; the true themes become labels of `taxonomy` by `model`.
    Existing raw rows are replaced, so the file holds exactly this venue. The reviews are
    copied to raw.review_history only with `history` (the ranking models never read it).
    """
    con = warehouse.connect(db)
    try:
        con.register("v_papers", pa.Table.from_pandas(venue.papers, preserve_index=False))
        con.register("v_reviews", pa.Table.from_pandas(venue.reviews, preserve_index=False))
        con.register("v_themes", pa.Table.from_pandas(venue.themes, preserve_index=False))
        con.execute("begin transaction")
        for table in ("papers", "reviews", "review_history", "paper_labels"):
            con.execute(f"delete from raw.{table}")
        con.execute(f"""
            insert into raw.papers (paper_id, venue, title, abstract, primary_area, keywords,
                                    status, is_accepted, forum_url, pdf_url, source, snapshot_at,
                                    record_hash, loaded_at)
            select paper_id, venue, title, abstract, primary_area, []::varchar[] as keywords,
                   status, true as is_accepted, forum_url, pdf_url,
                   '{SYNTHETIC_SOURCE}' as source, now() as snapshot_at,
                   md5(concat_ws('|', paper_id, venue, title, abstract, primary_area, status,
                                 forum_url, pdf_url)) as record_hash,
                   now() as loaded_at
            from v_papers
        """)
        reviews = f"""
            select paper_id, review_id, reviewer, rating, confidence, soundness, contribution,
                   presentation, '{SYNTHETIC_SOURCE}' as source, now() as snapshot_at,
                   md5(concat_ws('|', paper_id, review_id, reviewer, rating, confidence,
                                 soundness, contribution, presentation)) as record_hash,
                   now() as loaded_at
            from v_reviews
        """
        con.execute(f"insert into raw.reviews {reviews}")
        if history:
            con.execute(f"insert into raw.review_history {reviews}")
        con.execute(f"""
            insert into raw.paper_labels
            select paper_id, '{taxonomy}' as taxonomy, category, 'high' as confidence,
                   'true theme of the synthetic venue' as rationale, '{model}' as model,
                   null as prompt_hash, '{SYNTHETIC_SOURCE}' as source, now() as labeled_at,
                   md5(concat_ws('|', paper_id, '{taxonomy}', category, '{model}'))
                       as record_hash,
                   now() as loaded_at
            from v_themes
        """)
        con.execute("commit")
        con.execute("checkpoint")
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.raw_layer",
        description="Write a synthetic venue (or the real ICLR 2026 data) into a raw layer.")
    parser.add_argument("--db", type=Path, required=True, help="warehouse file to write")
    parser.add_argument("--papers", type=int, help="synthetic papers; omit to load ICLR 2026")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--history", action="store_true", help="also fill raw.review_history")
    parser.add_argument("--shape", choices=SHAPES, default="base",
                        help="labels of the synthetic venue (see SHAPES; default base)")
    args = parser.parse_args(argv)
    if args.papers is None:
        load_real(args.db)
        print(f"loaded {ICLR_VENUE} into {args.db}")
    else:
        papers, reviews = write_synthetic(args.db, args.papers, args.seed,
                                          history=args.history, shape=args.shape)
        print(f"wrote {papers} papers and {reviews} reviews into {args.db}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
