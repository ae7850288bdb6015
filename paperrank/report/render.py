"""Render one venue's report: the page is a Jinja2 template with autoescaping on, so every
string from the marts (titles, rationales, notes) reaches the page as text, never as markup."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd
from markupsafe import Markup

from paperrank.core.config import source_date_epoch
from paperrank.report import content, figures
from paperrank.report.marts import VenueMarts

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
    return "\u2013" if content.present(value) is None else value


def value(item: Any) -> Any:
    """A setting or statistic of unknown type: floats to 3 decimals, booleans as yes/no."""
    item = content.present(item)
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
    return "\u2013" if content.present(share) is None else f"{100 * float(share):.1f}%"


def timestamp(value: Any) -> str:
    if value is None or value is pd.NaT:
        return "\u2013"
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value.strftime("%Y-%m-%d %H:%M UTC")
    return str(value)


def environment() -> jinja2.Environment:
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


def context(data: VenueMarts, below: int = BELOW_CUT) -> dict[str, Any]:
    sections = content.category_sections(data, below)
    heat = content.primary_area_table(data)
    conf = content.confidence_table(data)
    low_rows, low_total = content.low_confidence(data)
    picks = content.picks(data)
    ranked = len(data.rankings)
    snapshot = data.snapshot_at
    return {
        "venue": data.venue,
        "generated_at": generated_at(),
        "snapshot_from": None if snapshot is None else content.present(snapshot.iloc[0]),
        "snapshot_to": None if snapshot is None else content.present(snapshot.iloc[1]),
        "settings": content.settings(data),
        "built_at": content.setting(data, "built_at"),
        "taxonomy": content.setting(data, "taxonomy"),
        "weight_set": content.setting(data, "weight_set"),
        "top_n": content.setting(data, "top_n"),
        "weights": content.weights_applied(data.rankings, data.signals),
        "signals": content.shown_signals(data.rankings, data.signals),
        "accepted": ranked + len(data.excluded),
        "ranked": ranked,
        "excluded_total": len(data.excluded),
        "categories": content.category_table(data),
        "exclusions": content.exclusions(data),
        "sources": content.classification_sources(data),
        "sections": sections,
        "has_uncertainty": data.uncertainty is not None,
        "has_rank_sets": data.uncertainty is not None and "marginal_lower" in data.uncertainty.columns,
        "coverage_text": coverage_text(content.setting(data, "rank_sets_coverage")),
        "heatmap": figures.heatmap(heat, key="audit-heatmap") if not heat.empty else None,
        "heat": heat,
        "confidence_plot": figures.confidence(conf, key="audit-confidence") if not conf.empty else None,
        "confidence": conf,
        "low_rows": low_rows,
        "low_total": low_total,
        "agreement": content.agreement(data),
        "agreement_loaded": data.agreement is not None,
        "picks": picks,
        "picks_by_band": content.picks_by_band(picks),
        "has_history": any(p.movement is not None for s in sections for p in s.rows),
        "loads": content.loads(data),
        "below": below,
        "validity": data.validity,
        "unlisted": (unlisted := content.unlisted_papers(data, sections)),
        "unlisted_packed": packed(unlisted) if unlisted else "",
        "forum_prefix": content.FORUM_PREFIX,
    }


def packed(index: list[list[Any]]) -> str:
    """The unlisted papers' index as the page carries it: JSON, gzip (no timestamp, so the same
    inputs give the same page) and base64, in a data attribute (the script inflates it with the
    browser's DecompressionStream; nothing is fetched). Titles compress about threefold; plain
    JSON would take a tenth of the ICLR 2026 page."""
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def coverage_text(coverage: float | None) -> str:
    """The rank sets' coverage as the page states it: 0.95 -> "95%"; a build that did not record
    it (built before build_settings carried it) is not given a number it may not have used."""
    if coverage is None:
        return "(coverage not recorded)"
    return f"{round(float(coverage) * 100, 2):g}%"


def sha256(text: str) -> str:
    """The CSP source of an inline block: 'sha256-<base64 of its digest>'."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def render(data: VenueMarts, below: int = BELOW_CUT) -> str:
    """The page.  Its Content-Security-Policy allows nothing but its own stylesheet and its
    own script (each by hash) and data: images: the page loads nothing from a network, sends
    nothing (connect-src 'none', form-action 'none'), and runs no other script."""
    env = environment()
    css = unindent(env.get_template("report.css").render())
    script = unindent(env.get_template("report.js").render())
    csp = (f"default-src 'none'; img-src data:; style-src {sha256(css)}; "
           f"script-src {sha256(script)}; connect-src 'none'; form-action 'none'; "
           "base-uri 'none'")
    page = env.get_template("report.html.j2").render(
        context(data, below), css=Markup(css), script=Markup(script), csp=csp)
    return unindent(page)


def unindent(text: str) -> str:
    """The text without its lines' indentation: the template's indentation is for its readers,
    not the page's (the page has no <pre>, its textareas start empty, and the inline style and
    script are unindented before they are hashed, so their hashes still match). Runs of spaces
    between tags, the template's inline indentation, become one space."""
    text = re.sub(r"\n[ \t]+", "\n", text)
    # a run of spaces between two tags reads as one space
    return re.sub(r"(?<=>)[ \t]{2,}(?=<)", " ", text)


def write(data: VenueMarts, out_dir: Path, below: int = BELOW_CUT) -> Path:
    """Write the venue's page as <out_dir>/<venue slug>.html and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{content.slugify(data.venue)}.html"
    target.write_text(render(data, below), encoding="utf-8")
    return target
