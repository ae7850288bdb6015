"""The one retry policy of the project's HTTP clients (OpenReview and the LLM endpoint).

Both retry throttling (429), server errors (5xx) and broken connections; both wait an
exponentially growing time, never shorter than what the server asked for in Retry-After,
and never longer than a cap.  The LLM client adds jitter, since many requests are in flight
at once and would otherwise come back in lock-step.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try before giving up; tests shrink the waits to milliseconds."""

    attempts: int = 6
    backoff_initial: float = 1.0  # seconds before the first retry, doubled each time
    backoff_max: float = 60.0  # cap of the exponential part
    retry_after_max: float = 300.0  # never sleep longer than this, whatever the server asks
    timeout: float = 120.0  # seconds per request
    jitter: bool = False  # spread each wait over [50%, 100%] of the exponential value

    def delay(self, failures: int, retry_after: float | None = None,
              rand: Callable[[], float] = random.random) -> float:
        """Seconds to wait after the `failures`-th failed attempt (1 for the first)."""
        exponential = min(self.backoff_max, self.backoff_initial * 2 ** max(0, failures - 1))
        if self.jitter:
            exponential *= 0.5 + rand() / 2
        return min(max(exponential, retry_after or 0.0), self.retry_after_max)


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date, if given.

    `headers` is looked up in lower case (httpx headers and plain dicts of lower-case names).
    """
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
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
