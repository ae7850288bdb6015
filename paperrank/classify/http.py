"""The LLM client's HTTP side: answers of a bounded size, and requests that stay on the endpoint.

The openai client sends through httpx2 and reads and parses the answers itself, so the bounds sit
in httpx2's event hooks, which every request and every answer pass through (redirects included),
whatever transport or proxy the client uses:
- each request asks for an uncompressed answer; one compressed anyway is inflated here, in
  bounded steps, so a gzip bomb never expands at once;
- an answer may be at most `MAX_ANSWER_BYTES` once decompressed, counted as it arrives (a
  declared Content-Length above it is refused before a byte is read): a hostile endpoint can
  take neither the memory nor the parser;
- a redirect to another origin (scheme, host, port) is refused before anything goes there.
  The openai client followed a 307 to another host and posted the prompt there (httpx drops
  only the key), and the answer was stored as a label of the configured endpoint.  The
  OpenReview client refuses the same (both use `paperrank.core.network.origin`); a redirect
  within the origin is followed, as before.
The nesting of the JSON is checked by the callers on the text read, before it is parsed
(`paperrank.core.network.check_depth`).  A refusal is an `EndpointRefused`: an openai error,
which the openai client re-raises as it is (anything else it retries or wraps as a connection
error), and which the backend and `classify check` turn into one line, exit 2.
"""

from __future__ import annotations

import urllib.parse
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx2 as httpx
import openai

from paperrank.core.network import Inflater, origin, shown_origin

# A chat completion of one paper's answer (at most a few hundred tokens) is a few kilobytes, a
# model list of a large gateway about one megabyte.  8 MB leaves room for verbose servers
# (logprobs, usage details) and still bounds what one answer can take of memory and parse time.
MAX_ANSWER_BYTES = 8 * 1024 * 1024


class EndpointRefused(openai.OpenAIError):
    """An answer the bounds refuse; `say(what)` is the one-line message, `what` naming the
    request ("the request for paper p1")."""

    def __init__(self, endpoint: str, template: str) -> None:
        super().__init__(template)
        self.endpoint = endpoint
        self.template = template

    def say(self, what: str) -> str:
        return f"the endpoint {self.endpoint} " + self.template.format(what=what)


class Guard:
    """The event hooks that bound one client's answers and keep it on `base_url`'s origin;
    `shown` makes a text fit for a message (the backend's redaction of the key)."""

    def __init__(self, base_url: str, endpoint: str, shown: Callable[[str], str] = str,
                 max_bytes: int | None = None) -> None:
        self.origin = origin(base_url)
        self.endpoint = endpoint
        self.shown = shown
        self.max_bytes = max_bytes or MAX_ANSWER_BYTES

    def hooks(self, *before: Callable[..., Any], asynchronous: bool) -> dict[str, list[Any]]:
        """httpx2's `event_hooks`: `before` (other request hooks) and this guard's."""
        if asynchronous:
            return {"request": [*before, self._arequest], "response": [self._aresponse]}
        return {"request": [*before, self.request], "response": [self.response]}

    def refused(self, template: str) -> EndpointRefused:
        return EndpointRefused(self.endpoint, template)

    def request(self, request: httpx.Request) -> None:
        request.headers["Accept-Encoding"] = "identity"

    def response(self, response: httpx.Response) -> None:
        """Refuse a redirect elsewhere; bound the body that is about to be read."""
        status = response.status_code
        if response.has_redirect_location:
            target = urllib.parse.urljoin(str(response.request.url),
                                          response.headers.get("location") or "")
            if origin(target) != self.origin:
                raise self.refused(
                    f"redirected {{what}} (HTTP {status}) to another host, "
                    f"{self.shown(shown_origin(target))}; not followed: nothing was sent there "
                    "or stored (set the base URL to that server if you trust it)")
        too_large = self.refused(f"sent an answer larger than {self.max_bytes} bytes to {{what}}; "
                                 "refused, nothing stored")
        try:
            decoder = Inflater.for_(response.headers.get("content-encoding"))
        except ValueError as error:
            raise self.refused(f"sent an answer in an {self.shown(str(error))} to {{what}}; "
                               "refused, nothing stored") from None
        declared = response.headers.get("content-length", "")
        if decoder is None and declared.isdigit() and int(declared) > self.max_bytes:
            raise too_large
        if decoder is not None:  # inflated here: httpx2 must not inflate it again
            del response.headers["content-encoding"]
        corrupt = self.refused("sent a corrupt compressed answer to {what}; refused, nothing stored")
        response.stream = _Bounded(response.stream, decoder, self.max_bytes, too_large, corrupt)

    async def _arequest(self, request: httpx.Request) -> None:
        self.request(request)

    async def _aresponse(self, response: httpx.Response) -> None:
        self.response(response)


class _Bounded(httpx.SyncByteStream, httpx.AsyncByteStream):
    """An answer's body, inflated when it must be, that raises past `limit` bytes."""

    def __init__(self, inner: Any, decoder: Inflater | None, limit: int,
                 too_large: EndpointRefused, corrupt: EndpointRefused) -> None:
        self.inner = inner
        self.decoder = decoder
        self.limit = limit
        self.too_large = too_large
        self.corrupt = corrupt
        self.size = 0

    def _take(self, raw: bytes, last: bool = False) -> Iterator[bytes]:
        """The decompressed pieces of `raw`, counted one by one (inflating stops at the bound)."""
        try:
            for part in self._inflate(raw, last):
                self.size += len(part)
                if self.size > self.limit:
                    raise self.too_large
                yield part
        except zlib.error:
            raise self.corrupt from None

    def _inflate(self, raw: bytes, last: bool) -> Iterator[bytes]:
        if self.decoder is None:
            yield raw
            return
        yield from self.decoder.feed(raw)
        if last:
            yield self.decoder.flush()

    def __iter__(self) -> Iterator[bytes]:
        for raw in self.inner:
            yield from self._take(raw)
        yield from self._take(b"", last=True)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for raw in self.inner:
            for part in self._take(raw):
                yield part
        for part in self._take(b"", last=True):
            yield part

    def close(self) -> None:
        self.inner.close()

    async def aclose(self) -> None:
        await self.inner.aclose()
