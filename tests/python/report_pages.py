"""Draw the experts' pages in the test's own process and read them back: the rows as a reader
sees them, the downloads (CSV, BibTeX) as a spreadsheet or LaTeX would read them."""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import lxml.html

EPOCH = "1767225600"  # 2026-01-01: the pages' generation time, so the same build gives the same bytes


@contextmanager
def source_date(epoch: str) -> Iterator[None]:
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = epoch
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


def render_pages(db: Path, out_dir: Path, epoch: str = EPOCH, **options: int) -> dict[str, Path]:
    """Every venue's page of `db` (paperrank.report.pages.write_reports, in-process), by venue."""
    from paperrank.report.pages import write_reports

    with source_date(epoch):
        return dict(write_reports(db, out_dir, **options))


def page(path: Path) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(path.read_bytes())


def text(element: lxml.html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def section_name(section: lxml.html.HtmlElement) -> str:
    return text(section.xpath(".//h2")[0])


def paper_rows(section: lxml.html.HtmlElement) -> list[dict[str, object]]:
    """A category section's papers as the page lists them: each row and its details panel."""
    found = []
    for group in section.xpath(".//table[contains(@class, 'sortable')]/tbody[contains(@class, 'paper')]"):
        tr = group.xpath("./tr[@data-paper-id]")[0]
        panel = group.xpath("./tr[contains(@class, 'panel')]")[0]
        title = tr.xpath("./th//*[contains(concat(' ', @class, ' '), ' title ')]")[0]
        details = dict(zip([text(d) for d in panel.xpath(".//dl[@class='numbers-row']/dt")],
                           [text(d) for d in panel.xpath(".//dl[@class='numbers-row']/dd")], strict=True))
        sure = tr.xpath("./td[contains(@class, 'c-sure')]")
        move = tr.xpath("./td[contains(@class, 'c-move')]")
        keywords = tr.xpath(".//span[@class='keywords']")
        found.append({
            "rank": int(text(tr.xpath("./td[contains(@class, 'c-rank')]")[0])),
            "paper_id": tr.get("data-paper-id"),
            "pid": text(panel.xpath(".//span[@class='pid']")[0]),
            "title": title.text_content(),
            "href": title.get("href"),
            "is_top": "top" in tr.get("class").split(),
            "status": tr.get("data-status"),
            "band": tr.get("data-band"),
            "subtheme": tr.get("data-subtheme"),
            "tags": [text(b) for b in tr.xpath(".//span[@class='tags']/span")],
            "keywords": text(keywords[0]) if keywords else "",
            "sure": text(sure[0]) if sure else None,
            "sure_tooltip": sure[0].get("title") if sure else None,
            "bar": sure[0].xpath(".//span[contains(@class, 'fill')]/@class") if sure else [],
            "move": text(move[0]) if move else None,
            "details": details,
            "rationale": panel.xpath(".//span[@class='rationale']")[0].text_content(),
            "abstract": (panel.xpath(".//p[@class='abstract-text']")[0].text_content()
                         if panel.xpath(".//p[@class='abstract-text']") else None),
            "authors": (panel.xpath(".//p[@class='authors']")[0].text_content()
                        if panel.xpath(".//p[@class='authors']") else None),
            "audits": [text(p) for p in panel.xpath(".//p[contains(@class, 'audit')]")],
            "related": [(a.get("data-paper-id"), a.get("href"), a.text_content())
                        for a in panel.xpath(".//a[@class='related']")],
        })
    return found


def shortlist_tables(doc: lxml.html.HtmlElement) -> dict[str, list[dict[str, object]]]:
    """Per category section (by name): its rows."""
    return {section_name(s): paper_rows(s) for s in doc.xpath("//section[contains(@class, 'category')]")}


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


# -- BibTeX, read as BibTeX and LaTeX would -----------------------------------------------------
# the only commands the page may write: each a character written as text
BIB_COMMANDS = {"\\textbackslash{}": "\\", "\\textbraceleft{}": "{", "\\textbraceright{}": "}",
                "\\%": "%", "\\#": "#", "\\&": "&", "\\textasciitilde{}": "~",
                "\\textasciicircum{}": "^", "\\$": "$", "\\_": "_", "\\textless{}": "<",
                "\\textgreater{}": ">", "\\textbar{}": "|"}
_COMMAND = re.compile("|".join(re.escape(c) for c in sorted(BIB_COMMANDS, key=len, reverse=True)))


def bib_entries(source: str) -> list[dict[str, str]]:
    """The entries of a .bib file, each field's value as written (braces balanced, as BibTeX
    requires: an unbalanced brace, a field or an entry that ends early raises)."""
    entries = []
    i = 0
    while True:
        start = source.find("@", i)
        if start == -1:
            break
        head = re.compile(r"@(\w+)\{([^,\s]+),\n").match(source, start)
        assert head, source[start:start + 80]
        entry = {"type": head.group(1), "key": head.group(2)}
        i = head.end()
        while True:
            field = re.compile(r"  (\w+) = \{").match(source, i)
            assert field, source[i:i + 80]
            depth, j = 1, field.end()
            while depth:
                assert j < len(source), "unbalanced braces"
                depth += {"{": 1, "}": -1}.get(source[j], 0)
                j += 1
            entry[field.group(1)] = source[field.end():j - 1]
            i = j
            if source.startswith(",\n", i):
                i += 2
                continue
            assert source.startswith("\n}\n", i), source[i:i + 20]
            i += 3
            break
        entries.append(entry)
    return entries


def bib_text(value: str) -> str:
    """A field's text as LaTeX prints it, after checking that nothing in it is a command but the
    escapes the page writes (no \\input, no \\write18, no brace of its own)."""
    stripped = _COMMAND.sub("", value)
    assert "\\" not in stripped and "{" not in stripped and "}" not in stripped, value
    assert not set("%#&~^$_<>|") & set(stripped), value
    return _COMMAND.sub(lambda m: BIB_COMMANDS[m.group(0)], value)
