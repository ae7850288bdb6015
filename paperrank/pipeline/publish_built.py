"""Audit what `make build` left in the working warehouse and deliver it (`paperrank publish`).

For an operator who ran dbt by hand: the raw checks, the marts-agree rules (dbt's singular tests
tagged marts_agree, tests/singular/) and the mart checks run first, and nothing is published
unless all pass. The build must hold exactly the extras asked for (marts.build_settings.extras),
and only the ranking's and those extras' marts are audited and published. The published
warehouse alone: the CSVs and the page are `paperrank export` and `paperrank report`.
"""

from __future__ import annotations

from pathlib import Path

from paperrank.core import build_parts
from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.steps import Steps
from paperrank.core.warehouse import db_path
from paperrank.core.warehouse_locks import check_writable
from paperrank.engines import dbt_target
from paperrank.pipeline.dbt import Dbt, DbtFailed
from paperrank.pipeline.gates import Gates
from paperrank.pipeline.settings import Settings
from paperrank.publish.delivery import Published, deliver


def publish_built(chosen: Settings, log: Path) -> Published:
    """Check the working warehouse's build of `chosen`'s extras and publish it: the publish
    door refuses a build of other extras before the first check runs."""
    working = db_path()
    if not working.exists():
        raise PaperrankError(f"no working warehouse at {working}; load data and run make build first")
    check_writable(working)
    log.parent.mkdir(parents=True, exist_ok=True)
    dbt = Dbt(chosen.dbt_vars(), target=dbt_target(chosen.engine))
    extras = chosen.extras
    gates: Gates | None = None

    def raw() -> None:
        nonlocal gates
        # started by the first check, so a build the door refuses reads no table
        gates = Gates(chosen, log)
        gates.raw()

    def marts() -> None:
        assert gates is not None
        gates.start_marts()  # the worker fingerprints the raw layer again, then checks the marts
        gates.marts_verdict()

    try:
        return deliver(working, engine=chosen.engine, extras=extras, steps=Steps(4), audit=[
            ("raw checks", raw), ("marts agree", lambda: agree(dbt, extras)),
            ("mart checks", marts)])
    finally:
        if gates is not None:
            gates.stop()


def agree(dbt: Dbt, extras: tuple[str, ...]) -> None:
    """The marts-agree rules of the ranking and `extras` on the working warehouse: `make rank`
    runs them inside dbt build, a warehouse built by hand may have been built partly, or
    killed between two marts."""
    try:
        dbt.invoke("test", *build_parts.test_selection(extras, "tag:marts_agree"))
    except DbtFailed as failed:
        raise CheckFailed(f"the marts disagree, nothing was published ({failed})") from failed
