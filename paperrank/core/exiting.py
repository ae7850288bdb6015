"""End a process whose work is done without the interpreter's teardown.

A process that imported dbt, pandas or great-expectations spends a large share of a short
command after its last line freeing their objects one by one (docs/architecture.md, "Speed
machinery", has the seconds), for memory the operating system takes back at once. So the entry
points end with `exit_now`: everything an orderly exit does that anyone can see still happens
(other threads finish, the exit handlers run: logging's flush, multiprocessing's finalizers, the
gate worker's stop; the standard streams are flushed), then the process ends.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn


def exit_now(code: int) -> NoReturn:
    """Finish what an orderly exit would that has an effect outside this process, then end it
    with `code`."""
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and not thread.daemon:
            thread.join()  # as the interpreter does before its exit handlers
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe or stream: nothing more can reach it
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
