"""Classifier backends: an OpenAI-compatible chat endpoint, and the offline keyword rules.

Both answer one paper at a time through `classify(paper, record)`, calling `record(row)` for
every answer the moment it arrives, so the runner and the audit table treat them alike.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from classify.config import LLMConfig
from classify.keywords import build_rules
from classify.prompt import Prompt, build_prompt
from classify.schema import InvalidAnswer, parse_answer
from classify.store import Paper
from classify.taxonomy import Taxonomy

Record = Callable[[dict[str, Any]], None]
RETRIED_4XX = (408, 409, 425)  # besides 429: request timeout, conflict, too early


class FatalEndpointError(ValueError):
    """The endpoint refuses every request (bad key, unknown model, wrong URL): stop the run."""


class Redactor:
    """Removes the API key from any text before it is stored or shown."""

    def __init__(self, *secrets: str | None) -> None:
        self.secrets = [s for s in secrets if s and len(s) >= 4]

    def __call__(self, text: Any) -> Any:
        if not isinstance(text, str):
            return text
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text


def safe_url(url: str) -> str:
    """A base URL without credentials, query or fragment, fit for logs and the warehouse."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def is_loopback(url: str) -> bool:
    return (urlsplit(url).hostname or "") in {"localhost", "127.0.0.1", "::1"}


