"""Quality gates for the warehouse: great-expectations suites run on the raw layer before
`dbt build` and on the marts after it, so bad data stops the job before analysts see a ranking.

`python -m paperrank.quality validate --stage raw|marts|all` is the entry point (see `paperrank.quality.validate`).
"""
