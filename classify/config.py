"""Classifier defaults from `classify/config.toml` (or --config / PAPERRANK_CLASSIFY_CONFIG)."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ingest.errors import PaperrankError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "config.toml"


@dataclass(frozen=True)
class LLMConfig:
    model: str = "Qwen/Qwen3.5-397B-A17B"
    base_url: str = "https://api.tokenfactory.nebius.com/v1/"
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 16
    timeout: float = 120.0
    max_attempts: int = 6
    invalid_attempts: int = 3
    backoff_initial: float = 1.0
    backoff_max: float = 60.0
    max_tokens: int = 400
    temperature: float = 0.0
    keywords_model: str = "keywords-v1"
    # Extra JSON fields for the endpoint (e.g. chat_template_kwargs), sent with every request.
    extra_body: dict = field(default_factory=dict)

    def override(self, **values: Any) -> LLMConfig:
        return replace(self, **{k: v for k, v in values.items() if v is not None})

    def check(self) -> LLMConfig:
        if self.concurrency < 1:
            raise PaperrankError("concurrency must be at least 1")
        if self.timeout <= 0:
            raise PaperrankError("timeout must be positive")
        if self.max_attempts < 1 or self.invalid_attempts < 1:
            raise PaperrankError("max_attempts and invalid_attempts must be at least 1")
        if self.backoff_initial < 0 or self.backoff_max < 0:
            raise PaperrankError("backoff must not be negative")
        return self


def config_path(explicit: Path | str | None = None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("PAPERRANK_CLASSIFY_CONFIG")
    return Path(env) if env else DEFAULT_CONFIG


def load_config(path: Path | str | None = None) -> LLMConfig:
    target = config_path(path)
    try:
        with target.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise PaperrankError(f"config {target} is not valid TOML: {error}") from None
    known = {f.name: f.type for f in fields(LLMConfig)}
    values: dict[str, Any] = {}
    for key, value in (data.get("llm") or {}).items():
        if key not in known:
            raise PaperrankError(f"config {target}: unknown key [llm].{key}")
        values[key] = value
    if "model" in (data.get("keywords") or {}):
        values["keywords_model"] = data["keywords"]["model"]
    defaults = LLMConfig()
    for key, value in values.items():
        kind = type(getattr(defaults, key))
        if kind is float and isinstance(value, int):
            value = float(value)
        if not isinstance(value, kind):
            raise PaperrankError(f"config {target}: [llm].{key} must be a {kind.__name__}")
        values[key] = value
    return LLMConfig(**values).check()
