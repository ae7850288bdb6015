"""Finding a secret in text that came back from a server, however the server spelled it.

An endpoint that echoes the key need not echo it as sent: upper-cased, with `%2D` for "-", split
by a zero-width space, in full-width letters, in JSON `\\u` escapes, or any mix of them (issue
36: each got the key stored in raw.llm_responses and the labels' rationale, because only the
exact spelling was redacted).  So texts are compared in a folded form (`fold`): escapes undone
(JSON `\\u`, percent, HTML), Unicode NFKC, case folded, and every invisible character dropped
(Unicode's control and format characters and separators: the soft hyphen, U+200B..U+200D,
U+2060 and U+FEFF among them).  A text whose folded form holds the folded key
holds the key; a JSON text is looked into too (its strings, and JSON in them, decoded).

`Redactor.holds` decides whether an answer is stored at all (it is not when it holds the key);
`Redactor.__call__` cleans a short text that is about to be stored or shown.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import re
import unicodedata
import urllib.parse
from typing import Any

from paperrank.core import network

REDACTED = "[redacted]"
# A folded key shorter than this could turn up in ordinary text by chance: only its exact
# spellings are redacted (real API keys are far longer).
MIN_FOLDED = 8
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_ROUNDS = 4  # escapes undone this many times over (a percent-encoded JSON escape, ...)
_REMEMBERED = 16  # texts remembered as clean, per Redactor
_JSON_LEVELS = 3  # a chat completion's strings, the model's JSON answer in one, and its strings


def _visible(text: str) -> str:
    """`text` without control and format characters nor separators (at C speed: a table for
    ASCII text, which `str.translate` maps fastest, a character class for any other)."""
    table, pattern = _invisible()
    return text.translate(table) if text.isascii() else pattern.sub("", text)


@functools.cache
def _invisible() -> tuple[dict[int, None], re.Pattern[str]]:
    """Every control (Cc) and format (Cf) character and separator (Z), a few hundred (none
    lies outside the planes searched), as a `str.translate` table and a character class."""
    planes = itertools.chain(range(0x20000), range(0xE0000, 0xE1000))
    codes = [code for code in planes
             if unicodedata.category(chr(code)) in ("Cc", "Cf", "Zs", "Zl", "Zp")]
    spans: list[list[int]] = []
    for code in codes:
        if spans and spans[-1][1] == code - 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    pattern = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in spans)
    return dict.fromkeys(codes), re.compile(f"[{pattern}]+")


def fold(text: str) -> str:
    """`text` as compared: escapes undone, NFKC, case folded, invisible characters dropped.

    Each round normalises and drops the invisible characters before undoing the escapes, so an
    escape split by one (`%` U+200C `2D`) or written in full-width characters is undone too,
    and a character an escape spelled (`%E2%80%8B`) is dropped by the next round."""
    for _ in range(_ROUNDS):
        visible = _visible(unicodedata.normalize("NFKC", text))
        undone = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), visible)
        undone = html.unescape(urllib.parse.unquote(undone, errors="surrogateescape"))
        text = undone
        if undone == visible:
            break
    return _visible(unicodedata.normalize("NFKC", text.casefold()))


def _strings(value: Any) -> list[str]:
    """Every string of a decoded JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    return []


def _decoded(text: str) -> list[str] | None:
    """The strings of `text` read as JSON; None when it is not JSON (or nested too deeply)."""
    if text.lstrip()[:1] not in ("{", "[", '"'):
        return None
    try:
        return _strings(network.loads(text, "text"))
    except ValueError:
        return None


class Redactor:
    """Finds and removes secrets (the API key) in text taken from an answer.

    `holds(text)` says whether the text holds a secret in any spelling; `__call__(text)` removes
    its exact spellings and, when a folded one is still there, gives `[redacted]` for the whole
    text.  Runs on every string taken from an answer before anything else reads it (parsing,
    validation, truncation), so no prefix of the key survives in a shortened message."""

    def __init__(self, *secrets: str | None) -> None:
        forms: set[str] = set()
        folded: set[str] = set()
        for secret in (s for s in secrets if s and len(s) >= 4):
            forms |= {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=True)[1:-1],
                      "".join(f"\\u{ord(c):04x}" for c in secret)}
            if len(fold(secret)) >= MIN_FOLDED:
                folded.add(fold(secret))
        self.secrets = sorted(forms, key=len, reverse=True)
        self.folded = sorted(folded)
        self._clean: dict[str, None] = {}  # the last texts found clean (an answer is asked
        # about again as each field of its row is stored; folding megabytes twice is waste)

    def holds(self, text: Any) -> bool:
        """Whether `text`, or when it is JSON any string in it (at any level), holds a secret.

        A JSON text is looked into instead of folded: outside its strings there is only
        structure, so each character is folded once, however deep the JSON in JSON goes."""
        if not isinstance(text, str) or not self.folded or text in self._clean:
            return False
        if self._search(text):
            return True
        if len(self._clean) >= _REMEMBERED:
            self._clean.pop(next(iter(self._clean)))
        self._clean[text] = None
        return False

    def _search(self, text: str) -> bool:
        texts = [text]
        for level in range(_JSON_LEVELS + 1):
            inner: list[str] = []
            for each in texts:
                strings = _decoded(each) if level < _JSON_LEVELS else None
                if strings is not None:
                    inner += strings
                elif any(secret in fold(each) for secret in self.folded):
                    return True
            texts = inner
        return False

    def __call__(self, text: Any) -> Any:
        if not isinstance(text, str) or not self.secrets:
            return text
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return REDACTED if self.holds(text) else text

    def name(self, value: Any, pattern: re.Pattern[str]) -> str | None:
        """A model name or finish reason, only when (redacted) it still looks like one."""
        text = self(value) if isinstance(value, str) else None
        return text if text is not None and pattern.fullmatch(text) else None
