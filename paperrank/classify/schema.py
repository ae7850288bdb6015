"""The classifier's answer: one pydantic model per taxonomy gives both the JSON schema sent to the
endpoint and the validation of what comes back (we never trust the endpoint to have enforced it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema

from paperrank.core.errors import PaperrankError
from paperrank.core.taxonomy import CONFIDENCES, Taxonomy

FIELDS = ("category", "confidence", "rationale")
RATIONALE_MAX_CHARS = 400


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


def _collapse(value: Any) -> Any:
    """Runs of whitespace become one space, before the length is checked."""
    return " ".join(value.split()) if isinstance(value, str) else value


def _not_blank(value: str) -> str:
    if not value:
        raise ValueError("empty rationale")
    return value


Rationale = Annotated[str, BeforeValidator(_collapse), Field(max_length=RATIONALE_MAX_CHARS),
                      AfterValidator(_not_blank)]


@cache
def answer_model(taxonomy: Taxonomy) -> type[BaseModel]:
    """The answer of `taxonomy`: a category of its choices, a confidence, a short rationale."""
    category: Any = Literal[taxonomy.choice_names]
    confidence: Any = Literal[CONFIDENCES]
    return create_model(
        "PaperCategory",
        __config__=ConfigDict(extra="forbid", strict=True),
        category=(category, ...),
        confidence=(confidence, ...),
        rationale=(Rationale, ...),
    )


class _Untitled(GenerateJsonSchema):
    """The schema without pydantic's titles: what the endpoint needs, and the prompt hash reads."""

    def generate(self, schema: Any, mode: Any = "validation") -> Any:
        return _drop_titles(super().generate(schema, mode))


def _drop_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _drop_titles(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_drop_titles(v) for v in node]
    return node


def answer_schema(taxonomy: Taxonomy) -> dict[str, Any]:
    """The strict JSON schema of the answer (enums of the taxonomy's choices and confidences)."""
    schema: dict[str, Any] = answer_model(taxonomy).model_json_schema(schema_generator=_Untitled)
    return schema


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# the first problem in this order is the one reported (missing fields before extra ones, ...)
_PROBLEMS = (("missing", None), ("extra_forbidden", None), (None, "category"),
             (None, "confidence"), (None, "rationale"))


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
    try:
        answer = answer_model(taxonomy).model_validate(data)
    except ValidationError as error:
        raise _invalid(error, data) from None
    return Answer(answer.category, answer.confidence, answer.rationale)  # type: ignore[attr-defined]


def _invalid(error: ValidationError, data: dict[str, Any]) -> InvalidAnswer:
    problems = error.errors()
    missing = [str(p["loc"][0]) for p in problems if p["type"] == "missing"]
    if missing:
        return InvalidAnswer("missing field", ", ".join(f for f in FIELDS if f in missing))
    extra = sorted(str(p["loc"][0]) for p in problems if p["type"] == "extra_forbidden")
    if extra:
        return InvalidAnswer("unexpected field", ", ".join(_short(k, 40) for k in extra))
    failed = {str(p["loc"][0]): p for p in problems}
    for field in ("category", "confidence"):
        if field in failed:
            return InvalidAnswer(f"{field} outside the enum", _short(data.get(field)))
    rationale = failed.get("rationale")
    if rationale is not None and rationale["type"] in ("string_too_long", "too_long"):
        return InvalidAnswer("rationale too long", f"{len(_collapse(data['rationale']))} characters")
    return InvalidAnswer("empty rationale")
