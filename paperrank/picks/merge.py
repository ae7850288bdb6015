"""Merge experts' downloaded picks into the seed, checking every row against the warehouse.

The rules, so that importing is safe to repeat and never loses a good row:
- a file's rows are checked one by one; a row that cannot be taken (malformed line, bad expert
  name, unknown paper, paper not ranked, paper ranked in another category, the same paper twice
  for one expert) is reported with its file, line and reason, and the file's other rows are
  still taken;
- an expert's taken rows replace that expert's earlier picks for the categories those rows
  cover (re-downloading after unticking a paper drops it); other experts' picks, and the
  expert's picks in other categories, stay;
- the seed is written sorted by category, expert and paper, so importing the same file twice
  leaves the very same bytes.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from paperrank.core.errors import PaperrankError
from paperrank.picks.names import name_problem

COLUMNS = ("paper_id", "category", "selected_by", "note")
MAX_NOTE = 4000


@dataclass(frozen=True)
class Pick:
    paper_id: str
    category: str
    selected_by: str
    note: str

    def key(self) -> tuple[str, str, str]:
        return (self.category, self.selected_by, self.paper_id)


@dataclass(frozen=True)
class Rejected:
    """A row that was not taken: where it is and why."""

    file: Path
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class Papers:
    """What the warehouse knows: each ranked paper's category, and why others are not ranked."""

    ranked: dict[str, str] = field(default_factory=dict)
    excluded: dict[str, str] = field(default_factory=dict)

    def problem(self, paper_id: str, category: str) -> str | None:
        if paper_id in self.ranked:
            if self.ranked[paper_id] != category:
                return (f"paper {paper_id} is ranked in {self.ranked[paper_id]!r}, "
                        f"not {category!r}")
            return None
        if paper_id in self.excluded:
            return f"paper {paper_id} is not ranked: {self.excluded[paper_id]}"
        return f"unknown paper {paper_id!r}: not an accepted paper of the warehouse"


def read_papers(db: Path) -> Papers:
    """The warehouse's ranked and excluded papers (marts.paper_rankings, marts.excluded_papers),
    read-only."""
    if not db.exists():
        raise PaperrankError(f"no warehouse at {db}: pass --db PATH to the warehouse the "
                             "experts' report was made from (built by `make rank`)")
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:
        raise PaperrankError(f"cannot open {db} read-only: {error}") from None
    try:
        papers = Papers()
        for paper_id, category in con.execute(
                "select paper_id, category from marts.paper_rankings").fetchall():
            papers.ranked[str(paper_id)] = str(category)
        for paper_id, detail in con.execute(
                "select paper_id, coalesce(exclusion_detail, exclusion_reason) "
                "from marts.excluded_papers").fetchall():
            papers.excluded[str(paper_id)] = str(detail)
    except duckdb.CatalogException:
        raise PaperrankError(f"{db} has no marts.paper_rankings / marts.excluded_papers: "
                             "run `make rank` (dbt build) on it first") from None
    finally:
        con.close()
    return papers


def note_problem(note: str) -> str | None:
    if len(note) > MAX_NOTE:
        return f"note is {len(note)} characters long; at most {MAX_NOTE} are allowed"
    if any(ord(c) < 32 and c not in "\n\t" for c in note):
        return "note holds control characters"
    return None


def read_file(path: Path, papers: Papers) -> tuple[list[Pick], list[Rejected]]:
    """The rows of one download that can be taken, and the others with their reasons."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise PaperrankError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        return [], [Rejected(path, 1, f"not UTF-8 text ({error.reason} at byte {error.start})")]
    reader = csv.reader(io.StringIO(text.replace("\r\n", "\n"), newline=""))
    picks: list[Pick] = []
    rejected: list[Rejected] = []
    try:
        header = next(reader, None)
        if header is None:
            return [], [Rejected(path, 1, "empty file: no header line")]
        if tuple(h.strip() for h in header) != COLUMNS:
            return [], [Rejected(path, 1, f"header is {','.join(header)!r}; a picks file "
                                          f"starts with {','.join(COLUMNS)!r}")]
        seen: dict[tuple[str, str], int] = {}
        line = reader.line_num
        for row in reader:
            start, line = line + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            problem, pick = _check_row(row, papers)
            if pick is not None and (pick.selected_by, pick.paper_id) in seen:
                problem = (f"paper {pick.paper_id} is picked again by {pick.selected_by!r} "
                           f"(first on line {seen[(pick.selected_by, pick.paper_id)]})")
            if problem is not None or pick is None:
                rejected.append(Rejected(path, start, problem or "malformed line"))
                continue
            seen[(pick.selected_by, pick.paper_id)] = start
            picks.append(pick)
    except csv.Error as error:
        rejected.append(Rejected(path, reader.line_num, f"malformed CSV: {error}; "
                                                         "the rest of the file cannot be read"))
    return picks, rejected


def _check_row(row: list[str], papers: Papers) -> tuple[str | None, Pick | None]:
    if len(row) != len(COLUMNS):
        return (f"malformed line: {len(row)} fields, a pick has {len(COLUMNS)} "
                f"({','.join(COLUMNS)})"), None
    paper_id, category, selected_by, note = (row[0].strip(), row[1].strip(), row[2], row[3])
    if not paper_id or not category:
        return "malformed line: paper_id and category must not be empty", None
    problem = (name_problem(selected_by) or note_problem(note)
               or papers.problem(paper_id, category))
    if problem is not None:
        return problem, None
    return None, Pick(paper_id, category, selected_by, note.replace("\r", ""))


def read_seed(seed: Path) -> list[Pick]:
    """The picks already in the seed (taken as they are: they were checked when imported)."""
    if not seed.exists():
        return []
    with seed.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [Pick(r["paper_id"], r["category"], r["selected_by"], r.get("note") or "")
            for r in rows if r.get("paper_id")]


def merge(existing: Iterable[Pick], incoming: Iterable[Pick]) -> list[Pick]:
    """`existing` with each expert's categories in `incoming` replaced by its picks there."""
    incoming = list(incoming)
    covered = {(p.selected_by, p.category) for p in incoming}
    kept = [p for p in existing if (p.selected_by, p.category) not in covered]
    merged = {(p.selected_by, p.paper_id): p for p in kept}
    for pick in incoming:
        merged[(pick.selected_by, pick.paper_id)] = pick  # a paper is one expert's pick once
    return sorted(merged.values(), key=Pick.key)


def seed_text(picks: list[Pick]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows((p.paper_id, p.category, p.selected_by, p.note) for p in picks)
    return buffer.getvalue()


def write_seed(seed: Path, picks: list[Pick]) -> bool:
    """Write the seed atomically; False (and nothing written) when it would not change."""
    text = seed_text(picks)
    if seed.exists() and seed.read_text(encoding="utf-8") == text:
        return False
    seed.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".expert_selections.", dir=seed.parent)
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
        out.write(text)
    os.replace(temporary, seed)
    return True


@dataclass
class Outcome:
    taken: int
    rejected: list[Rejected]
    picks: int
    changed: bool


def import_files(files: list[Path], db: Path, seed: Path) -> Outcome:
    """Check each file against `db`, merge the good rows into `seed`, in the files' order (a
    later file of the same expert replaces an earlier one's categories)."""
    papers = read_papers(db)
    picks = read_seed(seed)
    taken = 0
    rejected: list[Rejected] = []
    for path in files:
        good, bad = read_file(path, papers)
        picks = merge(picks, good)
        taken += len(good)
        rejected.extend(bad)
    changed = write_seed(seed, picks)
    return Outcome(taken, rejected, len(picks), changed)
