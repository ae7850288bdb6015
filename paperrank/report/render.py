"""Render one venue's report: the page is a Jinja2 template with autoescaping on, so every
string from the marts (titles, rationales, notes) reaches the page as text, never as markup."""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import math
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
import numpy as np
import pandas as pd
from markupsafe import Markup

from paperrank.core.config import source_date_epoch
from paperrank.core.errors import PaperrankError
from paperrank.report import content, figures, picked, plain_language, values
from paperrank.report.duplicates import NEAR_DUPLICATE, check_near_duplicate
from paperrank.report.marts import VenueMarts
from paperrank.report.quota import PICK_QUOTA, check_quota
from paperrank.report.sections import category_sections, shown_signals, venue_map

BELOW_CUT = 10


def generated_at() -> datetime:
    """Now, or SOURCE_DATE_EPOCH when set (reproducible-builds convention), in UTC."""
    epoch = source_date_epoch()
    if epoch is not None:
        return datetime.fromtimestamp(epoch, tz=UTC)
    return datetime.now(UTC).replace(microsecond=0)


def number(value: Any, digits: int = 2) -> str:
    """Fixed-point number, or an en dash for a missing value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "\u2013"
    return f"{float(value):.{digits}f}"


def dash(value: Any) -> Any:
    """The value, or an en dash when it is missing."""
    return "\u2013" if values.present(value) is None else value


def value(item: Any) -> Any:
    """A setting or statistic of unknown type: floats to 3 decimals, booleans as yes/no."""
    item = values.present(item)
    if item is None:
        return "\u2013"
    if isinstance(item, bool | np.bool_):
        return "yes" if item else "no"
    if isinstance(item, float):
        return number(item, 3)
    if isinstance(item, datetime):
        return timestamp(item)
    return item


def percent(share: Any) -> str:
    return "\u2013" if values.present(share) is None else f"{100 * float(share):.1f}%"


def timestamp(value: Any) -> str:
    if value is None or value is pd.NaT:
        return "\u2013"
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value.strftime("%Y-%m-%d %H:%M UTC")
    return str(value)


TEMPLATES = ("report.css", "map.js", "report.js", "report.html.j2", "index.css", "index.html.j2")


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' environment, one per process: each template is compiled once (a tenth of
    a second for the five), whatever the pages a process draws."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("paperrank.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["num"] = number
    env.filters["timestamp"] = timestamp
    env.filters["signal_label"] = figures.signal_label
    env.filters["thousands"] = lambda n: f"{int(n):,}"
    env.filters["dash"] = dash
    env.filters["value"] = value
    env.filters["percent"] = percent
    return env


def warm() -> None:
    """Compile every template now (`paperrank rank` does it while the marts are checked)."""
    env = environment()
    for name in TEMPLATES:
        env.get_template(name)


def venue_year(venue: str) -> str | None:
    """The venue's year as its name gives it ("ICLR 2026" -> "2026"), for the BibTeX export;
    None when the name has no year."""
    found = re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", venue)
    return found[-1] if found else None


def no_map_line(data: VenueMarts) -> str:
    """The one line a page without maps says where the maps would be, and why they are not."""
    if "related" not in data.parts.built:
        return ("No maps of the papers: this build has no related extra, and the maps come with "
                "it (EXTRAS=all or a list with related).")
    return (f"No maps of the papers: the warehouse has no marts.paper_map_positions rows for "
            f"{data.venue} (`paperrank related` lays them out; `make rank` runs it).")


def context(data: VenueMarts, below: int = BELOW_CUT, quota: int = PICK_QUOTA,
            near_duplicate: float = NEAR_DUPLICATE) -> dict[str, Any]:
    sections = category_sections(data, below, near_duplicate=check_near_duplicate(near_duplicate))
    overview_map = venue_map(data, sections)
    heat = content.primary_area_table(data)
    conf = content.confidence_table(data)
    low_rows, low_total = content.low_confidence(data)
    picked_papers = picked.picked_papers(data)
    ranked = len(data.rankings)
    snapshot = data.snapshot_at
    return {
        "venue": data.venue,
        "generated_at": generated_at(),
        "snapshot_from": None if snapshot is None else values.present(snapshot.iloc[0]),
        "snapshot_to": None if snapshot is None else values.present(snapshot.iloc[1]),
        "settings": content.settings(data),
        "built_at": content.setting(data, "built_at"),
        "taxonomy": content.setting(data, "taxonomy"),
        "weight_set": content.setting(data, "weight_set"),
        "top_n": content.setting(data, "top_n"),
        "weights": content.weights_applied(data.rankings, data.signals),
        "signals": shown_signals(data.rankings, data.signals),
        "accepted": ranked + len(data.excluded),
        "ranked": ranked,
        "excluded_total": len(data.excluded),
        "categories": content.category_table(data),
        "exclusions": content.exclusions(data),
        "sources": content.classification_sources(data),
        "sections": sections,
        "has_uncertainty": data.uncertainty is not None,
        "has_rank_sets": data.rank_sets is not None,
        "coverage_text": plain_language.coverage_text(data.setting("rank_sets_coverage")),
        "parts_message": plain_language.parts_message(data.parts),
        "glossary": plain_language.row_terms(shown_signals(data.rankings, data.signals),
                                    content.setting(data, "top_n") or max(
                                        (s.top_count for s in sections), default=None),
                                    plain_language.coverage_text(data.setting("rank_sets_coverage")),
                                    data.uncertainty is not None, data.rank_sets is not None),
        "picks_built": data.picks is not None,
        "statuses": content.statuses(data),
        "searched": content.searched(data),
        "quota": check_quota(quota),
        "year": venue_year(data.venue),
        "heatmap": figures.heatmap(heat, key="audit-heatmap") if not heat.empty else None,
        "heat": heat,
        "confidence_plot": figures.confidence(conf, key="audit-confidence") if not conf.empty else None,
        "confidence": conf,
        "low_rows": low_rows,
        "low_total": low_total,
        "agreement": content.agreement(data),
        "agreement_loaded": data.agreement is not None,
        "picked": picked_papers,
        "picks_by_band": picked.picks_by_band(data),
        "has_history": any(p.movement is not None for s in sections for p in s.rows),
        "loads": content.loads(data),
        "below": below,
        "validity": data.validity,
        "unlisted": (unlisted := content.unlisted_papers(data, sections)),
        "unlisted_packed": packed(unlisted) if unlisted else "",
        "forum_prefix": values.FORUM_PREFIX,
        "venue_map": overview_map,
        "no_map": no_map_line(data) if overview_map is None else None,
        "near_duplicate": near_duplicate,
    }


def packed(index: list[list[Any]]) -> str:
    """The unlisted papers' index as the page carries it: JSON, gzip (no timestamp, so the same
    inputs give the same page) and base64, in a data attribute (the script inflates it with the
    browser's DecompressionStream; nothing is fetched). Titles compress about threefold; plain
    JSON would take a tenth of the ICLR 2026 page."""
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def sha256(text: str) -> str:
    """The CSP source of an inline block: 'sha256-<base64 of its digest>'."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def render(data: VenueMarts, below: int = BELOW_CUT, quota: int = PICK_QUOTA,
           near_duplicate: float = NEAR_DUPLICATE) -> str:
    """The page.  Its Content-Security-Policy allows nothing but its own stylesheet and its
    own script (each by hash) and data: images: the page loads nothing from a network, sends
    nothing (connect-src 'none', form-action 'none'), and runs no other script."""
    env = environment()
    css = unindent(env.get_template("report.css").render())
    # the maps' script first: it listens for the picks the workbench announces as it starts
    script = unindent(env.get_template("map.js").render() + env.get_template("report.js").render())
    csp = (f"default-src 'none'; img-src data:; style-src {sha256(css)}; "
           f"script-src {sha256(script)}; connect-src 'none'; form-action 'none'; "
           "base-uri 'none'")
    page = env.get_template("report.html.j2").render(
        context(data, below, quota, near_duplicate), css=Markup(css), script=Markup(script), csp=csp)
    return unindent(page)


