"""Merge experts' downloaded picks into the seed, checking every row against the warehouse.

The rules, so that importing is safe to repeat and never loses a good row:
- every pick is filed under its venue: the file's `venue` column, or for a file made before
  picks carried one (`paper_id,category,selected_by,note`) the one venue whose accepted paper it
  is (a paper id of no venue or of several is refused);
- a file that is not a well-formed picks CSV (an unclosed quote, a row with more or fewer fields
  than the header, not UTF-8, a wrong header) is refused whole, with the line where it breaks:
  after a broken quote nothing below it can be trusted;
- otherwise its rows are checked one by one; a row that cannot be taken (a field over Python's
  CSV field limit, bad expert name, paper
  not an accepted paper of its venue, paper not ranked, paper ranked in another category, the
  same paper twice for one expert) is reported with its file, line and reason, and the file's
  other rows are still taken;
- an expert's taken rows replace that expert's earlier picks for the (venue, category) pairs
  those rows cover (re-downloading after unticking a paper drops it); other experts' picks, the
  expert's picks in other categories and every other venue's picks stay;
- an expert is one expert in any width or case (`names.expert_key`), stored under the first
  spelling seen; notes are stored as a spreadsheet shows them as text (`inert_cell`);
- the seed is read, merged and written under a lock, atomically, sorted by venue, category,
  expert and paper, so importing the same file twice leaves the very same bytes
  (`seed_file`); the new seed replaces the old one only once it loads the way dbt loads it
  (`dbt_load_problem`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from paperrank.core.csv_fields import oversized
from paperrank.core.errors import PaperrankError
from paperrank.core.seed_load import declared_types, load_problem
from paperrank.core.seeds import SEEDS
from paperrank.core.spreadsheet import inert_cell, plain_cell
from paperrank.picks.names import expert_key, name_problem, stored_name
from paperrank.picks.papers import Papers, read_papers
from paperrank.picks.seed_file import seed_lock, write_atomically
from paperrank.picks.table import COLUMNS, Malformed, Table, read_table

MAX_NOTE = 4000
DEFAULT_WAIT = 60.0


@dataclass(frozen=True)
class Pick:
    venue: str
    paper_id: str
    category: str
    selected_by: str
    note: str

    @property
    def expert(self) -> str:
        return expert_key(self.selected_by)

    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.venue, self.category, self.selected_by, self.paper_id)


@dataclass(frozen=True)
class Rejected:
    """A row, or a whole file, that was not taken: where it is and why."""

    file: Path
    line: int
    reason: str
    whole_file: bool = False

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class Experts:
    """Each expert's stored name: the NFKC form of the first spelling seen."""

    names: dict[str, str] = field(default_factory=dict)

    def name(self, spelling: str) -> str:
        return self.names.setdefault(expert_key(spelling), stored_name(spelling))


def note_problem(note: str) -> str | None:
    if len(note) > MAX_NOTE:
        return f"note is {len(note)} characters long; at most {MAX_NOTE} are allowed"
    if any(ord(c) < 32 and c not in "\n\t" for c in note):
        return "note holds control characters"
    return None


def read_picks(path: Path, table: Table, papers: Papers,
               experts: Experts) -> tuple[list[Pick], list[Rejected]]:
    """The rows of one well-formed download that can be taken, and the others with reasons."""
    picks: list[Pick] = []
    rejected: list[Rejected] = []
    seen: dict[tuple[str, str, str], int] = {}
    for line, fields in table.records:
        problem, pick = _check_row(dict(zip(table.columns, fields, strict=True)), papers)
        too_long = oversized(fields, table.columns)
        if too_long is not None:  # the real reason, before any other check quotes the field
            problem, pick = too_long, None
        if pick is not None:
            first = seen.get((pick.venue, pick.expert, pick.paper_id))
            if first is not None:
                problem = (f"paper {pick.paper_id} is picked again by {pick.selected_by!r} "
                           f"(first on line {first})")
        if problem is not None or pick is None:
            rejected.append(Rejected(path, line, problem or "malformed line"))
            continue
        seen[(pick.venue, pick.expert, pick.paper_id)] = line
        picks.append(Pick(pick.venue, pick.paper_id, pick.category,
                          experts.name(pick.selected_by), pick.note))
    return picks, rejected


def _check_row(row: dict[str, str], papers: Papers) -> tuple[str | None, Pick | None]:
    # the page's download wrote every cell through the spreadsheet rule: keys back as they are
    paper_id, category = plain_cell(row["paper_id"].strip()), plain_cell(row["category"].strip())
    selected_by, note = row["selected_by"], row["note"]
    if not paper_id or not category:
        return "malformed line: paper_id and category must not be empty", None
    problem = name_problem(selected_by) or note_problem(note)
    if problem is not None:
        return problem, None
    if "venue" in row:
        venue = plain_cell(row["venue"].strip())
        if not venue:
            return "malformed line: venue must not be empty", None
    else:
        found, problem = papers.venue_of(paper_id, "file")
        if found is None:
            return f"{problem}: download the picks again from the venue's report page", None
        venue = found
    problem = papers.problem(venue, paper_id, category)
    if problem is not None:
        return problem, None
    return None, Pick(venue, paper_id, category, selected_by, note)


