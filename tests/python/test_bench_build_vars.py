"""bench.build_vars: a benchmark reruns models under the settings the warehouse was built with."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from bench.build_vars import recorded_vars


def warehouse(folder: Path, rows: list[tuple[object, ...]]) -> Path:
    db = folder / "built.duckdb"
    con = duckdb.connect(str(db))
    con.execute("create schema marts")
    con.execute("create table marts.build_settings (venue varchar, taxonomy varchar, "
                "weight_set varchar, top_n integer, label_model varchar, seed bigint)")
    for row in rows:
        con.execute("insert into marts.build_settings values (?, ?, ?, ?, ?, ?)", row)
    con.close()
    return db


def test_the_recorded_settings_become_the_vars(tmp_path: Path) -> None:
    db = warehouse(tmp_path, [("ICLR 2018", "icml2026", "rating_confidence", 10, None, 7)])
    assert json.loads(recorded_vars(db)) == {
        "venue": "ICLR 2018", "taxonomy": "icml2026", "weight_set": "rating_confidence",
        "top_n": 10}


def test_a_warehouse_without_one_build_is_refused(tmp_path: Path) -> None:
    db = warehouse(tmp_path, [])
    with pytest.raises(ValueError, match="holds 0 rows"):
        recorded_vars(db)
    con = duckdb.connect(str(db))
    con.execute("drop table marts.build_settings")
    con.close()
    with pytest.raises(ValueError, match="no marts.build_settings"):
        recorded_vars(db)
