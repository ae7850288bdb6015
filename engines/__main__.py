"""`python -m engines <command>`: what differs between the DuckDB and Spark builds."""

import sys

from ingest.cli import dispatch

COMMANDS = {
    "spark-raw": ("engines.spark_raw",
                  "export the DuckDB raw layer to Parquet and register it as Spark tables"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m engines", __doc__, COMMANDS))
