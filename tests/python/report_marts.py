"""Warehouses of every shape the report must read, made from a built warehouse.

A build is split into parts chosen at build time (`ranking`, and the extras `uncertainty`,
`rank_sets`, `outcomes`, `picks`, `related`); the published warehouse holds only the built
parts' marts, the rank sets in marts of their own (paper_rank_sets, category_rank_sets), and
build_settings.extras says which extras were built. `split_parts` rewrites a copy of a build of
the older layout into that one, `keep_parts` drops the marts of the parts a build lacks, and
`add_related_marts` writes plausible stand-ins of the related-papers part's marts
(paper_related, category_subthemes, paper_subthemes, label_audit, and the maps'
paper_map_positions and map_trustworthiness) with the contract's columns, made from the venue's
own rankings.

These stand-ins let the report's tests run before the models that make those marts are merged;
once they are, the tests can build the real marts instead (`dbt build` with the extras) and
these functions reduce to `keep_parts`.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

PART_MARTS = {
    "uncertainty": ("paper_rank_uncertainty", "category_rank_stability",
                    "category_weight_sensitivity", "paper_weight_sensitivity"),
    "rank_sets": ("paper_rank_sets", "category_rank_sets"),
    "outcomes": ("ranking_validity", "empirical_bayes_priors", "paper_posterior_rankings"),
    "picks": ("expert_picks",),
    "related": ("paper_related", "category_subthemes", "paper_subthemes", "label_audit",
                "paper_map_positions", "map_trustworthiness"),
}
EXTRAS = tuple(PART_MARTS)
RANK_SET_PAPER_COLUMNS = ("marginal_lower", "marginal_upper", "is_possibly_top_n",
                          "is_certainly_top_n", "rank_set_method")
RANK_SET_CATEGORY_COLUMNS = ("possibly_top_n_papers", "certainly_top_n_papers", "reliability",
                             "reliability_with_one_more_review")
SUMMARY_KEPT = ("venue", "category", "category_slug", "is_category_ranked", "accepted_papers",
                "ranked_papers", "overridden_papers", "top_n_papers", "is_smaller_than_top_n",
                "avg_rating_mean", "avg_contribution_mean", "best_local_top_overall")
PICK_UNCERTAINTY = ("p_top_n", "rank_p05", "rank_p95", "rank_band")


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {t for (t,) in con.execute("select table_name from information_schema.tables "
                                      "where table_schema = 'marts'").fetchall()}


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [c for (c,) in con.execute(
        "select column_name from information_schema.columns where table_schema = 'marts' "
        "and table_name = ? order by ordinal_position", [table]).fetchall()]


def _drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
    kind = con.execute("select table_type from information_schema.tables where "
                       "table_schema = 'marts' and table_name = ?", [name]).fetchone()
    if kind:
        con.execute(f"drop {'view' if kind[0] == 'VIEW' else 'table'} marts.{name}")


def _select_without(con: duckdb.DuckDBPyConnection, table: str, dropped: tuple[str, ...]) -> None:
    """marts.<table> as a table without the `dropped` columns (the split moved them)."""
    kept = [c for c in _columns(con, table) if c not in dropped]
    con.execute(f"create table marts.{table}__kept as select {', '.join(kept)} from marts.{table}")
    _drop(con, table)
    con.execute(f"alter table marts.{table}__kept rename to {table}")


def split_parts(db: Path) -> None:
    """Rewrite a build of the older layout (rank sets inside paper_rank_uncertainty and
    category_rank_stability, stability columns in category_summary, uncertainty in
    expert_picks) into the split one, with build_settings.extras listing every extra."""
    con = duckdb.connect(str(db))
    try:
        tables = _tables(con)
        if "paper_rank_sets" not in tables and "marginal_lower" in _columns(con, "paper_rank_uncertainty"):
            con.execute(f"""create table marts.paper_rank_sets as
                select venue, category, paper_id, category_rank, {', '.join(RANK_SET_PAPER_COLUMNS)}
                from marts.paper_rank_uncertainty""")
            _select_without(con, "paper_rank_uncertainty", RANK_SET_PAPER_COLUMNS)
        if "category_rank_sets" not in tables and "possibly_top_n_papers" in _columns(con, "category_rank_stability"):
            con.execute(f"""create table marts.category_rank_sets as
                select venue, category, {', '.join(RANK_SET_CATEGORY_COLUMNS)}
                from marts.category_rank_stability""")
            _select_without(con, "category_rank_stability", RANK_SET_CATEGORY_COLUMNS)
        summary = _columns(con, "category_summary")
        _select_without(con, "category_summary", tuple(c for c in summary if c not in SUMMARY_KEPT))
        if "expert_picks" in tables:
            _select_without(con, "expert_picks", PICK_UNCERTAINTY)
        if "extras" not in _columns(con, "build_settings"):
            con.execute("alter table marts.build_settings add column extras varchar")
        con.execute("update marts.build_settings set extras = ?",
                    [",".join(p for p in EXTRAS if any(m in _tables(con) for m in PART_MARTS[p]))])
    finally:
        con.close()


def keep_parts(db: Path, parts: tuple[str, ...]) -> None:
    """Drop the marts of every extra not in `parts`, and record `parts` as the build's extras
    (empty: the ranking alone). `db` must be of the split layout (split_parts)."""
    unknown = set(parts) - set(EXTRAS)
    assert not unknown, unknown
    con = duckdb.connect(str(db))
    try:
        for part, marts in PART_MARTS.items():
            if part not in parts:
                for mart in marts:
                    _drop(con, mart)
        con.execute("update marts.build_settings set extras = ?",
                    [",".join(p for p in EXTRAS if p in parts)])
    finally:
        con.close()


def add_related_marts(db: Path, k: int = 5, subthemes: int = 3) -> None:
    """Stand-ins of the related part's marts, every ranked paper of every venue covered:
    paper_related (k rows a paper: its neighbours in its category's ranking, and one paper of
    another category, the similarity falling with the distance), category_subthemes and
    paper_subthemes (each category split into `subthemes` groups by rank modulo, labelled by
    a word of their best paper's title), label_audit (every seventh paper disputed), and the
    maps (`_add_map_marts`). Neighbouring ranks are each other's closest papers at similarity
    0.5 (1 / (1 + rank distance)), two ranks apart 0.33."""
    con = duckdb.connect(str(db))
    try:
        con.execute(f"""create or replace table marts.paper_related as
            with papers as (
                select venue, paper_id, category, category_rank,
                       row_number() over (partition by venue order by category, category_rank) as position,
                       count(*) over (partition by venue) as venue_size
                from marts.paper_rankings
            ),
            pairs as (
                select a.venue, a.paper_id, b.paper_id as related_paper_id,
                       case when a.category = b.category then abs(a.category_rank - b.category_rank)
                            else 1000 + abs(a.position - b.position) end as distance
                from papers a join papers b on a.venue = b.venue and a.paper_id <> b.paper_id
                    and (abs(a.position - b.position) <= {k}
                         or b.position = (a.position + a.venue_size // 2 - 1) % a.venue_size + 1)
            ),
            ranked as (
                select *, row_number() over (partition by venue, paper_id
                                             order by distance, related_paper_id) as related_rank
                from pairs
            )
            select venue, paper_id, related_rank, related_paper_id,
                   round(1.0 / (1 + least(distance, 20)), 6) as similarity
            from ranked where related_rank <= {k}""")
        con.execute(f"""create or replace table marts.paper_subthemes as
            select venue, paper_id, category,
                   category_slug || '-' || ((category_rank - 1) % {subthemes} + 1) as subtheme,
                   null::varchar as subtheme_label
            from marts.paper_rankings""")
        con.execute("""create or replace table marts.category_subthemes as
            with grouped as (
                select s.venue, s.category, s.subtheme, count(*) as paper_count,
                       arg_min(r.title_plain, r.category_rank) as best_title
                from marts.paper_subthemes s join marts.paper_rankings r using (paper_id)
                group by all
            )
            select venue, category, subtheme,
                   'Theme ' || right(subtheme, 1) || ': ' || coalesce(nullif(regexp_replace(
                       split_part(trim(best_title), ' ', 1), '[^A-Za-z0-9-]', '', 'g'), ''),
                       'untitled') as subtheme_label,
                   lower(coalesce(best_title, '')) as subtheme_terms,
                   paper_count
            from grouped""")
        con.execute("""update marts.paper_subthemes as p set subtheme_label = c.subtheme_label
            from marts.category_subthemes c where p.venue = c.venue and p.subtheme = c.subtheme""")
        con.execute("""create or replace table marts.label_audit as
            select venue, paper_id, 'audit-taxonomy' as taxonomy, category as label_category,
                   case when category_rank % 7 = 0 then 'Another Theme' else category end
                       as audit_category,
                   case when category_rank % 7 = 0 then 'medium' else 'high' end as audit_confidence,
                   category_rank % 7 = 0 as is_disputed
            from marts.paper_rankings""")
        _add_map_marts(con)
        if "extras" in _columns(con, "build_settings"):
            (recorded,) = con.execute("select max(extras) from marts.build_settings").fetchone()
            built = {*(recorded or "").split(","), "related"}
            con.execute("update marts.build_settings set extras = ?",
                        [",".join(p for p in EXTRAS if p in built)])
    finally:
        con.close()


def _add_map_marts(con: duckdb.DuckDBPyConnection) -> None:
    """Stand-ins of paper_map_positions (every ranked paper on its venue's map and on its
    category's, spread over the unit square by its rank, its sub-theme paper_subthemes') and
    map_trustworthiness (one row per map)."""
    con.execute("""create or replace table marts.paper_map_positions as
        with papers as (
            select r.venue, r.paper_id, r.category, r.category_rank, s.subtheme, s.subtheme_label,
                   row_number() over (partition by r.venue order by r.category, r.category_rank) as position
            from marts.paper_rankings r
            left join marts.paper_subthemes s using (venue, paper_id)
        )
        select venue, 'stand-in' as taxonomy, null::varchar as map_category, paper_id,
               (position * 37 % 101) / 100.0 as x, (position * 61 % 101) / 100.0 as y,
               category, subtheme, subtheme_label
        from papers
        union all
        select venue, 'stand-in', category, paper_id,
               (category_rank * 37 % 211) / 210.0, (category_rank * 53 % 199) / 198.0,
               category, subtheme, subtheme_label
        from papers""")
    con.execute("""create or replace table marts.map_trustworthiness as
        select venue, 'stand-in' as taxonomy, map_category, count(*) as papers,
               0.93 as trustworthiness, 0.1 as seconds
        from marts.paper_map_positions group by all""")
