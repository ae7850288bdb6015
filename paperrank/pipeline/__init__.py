"""The pipeline's back half in one process: checks, dbt build, audit, publish, export."""
