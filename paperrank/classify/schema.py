"""Validation of a classifier's answer: we never trust the endpoint to have enforced the schema."""

from __future__ import annotations

import json
from dataclasses import dataclass

from paperrank.classify.prompt import RATIONALE_MAX_CHARS
from paperrank.classify.taxonomy import CONFIDENCES, Taxonomy
from paperrank.core.errors import PaperrankError

FIELDS = ("category", "confidence", "rationale")


class InvalidAnswer(PaperrankError):
    """An answer that does not match the schema; `kind` is short enough to group a summary by."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class Answer:
    category: str
    confidence: str
    rationale: str


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def parse_answer(content: str | None, taxonomy: Taxonomy) -> Answer:
    """Parse and validate the model's message content, or raise InvalidAnswer."""
    if content is None or not content.strip():
        raise InvalidAnswer("empty answer")
    try:
        data = json.loads(content)
    except json.JSONDecodeError as error:
        raise InvalidAnswer("malformed JSON", f"{error.msg} at character {error.pos}") from None
    if not isinstance(data, dict):
        raise InvalidAnswer("not a JSON object", type(data).__name__)
    missing = [f for f in FIELDS if f not in data]
    if missing:
        raise InvalidAnswer("missing field", ", ".join(missing))
    extra = sorted(set(data) - set(FIELDS))
    if extra:
        raise InvalidAnswer("unexpected field", ", ".join(_short(k, 40) for k in extra))
    category, confidence, rationale = (data[f] for f in FIELDS)
    if not isinstance(category, str) or category not in taxonomy.choice_names:
        raise InvalidAnswer("category outside the enum", _short(category))
    if not isinstance(confidence, str) or confidence not in CONFIDENCES:
        raise InvalidAnswer("confidence outside the enum", _short(confidence))
    if not isinstance(rationale, str) or not rationale.strip():
        raise InvalidAnswer("empty rationale")
    rationale = " ".join(rationale.split())
    if len(rationale) > RATIONALE_MAX_CHARS:
        raise InvalidAnswer("rationale too long", f"{len(rationale)} characters")
    return Answer(category, confidence, rationale)
