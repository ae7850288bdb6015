"""The pipeline's back half in one process: checks, dbt build, audit, then the publish door."""
