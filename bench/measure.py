"""Wall time and peak memory of one command, measured in a fresh process.

`getrusage(RUSAGE_CHILDREN).ru_maxrss` is the largest RSS of any child a process has waited
for, so a small wrapper process runs the command as its only child and reports it: each
measurement starts from zero and never sees the benchmark's own memory. The same call gives
the CPU seconds (user + system) of the command's process tree, which a busy machine inflates
far less than wall time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"returncode": done.returncode, "wall": wall, "peak_kb": usage.ru_maxrss,
                  "cpu": usage.ru_utime + usage.ru_stime,
                  "stdout": done.stdout[-20000:], "stderr": done.stderr[-5000:]}))
"""


@dataclass(frozen=True)
class Measurement:
    wall_s: float
    peak_rss_mb: float
    stdout: str
    cpu_s: float = 0.0  # user + system seconds of the command and its children


class CommandFailed(RuntimeError):
    pass


def measure(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 1800) -> Measurement:
    """Run `command` once in a fresh wrapper process; raise CommandFailed if it fails."""
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *command], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise CommandFailed(f"measure wrapper failed: {done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["returncode"] != 0:
        raise CommandFailed(
            f"{' '.join(command)} exited {report['returncode']}\n--- stdout\n"
            f"{report['stdout'][-4000:]}\n--- stderr\n{report['stderr'][-3000:]}")
    # Linux reports ru_maxrss in kilobytes.
    return Measurement(report["wall"], report["peak_kb"] / 1024, report["stdout"], report["cpu"])


# dbt's debug log prints one "SQL status: ... in S seconds" line per statement it sends; the
# models run on worker threads, whose names print cut short ("[Thread-1 (]"), while the
# on-run-start hooks and dbt's own catalogue queries run on the main thread.
_SQL_STATUS = re.compile(r"\[(?P<thread>[^\]]*)\]: SQL status: .* in (?P<seconds>[0-9.]+) seconds")


def sql_seconds(logs: Path, workers_only: bool = False) -> float:
    """Seconds DuckDB spent in the statements dbt sent, from the dbt.log in `logs`.

    `workers_only` counts the models' statements alone (dbt's worker threads), leaving out the
    hooks and dbt's own queries, which a benchmark of a few models would otherwise mostly time.
    """
    text = (logs / "dbt.log").read_text(encoding="utf-8", errors="replace")
    return sum(float(match["seconds"]) for match in _SQL_STATUS.finditer(text)
               if not workers_only or match["thread"].startswith("Thread-"))
