"""`paperrank rank` runs without the cycle collector, in its process and in the quality gates'
worker it starts; every other command keeps it, as does `run` in a process that runs command
after command (tests, benches): paperrank.cli.WITHOUT_COLLECTOR, docs/architecture.md "Speed
machinery"."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# the console script as installed, its collector's state printed by an exit handler (which
# `exit_now` runs); `--help` ends each command before it does any work
CONSOLE = textwrap.dedent("""
    import atexit, gc, sys
    from paperrank.cli import console
    atexit.register(lambda: print("collector", "on" if gc.isenabled() else "off"))
    sys.argv = ["paperrank", *sys.argv[1:]]
    console()
""")

# the gates' worker as `paperrank rank` starts it: the argument it is given, and what its loop
# does with it once the pipe closes (its end of the pipe already closed here, so it ends at once)
WORKER = textwrap.dedent("""
    import atexit, gc, multiprocessing, sys
    from multiprocessing.context import SpawnProcess
    from paperrank.pipeline import gates

    if __name__ == "__main__":
        given = []
        start = SpawnProcess.start
        def noting_start(process):
            given.append(process._args[1])  # the worker's `collect`
            start(process)
        SpawnProcess.start = noting_start
        if sys.argv[1] == "off":
            gc.disable()
        gates._worker().stop()
        ours, theirs = multiprocessing.Pipe()
        ours.close()
        atexit.register(lambda: print("given", *given, "collector",
                                      "on" if gc.isenabled() else "off"))
        gc.enable()
        gates._serve(theirs, *given)
""")


@pytest.mark.parametrize(("argv", "state"), [
    (["rank", "--help"], "off"),
    (["build", "--help"], "on"),
    (["report", "--help"], "on"),
    (["--help"], "on"),
])
def test_only_rank_runs_without_the_collector(argv: list[str], state: str) -> None:
    ended = subprocess.run([sys.executable, "-c", CONSOLE, *argv], capture_output=True, text=True,
                           timeout=60)
    assert ended.returncode == 0, ended.stderr
    assert ended.stdout.rstrip().endswith(f"collector {state}"), ended.stdout[-500:]


@pytest.mark.parametrize("caller", ["on", "off"])
def test_the_gates_worker_follows_its_callers_collector(caller: str, tmp_path) -> None:
    script = tmp_path / "worker.py"  # spawn re-imports the main module: it needs a file
    script.write_text(WORKER, encoding="utf-8")
    ended = subprocess.run([sys.executable, str(script), caller], capture_output=True, text=True,
                           timeout=60)
    assert ended.returncode == 0, ended.stderr
    assert ended.stdout.strip() == f"given {caller == 'on'} collector {caller}", ended.stdout
