"""Classify every accepted paper that has no label yet for a taxonomy, model and prompt.

Examples:
  python -m paperrank.classify run --taxonomy icml2026                       # LLM from classify/config.toml
  python -m paperrank.classify run --taxonomy icml2026 --backend keywords    # offline, deterministic
  python -m paperrank.classify run --taxonomy iclr2026 --model M --base-url URL --concurrency 32

The API key is read from the environment variable named by `api_key_env` in the config
(OPENAI_API_KEY by default).  Each answer is written to raw.llm_responses as it arrives, so a
killed run loses nothing and the next run only asks for papers still without an answer.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from paperrank.classify.backends import (
    FatalEndpointError,
    KeywordsBackend,
    OpenAIBackend,
    Outcome,
    is_loopback,
    safe_url,
)
from paperrank.classify.config import LLMConfig, config_path, load_config
from paperrank.classify.prompt import build_prompt
from paperrank.classify.store import (
    Paper,
    ResponseStore,
    ensure_tables,
    materialize_labels,
    pending_papers,
)
from paperrank.classify.taxonomy import load_taxonomy
from paperrank.core.errors import PaperrankError
from paperrank.core.seeds import read_seed
from paperrank.core.warehouse import connect


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--taxonomy", required=True, help="taxonomy name in seeds/taxonomies.csv")
    parser.add_argument("--backend", choices=("openai", "keywords"), default="openai",
                        help="openai: any OpenAI-compatible endpoint; keywords: offline rules")
    parser.add_argument("--model", help="model name (default from the config file)")
    parser.add_argument("--base-url", help="endpoint base URL (default from the config file)")
    parser.add_argument("--concurrency", type=int, help="requests in flight at once")
    parser.add_argument("--limit", type=int, help="classify at most this many papers")
    parser.add_argument("--venue", help="only papers of this venue (raw.papers.venue)")
    parser.add_argument("--skip-failed", action="store_true",
                        help="do not retry papers that failed for this model and prompt before")
    parser.add_argument("--skip-overridden", action="store_true",
                        help="skip papers whose primary area seeds/primary_area_overrides.csv "
                             "assigns a category (e.g. datasets and benchmarks)")
    parser.add_argument("--timeout", type=float, help="seconds per request")
    parser.add_argument("--max-attempts", type=int,
                        help="attempts per paper on 429, 5xx, timeouts and connection errors")
    parser.add_argument("--invalid-attempts", type=int,
                        help="attempts per paper when the answer breaks the schema")
    parser.add_argument("--backoff", type=float, dest="backoff_initial",
                        help="first backoff delay in seconds (doubles per retry)")
    parser.add_argument("--backoff-max", type=float, help="longest backoff or Retry-After wait")
    parser.add_argument("--config", help=f"config file (default {config_path()})")
    parser.add_argument("--db", help="warehouse file (default: PAPERRANK_DB or the project's)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


@dataclass
class RunStats:
    pending: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    wall_seconds: float = 0.0
    labels_written: int = 0
    interrupted: bool = False

    @property
    def requests(self) -> int:
        return sum(o.requests for o in self.outcomes)


def resolve_config(args: argparse.Namespace) -> LLMConfig:
    config = load_config(getattr(args, "config", None))
    return config.override(
        model=args.model if args.backend == "openai" else None,
        keywords_model=args.model if args.backend == "keywords" else None,
        base_url=args.base_url, concurrency=args.concurrency, timeout=args.timeout,
        max_attempts=args.max_attempts, invalid_attempts=args.invalid_attempts,
        backoff_initial=args.backoff_initial, backoff_max=args.backoff_max,
    ).check()


def overridden_areas(taxonomy: str) -> list[str]:
    """Primary areas whose category the override seed decides for this taxonomy."""
    return [row["primary_area"] for row in read_seed("primary_area_overrides")
            if row["taxonomy"] == taxonomy]


def api_key(config: LLMConfig) -> str:
    """The endpoint's key from the environment (not needed for a local endpoint)."""
    key = os.environ.get(config.api_key_env, "")
    if key:
        return key
    if is_loopback(config.base_url):
        return "not-needed"
    raise PaperrankError(
        f"environment variable {config.api_key_env} is not set; it must hold the API key for "
        f"{safe_url(config.base_url)} (or run offline with --backend keywords)"
    )


async def classify_all(papers: list[Paper], backend: Any, store: ResponseStore,
                       concurrency: int, stats: RunStats, progress: tqdm) -> None:
    """Run up to `concurrency` papers at once; answers are stored by the backend's callback,
    on this thread, so the one DuckDB connection sees serialized writes."""
    queue = list(reversed(papers))

    async def worker() -> None:
        while queue:
            paper = queue.pop()
            outcome = await backend.classify(paper, store.record)
            stats.outcomes.append(outcome)
            progress.update(1)
            if outcome.status != "ok":
                progress.set_postfix(failed=sum(o.status != "ok" for o in stats.outcomes))

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(max(1, min(concurrency, len(papers)))):
                group.create_task(worker())
    except* FatalEndpointError as errors:
        raise errors.exceptions[0] from None


