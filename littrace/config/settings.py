"""The whole settings tree, its cross-field checks and its digests."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any

import yaml
from pydantic import BaseModel, Field, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from littrace.config.base import ConfigError, StepBackend
from littrace.config.corpus import CorpusSettings
from littrace.config.execution import EvaluateSettings, LlmSettings, RuntimeSettings
from littrace.config.index import IndexSettings
from littrace.config.read import ReadSettings
from littrace.config.relate import RelateSettings
from littrace.config.retrieve import RetrieveSettings
from littrace.digest import stable_digest

COMMENT_WIDTH = 99


class InconsistentSetting(ValueError):
    """A cross-field conflict: the dotted key to fix and the other keys involved."""

    def __init__(self, key: str, reason: str, *related: str) -> None:
        super().__init__(f"'{key}' {reason}")
        self.keys = (key, *related)
        self.reason = reason


class Settings(BaseSettings):
    """The whole configuration tree; build it with :func:`load_settings`.

    ``Settings()`` is the code defaults alone: the layers (``conf/`` files, ``LITTRACE_``
    variables named by ``env_prefix`` and ``env_nested_delimiter``, overrides) are read only by
    :func:`load_settings`, which names the layer of every bad key.
    """

    model_config = SettingsConfigDict(
        extra="forbid", env_prefix="LITTRACE_", env_nested_delimiter="__", case_sensitive=False
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)

    corpus: CorpusSettings = Field(
        default_factory=CorpusSettings, description="PDF conversion and chunking."
    )
    index: IndexSettings = Field(
        default_factory=IndexSettings, description="BM25, dense and citation indexes."
    )
    retrieve: RetrieveSettings = Field(
        default_factory=RetrieveSettings, description="Question-anchored retrieval (Ranking A)."
    )
    relate: RelateSettings = Field(
        default_factory=RelateSettings,
        description="Paper-to-paper expansion (Ranking B) and A/B fusion.",
    )
    read: ReadSettings = Field(default_factory=ReadSettings, description="Reading and answering.")
    llm: LlmSettings = Field(default_factory=LlmSettings, description="LLM client.")
    evaluate: EvaluateSettings = Field(
        default_factory=EvaluateSettings, description="Metrics and reports."
    )
    runtime: RuntimeSettings = Field(
        default_factory=RuntimeSettings, description="Artifacts and execution."
    )

    @model_validator(mode="after")
    def _check_consistency(self) -> Settings:
        # Fail at load time rather than deep inside a run (TRACE §3.4: fail closed).
        if self.llm.backend == "none":
            for key, backend in self.llm_steps():
                if backend == "llm":
                    raise InconsistentSetting(
                        key, "is 'llm' but llm.backend is 'none'", "llm.backend"
                    )
        elif not self.llm.model:
            raise InconsistentSetting(
                "llm.model", "is required when llm.backend is 'litellm'", "llm.backend"
            )
        rerank = self.retrieve.rerank
        if rerank.backend == "qwen3" and not rerank.model:
            raise InconsistentSetting(
                "retrieve.rerank.model",
                "is required when retrieve.rerank.backend is 'qwen3'",
                "retrieve.rerank.backend",
            )
        if rerank.pool_top > rerank.max_chunks:
            raise InconsistentSetting(
                "retrieve.rerank.pool_top",
                f"({rerank.pool_top}) exceeds retrieve.rerank.max_chunks ({rerank.max_chunks})",
                "retrieve.rerank.max_chunks",
            )
        return self

    def llm_steps(self) -> Iterator[tuple[str, StepBackend]]:
        """Each LLM-shaped step as (dotted key of its backend, backend)."""
        yield "retrieve.planner.backend", self.retrieve.planner.backend
        yield "retrieve.decompose.backend", self.retrieve.decompose.backend
        yield "retrieve.verify.backend", self.retrieve.verify.backend
        yield "read.backend", self.read.backend
        yield "read.evidence.backend", self.read.evidence.backend

    def digest(self, *paths: str) -> str:
        """SHA-256 hex of the canonical JSON of the named sub-trees (all settings if none).

        Keys are sorted, so the digest depends on values only, never on the order keys were
        written in; ``digest("index.bm25", "index.encoder")`` equals the reversed call.
        """
        tree = self.model_dump(mode="json")
        return stable_digest({path: _subtree(tree, path) for path in paths} if paths else tree)

    def to_yaml(self, described: bool = False) -> str:
        """The effective configuration as YAML, in field order (``littrace config show``);
        ``described`` puts each field's description above it as a comment (how
        ``conf/default.yaml`` is written from the code's defaults)."""
        if not described:
            return yaml.safe_dump(self.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
        return "".join(_described_lines(self, 0))


def _described_lines(section: BaseModel, depth: int) -> Iterator[str]:
    indent = "  " * depth
    values = section.model_dump(mode="json")
    for name, field in type(section).model_fields.items():
        if depth == 0:
            yield "\n"
        for line in textwrap.wrap(field.description or "", COMMENT_WIDTH - len(indent) - 2):
            yield f"{indent}# {line}\n"
        value = getattr(section, name)
        if isinstance(value, BaseModel):
            yield f"{indent}{name}:\n"
            yield from _described_lines(value, depth + 1)
        else:
            shown = yaml.safe_dump(values[name], default_flow_style=True, allow_unicode=True)
            yield f"{indent}{name}: {shown.removesuffix(chr(10)).removesuffix('...').strip()}\n"


def _subtree(tree: dict[str, Any], path: str) -> Any:
    node: Any = tree
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(f"unknown settings path '{path}'")
        node = node[part]
    return node
