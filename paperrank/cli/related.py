"""Compute related papers, sub-themes and the label audit of each venue (what is stale only).

\b
Examples:
  paperrank related                                 # every venue, taxonomy from dbt_project.yml
  paperrank related --venue "ICLR 2026" --taxonomy iclr2026
  paperrank related --related-papers 10             # keep 10 related papers per paper

Reads the raw layer of the working warehouse (PAPERRANK_DB) and writes the `derived` schema,
which dbt reads (docs/related-papers.md).  Results are kept with the hashes of their inputs:
a venue whose texts (and labels) did not change is not computed again.  `paperrank rank` runs
this before the build, with the build's settings.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.core.errors import PaperrankError
from paperrank.core.warehouse import db_path
from paperrank.pipeline.settings import NUMBERS, check_text


def _text(name: str, value: str | None) -> str | None:
    if value in (None, ""):
        return None
    try:
        return check_text(name, value)
    except ValueError as error:
        raise PaperrankError(f"--{name.replace('_', '-')} {error}") from None


@click.command("related", help=__doc__)
@click.option("--venue", default="", help="this venue only (default: every venue with accepted papers)")
@click.option("--taxonomy", default="",
              help=f"taxonomy whose labels the sub-themes and the audit use (default: dbt_project.yml's, "
                   f"{config.DEFAULT_TAXONOMY})")
@click.option("--label-model", default="", help="labels of this model only (default: the latest of any model)")
@click.option("--related-papers", default=None,
              help=f"{NUMBERS['related_papers'].help}: {NUMBERS['related_papers'].allowed()} "
                   "(default: dbt_project.yml)")
@click.option("--db", type=click.Path(path_type=Path), help="warehouse file (default: PAPERRANK_DB)")
def command(venue: str, taxonomy: str, label_model: str, related_papers: str | None, db: Path | None) -> None:
    from paperrank.core.taxonomy import load_taxonomy
    from paperrank.related.refresh import refresh

    k = None
    if related_papers not in (None, ""):
        try:
            k = int(NUMBERS["related_papers"].parse("related_papers", related_papers))
        except ValueError as error:
            raise PaperrankError(f"--related-papers: {error}") from None
    chosen_taxonomy = _text("taxonomy", taxonomy)
    if chosen_taxonomy is not None:
        load_taxonomy(chosen_taxonomy)  # an unknown taxonomy: one line naming the known ones
    target = db or db_path()
    if not target.exists():
        raise PaperrankError(f"no working warehouse at {target}; load data first (paperrank ingest ...)")
    refresh(target, _text("venue", venue), taxonomy=chosen_taxonomy,
            label_model=_text("label_model", label_model), related_papers=k)
