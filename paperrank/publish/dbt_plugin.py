"""dbt-duckdb plugin (profiles.yml): the SQL function behind ops' export operation.

`paperrank_export_categories(out_dir, venue, bom)` runs `paperrank.publish.category_csvs.export`
on the published warehouse (PAPERRANK_PUBLISHED_DB) inside the dbt process, so
`dbt run-operation export_category_csvs` writes exactly what `make export` writes, with the same
manifest, swap and spreadsheet safety; the pipeline calls the Python function directly, without
dbt.
"""

from __future__ import annotations

from pathlib import Path

from dbt.adapters.duckdb.plugins import BasePlugin
from duckdb import DuckDBPyConnection
from duckdb.sqltypes import BOOLEAN, VARCHAR


def export_categories(out_dir: str, venue: str, bom: bool) -> str:
    """The export, for the SQL function: an empty venue means the only one ranked."""
    from paperrank.core import config
    from paperrank.publish.category_csvs import export

    return export(config.published_db(), Path(out_dir), venue or None, bool(bom))


class Plugin(BasePlugin):
    def configure_connection(self, conn: DuckDBPyConnection) -> None:
        conn.create_function("paperrank_export_categories", export_categories,
                             [VARCHAR, VARCHAR, BOOLEAN], VARCHAR, side_effects=True)
