"""Bounds on what a server sends: how deeply its JSON nests, how large it grows once decompressed,
and which origin a request may go to.

Every JSON read from the network goes through `loads` (OpenReview's pages and error bodies, the
LLM endpoint's answers and the model's message inside them, the model list of `classify check`).
It measures the nesting before `json.loads` sees the text: Python's decoder recurses once per
level and dies with a RecursionError (a traceback, exit 1) near 1,000 levels, so 200,000 levels
from a hostile server were a crash, not a refusal.  The measure is one pass at C speed (strings
cut out with bytes operations, the brackets left summed by `itertools.accumulate`), so even a
256 MB OpenReview page costs a fraction of its parse.

Sizes are bounded while an answer arrives, by the callers that read it (`MAX_BYTES` of the
OpenReview client, `paperrank.classify.http.MAX_ANSWER_BYTES`), counting decompressed bytes
(`Inflater`), so a bound is never checked after the memory is spent.
"""

from __future__ import annotations

import array
import itertools
import json
import re
import urllib.parse
import zlib
from collections.abc import Iterator
from typing import Any

from paperrank.core.errors import PaperrankError

# The deepest JSON any server we read may send.  The deepest real one is an OpenReview page
# (page > notes > note > details > replies > reply > content > field > value > list: 10
# levels); a chat completion has 5, the model's answer 1.  64 leaves room for any field a
# venue adds, and stays far below the ~1,000 levels where Python's decoder gives up.
MAX_JSON_DEPTH = 64
CHUNK = 64 * 1024  # decompressed bytes produced at a time, so a bomb never expands at once

_ESCAPE = re.compile(rb'\\[\\"]')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_SIGNED = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # opening +1, closing -1 (as int8)


class JsonRefused(PaperrankError):
    """JSON from the network that breaks a bound: refused before it is parsed (exit 2)."""


def depth(data: bytes | str) -> int:
    """How deeply `data` nests, counting the brackets outside JSON strings."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    # Escaped backslashes and quotes go first (left to right, as JSON reads them; no other
    # escape holds a quote); every quote left delimits a string, so every other piece is
    # outside the strings.
    if b"\\" in raw:
        raw = _ESCAPE.sub(b"", raw)
    outside = b"".join(raw.split(b'"')[::2])
    brackets = outside.translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    steps = array.array("b", brackets.translate(_SIGNED))
    return max(0, max(itertools.accumulate(steps)))


def check_depth(data: bytes | str, what: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than `max_depth`; `what` names the answer in the message."""
    if depth(data) > max_depth:
        raise JsonRefused(f"{what} is JSON nested deeper than {max_depth} levels; refused")


def loads(data: bytes | str, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads` of network data whose nesting is checked first (JsonRefused); a text that is
    not JSON still raises ValueError, for the caller to say what it means there."""
    check_depth(data, what, max_depth)
    return json.loads(data)


def origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port (the default one when none is written): where a request goes.
    A redirect is followed only within one origin."""
    parts = urllib.parse.urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port


def shown_origin(url: str) -> str:
    """`scheme://host:port` of a URL, for a message: no credentials, path or query."""
    scheme, host, port = origin(url)
    return f"{scheme}://{host}:{port}" if scheme else (host or url[:80])


class Inflater:
    """A gzip or deflate decoder that produces at most CHUNK bytes a step; `None` from `for_`
    means the answer is not compressed."""

    def __init__(self, wbits: int) -> None:
        self._decoder = zlib.decompressobj(wbits)

    @staticmethod
    def for_(encoding: str | None) -> Inflater | None:
        """The decoder for a Content-Encoding; ValueError for one we do not decode."""
        name = (encoding or "identity").strip().lower()
        if name in ("", "identity"):
            return None
        if name in ("gzip", "x-gzip"):
            return Inflater(16 + zlib.MAX_WBITS)
        if name == "deflate":
            return Inflater(zlib.MAX_WBITS)
        raise ValueError(f"unsupported content-encoding {name[:40]!r}")

    def feed(self, raw: bytes) -> Iterator[bytes]:
        """Decompress `raw` in pieces of at most CHUNK bytes (zlib.error on a corrupt stream)."""
        data = raw
        while data:
            part = self._decoder.decompress(data, CHUNK)
            if part:
                yield part
            data = self._decoder.unconsumed_tail
            if not part and not data:
                break

    def flush(self) -> bytes:
        return self._decoder.flush()
