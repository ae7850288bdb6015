"""dbt's `target` as sqlfluff's jinja templater sees it (`.sqlfluff` library_path).

The linter checks the DuckDB SQL, as dbt-duckdb runs it (adapter.py), so a model's
`target.type` choice (a view on DuckDB, a table on Spark) renders its DuckDB branch.
"""

type = "duckdb"
name = "dev"