def read_seed(seed: Path, table: Table, papers: Papers, experts: Experts) -> list[Pick]:
    """The seed's picks, taken as they are (they were checked when imported), with each
    expert's name in its stored form; a seed made before picks carried a venue gets each
    pick's venue from its paper. Anything that would drop or merge a line is refused."""
    picks: list[Pick] = []
    seen: dict[tuple[str, str, str], int] = {}
    for line, fields in table.records:
        row = dict(zip(table.columns, fields, strict=True))
        too_long = oversized(fields, table.columns)
        if too_long is not None:
            raise PaperrankError(f"{seed}:{line}: {too_long}; fix that line of the seed by hand, "
                                 "then run the import again")
        empty = [c for c in ("venue", "paper_id", "category", "selected_by")
                 if c in row and not row[c].strip()]
        if empty:
            raise PaperrankError(f"{seed}:{line}: {', '.join(empty)} empty; fix that line of the "
                                 "seed by hand, then run the import again")
        venue = row.get("venue")
        if venue is None:
            venue, problem = papers.venue_of(row["paper_id"], "seed")
            if venue is None:
                raise PaperrankError(
                    f"{seed}:{line}: {problem}; the seed was written before picks carried a "
                    "venue, so its venue is taken from the warehouse: pass the --db its picks "
                    f"were made on, or add the column by hand (header {','.join(COLUMNS)})")
        pick = Pick(venue, row["paper_id"], row["category"], experts.name(row["selected_by"]),
                    row["note"])
        key = (pick.venue, pick.expert, pick.paper_id)
        if key in seen:
            raise PaperrankError(
                f"{seed}:{line}: expert {pick.selected_by!r} picks paper {pick.paper_id} again "
                f"(line {seen[key]}): {row['selected_by']!r} and {pick.selected_by!r} are one "
                "expert in any width or case; keep one of the two lines, then run the import again")
        seen[key] = line
        picks.append(pick)
    return picks


def merge(existing: Iterable[Pick], incoming: Iterable[Pick]) -> list[Pick]:
    """`existing` with each expert's (venue, category) pairs in `incoming` replaced by its
    picks there."""
    incoming = list(incoming)
    covered = {(p.venue, p.expert, p.category) for p in incoming}
    kept = [p for p in existing if (p.venue, p.expert, p.category) not in covered]
    merged = {(p.venue, p.expert, p.paper_id): p for p in kept}
    for pick in incoming:
        merged[(pick.venue, pick.expert, pick.paper_id)] = pick  # one expert picks a paper once
    return sorted(merged.values(), key=Pick.sort_key)


def seed_text(picks: list[Pick]) -> str:
    """The seed's bytes: every note as a spreadsheet shows it as text, the imported ones and
    those an earlier importer wrote raw alike."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows((p.venue, p.paper_id, p.category, p.selected_by, inert_cell(p.note))
                     for p in picks)
    return buffer.getvalue()


def dbt_load_problem(written: Path, seed: Path) -> str | None:
    """Why dbt could not load `written` as `seed`, with the column types declared beside the
    seed (else the project's): the import checks its result with dbt's own reader."""
    types = declared_types(seed.parent).get(seed.stem) or declared_types(SEEDS).get(seed.stem, {})
    return load_problem(written, types, shown_as=seed)


@dataclass
class Outcome:
    taken: int
    rejected: list[Rejected]
    picks: int
    changed: bool

    @property
    def refused_files(self) -> list[Rejected]:
        return [r for r in self.rejected if r.whole_file]

    @property
    def rejected_rows(self) -> list[Rejected]:
        return [r for r in self.rejected if not r.whole_file]


def import_files(files: list[Path], db: Path, seed: Path, wait: float = DEFAULT_WAIT,
                 on_wait: Callable[[str], None] = lambda message: None) -> Outcome:
    """Check each file against `db`, merge the good rows into `seed`, in the files' order (a
    later file of the same expert replaces an earlier one's categories), all under the seed's
    lock."""
    with seed_lock(seed, wait, on_wait):
        try:
            seed_table = read_table(seed) if seed.exists() else Table(COLUMNS, [])
        except Malformed as broken:
            raise PaperrankError(f"{seed}:{broken.line}: {broken.reason}; fix the seed "
                                 "(`paperrank quality seeds`), then run the import again") from None
        tables: list[tuple[Path, Table | Malformed]] = []
        for path in files:
            try:
                tables.append((path, read_table(path)))
            except Malformed as broken:
                tables.append((path, broken))
        named = [plain_cell(fields[t.columns.index("paper_id")].strip())
                 for t in (seed_table, *(t for _, t in tables if isinstance(t, Table)))
                 for _, fields in t.records]
        papers = read_papers(db, named)
        experts = Experts()
        picks = read_seed(seed, seed_table, papers, experts)
        taken = 0
        rejected: list[Rejected] = []
        for path, table in tables:
            if isinstance(table, Malformed):
                rejected.append(Rejected(path, table.line, (
                    f"malformed CSV: {table.reason}; the whole file is refused and none of its "
                    "rows is taken (after a broken line nothing below it can be trusted): fix "
                    "the file or download it again"), whole_file=True))
                continue
            good, bad = read_picks(path, table, papers, experts)
            picks = merge(picks, good)
            taken += len(good)
            rejected.extend(bad)
        text = seed_text(picks)
        changed = not seed.exists() or seed.read_text(encoding="utf-8") != text
        if changed:
            write_atomically(seed, text, check=lambda written: dbt_load_problem(written, seed))
    return Outcome(taken, rejected, len(picks), changed)
