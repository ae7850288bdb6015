"""make hands every variable to paperrank as the very text typed.

The real Makefile runs each target's recipe with `PAPERRANK` pointed at a stand-in that prints
the arguments it was given: a venue with double quotes, a `$`, backticks and two spaces, an
output folder with a space, must arrive byte for byte (`make rank VENUE='Venue "Q" 2026'` once
reached paperrank as `Venue Q 2026`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from project import REPO

ODD = 'Venue "Q" 2026 $HOME $(VENUE) `touch pwned` it\'s  two  spaces'
FOLDER = "out dir/$USER"


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("make_stub") / "paperrank"
    path.write_text("#!/bin/sh\nexec \"$PYTHON_FOR_STUB\" -c 'import json, sys; "
                    "print(json.dumps(sys.argv[1:]))' \"$@\"\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def make(stub: Path, tmp_path: Path, *args: str) -> list[list[str]]:
    """The argument lists `make <args>` gave paperrank, in order, run in a folder of its own
    with the project's Makefile (a backtick the shell ran would leave `pwned` there)."""
    for name in ("Makefile", "dbt_project.yml", "pyproject.toml"):
        shutil.copy2(REPO / name, tmp_path / name)  # its time kept: the venv is up to date
    env = {**os.environ, "PYTHON_FOR_STUB": sys.executable}
    result = subprocess.run(["make", "--no-print-directory", "-s", "-o", "setup", *args,
                             f"PAPERRANK={stub}", f"VENV={REPO / '.venv'}"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (tmp_path / "pwned").exists()
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("[")]


def after(argv: list[str], option: str) -> str:
    return argv[argv.index(option) + 1]


@pytest.mark.parametrize("target", ["rank", "build", "publish", "rollback", "export", "report"])
def test_a_venue_arrives_unchanged(stub: Path, tmp_path: Path, target: str) -> None:
    (argv,) = make(stub, tmp_path, target, f"VENUE={ODD}", f"REPORT_DIR={FOLDER}",
                   f"EXPORT_DIR={FOLDER}", "TOP_N=7")
    assert argv[0] == target
    assert after(argv, "--venue") == ODD
    folder_option = {"report": "--out-dir", "export": "--export-dir"}.get(target)
    if folder_option:
        assert after(argv, folder_option) == FOLDER
    if target in ("rank", "build", "publish"):
        assert after(argv, "--top-n") == "7"


def test_run_hands_every_step_its_text(stub: Path, tmp_path: Path) -> None:
    calls = make(stub, tmp_path, "run", f"VENUE_ID={ODD}/id", f"LLM_URL=http://{ODD}",
                 f"TAXONOMY={ODD}")
    assert [c[:2] for c in calls] == [["classify", "check"], ["ingest", "openreview"],
                                      ["classify", "run"], ["rank", "--taxonomy"]]
    assert after(calls[0], "--base-url") == f"http://{ODD}"
    assert after(calls[1], "--venue-id") == f"{ODD}/id"
    assert after(calls[1], "--venue") == f"{ODD}/id"  # no VENUE: the venue id
    assert after(calls[2], "--taxonomy") == ODD and after(calls[3], "--taxonomy") == ODD
