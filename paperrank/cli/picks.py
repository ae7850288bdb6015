"""`paperrank picks import FILE...`: take the experts' downloads from the report page into
`seeds/expert_selections.csv`; `make rank` (or dbt seed + dbt build) then checks them in
marts.expert_picks and the report shows them."""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.seeds import SEEDS
from paperrank.core.warehouse import db_path
from paperrank.picks.merge import DEFAULT_WAIT, import_files


def default_db() -> Path:
    """The published warehouse (the one the report was made from), else the working one."""
    published = config.published_db()
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
@click.option("--wait", type=float, default=DEFAULT_WAIT, show_default=True,
              help="seconds to wait while another import writes the seed, before giving up "
                   "(0 to 3600)")
def import_picks(files: tuple[Path, ...], db: Path | None, seed: Path, wait: float) -> None:
    """Merge one or more picks files (venue,paper_id,category,selected_by,note) into the seed.

    Each pick is filed under its venue (in a file without the venue column, the venue of its
    paper). Each expert's file replaces that expert's earlier picks for the (venue, category)
    pairs it covers; other venues' picks stay, and importing the same file twice changes
    nothing. A row that cannot be taken is listed with its file, line and reason (exit 1); the
    file's other rows are taken all the same. A file that is not a well-formed CSV (an unclosed
    quote, a row of the wrong width) is refused whole, with the line where it breaks (exit 1).
    One import writes the seed at a time; another waits for it (--wait).
    """
    if not 0 <= wait <= 3600:
        raise PaperrankError(f"--wait {wait:g} must be from 0 to 3600 seconds")
    outcome = import_files(list(files), db or default_db(), seed, wait,
                           on_wait=lambda message: click.echo(message, err=True))
    for rejected in outcome.rejected:
        click.echo(f"not taken: {rejected}", err=True)
    rows, refused = outcome.rejected_rows, outcome.refused_files
    state = "updated" if outcome.changed else "unchanged"
    files_part = f"files refused: {len(refused)}; " if refused else ""
    click.echo(f"picks taken: {outcome.taken}; not taken: {len(rows)}; {files_part}"
               f"{seed} {state} ({outcome.picks} picks); run `make rank` to check them")
    if outcome.rejected:
        failed = [f"{len(rows)} rows not taken"] if rows else []
        failed += [f"{len(refused)} files refused whole"] if refused else []
        raise CheckFailed(f"picks import: {' and '.join(failed)} (listed above); the other "
                          f"{outcome.taken} picks are in {seed}")
