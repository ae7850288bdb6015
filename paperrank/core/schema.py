"""The warehouse's two written schemas: `raw` (the loaders') and `derived` (what
paperrank.related computes). dbt reads both as sources; `paperrank.core.warehouse.connect`
creates both, so every warehouse a loader wrote has the sources dbt expects.
"""

from __future__ import annotations

from paperrank.core.seeds import review_score_columns

PAPER_COLUMNS = (
    "paper_id", "venue", "title", "abstract", "primary_area", "keywords", "authors", "status",
    "is_accepted", "forum_url", "pdf_url", "decision_tier", "citations", "citations_source",
    "source", "snapshot_at",
)
# the per-review scores every loader fills: the dbt var review_score_columns (dbt_project.yml)
SIGNALS = review_score_columns()
REVIEW_COLUMNS = ("paper_id", "review_id", "reviewer", *SIGNALS, "source", "snapshot_at")
LABEL_COLUMNS = (
    "paper_id", "taxonomy", "category", "confidence", "rationale", "model", "prompt_hash",
    "source", "labeled_at",
)

# Current reviews and their history share one shape, so a score column is added in one place.
REVIEW_TABLE = """
    paper_id varchar not null,
    review_id varchar not null,
    reviewer varchar,
    rating double,
    confidence double,
    soundness double,
    contribution double,
    presentation double,
    source varchar not null,
    snapshot_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
"""

RAW_DDL = f"""
create schema if not exists raw;
create table if not exists raw.papers (
    paper_id varchar not null,
    venue varchar not null,
    title varchar,
    abstract varchar,
    primary_area varchar,
    keywords varchar[],
    authors varchar,  -- author names, '; '-joined, in the paper's order
    status varchar,
    is_accepted boolean not null,
    forum_url varchar,
    pdf_url varchar,
    decision_tier varchar,  -- paperrank.ingest.status.decision_tier of the status
    citations bigint,  -- an outcome, when the input has one (paperlists' gs_citation)
    citations_source varchar,  -- where the citation count comes from
    source varchar not null,
    snapshot_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
);
create table if not exists raw.reviews ({REVIEW_TABLE});
create table if not exists raw.review_history ({REVIEW_TABLE});
create table if not exists raw.paper_labels (
    paper_id varchar not null,
    taxonomy varchar not null,
    category varchar not null,
    confidence varchar,
    rationale varchar,
    model varchar not null,
    prompt_hash varchar,
    source varchar not null,
    labeled_at timestamptz not null,
    record_hash varchar not null,
    loaded_at timestamptz not null
);
create table if not exists raw.rejected_records (
    load_id varchar not null,
    source varchar not null,
    record_key varchar not null,
    reason varchar not null,
    reason_kind varchar not null,
    payload varchar,
    rejected_at timestamptz not null
);
create table if not exists raw.loads (
    load_id varchar not null,
    kind varchar not null,
    source varchar not null,
    snapshot_at timestamptz,
    started_at timestamptz not null,
    finished_at timestamptz not null,
    records_read bigint not null,
    papers_loaded bigint not null,
    papers_changed bigint not null,
    reviews_loaded bigint not null,
    reviews_changed bigint not null,
    labels_loaded bigint not null,
    labels_added bigint not null,
    records_rejected bigint not null
);
-- warehouses made before authors and reason_kind were part of the contract
alter table raw.papers add column if not exists authors varchar;
alter table raw.rejected_records add column if not exists reason_kind varchar;
-- ... and before the decision tier and the citation counts were
alter table raw.papers add column if not exists decision_tier varchar;
alter table raw.papers add column if not exists citations bigint;
alter table raw.papers add column if not exists citations_source varchar;
"""


# the derived tables: each result kept with the keys it was computed from (paperrank.related.store)
DERIVED_DDL = """
create schema if not exists derived;
create table if not exists derived.computations (
    venue varchar not null,
    part varchar not null,            -- related | subthemes | audit | layouts
    taxonomy varchar not null,        -- '' for related papers (no taxonomy)
    label_model varchar not null,     -- '' = the latest label of any model
    input_key varchar not null,
    method_key varchar not null,
    related_papers integer not null,  -- k for related papers, 0 for the other parts
    papers bigint not null,
    result_rows bigint not null,
    seconds double not null,          -- the part's own seconds plus vector_seconds
    vector_seconds double not null,   -- the vectors' seconds, shared by the parts computed with them
    computed_at timestamptz not null
);
create table if not exists derived.related_inputs (
    venue varchar not null,
    paper_id varchar not null,
    text_hash varchar not null        -- paperrank.related.corpus.text_hash of the paper's text
);
create table if not exists derived.paper_related (
    venue varchar not null,
    paper_id varchar not null,
    related_rank integer not null,
    related_paper_id varchar not null,
    similarity double not null
);
create table if not exists derived.paper_subthemes (
    venue varchar not null,
    taxonomy varchar not null,
    label_model varchar not null,
    paper_id varchar not null,
    category varchar not null,
    subtheme integer not null
);
create table if not exists derived.category_subthemes (
    venue varchar not null,
    taxonomy varchar not null,
    label_model varchar not null,
    category varchar not null,
    subtheme integer not null,
    subtheme_label varchar not null,
    subtheme_terms varchar not null,
    paper_count bigint not null
);
create table if not exists derived.label_audit (
    venue varchar not null,
    taxonomy varchar not null,
    label_model varchar not null,
    paper_id varchar not null,
    label_category varchar not null,
    audit_category varchar not null,
    audit_confidence double not null
);
create table if not exists derived.layout_quality (
    venue varchar not null,
    taxonomy varchar not null,
    label_model varchar not null,
    layout_category varchar not null, -- '' for the venue's layout, else the ranked category's
    papers bigint not null,
    trustworthiness double,           -- null: too few papers to measure (paperrank.related.layout)
    seconds double not null           -- this layout's own seconds (t-SNE and its measure)
);
create table if not exists derived.paper_layouts (
    venue varchar not null,
    taxonomy varchar not null,
    label_model varchar not null,
    layout_category varchar not null,
    paper_id varchar not null,
    x double not null,                -- in the unit square (paperrank.related.layout)
    y double not null
);
"""
