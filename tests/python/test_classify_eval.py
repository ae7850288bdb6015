"""`paperrank classify eval`: agreement between warehouse labels and a file or another set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import duckdb
import pytest
from fake_llm_server import seed_papers
from project import Project

from paperrank.classify.evaluate import warehouse_labels
from paperrank.cli import run as paperrank
from paperrank.core.loads import Batch, write_batch
from paperrank.core.warehouse import connect

pytestmark = pytest.mark.e2e  # runs the label models with dbt

# dbt runs in this process (`Project.dbt_in_process`), on the worker's one parse of the project:
# the warehouse file is named as the library's are, so that parse serves it
WAREHOUSE = "warehouse.duckdb"

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def write_labels(model: str, labels: dict[str, str], at: datetime = T0) -> None:
    con = connect()
    try:
        write_batch(con, Batch(kind="test", source="tests", snapshot_at=at, labels=[
            {"paper_id": p, "taxonomy": "icml2026", "category": c, "confidence": "high",
             "rationale": "r", "model": model, "prompt_hash": "h", "source": "tests",
             "labeled_at": at} for p, c in labels.items()]))
    finally:
        con.close()


def evaluate(capsys, *argv: str) -> tuple[int, str, str]:
    code = paperrank(["classify", "eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def warehouse(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERRANK_DB", str(tmp_path / WAREHOUSE))
    seed_papers([
        {"paper_id": "a", "title": "A", "abstract": "x", "primary_area": "optimization"},
        {"paper_id": "b", "title": "B", "abstract": "x", "primary_area": "optimization"},
        {"paper_id": "c", "title": "C", "abstract": "x", "primary_area": "robotics"},
        {"paper_id": "d", "title": "D", "abstract": "x", "primary_area": "robotics"},
    ])
    # model m1: a,b AI Systems; c,d Physical AI
    write_labels("m1", {"a": "AI Systems", "b": "AI Systems", "c": "Physical AI",
                        "d": "Physical AI"})
    # eval reads the labels through the staging view dbt ranks with
    Project(tmp_path / WAREHOUSE, tmp_path).dbt_in_process("run", "-s", "stg_raw__paper_labels")
    return tmp_path


def test_eval_against_a_file_with_peer_aliases(warehouse, capsys):
    path = warehouse / "peer.csv"
    path.write_text("openreview_id,llm_category,llm_confidence,llm_reasoning\n"
                    "a,AI Systems,high,r\nb,Other,high,r\nc,physical ai,high,r\n"
                    "d,Physical AI,low,r\nzz,Other,high,r\n")
    code, out, err = evaluate(capsys, "--taxonomy", "icml2026", "--against", str(path),
                              "--output", str(warehouse / "out"))
    assert code == 0, err
    # pairs: (AIS,AIS) (AIS,Other) (PAI,PAI) (PAI,PAI): p_o = 3/4
    # rows AIS .5, PAI .5; cols AIS .25, PAI .5, Other .25: p_e = .125 + .25 = .375
    # kappa = (.75 - .375) / .625 = 0.6
    assert "accuracy: 0.7500" in out and "cohen's kappa: 0.6000" in out
    assert "papers in both: 4  only warehouse: 0  only against: 1" in out
    assert "optimization" in out and "robotics" in out
    matrix = (warehouse / "out" / "confusion.csv").read_text()
    assert "AI Systems" in matrix and "Other" in matrix
    assert (warehouse / "out" / "crosstab.csv").exists()


def test_eval_against_a_label_set_in_the_warehouse(warehouse, capsys):
    # a later label set; by default it would be "latest", but it is the one compared against
    write_labels("m2", {"a": "AI Systems", "b": "AI Systems", "c": "Physical AI",
                        "d": "Other"}, at=T0 + timedelta(days=1))
    code, out, _ = evaluate(capsys, "--taxonomy", "icml2026", "--against", "m2")
    assert code == 0
    assert "warehouse: labels of m1" in out and "accuracy: 0.7500" in out
    code, out, _ = evaluate(capsys, "--taxonomy", "icml2026", "--against", "m1",
                            "--model", "m2")
    assert "warehouse: labels of m2" in out
    code, out, _ = evaluate(capsys, "--taxonomy", "icml2026", "--against", "m1",
                            "--model", "m1")
    assert "accuracy: 1.0000" in out and "cohen's kappa: 1.0000" in out


def test_eval_errors_are_one_line(warehouse, capsys):
    code, _, err = evaluate(capsys, "--taxonomy", "icml2026", "--against", "nobody")
    assert code == 2 and "label sets: m1 (4)" in err
    code, _, err = evaluate(capsys, "--taxonomy", "iclr2026", "--against", "m1")
    assert code == 2 and err.count("\n") == 1


def test_eval_and_dbt_pick_the_same_latest_label(tmp_path, monkeypatch):
    """Labels of two models answered at the same moment and loaded together: the tie is
    broken once (stg_raw__paper_labels.label_recency); eval and the ranking agree on it."""
    db = tmp_path / WAREHOUSE
    monkeypatch.setenv("PAPERRANK_DB", str(db))
    ids = [f"p{i}" for i in range(12)]
    seed_papers([{"paper_id": p, "title": p, "abstract": "x"} for p in ids])
    con = connect()
    try:
        write_batch(con, Batch(kind="test", source="tests", snapshot_at=T0, labels=[
            {"paper_id": p, "taxonomy": "icml2026", "category": category, "confidence": "high",
             "rationale": "r", "model": model, "prompt_hash": "h", "source": "tests",
             "labeled_at": T0}
            for p in ids for model, category in (("m1", "AI Systems"), ("m2", "Physical AI"))]))
    finally:
        con.close()
    project = Project(db, tmp_path)
    project.dbt_in_process("run", "-s", "stg_raw__paper_labels", dbt_vars='{"taxonomy": "icml2026"}')
    # the ranking's latest label, read through dbt (the model is a CTE of its readers)
    shown = project.dbt_in_process(
        "show", "--inline", "select paper_id, label_model from {{ ref('int_paper_labels_deduplicated') }}",
        "--limit", "-1", dbt_vars='{"taxonomy": "icml2026"}').results[0].agate_table
    ranked_with = {row["paper_id"]: row["label_model"] for row in shown}
    con = duckdb.connect(str(db), read_only=True)
    try:
        evaluated = warehouse_labels(con, "icml2026")
    finally:
        con.close()
    assert dict(zip(evaluated["paper_id"], evaluated["model"], strict=True)) == ranked_with
    assert set(ranked_with) == set(ids) and set(ranked_with.values()) == {"m1", "m2"}
