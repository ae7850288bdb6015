"""Open a page in the distribution's headless Chromium (driven by Playwright over CDP) and
record what a reader's browser would: console messages, page errors and every request.

Playwright's own browser download is not needed: it launches /usr/bin/chromium (Debian's
`chromium` package, which .ci/run installs) with no background traffic. One Chromium serves the
process (started at the first page, closed at exit: a launch costs seconds); each page or
context a test opens is a browser context of its own, which shares nothing with another test's
(no storage, no cache: what a fresh profile gave each test when each launched its own).
"""

from __future__ import annotations

import atexit
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str:
    """The system Chromium; skipped (with the reason) where it is not installed, except in CI,
    where .ci/run installs it and its absence is a failure."""
    found = os.environ.get("PAPERRANK_CHROMIUM") or shutil.which("chromium")
    if found is None:
        message = "chromium not installed (apt-get install -y chromium; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@dataclass
class PageLog:
    """What the browser saw while the page was open."""

    console: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


# this process's (Playwright, Chromium), started by the first page a test opens
_RUNNING: list[tuple[Any, Any]] = []


def _chromium() -> Any:
    """The process's Chromium: launched once (again only if it died), closed at exit."""
    if _RUNNING and not _RUNNING[0][1].is_connected():
        _close()
    if not _RUNNING:
        from playwright.sync_api import sync_playwright

        executable = chromium_path()
        playwright = sync_playwright().start()
        try:
            chromium = playwright.chromium.launch(executable_path=executable, headless=True,
                                                  args=CHROMIUM_FLAGS)
        except BaseException:
            playwright.stop()
            raise
        _RUNNING.append((playwright, chromium))
    return _RUNNING[0][1]


@atexit.register
def _close() -> None:
    while _RUNNING:
        playwright, chromium = _RUNNING.pop()
        try:
            chromium.close()
        finally:
            playwright.stop()


@contextmanager
def browser_context(width: int = 1366, height: int = 900,
                    javascript: bool = True) -> Iterator[tuple[object, PageLog]]:
    """Yield (Playwright browser context, log): a context of its own (no other test's storage
    or cache), whose pages share what a reader's browser shares between them (localStorage of
    file:// pages); every page opened in it is logged."""
    log = PageLog()
    context = _chromium().new_context(
        viewport={"width": width, "height": height}, offline=True,
        java_script_enabled=javascript, accept_downloads=True,
    )

    def watch(page: object) -> None:
        page.on("console", lambda message: log.console.append((message.type, message.text)))
        page.on("pageerror", lambda error: log.page_errors.append(str(error)))
        page.on("request", lambda request: log.requests.append(request.url))
        page.on("dialog", lambda dialog: (log.dialogs.append(dialog.message), dialog.dismiss()))

    context.on("page", watch)
    try:
        yield context, log
    finally:
        context.close()


@contextmanager
def open_page(path: Path, width: int = 1366, height: int = 900,
              javascript: bool = True) -> Iterator[tuple[object, PageLog]]:
    """Yield (Playwright page, log) with `path` loaded from file:// (javascript=False: as a
    reader with scripts off sees it)."""
    with browser_context(width, height, javascript) as (context, log):
        page = context.new_page()
        page.goto(path.resolve().as_uri(), wait_until="load")
        yield page, log
