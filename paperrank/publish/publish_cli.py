"""`paperrank publications`: the kept publications, in publication order.

The history is what `make rollback` walks back (`paperrank.publish.versions.history`); kept
builds that a rollback withdrew are listed after it, marked.  Only well-formed publications
are versions: a stray file in the versions folder (a `.duckdb.wal`, a copy) is not one.
"""

from __future__ import annotations

import click
import duckdb

from paperrank.core.warehouse import one_row
from paperrank.publish import publish, versions


@click.command("publications", help=__doc__)
def command() -> None:
    published = publish.require_published(publish.published_path())
    active = versions.current(published)
    order = versions.history(published)
    kept = {p.name: p for p in versions.listing(published)}
    withdrawn = sorted(set(kept) - set(order))
    for name in [*order, *withdrawn]:
        version = kept[name]
        try:
            con = duckdb.connect(str(version), read_only=True)
            try:
                row = one_row(con, "select min(build_id), min(built_at), min(taxonomy), min(top_n), "
                              "min(weight_set) from marts.build_settings")
            finally:
                con.close()
            detail = (f"build {row[0]}  built {row[1]}  taxonomy={row[2]} top_n={row[3]} "
                      f"weight_set={row[4]}")
        except duckdb.Error as error:
            detail = f"unreadable: {str(error).splitlines()[0][:120]}"
        mark = "*" if version == active else " "
        note = "  (withdrawn by a rollback)" if name in withdrawn else ""
        print(f"{mark} {name}  {detail}{note}")
    print(f"(* = what {published} shows; `make rollback` goes back one in this order)")
