"""A small client for the parts of the OpenReview API v2 the loaders use.

It only pages through a venue's submissions (with their replies) and optionally logs in.
HTTP is done by httpx2 (the maintained httpx line the OpenAI client also uses); what can go
wrong on a long crawl is handled here: 429s, 5xx answers, dropped connections and truncated
bodies are retried by tenacity with the project's policy (`paperrank.core.retry.RetryPolicy`,
which honours Retry-After), and the credentials can never reach a log line, an exception
message, a repr, or another host (a server's error message is shown without them, in any
spelling it echoes them: `paperrank.core.redact`).

A hostile or broken server is bounded:
- redirects are followed by hand, only to the same origin; a redirect elsewhere of a request
  carrying the password or the token is refused (httpx would re-send a 307's JSON body);
- each request has a deadline for the whole answer (`RetryPolicy.timeout`), not per read, so
  a server sending one byte a second is cut off;
- answers are decompressed here, in bounded steps, up to `max_bytes` (a gzip bomb stops at
  the cap instead of taking gigabytes);
- an answer's JSON may nest at most `paperrank.core.network.MAX_JSON_DEPTH` levels, checked
  before it is parsed (200,000 levels were a RecursionError traceback): a deeper
  one is refused in one line, not retried;
- paging stops, saying so, when a page brings no new note (a repeated page), past the count
  the server announced, or past `max_notes` when it announces none;
- when fewer notes arrive than announced, a warning says how many (`last_crawl`).
"""

from __future__ import annotations

import sys
import threading
import time
import urllib.parse
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from paperrank.core import network
from paperrank.core.errors import PaperrankError
from paperrank.core.network import Inflater, origin
from paperrank.core.redact import Redactor
from paperrank.core.retry import RetryPolicy, retry_after_seconds

__all__ = ["Credentials", "OpenReviewClient", "RefusedError", "RetryPolicy", "Unreachable"]

DEFAULT_BASE_URL = "https://api2.openreview.net"
DEFAULT_PAGE_SIZE = 1000  # the API's maximum page size
USER_AGENT = "paperrank-ingest/0.1"
# One decompressed answer: a page of 1000 notes with their replies is ~30 MB, so 256 MB is
# room for the wordiest venue while a hostile answer cannot take the machine's memory.
MAX_BYTES = 256 * 1024 * 1024
MAX_NOTES = 2_000_000  # when the server announces no count
MAX_REDIRECTS = 5
CHUNK = network.CHUNK


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


class RedirectRefused(RefusedError):
    """A redirect to another host: not followed, so no credential goes there."""


class Unreachable(PaperrankError):
    """Every attempt failed with a transient problem; the message says the last one."""


@dataclass
class Crawl:
    """What one `iter_submissions` saw: the count announced, the notes received, why it stopped."""

    announced: int | None = None
    received: int = 0
    stopped: str = "complete"

    def summary(self) -> str:
        """The load-summary line's words: `6 notes`, or `4 of the 6 notes announced`."""
        if self.announced is not None and self.received < self.announced:
            return f"{self.received} of the {self.announced} notes announced"
        return f"{self.received} notes"


