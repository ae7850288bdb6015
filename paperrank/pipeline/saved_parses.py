"""dbt's saved parse, kept once per warehouse file, so that switching venues parses nothing.

dbt keeps one saved parse (target/partial_parse.msgpack) and reuses it only for the profile
connection it was made with, the warehouse file's path included. An operator who ranks one venue
in `warehouse/iclr2026.duckdb`, then another in `warehouse/iclr2018.duckdb`, then the first
again, would have dbt parse the whole project at every switch with no file changed (its seconds:
docs/architecture.md, "Speed machinery"). So each parse the pipeline makes is also kept under
the warehouse it was made for (`target/partial_parses/`), and the next parse for that warehouse
starts from it (dbt's `--partial-parse-file-path`; dbt still writes its result to
partial_parse.msgpack).

dbt checks a saved parse itself (the project's files, the profile, the vars, its own version)
before it uses one, so a kept parse that no longer fits is parsed over, never trusted: the worst
a kept parse can cost is the full parse that would have happened anyway.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from paperrank.core import config

SAVED = "partial_parse.msgpack"  # where dbt writes its saved parse in the target folder
KEPT = "partial_parses"  # the folder beside it that holds one per warehouse


def arguments(target: str) -> list[str]:
    """dbt's arguments that start a parse on `target` from the parse kept for this warehouse
    (none when there is none yet)."""
    kept = _kept(target)
    return ["--partial-parse-file-path", str(kept)] if kept.is_file() else []


def saved_stamp() -> int | None:
    """When dbt last wrote its saved parse in the target folder (None: never): taken before a
    parse, so that `keep` can tell whether that parse wrote one."""
    saved = config.dbt_target_path() / SAVED
    return saved.stat().st_mtime_ns if saved.is_file() else None


def keep(target: str, before: int | None) -> None:
    """Keep the parse dbt has just saved as this warehouse's (written whole, then renamed, so
    a parse started meanwhile reads the old one or the new one, never half of one).

    Only when the parse wrote one (`before`: `saved_stamp()` taken before it): a parse that
    found nothing changed writes nothing, and the file in the target folder is then another
    warehouse's earlier parse, which would replace this warehouse's kept one."""
    saved = config.dbt_target_path() / SAVED
    if saved_stamp() in (None, before):
        return
    kept = _kept(target)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
    shutil.copyfile(saved, partial)
    os.replace(partial, kept)


def _kept(target: str) -> Path:
    """The kept parse of `target` on the warehouse in use: named by a digest of the target and
    the warehouse's absolute path (the DuckDB file, or Spark's warehouse folder), which is what
    dbt's check of the profile compares."""
    where = config.dbt_target_warehouse(target).resolve()
    digest = hashlib.sha256(f"{target}\0{where}".encode()).hexdigest()[:16]
    return config.dbt_target_path() / KEPT / f"{target}-{digest}.msgpack"
