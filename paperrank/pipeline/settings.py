"""The ranking's settings, as dbt vars, checked: one definition for every command (the
options: paperrank.cli.options, which builds a `Settings` and calls `check_values`).

Settings are data, never code.  dbt renders a string var as a Jinja template whenever it
holds one of `{{ {% {# }} %} #}` (`dbt.clients.jinja.get_rendered`, called by `var()`), so
`TAXONOMY="iclr2026{{ run_query('delete from raw.reviews') }}"` once emptied a table and
`VENUE="{{ env_var('SECRET') }}"` printed a secret.  So every setting is checked here, in
Python, before dbt (or anything else) starts, in well under a second:

- numbers are parsed as numbers and checked against their range (`NUMBERS`), then reach dbt
  as JSON numbers, which dbt never renders;
- every text is refused when it holds a Jinja delimiter or a control character, or is longer
  than `MAX_TEXT`: dbt returns such a text verbatim, without building a template at all;
- names are checked against the data that defines them: taxonomies and weight sets against
  the seed files, venues and label models against the working warehouse's raw layer.

dbt checks the same values again on its own side (macros/check_settings.sql), so a direct
`dbt build --vars ...` is refused too.  A wrong value raises `PaperrankError` (exit 2) with
one line naming the setting, the value and what is allowed.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paperrank.core import build_parts, config, venue_name
from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import project_vars, read_seed

ENGINES = ("duckdb", "spark")  # paperrank.engines.ENGINES, without importing DuckDB

# dbt's own test for "this text is a template" (dbt/clients/jinja.py, _HAS_RENDER_CHARS_PAT)
JINJA = re.compile(r"({[{%#]|[#}%]})")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MAX_TEXT = 200


@dataclass(frozen=True)
class Number:
    """A numeric dbt var: whole or not, its allowed range, the flag's help."""

    whole: bool
    low: float
    high: float
    help: str
    low_open: bool = False  # low itself is not allowed (a positive number)

    def parse(self, name: str, text: object) -> int | float:
        value = text if isinstance(text, int | float) and not isinstance(text, bool) else None
        if value is None and isinstance(text, str):
            pattern = r"[0-9]{1,19}" if self.whole else r"[0-9]{1,19}(\.[0-9]{1,19})?"
            if re.fullmatch(pattern, text.strip()):
                value = int(text) if self.whole else float(text)
        if self.whole and isinstance(value, float):
            value = int(value) if value == int(value) else None
        if value is None or not (self.low < value if self.low_open else self.low <= value) \
                or value > self.high:
            raise ValueError(f"must be {self.allowed()}, got {_shown(text)}")
        return value

    def allowed(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        low = f"> {_plain(self.low)}" if self.low_open else f">= {_plain(self.low)}"
        return f"{kind} {low} and <= {_plain(self.high)}"


def _plain(value: float) -> str:
    """A bound as people write it: 9223372036854775807, not 9.22337e+18."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _rules() -> tuple[dict[str, Number], dict[str, tuple[str, ...]]]:
    """The numeric and the choice settings with their rules, from dbt_project.yml's
    `setting_rules`: the one home of each rule, which dbt's on-run-start check reads too
    (macros/validation/check_setting_rules.sql)."""
    numbers: dict[str, Number] = {}
    choices: dict[str, tuple[str, ...]] = {}
    for name, rule in project_vars()["setting_rules"].items():
        if rule["kind"] == "choice":
            choices[name] = tuple(rule["choices"])
        else:
            numbers[name] = Number(rule["kind"] == "whole", rule["low"], rule["high"], rule["help"],
                                   bool(rule.get("low_open", False)))
    return numbers, choices


NUMBERS, CHOICES = _rules()
# The list vars: the method's definition (the signals the composite can weigh, the review score
# columns), set in dbt_project.yml, not from the command line; check_settings (on-run-start)
# checks them and refuse_template_vars refuses a template in any of their items.
LISTS: tuple[str, ...] = ("ranking_signals", "review_score_columns")


@dataclass(frozen=True)
class Settings:
    taxonomy: str = config.DEFAULT_TAXONOMY
    top_n: int = config.DEFAULT_TOP_N
    weight_set: str = config.DEFAULT_WEIGHT_SET
    venue: str | None = None
    label_model: str | None = None
    profile: str | None = None  # review-form profile of the raw checks (not a dbt var)
    engine: str = config.DEFAULT_ENGINE  # the engine dbt builds on (engines.ENGINES; not a dbt var)
    # the extras built, audited and published besides the ranking (paperrank.core.build_parts; not a
    # dbt var: they choose which models dbt selects)
    extras: tuple[str, ...] = build_parts.EXTRAS
    # the other dbt vars given explicitly (rank uncertainty, weight sensitivity); the rest
    # keep dbt_project.yml's defaults
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def dbt_vars(self) -> str:
        """The dbt vars as JSON (valid YAML), so no value can break out of the mapping.

        Only values `check_values` accepts get here: numbers as JSON numbers, texts without a
        Jinja delimiter, which dbt hands to the models verbatim."""
        check_values(self)
        values = asdict(self)
        for name in ("profile", "engine", "extra", "extras"):
            values.pop(name)
        values.update(dict(self.extra))
        return json.dumps(values)


def texts(chosen: Settings) -> dict[str, str | None]:
    """Every text setting by its dbt var (or flag) name."""
    values: dict[str, str | None] = {
        "taxonomy": chosen.taxonomy, "weight_set": chosen.weight_set, "venue": chosen.venue,
        "label_model": chosen.label_model, "profile": chosen.profile, "engine": chosen.engine}
    values.update({k: v for k, v in chosen.extra if k in CHOICES})
    return values


def check_text(name: str, value: object) -> str:
    """A text setting's value, or ValueError saying why it is refused."""
    if not isinstance(value, str):
        raise ValueError(f"must be a text, got {_shown(value)}")
    if JINJA.search(value):
        raise ValueError(f"must not contain a template delimiter ({{{{ {{% {{# }}}} %}} #}}): "
                         f"settings are data, never code; got {_shown(value)}")
    if CONTROL.search(value):
        raise ValueError(f"must not contain control characters, got {_shown(value)}")
    if not value.strip() or len(value) > MAX_TEXT:
        raise ValueError(f"must be a non-empty text of at most {MAX_TEXT} characters, "
                         f"got {_shown(value)}")
    if name in CHOICES and value not in CHOICES[name]:
        raise ValueError(f"must be one of {', '.join(CHOICES[name])}, got {_shown(value)}")
    return value


def check_values(chosen: Settings) -> None:
    """Types, ranges and forms of every setting (no file is read); PaperrankError if wrong."""
    problems = []
    for name, value in texts(chosen).items():
        if value is None and name in ("venue", "label_model", "profile"):
            continue
        try:
            check_text(name, value)
        except ValueError as error:
            problems.append(f"{name} {error}")
    numbers = {"top_n": chosen.top_n, **{k: v for k, v in chosen.extra if k in NUMBERS}}
    for name, value in numbers.items():
        try:
            NUMBERS[name].parse(name, value)
        except ValueError as error:
            problems.append(f"{name} {error}")
    unknown = sorted(k for k, _ in chosen.extra if k not in NUMBERS and k not in CHOICES)
    if unknown:
        problems.append(f"unknown setting(s) {', '.join(unknown)}")
    if chosen.engine not in ENGINES:
        problems.append(f"engine must be one of {', '.join(ENGINES)}")
    if not isinstance(chosen.extras, tuple) or \
            chosen.extras != tuple(e for e in build_parts.EXTRAS if e in chosen.extras):
        problems.append(f"extras must be some of {', '.join(build_parts.EXTRAS)} in that order, "
                        f"got {_shown(chosen.extras)}")
    bands = dict(chosen.extra)
    secure, outside = bands.get("rank_band_secure", 0.9), bands.get("rank_band_outside", 0.1)
    if not problems and outside >= secure:
        problems.append(f"rank_band_outside ({outside}) must be below rank_band_secure ({secure})")
    if problems:
        raise PaperrankError("invalid settings: " + "; ".join(problems))


def check(chosen: Settings, warehouse: Path | None = None, *, one_venue: bool = False) -> None:
    """Every setting against the data that defines it, before anything runs.

    The seed files name the taxonomies and weight sets; the working warehouse's raw layer
    (read-only, when `warehouse` is given) the labelled taxonomies, label models and venues.
    `one_venue`: the run publishes, so an unset venue must mean exactly one venue (its CSVs
    and its report page are one venue's)."""
    check_values(chosen)
    taxonomies = sorted({r["taxonomy"] for r in read_seed("taxonomies")})
    if chosen.taxonomy not in taxonomies:
        raise PaperrankError(f"unknown taxonomy {_q(chosen.taxonomy)}; seeds/taxonomies.csv has: "
                             f"{', '.join(taxonomies)}")
    weight_sets = sorted({r["weight_set"] for r in read_seed("composite_weights")})
    if chosen.weight_set not in weight_sets:
        raise PaperrankError(f"unknown weight_set {_q(chosen.weight_set)}; "
                             f"seeds/composite_weights.csv has: {', '.join(weight_sets)}")
    if chosen.profile is not None:
        from paperrank.ingest.profiles import load_profiles

        profiles = sorted(load_profiles())
        if chosen.profile not in profiles:
            raise PaperrankError(f"unknown profile {_q(chosen.profile)}; "
                                 f"seeds/review_form_profiles.csv has: {', '.join(profiles)}")
    if warehouse is not None:
        _check_raw(chosen, warehouse, one_venue)


def _check_raw(chosen: Settings, warehouse: Path, one_venue: bool) -> None:
    import duckdb

    from paperrank.core.warehouse import open_duckdb

    try:
        con = open_duckdb(warehouse, read_only=True)
    except duckdb.Error as error:  # a truncated or foreign file: one line, not a traceback
        raise PaperrankError(f"the working warehouse {warehouse} cannot be opened: "
                             f"{str(error).splitlines()[0][:200]}") from None
    try:
        tables = {r[0] for r in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw'").fetchall()}
        if not {"papers", "paper_labels"} <= tables:
            raise PaperrankError(f"the warehouse {warehouse} has no raw layer (raw.papers, "
                                 "raw.paper_labels); load papers and labels first")
        labelled = [r[0] for r in con.execute(
            "select distinct taxonomy from raw.paper_labels order by 1").fetchall()]
        models = [r[0] for r in con.execute(
            "select distinct model from raw.paper_labels where taxonomy = ? order by 1",
            [chosen.taxonomy]).fetchall()]
        venues = [r[0] for r in con.execute(
            "select distinct venue from raw.papers where is_accepted order by 1").fetchall()]
        scored = _scored_fields(con, chosen.venue)
    finally:
        con.close()
    if chosen.taxonomy not in labelled:
        raise PaperrankError(f"taxonomy {chosen.taxonomy} has no labels in raw.paper_labels, so "
                             f"every mart would be empty; taxonomies with labels: "
                             f"{', '.join(labelled) or 'none'}")
    if chosen.label_model is not None and chosen.label_model not in models:
        raise PaperrankError(f"label_model {_q(chosen.label_model)} has no labels for taxonomy "
                             f"{chosen.taxonomy}; models with labels: {', '.join(models)}")
    if chosen.venue is not None and chosen.venue not in venues:
        raise PaperrankError(f"venue {_q(chosen.venue)} has no accepted papers; venues: "
                             f"{', '.join(venues) or 'none'}")
    if one_venue and chosen.venue is None and len(venues) > 1:
        raise PaperrankError(
            f"raw.papers holds {len(venues)} venues ({', '.join(venues)}); a publication is one "
            "venue's rankings, CSVs and report: set VENUE (--venue) to one of them")
    for venue, fields in scored.items():
        _check_weight_set_fits(chosen.weight_set, venue, fields)


def _scored_fields(con: Any, venue: str | None) -> dict[str, set[str]]:
    """Per venue (the one set, or every one), the review scores its accepted papers' reviews have."""
    from paperrank.core.seeds import review_score_columns

    fields = review_score_columns()
    rows = con.execute(
        "select p.venue, " + ", ".join(f"bool_or(r.{f} is not null)" for f in fields)
        + " from raw.papers as p inner join raw.reviews as r on r.paper_id = p.paper_id"
        " where p.is_accepted and ($venue is null or p.venue = $venue) group by p.venue",
        {"venue": venue}).fetchall()
    return {row[0]: {f for f, present in zip(fields, row[1:], strict=True) if present} for row in rows}


def _check_weight_set_fits(weight_set: str, venue: str, fields: set[str]) -> None:
    """The weight set weighs only signals the venue's reviews have (a signal's review field is
    its name before the first '_': contribution_mean -> contribution, rating_std -> rating);
    otherwise the missing signal would count as 0 for every paper, a plausible ranking on fewer
    signals than the weights say. dbt checks the same on its own side
    (macros/validation/check_weight_set_signals.sql), after seconds of start-up."""
    weighted: dict[str, list[tuple[str, str]]] = {}
    for row in read_seed("composite_weights"):
        if float(row["weight"] or 0) != 0:
            weighted.setdefault(row["weight_set"], []).append((row["signal"], row["weight"]))
    lacking = [f"{signal} (weight {weight})" for signal, weight in weighted.get(weight_set, [])
               if signal.split("_")[0] not in fields]
    if lacking:
        fitting = [name for name, signals in sorted(weighted.items())
                   if all(signal.split("_")[0] in fields for signal, _ in signals)]
        raise PaperrankError(
            f"weight_set {weight_set} weighs {', '.join(lacking)}, which venue {_q(venue)} lacks: its "
            f"reviews have {', '.join(sorted(fields)) or 'no scores'}; weight sets that fit it: "
            f"{', '.join(fitting) or 'none (add one to seeds/composite_weights.csv)'} (WEIGHT_SET=, --weight-set)")


def ranked_venue(chosen: Settings, warehouse: Path) -> str:
    """The one venue a publishing run ranks: the one set, or the only one with accepted papers
    (`check(..., one_venue=True)` has refused anything else)."""
    if chosen.venue is not None:
        return venue_name.check(chosen.venue, "--venue")
    from paperrank.core.warehouse import open_duckdb

    con = open_duckdb(warehouse, read_only=True)
    try:
        venues = [r[0] for r in con.execute(
            "select distinct venue from raw.papers where is_accepted order by 1").fetchall()]
    finally:
        con.close()
    if len(venues) != 1:
        raise PaperrankError(f"raw.papers holds {len(venues)} venues with accepted papers "
                             f"({', '.join(venues) or 'none'}): set VENUE (--venue) to one of them")
    return venue_name.check(str(venues[0]), "raw.papers")


def _q(text: str | None) -> str:
    return json.dumps(text, ensure_ascii=False)


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return json.dumps(text[:80] + ("..." if len(text) > 80 else ""), ensure_ascii=False)
