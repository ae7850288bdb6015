"""Taxonomies from `seeds/taxonomies.csv` (the same file dbt loads as a seed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import read_seed, seed_flag

CONFIDENCES = ("high", "medium", "low")


@dataclass(frozen=True)
class Category:
    name: str
    slug: str
    is_ranked: bool
    is_llm_choice: bool
    sort_order: int
    description: str
    in_scope: str
    out_of_scope: str


@dataclass(frozen=True)
class Taxonomy:
    name: str
    categories: tuple[Category, ...]

    @property
    def choices(self) -> tuple[Category, ...]:
        """Categories a classifier may answer (the LLM's enum), in seed order."""
        return tuple(c for c in self.categories if c.is_llm_choice)

    @property
    def choice_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.choices)

    @property
    def fallback(self) -> str:
        """The catch-all category (`Other`), used by the keyword classifier on ties."""
        for c in self.choices:
            if c.slug == "other" or c.name.lower() == "other":
                return c.name
        return self.choices[-1].name


def load_taxonomy(name: str, path: Path | None = None) -> Taxonomy:
    """Read one taxonomy; a name that is not in the file is an error listing the known ones."""
    rows = read_seed("taxonomies", path)
    known = sorted({r["taxonomy"] for r in rows})
    chosen = [r for r in rows if r["taxonomy"] == name]
    if not chosen:
        raise PaperrankError(f"unknown taxonomy {name!r} in {path or 'seeds/taxonomies.csv'}; "
                             f"known: {', '.join(known)}")
    categories = tuple(
        sorted(
            (
                Category(
                    name=r["category"].strip(),
                    slug=r["slug"].strip(),
                    is_ranked=seed_flag(r["is_ranked"]),
                    is_llm_choice=seed_flag(r["is_llm_choice"]),
                    sort_order=int(r["sort_order"]),
                    description=(r.get("description") or "").strip(),
                    in_scope=(r.get("in_scope") or "").strip(),
                    out_of_scope=(r.get("out_of_scope") or "").strip(),
                )
                for r in chosen
            ),
            key=lambda c: c.sort_order,
        )
    )
    taxonomy = Taxonomy(name, categories)
    if len(taxonomy.choices) < 2:
        raise PaperrankError(f"taxonomy {name!r} has fewer than two categories a classifier may choose")
    return taxonomy
