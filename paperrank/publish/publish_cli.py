"""`paperrank publications`: list the kept publications and which one analysts see."""

from __future__ import annotations

import click
import duckdb

from paperrank.publish import publish, versions


@click.command("publications", help=__doc__)
def command() -> None:
    published = publish.require_published(publish.published_path())
    active = versions.current(published)
    for version in versions.listing(published):
        con = duckdb.connect(str(version), read_only=True)
        try:
            row = con.execute("select min(build_id), min(built_at), min(taxonomy), min(top_n), "
                              "min(weight_set) from marts.build_settings").fetchall()[0]
        finally:
            con.close()
        mark = "*" if version == active else " "
        print(f"{mark} {version.name}  build {row[0]}  built {row[1]}  taxonomy={row[2]} "
              f"top_n={row[3]} weight_set={row[4]}")
    print(f"(* = what {published} shows; `make rollback` goes back one)")
