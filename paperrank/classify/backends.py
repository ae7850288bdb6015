"""Classifier backends: an OpenAI-compatible chat endpoint, and the offline keyword rules.

Both answer one paper at a time through `classify(paper, record)`, calling `record(row)` for
every answer the moment it arrives, so the runner and the audit table treat them alike.

The endpoint's answers are bounded on their way in (`paperrank.classify.http`: size, no
redirect to another host) and their JSON's nesting is checked before anything parses it; a
breach stops the run in one line.  An answer that holds the API key in any spelling
(`paperrank.core.redact`) is not stored: the paper's call fails, saying so.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import openai

from paperrank.classify.config import LLMConfig
from paperrank.classify.http import EndpointRefused, Guard
from paperrank.classify.keywords import build_rules
from paperrank.classify.prompt import Prompt, build_prompt
from paperrank.classify.schema import InvalidAnswer, parse_answer
from paperrank.classify.store import Paper
from paperrank.core import network
from paperrank.core.errors import PaperrankError
from paperrank.core.redact import REDACTED, Redactor
from paperrank.core.taxonomy import Taxonomy

__all__ = ["REDACTED", "Backend", "FatalEndpointError", "KeywordsBackend", "OpenAIBackend",
           "Outcome", "Redactor", "is_loopback", "safe_url"]

Record = Callable[[dict[str, Any]], None]
# The requests one classify() call has sent, counted as the client sends them: the openai client
# retries inside one call, and the audit counts every attempt.
_SENT: ContextVar[list[int] | None] = ContextVar("paperrank_requests_sent", default=None)
RETRY_AFTER_MAX = 60.0  # the longest Retry-After the openai client waits for


async def _count_request(request: Any) -> None:
    sent = _SENT.get()
    if sent is not None:
        sent[0] += 1


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


# What a model name or a finish reason looks like; anything else is not stored.
MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}")
FINISH_REASON = re.compile(r"[a-z_]{1,40}")
NO_KEY = "not-needed"  # what a local endpoint without a key is sent: not a secret
ECHOED_KEY = "the answer echoed the API key; not stored"


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
    """Chat completions with a strict JSON schema, temperature 0; the openai client retries
    transport failures (its backoff, Retry-After), this loop retries invalid answers only."""

    name = "openai"

    def __init__(self, taxonomy: Taxonomy, config: LLMConfig, api_key: str,
                 client: Any | None = None) -> None:
        self.taxonomy = taxonomy
        self.config = config
        self.prompt: Prompt = build_prompt(taxonomy)
        self.model = config.model
        self.prompt_hash = self.prompt.hash
        self.endpoint = safe_url(config.base_url)
        self.redact = Redactor(api_key if api_key != NO_KEY else None)
        guard = Guard(config.base_url, self.endpoint, self.redact)
        self.client = client or openai.AsyncOpenAI(
            api_key=api_key, base_url=config.base_url, timeout=config.timeout,
            max_retries=config.max_attempts - 1,
            http_client=openai.DefaultAsyncHttpxClient(
                event_hooks=guard.hooks(_count_request, asynchronous=True)),
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
        invalid_answers = 0
        # a hard bound on top of the client's timeout (which is per read, not total), over all
        # of the client's attempts and the waits between them
        bound = cfg.max_attempts * (cfg.timeout * 2 + RETRY_AFTER_MAX)
        while True:
            requested_at = _now()
            started = time.perf_counter()
            sent = [0]
            counting = _SENT.set(sent)
            refused: int | None = None
            completion: Any = None
            body_text: str | None = None
            reason: str | None
            asked = f"the request for paper {paper.paper_id}"
            try:
                async with asyncio.timeout(bound):
                    raw = await self.client.chat.completions.with_raw_response.create(**request)
            except EndpointRefused as error:  # a redirect elsewhere, an answer past the bound
                raise FatalEndpointError(error.say(asked)) from None
            except (openai.AuthenticationError, openai.PermissionDeniedError,
                    openai.NotFoundError) as error:
                raise FatalEndpointError(
                    f"the endpoint {self.endpoint} refused the request with HTTP "
                    f"{error.status_code}; check the model name, base URL and API key variable "
                    f"{cfg.api_key_env}"
                ) from None
            except openai.RateLimitError:
                reason = "HTTP 429"
            except openai.APIStatusError as error:
                reason = f"HTTP {error.status_code}"
                if error.status_code < 500 and error.status_code not in (408, 409):
                    refused = error.status_code  # the endpoint will never accept it
            except (openai.APITimeoutError, TimeoutError):
                reason = "timeout"
            except openai.APIConnectionError:
                reason = "connection error"
            except openai.APIError:
                reason = "client error"
            else:
                reason = None
                body_text = raw.text  # read whole already, within the size bound
                try:  # before anything parses it
                    network.check_depth(body_text, f"the answer of the endpoint {self.endpoint} "
                                        f"for paper {paper.paper_id}")
                except network.JsonRefused as error:
                    raise FatalEndpointError(f"{error}, nothing stored") from None
                if not self.redact.holds(body_text):
                    body_text = self.redact(body_text)  # the answer, kept for the audit
                    try:
                        completion = raw.parse()
                    except (openai.APIResponseValidationError, ValueError, TypeError):
                        completion = None  # a 200 whose body is not a chat completion
            finally:
                _SENT.reset(counting)
                attempts = max(sent[0], 1)
                outcome.requests += attempts
                outcome.retries += attempts - 1
                self.requests += attempts
            if refused is not None:  # give this paper up for the run
                record(self._row(paper, status="failed", failure_reason=reason,
                                 attempt=outcome.requests, http_status=refused,
                                 requested_at=requested_at))
                outcome.reason = reason
                return outcome
            if reason is not None:  # the client has retried it as often as it may
                final = f"{reason} after {attempts} attempts"
                record(self._row(paper, status="failed", failure_reason=final,
                                 attempt=outcome.requests, requested_at=requested_at))
                outcome.reason = reason
                return outcome
            if self.redact.holds(body_text):  # in any spelling: nothing of it is kept
                record(self._row(paper, status="failed", failure_reason=ECHOED_KEY,
                                 attempt=outcome.requests, http_status=200,
                                 requested_at=requested_at))
                outcome.reason = ECHOED_KEY
                return outcome

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
                if isinstance(content, str):
                    network.check_depth(content, f"the model's answer from {self.endpoint} for "
                                        f"paper {paper.paper_id}")
                answer = parse_answer(self.redact(content) if isinstance(content, str) else content,
                                      self.taxonomy)
            except network.JsonRefused as error:
                raise FatalEndpointError(f"{error}, nothing stored") from None
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
