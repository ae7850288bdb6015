"""Classifier backends: an OpenAI-compatible chat endpoint, and the offline keyword rules.

Both answer one paper at a time through `classify(paper, record)`, calling `record(row)` for
every answer the moment it arrives, so the runner and the audit table treat them alike.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import openai

from paperrank.classify.config import LLMConfig
from paperrank.classify.keywords import build_rules
from paperrank.classify.prompt import Prompt, build_prompt
from paperrank.classify.schema import InvalidAnswer, parse_answer
from paperrank.classify.store import Paper
from paperrank.classify.taxonomy import Taxonomy
from paperrank.core.errors import PaperrankError
from paperrank.core.retry import RetryPolicy, retry_after_seconds

Record = Callable[[dict[str, Any]], None]
RETRIED_4XX = (408, 409, 425)  # besides 429: request timeout, conflict, too early


class Backend(Protocol):
    """What the runner needs of a classifier: one paper at a time, answers recorded as they come."""

    model: str
    prompt_hash: str
    requests: int

    async def classify(self, paper: Paper, record: Record) -> Outcome:
        """Classify one paper; call `record(row)` for every answer (and every failure)."""
        ...

    async def aclose(self) -> None:
        """Release the client (connections) when the run ends."""
        ...


class FatalEndpointError(PaperrankError):
    """The endpoint refuses every request (bad key, unknown model, wrong URL): stop the run."""


REDACTED = "[redacted]"
# What a model name or a finish reason looks like; anything else is not stored.
MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}")
FINISH_REASON = re.compile(r"[a-z_]{1,40}")


class Redactor:
    """Removes the API key from any text before it is stored or shown.

    It runs on every string taken from an answer before anything else reads it (parsing,
    validation, truncation), so no prefix of the key can survive in a shortened message; and
    it knows the key's JSON-escaped spellings, which a JSON body may use instead.
    """

    def __init__(self, *secrets: str | None) -> None:
        forms: set[str] = set()
        for secret in (s for s in secrets if s and len(s) >= 4):
            forms |= {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=True)[1:-1],
                      "".join(f"\\u{ord(c):04x}" for c in secret)}
        self.secrets = sorted(forms, key=len, reverse=True)

    def __call__(self, text: Any) -> Any:
        if not isinstance(text, str) or not self.secrets:
            return text
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return self._json(text)

    def _json(self, text: str) -> str:
        """A JSON text whose decoded strings still hold the key (escaped in a way not listed
        above, e.g. half the characters as \\u escapes) is stored re-encoded, redacted."""
        if "\\" not in text:
            return text
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return text
        if not any(secret in json.dumps(value, ensure_ascii=False) for secret in self.secrets):
            return text
        return json.dumps(self._value(value), ensure_ascii=False)

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            for secret in self.secrets:
                value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, list):
            return [self._value(v) for v in value]
        if isinstance(value, dict):
            return {self._value(k): self._value(v) for k, v in value.items()}
        return value

    def name(self, value: Any, pattern: re.Pattern[str]) -> str | None:
        """A model name or finish reason, only when (redacted) it still looks like one."""
        text = self(value) if isinstance(value, str) else None
        return text if text is not None and pattern.fullmatch(text) else None


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


def _now() -> datetime:
    return datetime.now(UTC)


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
        self.retry = RetryPolicy(attempts=config.max_attempts,
                                 backoff_initial=config.backoff_initial,
                                 backoff_max=config.backoff_max,
                                 retry_after_max=config.backoff_max, timeout=config.timeout,
                                 jitter=True)
        self.client = client or openai.AsyncOpenAI(
            api_key=api_key, base_url=config.base_url, timeout=config.timeout, max_retries=0,
        )
        self.requests = 0

    async def aclose(self) -> None:
        await self.client.close()

    def _row(self, paper: Paper, **values: Any) -> dict[str, Any]:
        row = {
            "paper_id": paper.paper_id, "taxonomy": self.taxonomy.name, "backend": self.name,
            "model": self.model, "prompt_hash": self.prompt_hash, "endpoint": self.endpoint,
        }
        row.update(values)
        for key, value in row.items():
            row[key] = self.redact(value)  # the answer's strings are redacted already
        return row

    async def classify(self, paper: Paper, record: Record) -> Outcome:
        cfg = self.config
        request: dict[str, Any] = {  # plain JSON, as the endpoint receives it
            "model": self.model, "messages": self.prompt.messages(paper.title, paper.abstract),
            "temperature": cfg.temperature, "max_tokens": cfg.max_tokens,
            "response_format": self.prompt.response_format, "extra_body": cfg.extra_body or None,
        }
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
            reason: str | None
            try:
                # a hard bound on top of the client's timeout (which is per read, not total)
                async with asyncio.timeout(cfg.timeout * 2):
                    raw = await self.client.chat.completions.with_raw_response.create(**request)
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
                body_text = self.redact(raw.text)  # the answer, kept for the audit
                try:
                    completion = raw.parse()
                except (openai.APIResponseValidationError, ValueError, TypeError):
                    completion = None  # a 200 whose body is not a chat completion
            if reason is not None:
                transport_failures += 1
                if transport_failures >= self.retry.attempts:
                    final = f"{reason} after {transport_failures} attempts"
                    record(self._row(paper, status="failed", failure_reason=final,
                                     attempt=outcome.requests, requested_at=requested_at))
                    outcome.reason = reason
                    return outcome
                outcome.retries += 1
                await asyncio.sleep(self.retry.delay(transport_failures, wait))
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
                "response_model": self.redact.name(getattr(completion, "model", None),
                                                   MODEL_NAME),
                "raw_response": body_text if body_text is not None
                else self.redact(_dump(completion)),
            }
            finish_reason = None
            try:
                if completion is None or isinstance(completion, str):
                    raise InvalidAnswer("unreadable response")
                choices = getattr(completion, "choices", None)
                if not choices or not isinstance(choices, list):
                    raise InvalidAnswer("no choices")
                choice = choices[0]
                finish_reason = self.redact.name(getattr(choice, "finish_reason", None),
                                                 FINISH_REASON)
                message = getattr(choice, "message", None)
                if message is None:
                    raise InvalidAnswer("no message")
                if getattr(message, "refusal", None):
                    raise InvalidAnswer("refusal")
                if finish_reason == "length":
                    raise InvalidAnswer("truncated answer", "finish_reason=length")
                content = getattr(message, "content", None)
                answer = parse_answer(self.redact(content) if isinstance(content, str) else content,
                                      self.taxonomy)
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
