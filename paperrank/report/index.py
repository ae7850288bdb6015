"""The report root's index page: one line per venue's page, so an operator who ranks several
venues gives the experts one address. Every value is escaped (autoescaping Jinja); the page
loads nothing from elsewhere."""

from __future__ import annotations

import jinja2

from paperrank.report.render import generated_at

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="paperrank report">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>paperrank: the experts' pages</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
li { margin: .4rem 0; } .meta { color: #555; font-size: .9em; }
</style>
</head>
<body>
<h1>The experts' pages</h1>
{% if entries %}<ul>
{% for entry in entries %}<li><a href="{{ entry.href }}">{{ entry.venue }}</a>
<span class="meta">build {{ entry.build_id[:8] }}, written {{ entry.written_at }}</span></li>
{% endfor %}</ul>{% else %}<p>No venue has a page yet.</p>{% endif %}
<p class="meta">Listed {{ listed }}.</p>
</body>
</html>
"""


def index_page(entries: list[dict[str, str]]) -> str:
    """The index page of `entries` (venue, href, build_id, written_at), sorted by venue."""
    environment = jinja2.Environment(autoescape=True)
    ordered = sorted(entries, key=lambda entry: (entry["venue"].casefold(), entry["href"]))
    return environment.from_string(TEMPLATE).render(
        entries=ordered, listed=generated_at().strftime("%Y-%m-%d %H:%M UTC"))
