"""The kept publications, and each venue's published builds, as lines to print.

One publication holds every venue's latest build at the time it was made; the listing shows,
for each kept publication (oldest first), the venues it holds and their builds' settings, and
marks the one the published warehouse shows. Then, per venue, the builds a rollback walks back,
newest last. Only well-formed publications are versions: a stray file in the versions folder
(a `.duckdb.wal`, a copy) is not one.
"""

from __future__ import annotations

import duckdb

from paperrank.publish import publication, venue_history, versions


def listing() -> list[str]:
    """The lines of `paperrank publications` for the published warehouse."""
    published = publication.require_published(publication.published_path())
    active = versions.current(published)
    lines = []
    for version in versions.listing(published):
        mark = "*" if version == active else " "
        lines.append(f"{mark} {version.name}  {_builds(version)}")
    lines.append(f"(* = what {published} shows)")
    history = venue_history.builds(published)
    if history:
        lines.append("each venue's published builds, newest last "
                     "(`make rollback VENUE=...` goes back one):")
    lines += [f"  {venue}: {', '.join(builds)}" for venue, builds in history.items()]
    return lines


def _builds(version: object) -> str:
    """Each venue's build in one publication, with its settings."""
    try:
        con = duckdb.connect(str(version), read_only=True)
        try:
            builds = con.execute(
                "select venue, min(build_id), min(built_at), min(taxonomy), min(top_n), "
                "min(weight_set) from marts.build_settings group by venue order by venue").fetchall()
        finally:
            con.close()
    except duckdb.Error as error:
        return f"unreadable: {str(error).splitlines()[0][:120]}"
    return "; ".join(f"{venue}: build {build} built {built} taxonomy={taxonomy} top_n={top_n} "
                     f"weight_set={weights}"
                     for venue, build, built, taxonomy, top_n, weights in builds)
