"""`paperrank publications`: the kept publications, and each venue's published builds.

One publication holds every venue's latest build at the time it was made; the list shows, for
each kept publication (oldest first), the venues it holds and their builds' settings, and marks
the one the published warehouse shows. Then, per venue, the builds `make rollback VENUE=...` walks
back, newest last. Only well-formed publications are versions: a stray file in the versions folder
(a `.duckdb.wal`, a copy) is not one.
"""

from __future__ import annotations

import click
import duckdb

from paperrank.publish import publish, venue_history, versions


@click.command("publications", help=__doc__)
def command() -> None:
    published = publish.require_published(publish.published_path())
    active = versions.current(published)
    for version in versions.listing(published):
        try:
            con = duckdb.connect(str(version), read_only=True)
            try:
                builds = con.execute(
                    "select venue, min(build_id), min(built_at), min(taxonomy), min(top_n), min(weight_set) "
                    "from marts.build_settings group by venue order by venue").fetchall()
            finally:
                con.close()
            detail = "; ".join(f"{venue}: build {build} built {built} taxonomy={taxonomy} top_n={top_n} "
                               f"weight_set={weights}"
                               for venue, build, built, taxonomy, top_n, weights in builds)
        except duckdb.Error as error:
            detail = f"unreadable: {str(error).splitlines()[0][:120]}"
        mark = "*" if version == active else " "
        print(f"{mark} {version.name}  {detail}")
    print(f"(* = what {published} shows)")
    history = venue_history.builds(published)
    if history:
        print("each venue's published builds, newest last (`make rollback VENUE=...` goes back one):")
    for venue, published_builds in history.items():
        print(f"  {venue}: {', '.join(published_builds)}")
