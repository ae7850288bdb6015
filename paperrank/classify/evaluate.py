"""Agreement between the warehouse's labels and another label set.

The warehouse side is the latest label per paper of the taxonomy, read from the labels dbt ranks
with (staging.stg_raw__paper_labels); the other side is a label file or a label set already in the
warehouse. `evaluate_and_write` computes the confusion matrix, accuracy, Cohen's kappa and the
cross-tab against the papers' primary areas; `paperrank classify eval` (paperrank/cli/classify.py)
is its command, whose help gives the examples.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import duckdb
import pandas as pd

from paperrank.core.errors import PaperrankError
from paperrank.core.taxonomy import load_taxonomy
from paperrank.core.warehouse import connect


# -- metrics --------------------------------------------------------------------------------
def confusion_matrix(left: pd.Series, right: pd.Series, order: list[str]) -> pd.DataFrame:
    """Counts of (left, right) pairs; rows are left categories, columns right ones, both in
    `order` followed by any category missing from it (so no label is silently dropped)."""
    seen = list(dict.fromkeys([*left.tolist(), *right.tolist()]))
    labels = [c for c in order if c in seen] + sorted(c for c in seen if c not in order)
    matrix = pd.DataFrame(0, index=labels, columns=labels, dtype="int64")
    for a, b in zip(left.tolist(), right.tolist(), strict=True):
        matrix.loc[a, b] += 1
    return matrix


def accuracy(matrix: pd.DataFrame) -> float:
    total = int(matrix.to_numpy().sum())
    if total == 0:
        return math.nan
    return float(sum(matrix.loc[c, c] for c in matrix.index)) / total


def cohens_kappa(matrix: pd.DataFrame) -> float:
    """(p_o - p_e) / (1 - p_e) with p_e from the row and column marginals; NaN when undefined
    (no pairs, or both sets use one and the same single category)."""
    total = float(matrix.to_numpy().sum())
    if total == 0:
        return math.nan
    observed = sum(float(matrix.loc[c, c]) for c in matrix.index) / total
    rows = matrix.sum(axis=1) / total
    cols = matrix.sum(axis=0) / total
    expected = sum(float(rows[c]) * float(cols[c]) for c in matrix.index)
    if math.isclose(expected, 1.0):
        return math.nan
    return (observed - expected) / (1.0 - expected)


# -- label sets -----------------------------------------------------------------------------
def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(text).lower())


def canonical_categories(values: pd.Series, categories: list[str]) -> pd.Series:
    by_squash = {_squash(c): c for c in categories}
    return values.map(lambda v: by_squash.get(_squash(v), str(v)))


LABELS_VIEW = "staging.stg_raw__paper_labels"


def warehouse_labels(con, taxonomy: str, model: str | None = None,
                     exclude_model: str | None = None) -> pd.DataFrame:
    """Latest label per paper of the taxonomy (optionally of one model, or not of another).

    Read from the staging view dbt ranks with, by its `label_recency` (the one rule for
    "latest", which int_paper_labels_deduplicated applies too), never re-derived here.
    """
    try:
        return con.execute(
            f"""
            select paper_id, category, label_confidence as confidence, label_model as model,
                   label_prompt_hash as prompt_hash
            from {LABELS_VIEW}
            where taxonomy = $taxonomy
              and ($model is null or label_model = $model)
              and ($exclude is null or label_model <> $exclude)
            qualify row_number() over (partition by paper_id order by label_recency) = 1
            order by paper_id
            """,
            {"taxonomy": taxonomy, "model": model, "exclude": exclude_model},
        ).df()
    except duckdb.CatalogException:
        raise PaperrankError(
            f"{LABELS_VIEW} is missing: eval reads the labels dbt ranks with; run `make build` "
            "(or `dbt run -s stg_raw__paper_labels`) on this warehouse first") from None


def label_sets(con, taxonomy: str) -> list[tuple[str, int]]:
    return [
        (m, n) for m, n in con.execute(
            "select model, count(distinct paper_id) from raw.paper_labels where taxonomy = ? "
            "group by model order by model", [taxonomy]).fetchall()
    ]


def load_against(con, taxonomy: str, against: str) -> tuple[pd.DataFrame, str, str | None]:
    """The other label set: (labels, description, model name if it came from the warehouse)."""
    path = Path(against)
    if path.is_file():
        from paperrank.ingest.labels import read_label_file

        frame = read_label_file(path)
        frame = frame.dropna(subset=["paper_id", "category"])
        frame["paper_id"] = frame["paper_id"].astype(str)
        frame = frame.drop_duplicates(subset=["paper_id"], keep="last")
        return frame[["paper_id", "category"]], f"file {path}", None
    frame = warehouse_labels(con, taxonomy, model=against)
    if frame.empty:
        sets = ", ".join(f"{m} ({n})" for m, n in label_sets(con, taxonomy)) or "none"
        raise PaperrankError(f"{against!r} is neither a file nor a label set of taxonomy {taxonomy} "
                         f"in the warehouse; label sets: {sets}")
    return frame[["paper_id", "category"]], f"label set {against}", against


# -- command --------------------------------------------------------------------------------
def evaluate(con, taxonomy_name: str, against: str, model: str | None = None) -> dict:
    taxonomy = load_taxonomy(taxonomy_name)
    order = [c.name for c in taxonomy.categories]
    right, right_name, right_model = load_against(con, taxonomy_name, against)
    left = warehouse_labels(con, taxonomy_name, model=model,
                            exclude_model=None if model else right_model)
    if left.empty:
        sets = ", ".join(f"{m} ({n})" for m, n in label_sets(con, taxonomy_name)) or "none"
        raise PaperrankError(f"no warehouse labels for taxonomy {taxonomy_name}"
                         + (f" and model {model}" if model else "") + f"; label sets: {sets}")
    right = right.assign(category=canonical_categories(right["category"], order))
    pairs = left.merge(right, on="paper_id", suffixes=("_warehouse", "_against"))
    if pairs.empty:
        raise PaperrankError("the two label sets share no paper")
    matrix = confusion_matrix(pairs["category_warehouse"], pairs["category_against"], order)
    matrix.index.name = "warehouse \\ against"
    areas = con.execute("select paper_id, primary_area from raw.papers").df()
    with_area = left.merge(areas, on="paper_id", how="left")
    with_area["primary_area"] = with_area["primary_area"].fillna("(unknown)")
    crosstab = pd.crosstab(with_area["primary_area"], with_area["category"])
    crosstab = crosstab[[c for c in order if c in crosstab.columns]
                        + sorted(c for c in crosstab.columns if c not in order)]
    crosstab["total"] = crosstab.sum(axis=1)
    crosstab = crosstab.sort_values("total", ascending=False)
    models = ", ".join(sorted(left["model"].unique()))
    return {
        "warehouse": f"labels of {models}", "against": right_name,
        "n_warehouse": len(left), "n_against": len(right), "n_common": len(pairs),
        "only_warehouse": len(set(left["paper_id"]) - set(right["paper_id"])),
        "only_against": len(set(right["paper_id"]) - set(left["paper_id"])),
        "confusion": matrix, "accuracy": accuracy(matrix), "kappa": cohens_kappa(matrix),
        "crosstab": crosstab,
    }


def render(result: dict) -> str:
    width = 1000
    lines = [
        f"warehouse: {result['warehouse']} ({result['n_warehouse']} papers)",
        f"against:   {result['against']} ({result['n_against']} papers)",
        f"papers in both: {result['n_common']}  only warehouse: {result['only_warehouse']}  "
        f"only against: {result['only_against']}",
        "",
        "confusion matrix (rows: warehouse, columns: against)",
        result["confusion"].to_string(line_width=width),
        "",
        f"accuracy: {result['accuracy']:.4f}",
        f"cohen's kappa: {result['kappa']:.4f}",
        "",
        "warehouse categories by primary area",
        result["crosstab"].to_string(line_width=width),
    ]
    return "\n".join(lines)


def evaluate_and_write(taxonomy: str, against: str, model: str | None, output: Path | None) -> None:
    """Compare the warehouse's labels with `against`, print the agreement and, with `output`,
    write confusion.csv, crosstab.csv and metrics.csv there."""
    con = connect(read_only=True)
    try:
        result = evaluate(con, taxonomy, against, model)
    finally:
        con.close()
    print(render(result))
    if output:
        output.mkdir(parents=True, exist_ok=True)
        result["confusion"].to_csv(output / "confusion.csv")
        result["crosstab"].to_csv(output / "crosstab.csv")
        pd.DataFrame([{k: result[k] for k in ("warehouse", "against", "n_warehouse", "n_against",
                                               "n_common", "accuracy", "kappa")}]).to_csv(
            output / "metrics.csv", index=False)
        print(f"wrote {output}")