@dataclass
class Outcome:
    """What happened to one paper in this run."""

    paper_id: str
    status: str  # ok | failed
    category: str | None = None
    reason: str | None = None
    requests: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _now() -> datetime:
    return datetime.now(UTC)


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date), if given."""
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, (parsedate_to_datetime(value) - _now()).total_seconds())
    except (TypeError, ValueError):
        return None


class OpenAIBackend:
    """Chat completions with a strict JSON schema, temperature 0, own retries and backoff."""

    name = "openai"

    def __init__(self, taxonomy: Taxonomy, config: LLMConfig, api_key: str,
                 client: Any | None = None) -> None:
        self.taxonomy = taxonomy
        self.config = config
        self.prompt: Prompt = build_prompt(taxonomy)
        self.model = config.model
        self.prompt_hash = self.prompt.hash
        self.endpoint = safe_url(config.base_url)
        self.redact = Redactor(api_key)
        self.client = client or openai.AsyncOpenAI(
            api_key=api_key, base_url=config.base_url, timeout=config.timeout, max_retries=0,
        )
        self.requests = 0

    async def aclose(self) -> None:
        await self.client.close()

    def _backoff(self, attempt: int) -> float:
        base = self.config.backoff_initial * (2 ** (attempt - 1))
        return min(self.config.backoff_max, base * (0.5 + random.random() / 2))

    def _row(self, paper: Paper, **values: Any) -> dict[str, Any]:
        row = {
            "paper_id": paper.paper_id, "taxonomy": self.taxonomy.name, "backend": self.name,
            "model": self.model, "prompt_hash": self.prompt_hash, "endpoint": self.endpoint,
        }
        row.update(values)
        for key in ("raw_response", "failure_reason", "rationale"):
            row[key] = self.redact(row.get(key))
        return row

    async def classify(self, paper: Paper, record: Record) -> Outcome:
        cfg = self.config
        messages = self.prompt.messages(paper.title, paper.abstract)
        outcome = Outcome(paper.paper_id, "failed")
        transport_failures = 0
        invalid_answers = 0
        while True:
            requested_at = _now()
            started = time.perf_counter()
            outcome.requests += 1
            self.requests += 1
            wait: float | None = None
            completion: Any = None
            body_text: str | None = None
            try:
                # a hard bound on top of the client's timeout (which is per read, not total)
                async with asyncio.timeout(cfg.timeout * 2):
                    raw = await self.client.chat.completions.with_raw_response.create(
                        model=self.model,
                        messages=messages,
                        temperature=cfg.temperature,
                        max_tokens=cfg.max_tokens,
                        response_format=self.prompt.response_format,
                        extra_body=cfg.extra_body or None,
                    )
            except (openai.AuthenticationError, openai.PermissionDeniedError,
                    openai.NotFoundError) as error:
                raise FatalEndpointError(
                    f"the endpoint {self.endpoint} refused the request with HTTP "
                    f"{error.status_code}; check the model name, base URL and API key variable "
                    f"{cfg.api_key_env}"
                ) from None
            except openai.RateLimitError as error:
                reason = "HTTP 429"
                wait = retry_after_seconds(error.response.headers)
            except openai.APIStatusError as error:
                reason = f"HTTP {error.status_code}"
                if error.status_code < 500 and error.status_code not in RETRIED_4XX:
                    # a request the endpoint will never accept: give this paper up for the run
                    record(self._row(paper, status="failed", failure_reason=reason,
                                     attempt=outcome.requests, http_status=error.status_code,
                                     requested_at=requested_at))
                    outcome.reason = reason
                    return outcome
            except (openai.APITimeoutError, TimeoutError):
                reason = "timeout"
            except openai.APIConnectionError:
                reason = "connection error"
            except openai.APIError:
                reason = "client error"
            else:
                reason = None
                body_text = raw.text  # the exact answer, kept for the audit
                try:
                    completion = raw.parse()
                except (openai.APIResponseValidationError, ValueError, TypeError):
                    completion = None  # a 200 whose body is not a chat completion
            if reason is not None:
                transport_failures += 1
                if transport_failures >= cfg.max_attempts:
                    final = f"{reason} after {transport_failures} attempts"
                    record(self._row(paper, status="failed", failure_reason=final,
                                     attempt=outcome.requests, requested_at=requested_at))
                    outcome.reason = reason
                    return outcome
                outcome.retries += 1
                if wait is None:
                    wait = self._backoff(transport_failures)
                await asyncio.sleep(min(wait, cfg.backoff_max))
                continue

            latency_ms = (time.perf_counter() - started) * 1000
            usage = getattr(completion, "usage", None)
            prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
            outcome.prompt_tokens += prompt_tokens
            outcome.completion_tokens += completion_tokens
            common = {
                "attempt": outcome.requests, "http_status": 200, "latency_ms": latency_ms,
                "requested_at": requested_at, "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": int(getattr(usage, "total_tokens", 0) or 0)
                or prompt_tokens + completion_tokens,
                "response_model": getattr(completion, "model", None),
                "raw_response": body_text if body_text is not None else _dump(completion),
            }
            finish_reason = None
            try:
                if completion is None or isinstance(completion, str):
                    raise InvalidAnswer("unreadable response")
                choices = getattr(completion, "choices", None)
                if not choices or not isinstance(choices, list):
                    raise InvalidAnswer("no choices")
                choice = choices[0]
                finish_reason = getattr(choice, "finish_reason", None)
                message = getattr(choice, "message", None)
                if message is None:
                    raise InvalidAnswer("no message")
                if getattr(message, "refusal", None):
                    raise InvalidAnswer("refusal")
                if finish_reason == "length":
                    raise InvalidAnswer("truncated answer", "finish_reason=length")
                answer = parse_answer(getattr(message, "content", None), self.taxonomy)
            except InvalidAnswer as error:
                invalid_answers += 1
                record(self._row(paper, status="invalid", failure_reason=str(error),
                                 finish_reason=finish_reason, **common))
                if invalid_answers >= cfg.invalid_attempts:
                    final = f"invalid answer: {error.kind}"
                    record(self._row(paper, status="failed", failure_reason=final,
                                     attempt=outcome.requests))
                    outcome.reason = final
                    return outcome
                outcome.retries += 1
                continue
            record(self._row(paper, status="ok", category=answer.category,
                             confidence=answer.confidence, rationale=answer.rationale,
                             finish_reason=finish_reason, **common))
            outcome.status = "ok"
            outcome.category = answer.category
            return outcome


def _dump(completion: Any) -> str | None:
    if completion is None:
        return None
    if isinstance(completion, str):
        return completion
    try:
        return completion.model_dump_json(warnings=False)
    except Exception:  # noqa: BLE001 - audit text only; never fail a run over it
        return json.dumps(str(completion))


class KeywordsBackend:
    """The deterministic offline classifier, stored exactly like an LLM's answers."""

    name = "keywords"
    endpoint = None

    def __init__(self, taxonomy: Taxonomy, config: LLMConfig, model: str | None = None) -> None:
        self.taxonomy = taxonomy
        self.rules = build_rules(taxonomy)
        self.model = model or config.keywords_model
        self.prompt_hash = self.rules.hash
        self.requests = 0

    async def aclose(self) -> None:
        return None

    async def classify(self, paper: Paper, record: Record) -> Outcome:
        requested_at = _now()
        started = time.perf_counter()
        answer, scores = self.rules.classify(paper.title, paper.abstract)
        latency_ms = (time.perf_counter() - started) * 1000
        raw = json.dumps({"category": answer.category, "confidence": answer.confidence,
                          "rationale": answer.rationale, "scores": scores}, ensure_ascii=False)
        record({
            "paper_id": paper.paper_id, "taxonomy": self.taxonomy.name, "backend": self.name,
            "model": self.model, "prompt_hash": self.prompt_hash, "status": "ok",
            "category": answer.category, "confidence": answer.confidence,
            "rationale": answer.rationale, "attempt": 1, "latency_ms": latency_ms,
            "requested_at": requested_at, "prompt_tokens": 0, "completion_tokens": 0,
            "total_tokens": 0, "response_model": self.model, "raw_response": raw,
        })
        return Outcome(paper.paper_id, "ok", category=answer.category)
