"""One publisher at a time: an exclusive lock beside the published warehouse.

Publishing composes a new publication from the one published at that moment, switches the link
and records each venue's build in the history files. Two publishers of different venues that
overlap would each compose from the same publication, and the later switch would drop the
earlier venue's new build while both said it was published. So `deliver` and `roll_back` hold
this lock from composing to the history's last write (and the venue's CSVs and page, so every
output of one delivery names the same build); the second publisher waits, saying whom it waits
for, and gives up after `PAPERRANK_PUBLISH_WAIT` seconds naming the holder.

An advisory `flock` on a file of its own in the versions folder, never on the DuckDB files: a
reader (an analyst, the export, the page) never takes it, so readers are never blocked. The
kernel releases it when its holder dies, so a killed publish never leaves it held; the holder's
description in the file is only for the waiting message.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from paperrank.core.errors import PaperrankError
from paperrank.publish import versions

LOCK_FILE = ".paperrank-publish.lock"
WAIT_VARIABLE = "PAPERRANK_PUBLISH_WAIT"
DEFAULT_WAIT = 900.0  # seconds: longer than any one delivery of the largest venue measured
POLL = 0.2


class PublishLocked(PaperrankError):
    """Another process kept the publish lock for longer than the wait allowed."""


def wait_limit() -> float:
    """Seconds a publisher waits for another (PAPERRANK_PUBLISH_WAIT, a number >= 0)."""
    text = os.environ.get(WAIT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_WAIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise PaperrankError(f"{WAIT_VARIABLE}={text!r}: give the seconds to wait for another "
                             "publish, a number from 0 up (0: do not wait)")
    return seconds


def holder(path: Path) -> str:
    """Who holds the lock at `path`, as its holder wrote it down; 'another process' if unknown."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return (f"{data['doing']} (pid {int(data['pid'])} on {data['host']}, since "
                f"{data['since']})")
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextmanager
def publishing(published: Path, doing: str, say: Callable[[str], None] = print) -> Iterator[None]:
    """Hold the publish lock of `published` for the block; `doing` names this publisher in
    the lock file (what a waiting publisher is told). Waits for another holder, saying so once,
    and raises PublishLocked after `wait_limit()` seconds."""
    limit = wait_limit()
    path = versions.versions_dir(published) / LOCK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+", encoding="utf-8")
    try:
        _acquire(handle.fileno(), published, path, limit, say)
        _write_holder(handle, doing)
        yield
    finally:
        handle.close()  # closing the file releases the lock


def _write_holder(handle: TextIO, doing: str) -> None:
    """Describe this holder for a waiting publisher; a disk too full for these few bytes only
    costs the description (the lock itself is held)."""
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"doing": doing, "pid": os.getpid(), "host": socket.gethostname(),
                                 "since": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")}))
        handle.flush()
    except OSError:
        pass


def _acquire(descriptor: int, published: Path, path: Path, limit: float,
             say: Callable[[str], None]) -> None:
    started, told = time.monotonic(), False
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        waited = time.monotonic() - started
        if waited >= limit:
            raise PublishLocked(f"publishing to {published}: gave up after {waited:.0f} s "
                                f"({WAIT_VARIABLE}={limit:g}) waiting for {holder(path)}")
        if not told:
            say(f"waiting for another publish to finish: {holder(path)}")
            told = True
        time.sleep(POLL)
