"""The seed file's safety: one writer at a time, a write that is whole or absent, its mode kept.

- **Lock.** Every import holds an advisory lock (`fcntl.flock`) on `.<seed name>.lock` beside the
  seed for its whole read-merge-write; a second import waits for it (at most `wait` seconds,
  saying once that it waits and for whom), then gives up in one line having changed nothing.
  Without it, two overlapping imports each merged into the seed they had read, and the later
  write dropped the earlier one's picks. The lock file stays (removing it would let a third
  process lock a file the second already holds open); the kernel releases the lock when its
  holder exits, however it exits.
- **Atomic write.** The new seed is written to `.<seed name>.<pid>.tmp` beside it, with the
  seed's own mode (0644 stays 0644), fsynced, loaded the way dbt loads it (the caller's check:
  a seed dbt could not load never replaces one it can), renamed over the seed, and the folder
  fsynced: a reader sees the old seed or the new one, never half of one.
- **No leftovers.** A temporary file outlives its process only when the process is killed
  between creating and renaming it. Only the lock holder writes one, so whatever temporary of
  this seed is there when the lock is taken is a dead process's, and is removed (with those
  named `.expert_selections.XXXXXXXX` by the importer before the lock, which used mkstemp).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from paperrank.core.errors import PaperrankError, disk_error

POLL_SECONDS = 0.05
_LEGACY_TEMPORARY = re.compile(r"\.expert_selections\.[a-z0-9_]{8}")


def lock_path(seed: Path) -> Path:
    return seed.parent / f".{seed.name}.lock"


def temporary_path(seed: Path) -> Path:
    return seed.parent / f".{seed.name}.{os.getpid()}.tmp"


@contextmanager
def seed_lock(seed: Path, wait: float, on_wait: Callable[[str], None]) -> Iterator[None]:
    """Hold the seed's lock; wait at most `wait` seconds for another import to release it
    (`on_wait` hears once that we wait), then raise PaperrankError."""
    seed.parent.mkdir(parents=True, exist_ok=True)
    path = lock_path(seed)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        waiting = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            holder = _holder(path)
            if time.monotonic() >= deadline:
                raise PaperrankError(
                    f"another `paperrank picks import`{holder} has held {seed} for more than "
                    f"{wait:g} s (lock {path}); nothing was imported: run this again when it has "
                    "finished, or give it longer with --wait SECONDS")
            if not waiting:
                on_wait(f"waiting (at most {wait:g} s) for another `paperrank picks import`"
                        f"{holder}, which is writing {seed}")
                waiting = True
            time.sleep(POLL_SECONDS)
        try:
            os.ftruncate(handle, 0)
            os.pwrite(handle, f"{os.getpid()}\n".encode(), 0)
        except OSError as error:
            if disk_error(error) is None:
                raise
            raise PaperrankError(f"cannot write {path} (the lock of {seed}): {error.strerror}; "
                                 "nothing was imported: free space or choose a writable folder, "
                                 "then run this again") from None
        remove_stale_temporaries(seed)
        yield
    finally:
        os.close(handle)  # closing the only descriptor releases the lock


def _holder(path: Path) -> str:
    """` (pid N)` of the lock's holder as it wrote it, or nothing when it has not yet."""
    try:
        pid = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


def remove_stale_temporaries(seed: Path) -> list[Path]:
    """Remove the temporaries of killed imports of `seed` (call with the lock held)."""
    ours = re.compile(re.escape(f".{seed.name}.") + r"\d+\.tmp")
    removed = []
    for path in seed.parent.iterdir():
        if (ours.fullmatch(path.name) or _LEGACY_TEMPORARY.fullmatch(path.name)) \
                and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def write_atomically(seed: Path, text: str,
                     check: Callable[[Path], str | None] = lambda written: None) -> None:
    """Replace `seed` by `text`: temporary file with the seed's mode, fsync, `check` of the
    temporary (a problem refuses the write: the temporary goes, the seed stays), rename, fsync
    of the folder (call with the lock held)."""
    mode = (seed.stat().st_mode & 0o7777) if seed.exists() else None
    temporary = temporary_path(seed)
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if mode is not None:
                os.fchmod(handle, mode)  # the seed's own mode, whatever the umask
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(handle, data):]
            os.fsync(handle)
        finally:
            os.close(handle)
        problem = check(temporary)
        if problem is not None:
            temporary.unlink(missing_ok=True)
            raise PaperrankError(f"{problem}; {seed} was left as it was")
        os.replace(temporary, seed)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        if disk_error(error) is not None:  # named here: os.write's error names no file
            what = f"{seed} was left as it was: free space or choose a writable folder"
        elif error.errno == errno.ENOENT and not seed.parent.is_dir():
            what = f"its folder {seed.parent} is gone: create it or choose another --seed"
        else:
            raise
        raise PaperrankError(f"cannot write {seed} (its new version {temporary.name}): "
                             f"{error.strerror}; {what}, then run this again") from None
    folder = os.open(seed.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
