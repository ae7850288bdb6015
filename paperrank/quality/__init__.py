"""Quality gates for the warehouse: great-expectations suites run on the raw layer before
`dbt build` and on the marts after it, so bad data stops the job before analysts see a ranking.

`paperrank validate --stage raw|marts|all` runs them (`paperrank.quality.validate`). The stages
and the Data Docs folder are named here, where the command layer reads them without importing
great-expectations.
"""

from pathlib import Path

DEFAULT_DOCS = Path("output") / "quality" / "data_docs"
STAGES = {"raw": ["raw"], "marts": ["marts"], "all": ["raw", "marts"]}
