"""The rank-set query, rendered by dbt from the project's macros and run on DuckDB.

`dbt compile --inline` renders macros/rank_sets/rank_sets_query.sql with the `published`
target (an in-memory DuckDB: no warehouse file is opened), so the command runs exactly the SQL
the models run. The options reach the macro as literal numbers, checked again there.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from paperrank.core.errors import PaperrankError

REPO = Path(__file__).resolve().parents[2]
INPUT = "rank_set_input"


def compiled_query(options: dict[str, float | int | None]) -> str:
    """The SQL of rank_sets_query over the relation `rank_set_input`."""
    return compiled_queries([options])[0]


def compiled_queries(many: list[dict[str, float | int | None]]) -> list[str]:
    """The SQL for each set of options, from one parse of the project (parsing costs seconds)."""
    from dbt.cli.main import dbtRunner

    with tempfile.TemporaryDirectory(prefix="paperrank-rank-sets-") as scratch:
        common = ["--project-dir", str(REPO), "--profiles-dir", str(REPO), "--target", "published",
                  "--quiet", "--no-write-json", "--no-use-colors",
                  "--target-path", str(Path(scratch) / "target"),
                  "--log-path", str(Path(scratch) / "logs")]
        with contextlib.redirect_stdout(io.StringIO()):
            parsed = dbtRunner().invoke(["parse", *common])
        _raise_for(parsed)
        manifest: Any = parsed.result
        runner = dbtRunner(manifest=manifest)
        queries = []
        for options in many:
            given = {name: value for name, value in options.items() if value is not None}
            inline = f"{{{{ rank_sets_query('{INPUT}', {json.dumps(given)}) }}}}"
            with contextlib.redirect_stdout(io.StringIO()):
                result = runner.invoke(["compile", "--inline", inline, *common])
            _raise_for(result)
            compiled: Any = result.result
            queries.append(str(compiled.results[0].node.compiled_code))
    return queries


def _raise_for(result: Any) -> None:
    """dbt's failure as one line (a compiler error names the setting that is wrong)."""
    if not result.success or result.result is None:
        lines = str(result.exception).strip().splitlines() if result.exception else ["dbt failed"]
        raise PaperrankError(f"rank-sets: {lines[-1].strip()}")


def run_query(sql: str, estimates: pd.DataFrame, threads: int = 2) -> pd.DataFrame:
    """Run the compiled query over the estimates in a private in-memory DuckDB."""
    con = duckdb.connect(":memory:", config={"threads": threads})
    try:
        con.register(INPUT, estimates)
        return con.execute(sql).df()
    finally:
        con.close()
