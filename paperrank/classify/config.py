"""Classifier settings: `classify/config.toml` holds every default, in one place.

Another file (--config or PAPERRANK_CLASSIFY_CONFIG) overrides any of its keys; the command
line overrides both.  The dataclass below only names and types the settings.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from paperrank.core.config import classify_config_file
from paperrank.core.errors import PaperrankError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "config.toml"


@dataclass(frozen=True)
class LLMConfig:
    model: str
    base_url: str
    api_key_env: str
    concurrency: int
    timeout: float
    max_attempts: int
    invalid_attempts: int
    max_tokens: int
    temperature: float
    keywords_model: str
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
        return self


def config_path(explicit: Path | str | None = None) -> Path:
    if explicit:
        return Path(explicit)
    return classify_config_file() or DEFAULT_CONFIG


def _read(target: Path) -> dict[str, Any]:
    """The settings a file sets, by LLMConfig field name ([keywords].model is keywords_model)."""
    try:
        with target.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise PaperrankError(f"config {target} is not valid TOML: {error}") from None
    except FileNotFoundError:
        raise PaperrankError(f"config {target}: no such file") from None
    known = {f.name for f in fields(LLMConfig)}
    values: dict[str, Any] = {}
    for key, value in (data.get("llm") or {}).items():
        if key not in known:
            raise PaperrankError(f"config {target}: unknown key [llm].{key}")
        values[key] = value
    if "model" in (data.get("keywords") or {}):
        values["keywords_model"] = data["keywords"]["model"]
    return values


def load_config(path: Path | str | None = None) -> LLMConfig:
    """The defaults of config.toml, overlaid with the chosen file's settings."""
    defaults = _read(DEFAULT_CONFIG)
    target = config_path(path)
    values = dict(defaults)
    if target.resolve() != DEFAULT_CONFIG:
        for key, value in _read(target).items():
            kind = type(defaults.get(key, {}))
            if kind is float and isinstance(value, int):
                value = float(value)
            if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
                raise PaperrankError(f"config {target}: [llm].{key} must be a {kind.__name__}")
            values[key] = value
    return LLMConfig(**values).check()


@dataclass(frozen=True)
class SampledConfig:
    """`classify run --strategy sampled` ([sampled] in config.toml): sample, check, confidence."""

    sample_share: float
    sample_min: int
    check_share: float
    confidence: float
    seed: int

    def override(self, **values: Any) -> SampledConfig:
        return replace(self, **{k: v for k, v in values.items() if v is not None})

    def check(self) -> SampledConfig:
        for name in ("sample_share", "check_share"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise PaperrankError(f"[sampled].{name} must be a number > 0 and < 1, got {value!r}")
        if not 0 < self.confidence <= 1:
            raise PaperrankError(f"[sampled].confidence must be a number > 0 and <= 1, got {self.confidence!r}")
        if self.sample_min < 2 or self.seed < 0:
            raise PaperrankError("[sampled].sample_min must be at least 2 and seed at least 0")
        return self


def load_sampled_config(path: Path | str | None = None) -> SampledConfig:
    """[sampled] of config.toml, overlaid with the chosen file's [sampled] (same type rules)."""
    sections = []
    for target in (DEFAULT_CONFIG, config_path(path)):
        try:
            with target.open("rb") as handle:
                sections.append(tomllib.load(handle).get("sampled") or {})
        except tomllib.TOMLDecodeError as error:
            raise PaperrankError(f"config {target} is not valid TOML: {error}") from None
        except FileNotFoundError:
            raise PaperrankError(f"config {target}: no such file") from None
    values = dict(sections[0])
    known = {f.name: f.type for f in fields(SampledConfig)}
    for key, value in sections[1].items():
        if key not in known:
            raise PaperrankError(f"config {config_path(path)}: unknown key [sampled].{key}")
        kind = type(values[key])
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PaperrankError(f"config {config_path(path)}: [sampled].{key} must be a {kind.__name__}")
        values[key] = value
    return SampledConfig(**values).check()