class OpenReviewClient:
    """Fetches notes from one OpenReview API v2 server."""

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        credentials: Credentials | None = None,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
        max_bytes: int | None = None,
        max_notes: int = MAX_NOTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.policy = policy or RetryPolicy()
        self.max_bytes = max_bytes or MAX_BYTES
        self.max_notes = max_notes
        self.last_crawl = Crawl()
        self._credentials = credentials
        self._token: str | None = None
        self._sleep = sleep
        self._log = log or (lambda message: print(message, file=sys.stderr))
        self._origin = origin(self.base_url)
        self._lock = threading.Lock()
        self._http = self._new_http()

    def _new_http(self) -> httpx.Client:
        return httpx.Client(
            timeout=self.policy.timeout, follow_redirects=False,
            headers={"Accept": "application/json", "User-Agent": USER_AGENT,
                     "Accept-Encoding": "gzip, deflate"},
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
        except RedirectRefused as error:
            raise PaperrankError(f"OpenReview login failed: {error}") from None
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
        (the venue changed while we paged) is yielded once; a page with no new note ends the
        crawl (a server repeating a page would otherwise loop forever), and so does reaching
        the announced count, or `max_notes` when none was announced.  `last_crawl` tells
        what arrived; fewer notes than announced is logged as a warning.
        """
        invitation = f"{venue_id}/-/Submission"
        seen: set[str] = set()
        offset = 0
        crawl = self.last_crawl = Crawl()
        while True:
            params = {
                "invitation": invitation, "details": "replies",
                "offset": str(offset), "limit": str(page_size),
            }
            page = self._request("GET", "/notes", params=params)
            notes = page.get("notes") if isinstance(page, dict) else None
            if not isinstance(notes, list):
                raise PaperrankError(f"unexpected answer from {self.base_url}/notes: no notes list")
            if crawl.announced is None and isinstance(page.get("count"), int):
                crawl.announced = page["count"]
                if on_total:
                    on_total(crawl.announced)
            new = 0
            for note in notes:
                note_id = note.get("id") if isinstance(note, dict) else None
                if isinstance(note_id, str) and note_id in seen:
                    continue
                if isinstance(note_id, str):
                    seen.add(note_id)
                new += 1
                crawl.received += 1
                yield note
            offset += len(notes)
            if notes and new == 0:
                crawl.stopped = f"the page at offset {offset - len(notes)} repeated notes already received"
                self._log(f"openreview: {crawl.stopped}; stopping")
                break
            if len(notes) < page_size or (crawl.announced is not None and offset >= crawl.announced):
                break
            if crawl.received >= self.max_notes:
                crawl.stopped = f"{self.max_notes} notes received with no end announced"
                self._log(f"openreview: {crawl.stopped}; stopping")
                break
        if crawl.announced is not None and crawl.received < crawl.announced:
            self._log(f"warning: openreview announced {crawl.announced} notes for {venue_id}, "
                      f"{crawl.received} arrived")

    def _request(self, method: str, path: str, params: dict[str, str] | None = None,
                 body: dict[str, Any] | None = None) -> Any:
        """One API call, retried on transient failures by the policy; returns decoded JSON."""
        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome else None
            return self.policy.delay(state.attempt_number, getattr(error, "retry_after", None))

        def before_sleep(state: RetryCallState) -> None:
            error = state.outcome.exception() if state.outcome else None
            wait_s = state.next_action.sleep if state.next_action else 0.0
            self._log(f"openreview: {error}; retrying in {wait_s:.1f}s "
                      f"(attempt {state.attempt_number + 1} of {self.policy.attempts})")

        retrying = Retrying(stop=stop_after_attempt(self.policy.attempts), wait=wait,
                            retry=retry_if_exception_type(_Transient), sleep=self._sleep,
                            before_sleep=before_sleep, reraise=True)
        try:
            return retrying(self._request_once, method, path, params, body)
        except _Transient as error:
            raise Unreachable(f"OpenReview {method} {path} failed after "
                              f"{self.policy.attempts} attempts: {error}") from None

    def _request_once(self, method: str, path: str, params: dict[str, str] | None,
                      body: dict[str, Any] | None) -> Any:
        """One attempt, with a deadline for the whole answer: past it the attempt is given up
        (and the connection dropped), however slowly the server keeps sending."""
        deadline = time.monotonic() + self.policy.timeout
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="openreview-request")
        future = pool.submit(self._exchange, method, path, params, body, deadline)
        pool.shutdown(wait=False)
        try:
            return future.result(timeout=self.policy.timeout + 1.0)
        except FutureTimeout:
            with self._lock:  # drop the stuck connection; the next attempt opens a new one
                stuck, self._http = self._http, self._new_http()
            threading.Thread(target=stuck.close, daemon=True).start()
            raise _Transient(f"no complete answer within {self.policy.timeout:g}s") from None

    def _exchange(self, method: str, path: str, params: dict[str, str] | None,
                  body: dict[str, Any] | None, deadline: float) -> Any:
        url = self.base_url + path
        carries_secret = body is not None or self._token is not None
        for _ in range(MAX_REDIRECTS + 1):
            headers = {"Authorization": f"Bearer {self._token}"} if self._token else {}
            status, response_headers, data = self._fetch(method, url, params, body, headers,
                                                         deadline)
            if status in (301, 302, 303, 307, 308):
                target = urllib.parse.urljoin(url, response_headers.get("location") or "")
                if origin(target) != self._origin:
                    where = urllib.parse.urlsplit(target).netloc or target[:80]
                    if carries_secret:
                        raise RedirectRefused(
                            f"OpenReview {method} {path} was redirected (HTTP {status}) to "
                            f"another host, {where}; credentials are never sent there (set "
                            "OPENREVIEW_URL to that server if you trust it)", status)
                    raise RedirectRefused(f"OpenReview {method} {path} was redirected (HTTP "
                                       f"{status}) to another host, {where}; not followed", status)
                if status in (301, 302, 303):
                    method, body = "GET", None
                url, params = target, None
                continue
            return self._answer(method, path, status, response_headers, data)
        raise RefusedError(f"OpenReview {method} {path}: more than {MAX_REDIRECTS} redirects", 310)

    def _fetch(self, method: str, url: str, params: dict[str, str] | None,
               body: dict[str, Any] | None, headers: dict[str, str],
               deadline: float) -> tuple[int, httpx.Headers, bytes]:
        """Status, headers and the decompressed body (at most `max_bytes`), by the deadline."""
        with self._lock:
            http = self._http
        try:
            with http.stream(method, url, params=params, json=body, headers=headers) as response:
                try:
                    decoder = Inflater.for_(response.headers.get("content-encoding"))
                except ValueError as error:
                    raise _Transient(str(error)) from None
                chunks: list[bytes] = []
                size = 0
                for raw in response.iter_raw(CHUNK):
                    for part in decoder.feed(raw) if decoder is not None else (raw,):
                        size += len(part)
                        if size > self.max_bytes:
                            raise RefusedError(
                                f"OpenReview answer to {urllib.parse.urlsplit(url).path} is "
                                f"larger than {self.max_bytes} bytes once decompressed; refused",
                                response.status_code)
                        chunks.append(part)
                    if time.monotonic() > deadline:
                        raise _Transient(f"no complete answer within {self.policy.timeout:g}s")
                if decoder is not None:
                    chunks.append(decoder.flush())
                return response.status_code, response.headers, b"".join(chunks)
        except httpx.TransportError as error:
            raise _Transient(f"connection problem: {type(error).__name__}: "
                             f"{str(error)[:200]}") from None
        except zlib.error as error:
            raise _Transient(f"undecodable compressed answer: {error}") from None

    def _error_detail(self, data: bytes) -> str:
        """The server's message, without the password or token in any spelling it echoes."""
        password = self._credentials.password if self._credentials else None
        return _error_detail(data, Redactor(password, self._token))

    def _answer(self, method: str, path: str, status: int, headers: httpx.Headers,
                data: bytes) -> Any:
        if status == 429 or status >= 500:
            raise _Transient(f"HTTP {status}{self._error_detail(data)}",
                             retry_after_seconds(headers))
        if status >= 400:
            raise RefusedError(
                f"OpenReview refused {method} {path}: HTTP {status}{self._error_detail(data)}",
                status)
        try:
            return network.loads(data, f"the OpenReview answer to {method} {path}")
        except network.JsonRefused as error:
            raise RefusedError(str(error), status) from None
        except ValueError:
            raise _Transient(f"unreadable JSON answer ({len(data)} bytes)") from None


def _error_detail(data: bytes, redact: Redactor) -> str:
    """The API's own short message, if it sent one, so a 400/403 says why (none when the
    body is not JSON, or nested beyond the bound: the status says enough)."""
    try:
        payload = network.loads(data, "an error answer")
    except ValueError:
        return ""
    message = payload.get("message") if isinstance(payload, dict) else None
    return f" ({redact(str(message))[:200]})" if message else ""
