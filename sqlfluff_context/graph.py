"""dbt's `graph` as sqlfluff's jinja templater sees it (`.sqlfluff` library_path).

marts.build_marts lists the build's marts from dbt's graph (macros/parts/built_extras.sql
reads it too); without one the linter could not render it. Two marts of two parts stand in
for the project's, so the linter checks the SQL a build with extras compiles.
"""

nodes = {
    f"model.paperrank.{alias}": {
        "unique_id": f"model.paperrank.{alias}", "resource_type": "model", "alias": alias,
        "tags": [part], "config": {"schema": "marts"},
    }
    for alias, part in (("paper_rankings", "ranking"), ("paper_rank_uncertainty", "uncertainty"))
}
