"""Classify every accepted paper that has no label yet for a taxonomy, model and prompt.

Each answer is written to raw.llm_responses as it arrives, so a killed run loses nothing and the
next run asks only for papers still without an answer. The API key is read from the environment
variable the config names. `paperrank classify run` (paperrank/cli/classify.py) is its command,
whose help gives the examples.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from paperrank.classify.backends import (
    NO_KEY,
    Backend,
    FatalEndpointError,
    KeywordsBackend,
    OpenAIBackend,
    Outcome,
    is_loopback,
    safe_url,
)
from paperrank.classify.config import LLMConfig, load_config, load_sampled_config
from paperrank.classify.prompt import build_prompt
from paperrank.classify.store import (
    Paper,
    ResponseStore,
    ensure_tables,
    failed_papers,
    materialize_labels,
    pending_papers,
)
from paperrank.core.config import secret
from paperrank.core.errors import CheckFailed, PaperrankError
from paperrank.core.seeds import read_seed
from paperrank.core.taxonomy import load_taxonomy
from paperrank.core.warehouse import connect


@dataclass(frozen=True)
class RunOptions:
    """What a run was asked for; None means the config file's value."""

    taxonomy: str
    backend: str = "openai"
    model: str | None = None
    base_url: str | None = None
    concurrency: int | None = None
    limit: int | None = None
    venue: str | None = None
    skip_failed: bool = False
    skip_overridden: bool = False
    timeout: float | None = None
    max_attempts: int | None = None
    invalid_attempts: int | None = None
    config: str | None = None
    db: str | None = None
    no_progress: bool = False
    strategy: str = "every"


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


def resolve_config(args: RunOptions) -> LLMConfig:
    config = load_config(args.config)
    return config.override(
        model=args.model if args.backend == "openai" else None,
        keywords_model=args.model if args.backend == "keywords" else None,
        base_url=args.base_url, concurrency=args.concurrency, timeout=args.timeout,
        max_attempts=args.max_attempts, invalid_attempts=args.invalid_attempts,
    ).check()


def overridden_areas(taxonomy: str) -> list[str]:
    """Primary areas whose category the override seed decides for this taxonomy."""
    return [row["primary_area"] for row in read_seed("primary_area_overrides")
            if row["taxonomy"] == taxonomy]


def api_key(config: LLMConfig) -> str:
    """The endpoint's key from the environment (not needed for a local endpoint)."""
    key = secret(config.api_key_env)
    if key:
        return key
    if is_loopback(config.base_url):
        return NO_KEY
    raise PaperrankError(
        f"environment variable {config.api_key_env} is not set; it must hold the API key for "
        f"{safe_url(config.base_url)} (or run offline with --backend keywords)"
    )


async def classify_all(papers: list[Paper], backend: Backend, store: ResponseStore,
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


def execute(args: RunOptions) -> tuple[RunStats, dict[str, Any]]:
    """Do the run; returns the stats and a description for the summary."""
    config = resolve_config(args)
    taxonomy = load_taxonomy(args.taxonomy)
    if args.limit is not None and args.limit < 0:
        raise PaperrankError("--limit must not be negative")
    logging.getLogger("openai").setLevel(logging.WARNING)
    logging.getLogger("httpx2").setLevel(logging.WARNING)

    if args.backend == "keywords":
        backend: Backend | None = KeywordsBackend(taxonomy, config)
        concurrency = 1
    else:
        backend = None
        concurrency = config.concurrency
    model = backend.model if backend else config.model
    prompt_hash = backend.prompt_hash if backend else build_prompt(taxonomy).hash

    info = {"taxonomy": taxonomy.name, "backend": args.backend, "model": model,
            "prompt_hash": prompt_hash, "concurrency": concurrency,
            "endpoint": safe_url(config.base_url) if args.backend == "openai" else "offline"}
    if args.strategy == "sampled" and (args.backend != "openai" or args.limit is not None):
        raise PaperrankError("--strategy sampled saves LLM calls: it needs --backend openai and "
                             "takes no --limit")
    sampled_config = load_sampled_config(args.config) if args.strategy == "sampled" else None
    stats = RunStats()
    con = connect(args.db) if args.db else connect()

    def make_backend() -> Backend:
        return backend if backend is not None else OpenAIBackend(taxonomy, config, api_key(config))

    def ask(papers: list[Paper]) -> list[Outcome]:
        return _ask(con, papers, make_backend, concurrency, stats, args, taxonomy.name)

    try:
        ensure_tables(con)
        # Answers stored by a run that was killed before it could write its labels.
        stats.labels_written += materialize_labels(con, taxonomy.name)
        skip_areas = overridden_areas(taxonomy.name) if args.skip_overridden else []
        if sampled_config is not None:
            from paperrank.classify import sampled

            failed = {p.paper_id for p in failed_papers(con, taxonomy.name, model, prompt_hash)}
            info["sampled"] = sampled.run(
                con, taxonomy, model, prompt_hash, sampled_config,
                sampled.scope_papers(con, args.venue, skip_areas), ask, args.skip_failed, failed,
                lambda: _materialize(con, stats, taxonomy.name))
        else:
            papers = pending_papers(con, taxonomy.name, model, prompt_hash, venue=args.venue,
                                    skip_failed=args.skip_failed, skip_areas=skip_areas)
            if args.limit is not None:
                papers = papers[: args.limit]
            ask(papers)
    finally:
        con.close()
    return stats, info


def _materialize(con: Any, stats: RunStats, taxonomy: str) -> int:
    written = materialize_labels(con, taxonomy)
    stats.labels_written += written
    return written


def _ask(con: Any, papers: list[Paper], make_backend: Callable[[], Backend], concurrency: int,
         stats: RunStats, args: RunOptions, taxonomy: str) -> list[Outcome]:
    """Send `papers` to the backend, each answer stored as it arrives, then labelled; returns
    their outcomes (none once the run was interrupted)."""
    stats.pending += len(papers)
    if not papers or stats.interrupted:
        return []
    backend = make_backend()
    before = len(stats.outcomes)
    started = time.perf_counter()
    progress = tqdm(total=len(papers), file=sys.stderr, unit="paper", desc=f"classify {taxonomy}",
                    disable=args.no_progress, dynamic_ncols=True)
    store = ResponseStore(con)
    try:
        asyncio.run(_run_and_close(papers, backend, store, concurrency, stats, progress))
    except KeyboardInterrupt:
        stats.interrupted = True
    finally:
        progress.close()
        store.close()  # every answer received is in raw.llm_responses from here on
        stats.wall_seconds += time.perf_counter() - started
        # Even when the endpoint stopped the run, what was answered becomes labels.
        _materialize(con, stats, taxonomy)
    return stats.outcomes[before:]


async def _run_and_close(papers: list[Paper], backend: Backend, store: ResponseStore,
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
    if info.get("sampled") is not None:
        lines += info["sampled"].lines()
    return "\n".join(lines)


class ClassificationIncomplete(CheckFailed):
    """Some papers got no valid answer; what was answered is stored and labelled."""
