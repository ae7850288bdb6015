"""`paperrank publications`: the kept publications, and each venue's published builds.

One publication holds every venue's latest build at the time it was made; the list shows, for
each kept publication (oldest first), the venues it holds and their builds' settings, and marks
the one the published warehouse shows. Then, per venue, the builds `make rollback VENUE=...` walks
back, newest last. Only well-formed publications are versions: a stray file in the versions folder
(a `.duckdb.wal`, a copy) is not one.
"""

from __future__ import annotations

import click

from paperrank.publish.publications import listing


@click.command("publications", help=__doc__)
def command() -> None:
    for line in listing():
        print(line)