def execute(args: argparse.Namespace) -> tuple[RunStats, dict[str, Any]]:
    """Do the run; returns the stats and a description for the summary."""
    config = resolve_config(args)
    taxonomy = load_taxonomy(args.taxonomy)
    if args.limit is not None and args.limit < 0:
        raise PaperrankError("--limit must not be negative")
    logging.getLogger("openai").setLevel(logging.WARNING)
    logging.getLogger("httpx2").setLevel(logging.WARNING)

    if args.backend == "keywords":
        backend: Any = KeywordsBackend(taxonomy, config)
        concurrency = 1
    else:
        backend = None
        concurrency = config.concurrency
    model = backend.model if backend else config.model
    prompt_hash = backend.prompt_hash if backend else build_prompt(taxonomy).hash

    info = {"taxonomy": taxonomy.name, "backend": args.backend, "model": model,
            "prompt_hash": prompt_hash, "concurrency": concurrency,
            "endpoint": safe_url(config.base_url) if args.backend == "openai" else "offline"}
    stats = RunStats()
    con = connect(args.db) if getattr(args, "db", None) else connect()
    try:
        ensure_tables(con)
        # Answers stored by a run that was killed before it could write its labels.
        stats.labels_written += materialize_labels(con, taxonomy.name)
        skip_areas = overridden_areas(taxonomy.name) if args.skip_overridden else []
        papers = pending_papers(con, taxonomy.name, model, prompt_hash, venue=args.venue,
                                skip_failed=args.skip_failed, skip_areas=skip_areas)
        if args.limit is not None:
            papers = papers[: args.limit]
        stats.pending = len(papers)
        if papers:
            if backend is None:
                backend = OpenAIBackend(taxonomy, config, api_key(config))
            started = time.perf_counter()
            progress = tqdm(total=len(papers), file=sys.stderr, unit="paper",
                            desc=f"classify {taxonomy.name}", disable=args.no_progress,
                            dynamic_ncols=True)
            store = ResponseStore(con)
            try:
                asyncio.run(_run_and_close(papers, backend, store, concurrency, stats, progress))
            except KeyboardInterrupt:
                stats.interrupted = True
            finally:
                progress.close()
                store.close()  # every answer received is in raw.llm_responses from here on
                stats.wall_seconds = time.perf_counter() - started
                # Even when the endpoint stopped the run, what was answered becomes labels.
                stats.labels_written += materialize_labels(con, taxonomy.name)
    finally:
        con.close()
    return stats, info


async def _run_and_close(papers: list[Paper], backend: Any, store: ResponseStore,
                         concurrency: int, stats: RunStats, progress: tqdm) -> None:
    try:
        await classify_all(papers, backend, store, concurrency, stats, progress)
    finally:
        await backend.aclose()


def render_summary(stats: RunStats, info: dict[str, Any]) -> str:
    ok = [o for o in stats.outcomes if o.status == "ok"]
    failed = [o for o in stats.outcomes if o.status != "ok"]
    lines = [
        f"taxonomy: {info['taxonomy']}  backend: {info['backend']}  model: {info['model']}  "
        f"prompt: {info['prompt_hash']}",
        f"endpoint: {info['endpoint']}  concurrency: {info['concurrency']}",
        f"papers to classify: {stats.pending}" + ("  (interrupted)" if stats.interrupted else ""),
        f"classified: {len(ok)}  failed: {len(failed)}",
    ]
    if ok:
        lines.append("papers per category:")
        for category, count in Counter(o.category for o in ok).most_common():
            lines.append(f"  {count:>6}  {category}")
    if failed:
        lines.append("failures by reason (retried on the next run):")
        for reason, count in Counter(o.reason for o in failed).most_common():
            lines.append(f"  {count:>6}  {reason}")
    prompt_tokens = sum(o.prompt_tokens for o in stats.outcomes)
    completion_tokens = sum(o.completion_tokens for o in stats.outcomes)
    retries = sum(o.retries for o in stats.outcomes)
    wall = stats.wall_seconds
    rate = stats.requests / wall if wall > 0 else 0.0
    paper_rate = len(stats.outcomes) / wall if wall > 0 else 0.0
    lines += [
        f"requests: {stats.requests}  retries: {retries}",
        f"tokens: {prompt_tokens + completion_tokens} (prompt {prompt_tokens}, "
        f"completion {completion_tokens})",
        f"wall time: {wall:.1f} s  requests/s: {rate:.2f}  papers/s: {paper_rate:.2f}",
        f"labels written to raw.paper_labels: {stats.labels_written}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        stats, info = execute(args)
    except FatalEndpointError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(render_summary(stats, info))
    if stats.interrupted:
        return 130
    return 1 if any(o.status != "ok" for o in stats.outcomes) else 0
