"""`python -m paperrank.engines <command>`: what differs between the DuckDB and Spark builds."""

import sys

from paperrank.core.dispatch import dispatch

COMMANDS = {
    "spark-raw": ("paperrank.engines.spark_raw",
                  "export the DuckDB raw layer to Parquet and register it as Spark tables"),
}

if __name__ == "__main__":
    sys.exit(dispatch("python -m paperrank.engines", __doc__, COMMANDS))