def unindent(text: str) -> str:
    """The text without its lines' indentation: the template's indentation is for its readers,
    not the page's (the page has no <pre>, its textareas start empty, and the inline style and
    script are unindented before they are hashed, so their hashes still match). Runs of spaces
    between tags, the template's inline indentation, become one space."""
    text = re.sub(r"\n[ \t]+", "\n", text)
    # a run of spaces between two tags reads as one space
    return re.sub(r"(?<=>)[ \t]{2,}(?=<)", " ", text)


def write(data: VenueMarts, out_dir: Path, below: int = BELOW_CUT,
          quota: int = PICK_QUOTA, near_duplicate: float = NEAR_DUPLICATE) -> Path:
    """Write the venue's page as <out_dir>/<venue slug>.html and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{values.slugify(data.venue)}.html"
    target.write_text(render(data, below, quota, near_duplicate), encoding="utf-8")
    return target


@dataclass(frozen=True)
class IndexEntry:
    """One venue's page as the index lists it: its title, the page's file (in the same folder,
    or a relative path below it), the build it was drawn from and when."""

    title: str
    page: str
    build_id: str | None = None
    built_at: Any = None


def index_href(page: str) -> str:
    """A relative link to a page below the index's folder, percent-encoded; anything else (a
    scheme, an absolute path, a step up) is refused: the index links only to its own pages."""
    parts = page.replace("\\", "/").split("/")
    if (not page or urlsplit(page).scheme or page.startswith(("/", "\\"))
            or any(p in ("", ".", "..") for p in parts)):
        raise PaperrankError(f"an index entry's page must be a relative path below the index's "
                             f"folder, not {page!r}")
    return "/".join(quote(p, safe="") for p in parts)


def render_index(entries: list[IndexEntry]) -> str:
    """The index page: every venue's page with its title, link, build id and date; the same
    Content-Security-Policy as the pages (its style by hash, no script)."""
    env = environment()
    css = unindent(env.get_template("index.css").render())
    csp = (f"default-src 'none'; style-src {sha256(css)}; script-src 'none'; "
           "connect-src 'none'; form-action 'none'; base-uri 'none'")
    rows = [{"title": e.title, "href": index_href(e.page), "build_id": e.build_id,
             "built_at": e.built_at} for e in sorted(entries, key=lambda e: (e.title, e.page))]
    return unindent(env.get_template("index.html.j2").render(
        entries=rows, generated_at=generated_at(), css=Markup(css), csp=csp))


def write_index(entries: list[IndexEntry], out_dir: Path) -> Path:
    """Write <out_dir>/index.html listing the venues' pages (`entries`) and return its path:
    whole (a temporary file renamed over the old one), so a reader sees the old index or the
    new one, never half of one."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "index.html"
    staged = out_dir / f".index.html.{os.getpid()}.tmp"
    staged.write_text(render_index(entries), encoding="utf-8")
    os.replace(staged, target)
    return target
