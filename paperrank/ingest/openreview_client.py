"""A small client for the parts of the OpenReview API v2 the loaders use.

It only pages through a venue's submissions (with their replies) and optionally logs in.
HTTP is done by httpx2 (the maintained httpx line the OpenAI client also uses); what can go
wrong on a long crawl is handled here: 429s, 5xx answers, dropped connections and truncated
bodies are retried by the project's one policy (`paperrank.core.retry`, which honours Retry-After),
and the credentials can never reach a log line, an exception message or a repr.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx

from paperrank.core.errors import PaperrankError
from paperrank.core.retry import RetryPolicy, retry_after_seconds

__all__ = ["Credentials", "OpenReviewClient", "RefusedError", "RetryPolicy", "Unreachable"]

DEFAULT_BASE_URL = "https://api2.openreview.net"
DEFAULT_PAGE_SIZE = 1000  # the API's maximum page size
USER_AGENT = "paperrank-ingest/0.1"


@dataclass(frozen=True)
class Credentials:
    """An OpenReview login; both fields are hidden from repr so they cannot leak into logs."""

    username: str = field(repr=False)
    password: str = field(repr=False)


class _Transient(Exception):
    """A failure worth retrying: throttling, a server error or a broken connection."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RefusedError(PaperrankError):
    """The server refused the request (4xx other than 429); retrying would not help."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(PaperrankError):
    """Every attempt failed with a transient problem; the message says the last one."""


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
        self._http = httpx.Client(
            base_url=self.base_url, timeout=self.policy.timeout, follow_redirects=True,
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
        )

    def __repr__(self) -> str:
        logged_in = "yes" if self._token else "no"
        return f"OpenReviewClient(base_url={self.base_url!r}, logged_in={logged_in})"

    def close(self) -> None:
        self._http.close()

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
        except Unreachable:
            raise Unreachable("OpenReview login failed: the server could not be reached") from None
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
        """One API call, retried on transient failures by the policy; returns decoded JSON."""
        failures = 0
        while True:
            try:
                return self._request_once(method, path, params, body)
            except _Transient as error:
                failures += 1
                if failures >= self.policy.attempts:
                    raise Unreachable(f"OpenReview {method} {path} failed after "
                                      f"{self.policy.attempts} attempts: {error}") from None
                wait = self.policy.delay(failures, error.retry_after)
                self._log(f"openreview: {error}; retrying in {wait:.1f}s "
                          f"(attempt {failures + 1} of {self.policy.attempts})")
                self._sleep(wait)

    def _request_once(self, method: str, path: str, params: dict[str, str] | None,
                      body: dict[str, Any] | None) -> Any:
        headers = {"Authorization": f"Bearer {self._token}"} if self._token else None
        try:
            response = self._http.request(method, path, params=params, json=body,
                                          headers=headers)
        except httpx.TransportError as error:
            raise _Transient(f"connection problem: {type(error).__name__}: "
                             f"{str(error)[:200]}") from None
        status = response.status_code
        if status == 429 or status >= 500:
            raise _Transient(f"HTTP {status}{_error_detail(response)}",
                             retry_after_seconds(response.headers))
        if status >= 400:
            raise RefusedError(
                f"OpenReview refused {method} {path}: HTTP {status}{_error_detail(response)}",
                status)
        try:
            return response.json()
        except ValueError:
            raise _Transient(f"unreadable JSON answer ({len(response.content)} bytes)") from None


def _error_detail(response: httpx.Response) -> str:
    """The API's own short message, if it sent one, so a 400/403 says why."""
    try:
        payload = response.json()
    except ValueError:
        return ""
    message = payload.get("message") if isinstance(payload, dict) else None
    return f" ({str(message)[:200]})" if message else ""
