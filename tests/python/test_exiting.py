"""`exit_now`, how `paperrank` and the quality gates' worker end: everything an orderly exit does
that anyone outside the process can see still happens, only the interpreter's teardown is left
out (paperrank.core.exiting)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent("""
    import atexit, sys, threading, time
    from pathlib import Path
    from paperrank.core.exiting import exit_now

    out = Path(sys.argv[1])
    atexit.register(lambda: (out / "atexit").write_text("ran"))
    def late():
        time.sleep(0.2)
        (out / "thread").write_text("finished")
    threading.Thread(target=late).start()  # not a daemon: the exit waits for it
    sys.stdout.write("no newline, still buffered")
    exit_now(int(sys.argv[2]))
    (out / "after").write_text("never")
""")


def test_exit_now_finishes_threads_handlers_and_streams_and_keeps_the_code(tmp_path: Path) -> None:
    ended = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), "3"],
                           capture_output=True, text=True, timeout=60)
    assert ended.returncode == 3
    assert ended.stdout == "no newline, still buffered"
    assert (tmp_path / "atexit").read_text() == "ran"
    assert (tmp_path / "thread").read_text() == "finished"
    assert not (tmp_path / "after").exists()


def test_paperrank_exits_with_its_code_and_message() -> None:
    refused = subprocess.run([sys.executable, "-m", "paperrank", "rank", "--top-n", "abc"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.strip() == "error: --top-n: must be a whole number >= 1, got 'abc'"
    helped = subprocess.run([sys.executable, "-m", "paperrank", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: paperrank")
