"""The quality gates of `make rank`, as child processes beside dbt.

Both start when the pipeline starts.  The raw gate reads the working warehouse at once
(read-only, closed before it validates) while this process starts dbt and parses the project,
which does not open the warehouse; dbt build waits for its verdict.  The marts gate imports
great-expectations during the build and checks the marts when told the build is done.  Each
report goes to the pipeline's log, and to the screen when the gate fails.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.settings import Settings


class GateFailed(RuntimeError):
    """A quality gate failed (its report has been printed); nothing is published."""


class Gate:
    def __init__(self, stage: str, chosen: Settings, log: Path, wait: bool = False) -> None:
        self.stage, self.log = stage, log
        command = [sys.executable, "-m", "pipeline.gate", "--stage", stage,
                   "--taxonomy", chosen.taxonomy, "--top-n", str(chosen.top_n)]
        if chosen.profile and stage == "raw":
            command += ["--profile", chosen.profile]
        if wait:
            command.append("--wait")
        self.output = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 (closed in result)
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE if wait else subprocess.DEVNULL,
                                        stdout=self.output, stderr=subprocess.STDOUT, text=True)

    def go(self) -> None:
        """Tell a waiting gate that the build is done."""
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.close()

    def result(self) -> None:
        """Wait for the verdict; raise GateFailed (after printing the report) on failure."""
        code = self.process.wait()
        self.output.seek(0)
        report = self.output.read()
        self.output.close()
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(report)
        if code != 0:
            print("\n" + report.rstrip(), flush=True)
            raise GateFailed(f"the {self.stage} quality checks failed (report above and in "
                             f"{self.log}); nothing was published")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
