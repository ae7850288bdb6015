"""Run dbt in this process, so several commands on one Spark target share one Spark session.

A local Spark session (dbt-spark's `session` method) lives in the process that opened it and
takes 20-30 s to start; dbt's own programmatic runner keeps it alive between invocations.
"""

from __future__ import annotations

from paperrank.core.errors import CheckFailed


class DbtCommandFailed(CheckFailed):
    """A dbt command on the Spark target failed; dbt's own error is in the message."""


def run_dbt(args: list[str]) -> None:
    """Invoke dbt with `args`; raise with dbt's own error when the command fails."""
    from dbt.cli.main import dbtRunner  # dbt's import is slow: only when a command runs

    result = dbtRunner().invoke(args)
    if not result.success:
        detail = f": {result.exception}" if result.exception else " (see dbt's log above)"
        command = " ".join(arg for arg in args[:2] if not arg.startswith("-"))
        raise DbtCommandFailed(f"dbt {command} failed{detail}")
