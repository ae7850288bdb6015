"""`paperrank picks import FILE...`: take the experts' downloads from the report page into
`seeds/expert_selections.csv`; `make rank` (or dbt seed + dbt build) then checks them in
marts.expert_picks and the report shows them."""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core.errors import CheckFailed
from paperrank.core.seeds import SEEDS
from paperrank.core.warehouse import db_path
from paperrank.picks.merge import import_files
from paperrank.publish.publish import published_path


def default_db() -> Path:
    """The published warehouse (the one the report was made from), else the working one."""
    published = published_path()
    return published if published.exists() else db_path()


@click.group()
def picks() -> None:
    """The experts' picks: import the report page's downloads."""


@picks.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="warehouse whose ranking the picks are checked against (default: "
                   "PAPERRANK_PUBLISHED_DB or warehouse/published.duckdb when it exists, "
                   "else PAPERRANK_DB or warehouse/paperrank.duckdb)")
@click.option("--seed", type=click.Path(dir_okay=False, path_type=Path),
              default=SEEDS / "expert_selections.csv",
              show_default="seeds/expert_selections.csv of the project",
              help="the seed to merge into")
def import_picks(files: tuple[Path, ...], db: Path | None, seed: Path) -> None:
    """Merge one or more picks files (paper_id,category,selected_by,note) into the seed.

    Each expert's file replaces that expert's earlier picks for the categories it covers;
    importing the same file twice changes nothing. A row that cannot be taken is listed with
    its file, line and reason (exit 1); the file's other rows are taken all the same.
    """
    outcome = import_files(list(files), db or default_db(), seed)
    for rejected in outcome.rejected:
        click.echo(f"not taken: {rejected}", err=True)
    state = "updated" if outcome.changed else "unchanged"
    click.echo(f"picks taken: {outcome.taken}; not taken: {len(outcome.rejected)}; "
               f"{seed} {state} ({outcome.picks} picks); run `make rank` to check them")
    if outcome.rejected:
        raise CheckFailed(f"picks import: {len(outcome.rejected)} rows not taken (listed above); "
                          f"the other {outcome.taken} are in {seed}")
