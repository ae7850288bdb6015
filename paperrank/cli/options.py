"""The ranking settings as command-line options, shared by rank, build, publish and dbt.

Every dbt var that changes the ranking is an option here and a make variable (TAXONOMY, TOP_N,
WEIGHT_SET, VENUE, LABEL_MODEL), and so is the choice of extras built beside it (EXTRAS,
paperrank.core.build_parts); the command receives them as one `Settings`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from paperrank.core import build_parts, config
from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import project_vars
from paperrank.pipeline.settings import CHOICES, NUMBERS, Settings, check_values

ENGINES = ("duckdb", "spark")  # paperrank.engines.ENGINES, without importing DuckDB for --help

F = TypeVar("F", bound=Callable[..., Any])


def extras_option(text: str) -> tuple[str, ...]:
    """--extras as the extras it names; an unknown name is one line naming the allowed ones."""
    try:
        return build_parts.parse(text)
    except ValueError as error:
        raise PaperrankError(f"--extras: {error}") from None


def whole_number(text: str) -> int:
    """--top-n as a whole number >= 1; anything else (`1; drop table`) is one clear line."""
    if not text.isdigit() or int(text) < 1:
        raise PaperrankError(f"--top-n: must be a whole number >= 1, got {text!r}")
    return int(text)


SETTINGS_OPTIONS = (
    click.option("--taxonomy", default=config.DEFAULT_TAXONOMY,
                 help=f"taxonomy of seeds/taxonomies.csv (default {config.DEFAULT_TAXONOMY})"),
    click.option("--top-n", default=str(config.DEFAULT_TOP_N), metavar="INTEGER",
                 help=f"shortlist size per ranked category (default {config.DEFAULT_TOP_N})"),
    click.option("--weight-set", default=config.DEFAULT_WEIGHT_SET,
                 help=f"weights of seeds/composite_weights.csv (default {config.DEFAULT_WEIGHT_SET})"),
    click.option("--venue", default="", help="rank this venue only (default: every venue)"),
    click.option("--label-model", default="",
                 help="use labels of this model only (default: the latest label of any model)"),
    click.option("--profile", default="",
                 help="review-form profile of the raw checks (default: found per venue)"),
    click.option("--engine", type=click.Choice(ENGINES), default=config.DEFAULT_ENGINE,
                 help=f"engine dbt builds on (default {config.DEFAULT_ENGINE}; spark: docs/spark.md)"),
    click.option("--extras", default=build_parts.DEFAULT,
                 help=f"what to build, audit and publish besides the ranking: {build_parts.ALL}, "
                      f"{build_parts.NONE} (the article's method alone), or a comma list of "
                      f"{', '.join(build_parts.EXTRAS)} (default {build_parts.DEFAULT}; docs/dbt_project.md)"),
)


# the other dbt vars (rank uncertainty, weight sensitivity): default dbt_project.yml's
EXTRA_OPTIONS = tuple(
    click.option("--" + name.replace("_", "-"), name, default=None,
                 metavar="INTEGER" if number.whole else "NUMBER",
                 help=f"{number.help}: {number.allowed()} (default {project_vars().get(name)})")
    for name, number in NUMBERS.items() if name != "top_n"
) + tuple(
    click.option("--" + name.replace("_", "-"), name, default=None, metavar=f"[{'|'.join(allowed)}]",
                 help=f"one of {', '.join(allowed)} (default {project_vars().get(name)})")
    for name, allowed in CHOICES.items()
)
EXTRA_NAMES = tuple(n for n in (*NUMBERS, *CHOICES) if n != "top_n")


def _extra(kwargs: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The extra vars given, numbers parsed (PaperrankError naming the var when wrong)."""
    given = []
    for name in EXTRA_NAMES:
        value = kwargs.pop(name, None)
        if value in (None, ""):
            continue
        if name in NUMBERS:
            try:
                value = NUMBERS[name].parse(name, value)
            except ValueError as error:
                raise PaperrankError(f"--{name.replace('_', '-')}: {error}") from None
        given.append((name, value))
    return tuple(given)


def settings_options(function: F) -> F:
    """Add the settings options to a command; it receives them as `chosen: Settings`."""

    @functools.wraps(function)
    def wrapper(*args: Any, taxonomy: str, top_n: str, weight_set: str, venue: str,
                label_model: str, profile: str, engine: str, extras: str, **kwargs: Any) -> Any:
        extra = _extra(kwargs)
        chosen = Settings(taxonomy=taxonomy, top_n=whole_number(top_n), weight_set=weight_set,
                          venue=venue or None, label_model=label_model or None,
                          profile=profile or None, engine=engine,
                          extras=extras_option(extras), extra=extra)
        check_values(chosen)  # settings are data: refused before anything runs
        return function(*args, chosen=chosen, **kwargs)

    decorated: Any = wrapper
    for option in reversed(SETTINGS_OPTIONS + EXTRA_OPTIONS):
        decorated = option(decorated)
    return decorated
