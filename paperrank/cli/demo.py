"""`paperrank demo` (`make demo`): the whole job offline, with a short report.

Each step prints one progress line; its full output goes to a log file.  The closing summary
says what the analyst needs: papers per category, what was not ranked and why (the
datasets-and-benchmarks override moves papers out of the classifier's categories), where the
published warehouse, the CSVs and the logs are, a query that works as printed, what next.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperrank.core import config
from paperrank.pipeline.demo import DEMO_DIR, run_demo


@click.command("demo", help=__doc__)
@click.option("--papers", type=int, default=None,
              help="papers of the synthetic venue (default: ICML 2026's 6,352)")
@click.option("--out", type=click.Path(path_type=Path), default=DEMO_DIR,
              help=f"folder of the venue files, CSVs and logs (default {DEMO_DIR})")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help=f"folder of the experts' report page (default {config.DEFAULT_REPORT_DIR}/synth-2026, "
                   f"listed in {config.DEFAULT_REPORT_DIR}/index.html)")
def command(papers: int | None, out: Path, report_dir: Path | None) -> None:
    print(run_demo(papers, out, report_dir), flush=True)
