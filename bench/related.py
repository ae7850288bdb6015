"""Related papers, sub-themes, the maps and the label audit (`paperrank related`): time and memory.

    python -m bench.related                       # real ICLR 2026, synthetic 100k (long and short texts)
    python -m bench.related --scales real --runs 3
    python -m bench.related --scales 100k,100k-long --runs 1   # above the approximate search's threshold

For each scale a raw layer is loaded once (the real data by the project's loaders, a synthetic
venue by bench.raw_layer); then, `--runs` times, on a fresh copy of it: `paperrank related` in a
fresh process computing everything (wall, CPU, peak RSS), and `paperrank related` again on the
same warehouse, which finds its inputs unchanged; what that adds to a rebuild is the refresh's own
seconds inside the pipeline's process (`paperrank rank` has imported DuckDB and pandas already),
timed in-process after the same imports.
The seconds of each part come from derived.computations. Medians are printed as a Markdown
table and written to output/bench/related.csv. Targets: related papers and sub-themes
of ICLR 2026 within 30 s on a quiet 2-core machine, an unchanged rebuild within 1 s, 100,000
papers within 2 GB; the maps of ICLR 2026 within 10 s (maps_s), within the same 2 GB.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import duckdb

from bench.measure import measure
from bench.raw_layer import ICLR_VENUE, load_real, write_synthetic

# the refresh as `paperrank rank` calls it, timed inside the process after the pipeline's imports
UNCHANGED = """
import json, sys, time
import paperrank.pipeline.rank
from paperrank.related.refresh import refresh
started = time.perf_counter()
results = refresh(sys.argv[1], taxonomy=sys.argv[2], say=lambda line: None)
print(json.dumps({"seconds": time.perf_counter() - started, "computed": any(r.computed for r in results)}))
"""

REPO = Path(__file__).resolve().parents[1]
SCALES = {  # name -> (papers, synthetic shape or None for the real data, taxonomy)
    "real": (0, None, "iclr2026"),
    "100k": (100_000, "base", "icml2026"),
    "100k-short": (100_000, "short", "icml2026"),
    "100k-long": (100_000, "long", "icml2026"),  # real ICLR abstracts of about 1,500 characters
}


def load(scale: str, db: Path) -> None:
    papers, shape, _ = SCALES[scale]
    if shape is None:
        load_real(db)
    else:
        write_synthetic(db, papers, shape=shape)


def parts(db: Path) -> dict[str, float]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("select part, seconds, vector_seconds from derived.computations").fetchall()
    finally:
        con.close()
    found = {part: seconds - vectors for part, seconds, vectors in rows}
    found["vectors"] = max((vectors for _, _, vectors in rows), default=0.0)
    return found


def run_scale(scale: str, runs: int, scratch: Path) -> dict[str, object]:
    loaded = scratch / f"{scale}.duckdb"
    load(scale, loaded)
    taxonomy = SCALES[scale][2]
    con = duckdb.connect(str(loaded), read_only=True)
    papers = con.execute("select count(*) from raw.papers where is_accepted").fetchall()[0][0]
    con.close()
    fresh, again, seconds, in_process = [], [], [], []
    for run in range(runs):
        db = scratch / f"{scale}-{run}.duckdb"
        shutil.copy(loaded, db)
        command = [sys.executable, "-m", "paperrank", "related", "--taxonomy", taxonomy, "--db", str(db)]
        env = dict(os.environ, PAPERRANK_DB=str(db))
        fresh.append(measure(command, cwd=REPO, env=env, timeout=7200))
        seconds.append(parts(db))
        again.append(measure(command, cwd=REPO, env=env))
        if "kept (inputs unchanged)" not in again[-1].stdout or "computed" in again[-1].stdout:
            raise RuntimeError(f"the second refresh computed something:\n{again[-1].stdout}")
        timed = json.loads(measure([sys.executable, "-c", UNCHANGED, str(db), taxonomy], cwd=REPO,
                                   env=env).stdout.strip().splitlines()[-1])
        if timed["computed"]:
            raise RuntimeError("the in-process refresh computed something")
        in_process.append(timed["seconds"])
        db.unlink()
    median = statistics.median
    return {
        "scale": scale, "papers": papers,
        "wall_s": median(m.wall_s for m in fresh), "cpu_s": median(m.cpu_s for m in fresh),
        "peak_rss_mb": max(m.peak_rss_mb for m in fresh),
        "vectors_s": median(s["vectors"] for s in seconds),
        "related_s": median(s["related"] for s in seconds),
        "subthemes_s": median(s["subthemes"] for s in seconds),
        "audit_s": median(s["audit"] for s in seconds),
        "maps_s": median(s["layouts"] for s in seconds),
        "related_and_subthemes_s": median(s["vectors"] + s["related"] + s["subthemes"] for s in seconds),
        "unchanged_in_process_s": median(in_process),
        "unchanged_wall_s": median(m.wall_s for m in again),
        "unchanged_cpu_s": median(m.cpu_s for m in again),
        "unchanged_peak_rss_mb": max(m.peak_rss_mb for m in again),
        "load_average": " / ".join(f"{x:.1f}" for x in os.getloadavg()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", default=",".join(SCALES), help=f"comma-separated, of {', '.join(SCALES)}")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=REPO / "output" / "bench" / "related.csv")
    args = parser.parse_args(argv)
    scales = [s.strip() for s in args.scales.split(",") if s.strip()]
    unknown = [s for s in scales if s not in SCALES]
    if unknown:
        parser.error(f"unknown scale(s) {', '.join(unknown)}; choose from {', '.join(SCALES)}")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-related-") as folder:
        for scale in scales:
            print(f"{scale} ({ICLR_VENUE if scale == 'real' else 'synthetic'}) ...", flush=True)
            results.append(run_scale(scale, args.runs, Path(folder)))
    columns = list(results[0])
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in results:
        print("| " + " | ".join(f"{v:,.2f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int)
                                 else str(v) for v in row.values()) + " |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(results)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
