"""A client on the scripted provider (``tests/scripted_llm.py``) for the LLM backends of the
retrieval steps, one synthetic corpus with real indexes shared by the end-to-end retrieval
tests, and an encoder that counts its calls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from littrace.artifacts import Artifact
from littrace.config import LlmSettings, Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.index.encoders import Encoder
from littrace.index.stage import IndexArtifacts, build_indexes
from littrace.llm.client import LlmClient
from littrace.synth import SynthCorpus, generate_corpus


def scripted_client(tmp_path: Path) -> LlmClient:
    """An LLM client whose model is the scripted provider, without retries."""
    settings = LlmSettings(backend="litellm", model="scripted/test", max_retries=0)
    return LlmClient(settings, tmp_path / "cache")


@dataclass(frozen=True)
class Indexed:
    """A synthetic corpus (12 papers, 30 questions with gold) ingested and indexed."""

    corpus: SynthCorpus
    settings: Settings
    artifact: Artifact
    indexes: IndexArtifacts


@pytest.fixture(scope="session")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Indexed:
    corpus = generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=12, seed=2, n_questions=30)
    root = tmp_path_factory.mktemp("artifacts")
    settings = load_settings(None, overrides={"runtime.artifact_root": str(root)}, environ={})
    artifact = ingest(corpus.pool, corpus.pdf_dir, settings).artifact
    return Indexed(corpus, settings, artifact, build_indexes(artifact, settings))


class CountingEncoder:
    """A real encoder, recording the texts of each query call."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.calls: list[list[str]] = []
        self.name = encoder.name
        self.dimension = encoder.dimension

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.encoder.encode_queries(texts)

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.encoder.encode_documents(texts)
