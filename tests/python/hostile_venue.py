"""The hostile venue: one warehouse the experts' page tests share (test_report, test_report_workbench).

Two synthetic venues in one warehouse, loaded by the real loaders and built by dbt (seeds and
models: these tests read the marts; few replicates: the page's uncertainty is tested on ICLR
2026 and with stand-in marts):

- HOSTILE 2026 (1,500 papers, seed 2026: every ranked category larger than the top 30): every
  kind of text the page must keep as text, in the places an expert reads it. Its best Agentic
  AI paper has a hostile title (LaTeX and markup), abstract, authors and keywords, and a forum
  link with every character a .bib file or LaTeX reads as syntax; the next three have the
  titles, keywords and label rationale of `SHORTLIST_TITLES` (one with a javascript: link the
  loader would refuse, one with a low-confidence label); one paper far below every list has a
  hostile title too. A sixth of the papers are Orals.
- SECOND 2026 (90 papers, seed 7, plain): picks kept per venue, one page per venue.

Both carry the generator's true themes as labels of model "truth" (the ranked set) and the
keyword classifier's labels (the second set the classification audit compares against).
`build` makes it, once per session, as the library entry `hostile_built` (conftest.py);
`shortlisted` names the three papers of `SHORTLIST_TITLES`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import duckdb
import pandas as pd
from project import Project, few_replicates

VENUE = "HOSTILE 2026"
SECOND = "SECOND 2026"
PAPERS, SECOND_PAPERS = 1500, 90
TAXONOMY = "icml2026"
# dbt build of the seeds and models only: the page tests read marts, not the data tests' verdicts
MODELS_ONLY = ("--select", "resource_type:seed resource_type:model", "--indirect-selection", "empty")
VARS = few_replicates(taxonomy=TAXONOMY, label_model="truth")
RATIONALE = '<i>true</i> theme & "why"'  # every label's rationale but the shortlist's
CONFIDENCE = ["high", "medium", "high", "low", "high", "medium", "high"]  # cycled over the labels

# the best Agentic AI paper: top scores, every field an expert reads hostile
HOSTILE_TITLE = '<script>alert("t")</script> Huxley-G\\"odel Machine: MoE$^3$ & $\\alpha$-Nets'
HOSTILE_ABSTRACT = '</p></details><img src=x onerror=alert(1)> "quoted" & diffusionzz agents'
HOSTILE_AUTHORS = ["Zoë <b>Bold</b>", "O'Brien & Sons"]
HOSTILE_KEYWORDS = ['<img src=x onerror=alert("kw")>', "kwzz & \\input{x}", "Unbroken" + "k" * 280]
# a paper ranked far below every list, found only through the page's index of unlisted papers
LOW_TITLE = '<img src=x onerror=alert(2)> zzunlisted & "low" paper'
# the next three Agentic AI papers, top scores too: on the shortlist, each title hostile its way
SHORTLIST_TITLES = {
    "script": '<script>alert("title")</script> Agents that plan',
    "quotes": "\"'><img src=x onerror=alert(1)> & friends `${x}` $\\alpha$",
    "long": "Unbroken" + "x" * 1900,  # under the loader's 2,000-character title cap
}
SHORTLIST_KEYWORDS = ['<img src=x onerror=alert("kw")>', "\\input{/etc/passwd}", "a & b"]
SHORTLIST_RATIONALE = '</td></tr></table><script>alert("rationale")</script> & "quoted" \'single\''
JAVASCRIPT_URL = "javascript:alert(document.domain)"  # the "quotes" paper's link
SHORTLIST_FILE = "shortlist.json"
TOP = (("rating", 10), ("confidence", 5), ("soundness", 4), ("contribution", 4), ("presentation", 4))
BOTTOM = (("rating", 2), ("confidence", 1), ("soundness", 1), ("contribution", 1), ("presentation", 1))

Shape = Callable[[pd.DataFrame, pd.DataFrame], tuple[pd.DataFrame, pd.DataFrame]]


def hostile_url(paper_id: str) -> str:
    """A forum link with every character a .bib file or LaTeX would read as syntax."""
    return f"https://openreview.net/forum?id={paper_id}&x=}}%\\input{{y}}#frag|~ $_^"


def venue_files(project: Project, scratch: Path, venue: str, papers: int, seed: int,
                shape: Shape | None = None) -> tuple[Path, Path, pd.DataFrame]:
    """A synthetic venue's papers file and label file (its true themes, confidence high, the
    rationale `RATIONALE`), `shape(papers, labels)` applied when given; returns both files and
    the papers as written."""
    stem = re.sub(r"\W+", "-", venue.lower())
    papers_file, truth_file = scratch / f"{stem}.parquet", scratch / f"{stem}-truth.parquet"
    project.cli("ingest", "synthetic", "--out", str(papers_file), "--papers", str(papers),
                "--seed", str(seed), "--labels-out", str(truth_file), "--venue", venue)
    frame = pd.read_parquet(papers_file)
    labels = pd.read_parquet(truth_file).assign(confidence="high", rationale=RATIONALE)
    if shape is not None:
        frame, labels = shape(frame, labels)
    frame.to_parquet(papers_file)
    labels_file = scratch / f"{stem}-labels.parquet"
    labels.to_parquet(labels_file)
    return papers_file, labels_file, frame


def ingest(project: Project, papers_file: Path, venue: str) -> None:
    project.cli("ingest", "file", str(papers_file), "--venue", venue, "--profile", "iclr2026")


def import_labels(project: Project, labels_file: Path) -> None:
    project.cli("classify", "import", str(labels_file), "--taxonomy", TAXONOMY, "--model", "truth")


def synthetic_venue(project: Project, scratch: Path, venue: str, papers: int, seed: int,
                    shape: Shape | None = None) -> tuple[Path, pd.DataFrame]:
    """`venue_files` loaded into `project`'s warehouse; returns its papers file and papers."""
    papers_file, labels_file, frame = venue_files(project, scratch, venue, papers, seed, shape)
    ingest(project, papers_file, venue)
    import_labels(project, labels_file)
    return papers_file, frame


