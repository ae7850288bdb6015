"""`paperrank classify`: import labels, run the classifier, evaluate labels, check the endpoint.

Each command parses its options and calls `paperrank.classify` (or the label loader of
`paperrank.ingest`), imported inside the command: the LLM client loads only for the commands
that use it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from paperrank.cli.lazy import LazyGroup
from paperrank.core import config

COMMANDS = {
    "import": ("paperrank.cli.classify:import_command", "import labels from CSV, parquet or JSONL"),
    "run": ("paperrank.cli.classify:run", "classify unlabeled accepted papers with an LLM or keywords"),
    "eval": ("paperrank.cli.classify:evaluate", "agreement between two label sets"),
    "check": ("paperrank.cli.classify:check", "check the LLM key and endpoint before a run"),
}


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS)
def classify() -> None:
    """Give every accepted paper one category of a taxonomy (an LLM, keywords, or imported labels)."""


@click.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--taxonomy", required=True, help="taxonomy of seeds/taxonomies.csv")
@click.option("--model", help="name stored as the labels' model (default: import:<file name>)")
def import_command(path: Path, taxonomy: str, model: str | None) -> None:
    """`paperrank classify import PATH --taxonomy NAME`: load labels someone else produced.

    Label sets arrive as CSV, parquet or JSONL from other tools (the peer ICLR 2026 labels are one),
    so column names vary; the aliases below cover the common ones. A label whose category is not in
    the taxonomy, or whose paper is unknown, is kept aside in `raw.rejected_records`, never loaded.
    """
    from paperrank.ingest.labels import import_labels

    import_labels(path, taxonomy, model)


@click.command("run")
@click.option("--taxonomy", default=config.DEFAULT_TAXONOMY,
              help=f"taxonomy name in seeds/taxonomies.csv (default {config.DEFAULT_TAXONOMY})")
@click.option("--backend", type=click.Choice(("openai", "keywords")), default="openai",
              help="openai: any OpenAI-compatible endpoint; keywords: offline rules")
@click.option("--model", help="model name (default from the config file)")
@click.option("--base-url", help="endpoint base URL (default from the config file)")
@click.option("--concurrency", type=int, help="requests in flight at once")
@click.option("--limit", type=int, help="classify at most this many papers")
@click.option("--venue", help="only papers of this venue (raw.papers.venue)")
@click.option("--skip-failed", is_flag=True,
              help="do not retry papers that failed for this model and prompt before")
@click.option("--skip-overridden", is_flag=True,
              help="skip papers whose primary area seeds/primary_area_overrides.csv assigns a "
                   "category (e.g. datasets and benchmarks)")
@click.option("--timeout", type=float, help="seconds per request")
@click.option("--max-attempts", type=int,
              help="attempts per paper on 408, 409, 429, 5xx, timeouts and connection errors "
                   "(the openai client's retries, its backoff and Retry-After handling)")
@click.option("--invalid-attempts", type=int, help="attempts per paper when the answer breaks the schema")
@click.option("--config", help="config file (default: PAPERRANK_CLASSIFY_CONFIG, else paperrank/classify/config.toml)")
@click.option("--db", help="warehouse file (default: PAPERRANK_DB or the project's)")
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.option("--strategy", type=click.Choice(("every", "sampled")), default="every",
              help="every: the LLM labels every paper; sampled: the LLM labels a random sample, a "
                   "classifier trained on it labels the papers it is sure of, the LLM the rest and a "
                   "check sample ([sampled] of the config; docs/related-papers.md)")
def run(**options: Any) -> None:
    """Classify every accepted paper that has no label yet for a taxonomy, model and prompt.

    \b
    Examples:
      paperrank classify run --taxonomy icml2026                     # LLM from classify/config.toml
      paperrank classify run --taxonomy icml2026 --backend keywords  # offline, deterministic
      paperrank classify run --taxonomy iclr2026 --model M --base-url URL --concurrency 32
      paperrank classify run --taxonomy iclr2026 --strategy sampled  # about half the LLM calls

    The API key is read from the environment variable named by `api_key_env` in the config
    (OPENAI_API_KEY by default).  Each answer is written to raw.llm_responses as it arrives, so a
    killed run loses nothing and the next run only asks for papers still without an answer.
    """
    from paperrank.classify.runner import ClassificationIncomplete, RunOptions, execute, render_summary

    stats, info = execute(RunOptions(**options))
    print(render_summary(stats, info))
    if stats.interrupted:  # the run was interrupted: what was answered is stored
        click.get_current_context().exit(130)
    failed = sum(o.status != "ok" for o in stats.outcomes)
    if failed:
        raise ClassificationIncomplete(f"classify run: {failed} of {stats.pending} papers got no "
                                       "valid answer (retried on the next run)")


@click.command("eval")
@click.option("--taxonomy", required=True, help="taxonomy of seeds/taxonomies.csv")
@click.option("--against", required=True,
              help="label file, or the model name of a label set in the warehouse")
@click.option("--model", help="warehouse labels of this model only")
@click.option("--output", type=click.Path(path_type=Path),
              help="also write confusion.csv, crosstab.csv and metrics.csv here")
def evaluate(taxonomy: str, against: str, model: str | None, output: Path | None) -> None:
    """Agreement between the warehouse's labels and another label set.

    \b
    Examples:
      paperrank classify eval --taxonomy iclr2026 \\
          --against ../shared/data/iclr2026/peer_llm_labels.parquet
      paperrank classify eval --taxonomy icml2026 --model Qwen/Qwen3.5-397B-A17B --against keywords-v1

    The warehouse side is the latest label per paper of the taxonomy (of --model if given;
    otherwise of any model except the one compared against), read from the labels dbt ranks
    with (staging.stg_raw__paper_labels, so `dbt build` must have run on the warehouse).  --against is a
    label file (CSV, parquet, JSONL) or the model name of a label set already in the warehouse.
    Prints the confusion matrix (rows: warehouse, columns: against), accuracy, Cohen's kappa and
    a cross-tab of the warehouse categories against the papers' primary areas.
    """
    from paperrank.classify.evaluate import evaluate_and_write

    evaluate_and_write(taxonomy, against, model, output)


@click.command("check")
@click.option("--base-url", help="endpoint base URL (default from the config file)")
@click.option("--model", help="model name (default from the config file)")
@click.option("--config", "config_file",
              help="config file (default: PAPERRANK_CLASSIFY_CONFIG, else paperrank/classify/config.toml)")
def check(base_url: str | None, model: str | None, config_file: str | None) -> None:
    """`paperrank classify check`: is the LLM endpoint ready, before a long run needs it?

    Checks, in order, that the key is set (in the variable the config names), that the endpoint
    answers, and that it accepts the key; and says whether it lists the configured model.  `make
    run` calls it before fetching from OpenReview, so a missing key or a wrong URL stops the job
    in seconds, not after the crawl.  Exit 0 when ready, 2 (one line saying what to fix) if not.
    The answer is bounded like the run's (`paperrank.classify.http`): a redirect to another host,
    an answer past the size bound or JSON nested past the depth bound is refused in one line.
    """
    from paperrank.classify.check import check_endpoint

    check_endpoint(base_url, model, config_file)
