"""A small client for the parts of the OpenReview API v2 the loaders use.

It only pages through a venue's submissions (with their replies) and optionally logs in.
Everything that can go wrong on a long crawl is handled here, in one place: 429s and 5xx
answers are retried with exponential backoff that honours `Retry-After`, dropped connections
and truncated bodies are retried too, and the credentials can never reach a log line, an
exception message or a repr.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from ingest.errors import PaperrankError

DEFAULT_BASE_URL = "https://api2.openreview.net"
DEFAULT_PAGE_SIZE = 1000  # the API's maximum page size
USER_AGENT = "paperrank-ingest/0.1"


@dataclass(frozen=True)
class Credentials:
    """An OpenReview login; both fields are hidden from repr so they cannot leak into logs."""

    username: str = field(repr=False)
    password: str = field(repr=False)


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try before giving up; tests shrink the waits to milliseconds."""

    attempts: int = 6
    backoff_initial: float = 1.0  # seconds before the first retry, doubled each time
    backoff_max: float = 60.0  # cap of the exponential part
    retry_after_max: float = 300.0  # never sleep longer than this, whatever the server asks
    timeout: float = 120.0  # seconds per request


class TransientError(Exception):
    """A failure worth retrying: throttling, a server error or a broken connection."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RefusedError(ValueError):
    """The server refused the request (4xx other than 429); retrying would not help."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class OpenReviewClient:
    """Fetches notes from one OpenReview API v2 server."""

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        credentials: Credentials | None = None,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.policy = policy or RetryPolicy()
        self._credentials = credentials
        self._token: str | None = None
        self._sleep = sleep
        self._log = log or (lambda message: print(message, file=sys.stderr))

    def __repr__(self) -> str:
        logged_in = "yes" if self._token else "no"
        return f"OpenReviewClient(base_url={self.base_url!r}, logged_in={logged_in})"

    def login(self) -> None:
        """Exchange the credentials for a token (if any were given); anonymous otherwise."""
        if self._credentials is None:
            return
        body = {"id": self._credentials.username, "password": self._credentials.password}
        try:
            answer = self._request("POST", "/login", body=body)
        except RefusedError as error:
            # The server's message may echo the login; say only what the operator needs.
            raise PaperrankError(
                f"OpenReview login failed (HTTP {error.status}); check OPENREVIEW_USERNAME "
                "and OPENREVIEW_PASSWORD"
            ) from None
        except OSError:
            raise OSError("OpenReview login failed: the server could not be reached") from None
        token = answer.get("token") if isinstance(answer, dict) else None
        if not isinstance(token, str) or not token:
            raise PaperrankError("OpenReview login answered without a token")
        self._token = token

    def iter_submissions(
        self, venue_id: str, page_size: int = DEFAULT_PAGE_SIZE,
        on_total: Callable[[int], None] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Yield every submission of a venue with its replies, page by page.

        Submissions are found by the venue's submission invitation, which every submission
        keeps whatever its later status (accepted, rejected, withdrawn).  A note served twice
        (the venue changed while we paged) is yielded once.
        """
        invitation = f"{venue_id}/-/Submission"
        seen: set[str] = set()
        offset = 0
        total: int | None = None
        while True:
            params = {
                "invitation": invitation, "details": "replies",
                "offset": str(offset), "limit": str(page_size),
            }
            page = self._request("GET", "/notes", params=params)
            notes = page.get("notes") if isinstance(page, dict) else None
            if not isinstance(notes, list):
                raise PaperrankError(f"unexpected answer from {self.base_url}/notes: no notes list")
            if total is None and isinstance(page.get("count"), int):
                total = page["count"]
                if on_total:
                    on_total(total)
            for note in notes:
                note_id = note.get("id") if isinstance(note, dict) else None
                if isinstance(note_id, str) and note_id in seen:
                    continue
                if isinstance(note_id, str):
                    seen.add(note_id)
                yield note
            offset += len(notes)
            if len(notes) < page_size or (total is not None and offset >= total):
                return

    def _request(self, method: str, path: str, params: dict[str, str] | None = None,
                 body: dict[str, Any] | None = None) -> Any:
        """One API call, retried on transient failures; returns the decoded JSON."""
        retrying = Retrying(
            retry=retry_if_exception(lambda error: isinstance(error, TransientError)),
            stop=stop_after_attempt(self.policy.attempts),
            wait=self._wait,
            sleep=self._sleep,
            before_sleep=self._announce_retry,
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    return self._request_once(method, path, params, body)
        except TransientError as error:
            raise OSError(
                f"OpenReview {method} {path} failed after {self.policy.attempts} attempts: {error}"
            ) from None
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _request_once(self, method: str, path: str, params: dict[str, str] | None,
                      body: dict[str, Any] | None) -> Any:
        url = self.base_url + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.policy.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            status = error.code
            retry_after = _retry_after_seconds(error.headers.get("Retry-After"))
            detail = _error_detail(error)
            error.close()
            if status == 429 or status >= 500:
                raise TransientError(f"HTTP {status}{detail}", retry_after) from None
            raise RefusedError(
                f"OpenReview refused {method} {path}: HTTP {status}{detail}", status
            ) from None
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError,
                TimeoutError) as error:
            raise TransientError(f"connection problem: {_describe(error)}") from None
        try:
            return json.loads(raw)
        except ValueError:
            raise TransientError(f"unreadable JSON answer ({len(raw)} bytes)") from None

    def _wait(self, state: RetryCallState) -> float:
        """Exponential backoff, but never shorter than the server's Retry-After."""
        exponential = min(
            self.policy.backoff_max,
            self.policy.backoff_initial * 2 ** max(0, state.attempt_number - 1),
        )
        error = state.outcome.exception() if state.outcome else None
        asked = getattr(error, "retry_after", None) or 0.0
        return min(max(exponential, asked), self.policy.retry_after_max)

    def _announce_retry(self, state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0.0
        self._log(
            f"openreview: {error}; retrying in {wait:.1f}s "
            f"(attempt {state.attempt_number + 1} of {self.policy.attempts})"
        )


def _retry_after_seconds(value: str | None) -> float | None:
    """Parse Retry-After as seconds or as an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _error_detail(error: urllib.error.HTTPError) -> str:
    """The API's own short message, if it sent one, so a 400/403 says why."""
    try:
        payload = json.loads(error.read(4096) or b"{}")
    except (ValueError, OSError, http.client.HTTPException):
        return ""
    message = payload.get("message") if isinstance(payload, dict) else None
    return f" ({str(message)[:200]})" if message else ""


def _describe(error: BaseException) -> str:
    reason = getattr(error, "reason", None)
    return f"{type(error).__name__}: {reason or error}"[:300]
