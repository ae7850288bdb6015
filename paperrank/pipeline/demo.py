"""The whole job offline on a synthetic venue, with a short summary (`paperrank demo`).

Each step prints one progress line; its full output goes to a log file.  The closing summary
says what the analyst needs: papers per category, what was not ranked and why (the
datasets-and-benchmarks override moves papers out of the classifier's categories), where the
published warehouse, the CSVs and the logs are, a query that works as printed, what next.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from paperrank.core import config
from paperrank.core.errors import CheckFailed
from paperrank.core.steps import Steps
from paperrank.pipeline.rank import rank
from paperrank.pipeline.settings import Settings
from paperrank.pipeline.summary import category_lines

VENUE = "SYNTH 2026"
TAXONOMY = "icml2026"
DEMO_DIR = Path("output") / "demo"
QUERY = ("select category, category_rank, paper_id, round(local_top_overall, 3) as score, title "
         "from marts.category_top_n where category_rank <= 3 order by category, category_rank")


class DemoStepFailed(CheckFailed):
    """A step of the demo exited non-zero; the end of its log says why."""


def run_demo(papers: int | None, out: Path, report_dir: Path | None) -> str:
    """Generate, load, label, rank and evaluate the synthetic venue (`out`: its files, CSVs and
    logs; `report_dir`: its page, else its own folder); the closing summary."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    working, published = config.working_db(), config.published_db()
    working.unlink(missing_ok=True)
    venue_file, truth = out / "synth_2026.parquet", out / "synth_2026_themes.parquet"
    size = ["--papers", str(papers)] if papers else []
    steps = Steps(3)
    print("paperrank demo: a SYNTHETIC venue generated here (not real ICML 2026 data); "
          f"full logs in {logs}/", flush=True)
    steps.run("generate the synthetic venue", lambda: _paperrank(
        logs / "1_synthetic.log", "ingest", "synthetic", "--out", str(venue_file),
        "--labels-out", str(truth), "--venue", VENUE, *size))
    steps.run("load it into the working warehouse", lambda: _paperrank(
        logs / "2_load.log", "ingest", "file", str(venue_file), "--venue", VENUE,
        "--profile", "iclr2026"))
    steps.run("label it (offline keyword classifier)", lambda: _paperrank(
        logs / "3_classify.log", "classify", "run", "--taxonomy", TAXONOMY, "--backend", "keywords"))
    print("rank, audit, publish, export:", flush=True)
    exports = out / "exports"
    _, destination = rank(Settings(taxonomy=TAXONOMY, profile="iclr2026"), exports, False,
                          logs / "4_rank.log", report_dir)
    # eval reads the labels dbt ranks with (staging.stg_raw__paper_labels), so it runs after the build
    evaluation = logs / "5_label_agreement.log"
    Steps(1).run("compare the labels with the venue's true themes", lambda: _paperrank(
        evaluation, "classify", "eval", "--taxonomy", TAXONOMY, "--against", str(truth)))
    return summary(published, working, exports, logs, evaluation, destination.reports)


def _paperrank(log: Path, *args: str) -> None:
    """Run `paperrank <args>` with its output in `log`; on failure show the log's end."""
    started = time.monotonic()
    with log.open("w", encoding="utf-8") as handle:
        code = subprocess.run([sys.executable, "-m", "paperrank", *args], stdout=handle, stderr=subprocess.STDOUT,
                              check=False).returncode
    if code != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:])
        raise DemoStepFailed(f"paperrank {' '.join(args[:2])} exited {code} after "
                           f"{time.monotonic() - started:.0f} s; end of {log}:\n{tail}")


def summary(published: Path, working: Path, exports: Path, logs: Path, evaluation: Path,
            report_dir: Path) -> str:
    lines, build_id, _top_n = category_lines(published, VENUE)
    agreement = re.search(r"accuracy: ([0-9.]+)", evaluation.read_text(encoding="utf-8"))
    if agreement:
        lines.append(f"Labels vs the venue's true themes: accuracy {agreement[1]} ({evaluation})")
    python = Path(sys.executable)
    python_shown = os.path.relpath(python) if not str(os.path.relpath(python)).startswith("..") else python
    query = (f"{python_shown} -c \"import duckdb; duckdb.connect('{published}', read_only=True)"
             f".sql('{QUERY}').show(max_width=160)\"")
    lines += [
        "",
        "Where things are:",
        f"  published warehouse  {published}  (build {build_id}; what analysts query)",
        f"  working warehouse    {working}  (loaders and dbt write here)",
        f"  CSVs                 {exports}/  (one per ranked category, manifest.json)",
        f"  experts' report      {report_dir}/  (the venue's page; {config.DEFAULT_REPORT_DIR}/index.html "
        "lists every venue's; open it in a browser)",
        f"  logs                 {logs}/  (dbt's: {config.dbt_log_path()}/dbt.log)",
        "Query the published warehouse:",
        f"  {query}",
        "Next: a real venue, ICLR 2026 from the shared data (README, 'A real venue: ICLR 2026 from "
        "the shared data'), or one from OpenReview with `make run VENUE_ID=... VENUE=...` "
        "(docs/operating-a-venue.md); `make help` lists every target and setting.",
    ]
    return "\n".join(lines)
