"""Benchmark `paperrank classify run` against a local endpoint that answers after a fixed delay.

    python -m bench.classify_bench                       # 6,352 papers, 1 s answers, c=16,32,64
    python -m bench.classify_bench --papers 500 --concurrency 8 16

For each concurrency: a fresh warehouse with N synthetic accepted papers, one full run (papers
per second), then a rerun with everything cached (its wall time and request count, which must
be zero).  The endpoint is tests/python/fake_llm_server.py in its own process.  Results are
printed and written to output/bench/classify_bench.csv.  Not a test: nothing is asserted
except that the cached rerun makes no request.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "python" / "fake_llm_server.py"
ABSTRACT = (
    "We study a problem that matters for machine learning practice and propose a method that "
    "is simple, general and efficient. Experiments on standard benchmarks show consistent gains "
    "over strong baselines, and an analysis explains when and why the method helps. "
) * 4


def seed(db: Path, papers: int) -> None:
    from paperrank.core.loads import Batch, write_batch
    from paperrank.core.warehouse import connect

    rows: list[dict[str, Any]] = [
        {"paper_id": f"bench{i:05d}", "venue": "Bench 2026", "title": f"Benchmark paper {i}",
         "abstract": ABSTRACT, "primary_area": "other", "keywords": [], "status": "Poster",
         "is_accepted": True, "forum_url": None, "pdf_url": None}
        for i in range(papers)
    ]
    con = connect(db)
    try:
        write_batch(con, Batch(kind="bench", source="bench", snapshot_at=datetime.now(UTC),
                               records_read=len(rows), papers=rows))
    finally:
        con.close()


def one_run(base_url: str, concurrency: int, taxonomy: str):
    from paperrank.classify import runner

    options = runner.RunOptions(
        taxonomy=taxonomy, model="bench-model", base_url=base_url, concurrency=concurrency,
        timeout=30, max_attempts=3, no_progress=True)
    started = time.perf_counter()
    stats, _ = runner.execute(options)
    return stats, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=6352)
    parser.add_argument("--delay", type=float, default=1.0, help="seconds per answer")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[16, 32, 64])
    parser.add_argument("--taxonomy", default="icml2026")
    parser.add_argument("--out", type=Path,
                        default=ROOT / "output" / "bench" / "classify_bench.csv")
    args = parser.parse_args(argv)

    server = subprocess.Popen([sys.executable, str(SERVER), "--delay", str(args.delay)],
                              stdout=subprocess.PIPE, text=True)
    results = []
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        if not base_url.startswith("http"):
            raise RuntimeError("the fake endpoint did not start")
        os.environ.setdefault("OPENAI_API_KEY", "bench-key")
        for concurrency in args.concurrency:
            with tempfile.TemporaryDirectory(prefix="classify-bench-") as tmp:
                db = Path(tmp) / "bench.duckdb"
                os.environ["PAPERRANK_DB"] = str(db)
                seed(db, args.papers)
                stats, total = one_run(base_url, concurrency, args.taxonomy)
                ok = sum(o.status == "ok" for o in stats.outcomes)
                rerun, rerun_total = one_run(base_url, concurrency, args.taxonomy)
                if rerun.requests:
                    raise RuntimeError(f"cached rerun made {rerun.requests} requests")
                row = {
                    "papers": args.papers, "delay_s": args.delay, "concurrency": concurrency,
                    "classified": ok, "requests": stats.requests,
                    "wall_s": round(stats.wall_seconds, 2), "total_s": round(total, 2),
                    "papers_per_s": round(ok / stats.wall_seconds, 2),
                    "ideal_papers_per_s": round(concurrency / args.delay, 2),
                    "cached_rerun_s": round(rerun_total, 3),
                    "cached_rerun_requests": rerun.requests,
                }
                results.append(row)
                print(", ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(results[0]))
        writer.writeheader()
        writer.writerows(results)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
