"""The parts of a build: the ranking, always, and the extras an operator chooses.

`ranking` is the article's method (the staging models, the labels, reviews and weights, the
ranking and its shortlist, the excluded papers, the category summary and build_settings). The
extras add to it: `uncertainty` (rank uncertainty and weight sensitivity), `rank_sets` (rank
confidence sets), `outcomes` (empirical Bayes and the ranking's validity), `picks` (the
experts' picks) and `related` (related papers). dbt_project.yml tags every model with the one
part it belongs to; one setting, EXTRAS for make and `--extras` for paperrank, chooses the
extras (default `all`, `none` for the ranking alone) for the build, the audit and the publish.

A build selects `tag:ranking`, every seed, and `+tag:<extra>` for each chosen extra: an extra's
models with the ancestors they need (the rank sets need the closed-form composite errors of the
uncertainty models), never another extra's marts (tests/python/test_parts.py checks that no
model needs one). Tests run only when the build holds every model they read (dbt's cautious
indirect selection), so a build without the picks never checks a stale expert_picks.
"""

from __future__ import annotations

RANKING = "ranking"
# the canonical order, as marts.build_settings.extras lists them (macros/parts/parts.sql)
EXTRAS = ("uncertainty", "rank_sets", "outcomes", "picks", "related")
PARTS = (RANKING, *EXTRAS)
ALL, NONE = "all", "none"
DEFAULT = ALL


def parse(text: str) -> tuple[str, ...]:
    """The extras named by `text` (`all`, `none` or a comma list), in the canonical order.

    Anything else raises ValueError saying what is allowed, so that a typo never builds,
    audits or publishes less than the operator asked for."""
    names = [name.strip() for name in text.split(",")]
    if names == [ALL]:
        return EXTRAS
    if names == [NONE]:
        return ()
    unknown = [name for name in names if name not in EXTRAS]
    if unknown:
        shown = ", ".join(f'"{name}"' for name in unknown)
        raise ValueError(f"unknown extra(s) {shown}; allowed: {', '.join(EXTRAS)} "
                         f"(comma-separated), {ALL} or {NONE}")
    return tuple(extra for extra in EXTRAS if extra in names)


def describe(extras: tuple[str, ...]) -> str:
    """As marts.build_settings.extras records them: comma-separated, empty for none."""
    return ",".join(extras)


def build_selection(extras: tuple[str, ...]) -> list[str]:
    """dbt's node selection for a build of the ranking and `extras` (tests included: a test
    runs when every model it reads is selected)."""
    selected = [f"tag:{RANKING}", "resource_type:seed", *(f"+tag:{extra}" for extra in extras)]
    return ["--select", *selected, "--indirect-selection", "cautious"]


def test_selection(extras: tuple[str, ...], tag: str) -> list[str]:
    """dbt's selection of the tests tagged `tag` that check the ranking and `extras`: a test
    that reads an extra's mart carries that extra's tag too (marts_agree__expert_picks_*), so
    the extras not chosen are excluded by their tags."""
    left_out = [f"tag:{extra}" for extra in EXTRAS if extra not in extras]
    return ["--select", tag, *(["--exclude", *left_out] if left_out else [])]
