"""dbt-duckdb plugin (profiles.yml): the SQL functions the export macro calls.

`paperrank_staging_folder(out_dir)` and `paperrank_finish_export(staged, out_dir, manifest,
bom)` run `paperrank.publish.export_files` inside the dbt process, so `dbt run-operation
export_category_csvs` and the pipeline share one export, swapped into place whole.
"""

from __future__ import annotations

from dbt.adapters.duckdb.plugins import BasePlugin
from duckdb import DuckDBPyConnection
from duckdb.sqltypes import BOOLEAN, VARCHAR

from paperrank.publish.export_files import finish_export, staging_folder


class Plugin(BasePlugin):
    def configure_connection(self, conn: DuckDBPyConnection) -> None:
        conn.create_function("paperrank_staging_folder", staging_folder, [VARCHAR], VARCHAR,
                             side_effects=True)
        conn.create_function("paperrank_finish_export", finish_export,
                             [VARCHAR, VARCHAR, VARCHAR, BOOLEAN], VARCHAR, side_effects=True)