def build_marts(project: Project) -> None:
    """The seeds and models (no data tests: the page tests read the marts), few replicates, in
    this process on the worker's one parse of the project."""
    project.dbt_in_process("build", *MODELS_ONLY, dbt_vars=VARS)


def _scores(frame: pd.DataFrame, row: int, scores: tuple[tuple[str, int], ...], reviews: int) -> None:
    for signal, score in scores:
        frame.at[row, signal] = [score] * reviews


def make_hostile(frame: pd.DataFrame, labels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """HOSTILE 2026's papers and labels (the module's docstring says what each paper carries)."""
    agentic = labels.loc[labels["category"] == "Agentic AI", "paper_id"].tolist()
    best, shortlist = agentic[0], dict(zip(SHORTLIST_TITLES, agentic[1:4], strict=True))
    row_of = {paper_id: frame.index[frame["openreview_id"] == paper_id][0] for paper_id in agentic[:4]}
    row = row_of[best]
    frame.at[row, "title"] = HOSTILE_TITLE
    frame.at[row, "abstract"] = HOSTILE_ABSTRACT
    _scores(frame, row, TOP, 4)
    for kind, paper_id in shortlist.items():
        frame.at[row_of[paper_id], "title"] = SHORTLIST_TITLES[kind]
        frame.at[row_of[paper_id], "primary_area"] = "reinforcement learning"  # ranked, never D&B
        _scores(frame, row_of[paper_id], TOP, 4)
    reviewed = frame["rating"].map(len) > 0
    low = frame.index[frame["openreview_id"].isin(agentic) & reviewed
                      & ~frame.index.isin(list(row_of.values()))][0]
    frame.at[low, "title"] = LOW_TITLE
    _scores(frame, low, BOTTOM, len(frame.at[low, "rating"]))  # the form's lowest
    frame["authors"] = [HOSTILE_AUTHORS if i == row else [f"Author {i}", "B. Person"] for i in frame.index]
    frame["keywords"] = [HOSTILE_KEYWORDS if i == row
                         else SHORTLIST_KEYWORDS if frame.at[i, "openreview_id"] in shortlist.values()
                         else [f"keyword {i % 11}", "planning"] for i in frame.index]
    frame["status"] = ["Oral" if i % 6 == 0 or i == row else "Poster" for i in frame.index]
    labels = labels.assign(confidence=[CONFIDENCE[i % len(CONFIDENCE)] for i in range(len(labels))])
    labels.loc[labels["paper_id"].isin(shortlist.values()), "rationale"] = SHORTLIST_RATIONALE
    labels.loc[labels["paper_id"] == shortlist["script"], "confidence"] = "low"
    return frame, labels


def build(folder: Path) -> None:
    """The hostile venue's warehouse in `folder` (the library entry `hostile_built`): both
    venues loaded, the links the loader refuses put in as an older load could hold them, the
    keyword classifier's labels, the true themes, then dbt's seeds and models."""
    project = Project(folder / "warehouse.duckdb", folder)
    hostile_papers, hostile_labels, frame = venue_files(project, folder, VENUE, PAPERS, 2026, make_hostile)
    second_papers, second_labels, _ = venue_files(project, folder, SECOND, SECOND_PAPERS, 7)
    ingest(project, hostile_papers, VENUE)
    ingest(project, second_papers, SECOND)
    ids = frame.set_index("title")["openreview_id"]
    shortlist = {kind: str(ids[title]) for kind, title in SHORTLIST_TITLES.items()}
    con = duckdb.connect(str(project.db))
    try:  # the loader takes only https links; these reach the page anyway, as an older load could
        con.execute("update raw.papers set forum_url = ? where paper_id = ?",
                    [hostile_url(ids[HOSTILE_TITLE]), ids[HOSTILE_TITLE]])
        con.execute("update raw.papers set forum_url = ? where paper_id = ?",
                    [JAVASCRIPT_URL, shortlist["quotes"]])
    finally:
        con.close()
    # the keyword labels first: the second label set the classification audit compares against
    project.cli("classify", "run", "--taxonomy", TAXONOMY, "--backend", "keywords")
    import_labels(project, hostile_labels)
    import_labels(project, second_labels)
    build_marts(project)
    (folder / SHORTLIST_FILE).write_text(json.dumps(shortlist), encoding="utf-8")


def shortlisted(project: Project) -> dict[str, str]:
    """The paper id of each of `SHORTLIST_TITLES` in the library's hostile venue."""
    return json.loads((project.scratch / SHORTLIST_FILE).read_text(encoding="utf-8"))
