"""`python -m paperrank.pipeline demo` (`make demo`): the whole job offline, with a short report.

Each step prints one progress line; its full output goes to a log file.  The closing summary
says what the analyst needs: papers per category, what was not ranked and why (the
datasets-and-benchmarks override moves papers out of the classifier's categories), where the
published warehouse, the CSVs and the logs are, a query that works as printed, what next.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from paperrank.pipeline.rank import DEFAULT_REPORT_DIR, Steps, rank
from paperrank.pipeline.settings import Settings
from paperrank.publish import publish

VENUE = "SYNTH 2026"
TAXONOMY = "icml2026"
DEMO_DIR = Path("output") / "demo"
QUERY = ("select category, category_rank, paper_id, round(local_top_overall, 3) as score, title "
         "from marts.category_top_n where category_rank <= 3 order by category, category_rank")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--papers", type=int, default=None, help="papers of the synthetic venue "
                        "(default: ICML 2026's 6,352)")
    parser.add_argument("--out", type=Path, default=DEMO_DIR,
                        help=f"folder of the venue files, CSVs and logs (default {DEMO_DIR})")
    parser.add_argument("--report-dir", type=Path, default=DEFAULT_REPORT_DIR,
                        help=f"folder of the experts' report page (default {DEFAULT_REPORT_DIR})")


def run(args: argparse.Namespace) -> int:
    out: Path = args.out
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    working, published = Path(os.environ["PAPERRANK_DB"]), publish.published_path()
    working.unlink(missing_ok=True)
    venue_file, truth = out / "synth_2026.parquet", out / "synth_2026_themes.parquet"
    papers = ["--papers", str(args.papers)] if args.papers else []
    steps = Steps(3)
    print("paperrank demo: a SYNTHETIC venue generated here (not real ICML 2026 data); "
          f"full logs in {logs}/", flush=True)
    steps.run("generate the synthetic venue", lambda: _python(
        logs / "1_synthetic.log", "paperrank.ingest", "synthetic", "--out", str(venue_file),
        "--labels-out", str(truth), "--venue", VENUE, *papers))
    steps.run("load it into the working warehouse", lambda: _python(
        logs / "2_load.log", "paperrank.ingest", "file", str(venue_file), "--venue", VENUE,
        "--profile", "iclr2026"))
    steps.run("label it (offline keyword classifier)", lambda: _python(
        logs / "3_classify.log", "paperrank.classify", "run", "--taxonomy", TAXONOMY, "--backend", "keywords"))
    print("rank, audit, publish, export:", flush=True)
    exports = out / "exports"
    rank(Settings(taxonomy=TAXONOMY, profile="iclr2026"), exports, False, logs / "4_rank.log",
         args.report_dir)
    # eval reads the labels dbt ranks with (staging.stg_raw__paper_labels), so it runs after the build
    evaluation = logs / "5_label_agreement.log"
    Steps(1).run("compare the labels with the venue's true themes", lambda: _python(
        evaluation, "paperrank.classify", "eval", "--taxonomy", TAXONOMY, "--against", str(truth)))
    print(summary(published, working, exports, logs, evaluation, args.report_dir), flush=True)
    return 0


def _python(log: Path, *args: str) -> None:
    """Run `python -m <args>` with its output in `log`; on failure show the log's end."""
    started = time.monotonic()
    with log.open("w", encoding="utf-8") as handle:
        code = subprocess.run([sys.executable, "-m", *args], stdout=handle, stderr=subprocess.STDOUT,
                              check=False).returncode
    if code != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:])
        raise RuntimeError(f"python -m {' '.join(args[:2])} exited {code} after "
                           f"{time.monotonic() - started:.0f} s; end of {log}:\n{tail}")


def summary(published: Path, working: Path, exports: Path, logs: Path, evaluation: Path,
            report_dir: Path) -> str:
    con = duckdb.connect(str(published), read_only=True)
    try:
        build_id, top_n = con.execute(
            "select min(build_id), min(top_n) from marts.build_settings").fetchone()
        categories = con.execute("""
            with papers as (
                select category, category as label_category, category_source from marts.paper_rankings
                where category_source = 'label'
                union all select category, label_category, category_source from marts.excluded_papers
            )
            select s.category, s.ranked_papers, s.is_category_ranked,
                   (select count(*) from papers as p where p.label_category = s.category) as labelled,
                   (select count(*) from papers as p where p.label_category = s.category
                        and p.category_source = 'primary_area_override'
                        and p.category <> s.category) as moved_out
            from marts.category_summary as s
            order by s.is_category_ranked desc, s.ranked_papers desc, s.category
        """).fetchall()
        excluded = con.execute("""
            select exclusion_reason, count(*), any_value(exclusion_detail)
            from marts.excluded_papers group by 1 order by 2 desc
        """).fetchall()
    finally:
        con.close()
    lines = ["", f"Ranked papers per category (the top {top_n} of each go to the experts):"]
    for category, ranked, is_ranked, labelled, moved in categories:
        if not is_ranked:
            continue
        note = f"  ({labelled} labelled; {moved} moved out by the primary-area override)" if moved else ""
        lines.append(f"  {category:<28} {ranked:>6}{note}")
    lines.append(f"Not ranked: {sum(n for _, n, _ in excluded)} accepted papers")
    for reason, count, example in excluded:
        lines.append(f"  {reason:<22} {count:>6}  e.g. {example}")
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
        f"  experts' report      {report_dir}/  (one HTML page per venue; open it in a browser)",
        f"  logs                 {logs}/  (dbt's: {os.environ.get('DBT_LOG_PATH', 'logs')}/dbt.log)",
        "Query the published warehouse:",
        f"  {query}",
        "Next: a real venue with `make run VENUE_ID=... VENUE=...` (README, 'Running a venue'); "
        "`make help` lists every target and setting.",
    ]
    return "\n".join(lines)
