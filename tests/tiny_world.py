"""The tests' tiny world: ten synthetic papers (seed 5) with ten questions and their gold,
ingested and indexed with the test profile under one artifact root. The session fixture
``tiny_world`` (``tests/conftest.py``) builds it once; it is read-only: a test that writes
artifacts works on a :meth:`TinyWorld.copy`."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from littrace.artifacts import Artifact, load_artifact
from littrace.config import Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.index.stage import IndexArtifacts, build_indexes
from littrace.synth import SynthCorpus, generate_corpus

RUN_ID = "tiny-world"


def settings_for(root: Path) -> Settings:
    """The test profile on the artifact root ``root``."""
    return load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})


@dataclass(frozen=True)
class TinyWorld:
    synth: SynthCorpus
    root: Path
    settings: Settings
    corpus: Artifact
    indexes: IndexArtifacts

    def copy(self, root: Path) -> TinyWorld:
        """The world with its artifact root copied to ``root`` (which must not exist); the
        synthetic corpus (pool, PDFs, questions, gold) stays shared."""
        shutil.copytree(self.root, root)

        def moved(artifact: Artifact) -> Artifact:
            copied = load_artifact(root, (artifact.stage, artifact.hash))
            assert copied is not None, artifact.path
            return copied

        indexes = IndexArtifacts({name: moved(a) for name, a in self.indexes.artifacts.items()})
        return TinyWorld(self.synth, root, settings_for(root), moved(self.corpus), indexes)


def build_tiny_world(base: Path) -> TinyWorld:
    """Generate the corpus under ``base``, ingest and index it under ``base / "artifacts"``."""
    synth = generate_corpus(base / "synth", n_papers=10, seed=5, n_questions=10)
    root = base / "artifacts"
    settings = settings_for(root)
    corpus = ingest(synth.pool, synth.pdf_dir, settings, run_id=RUN_ID).artifact
    indexes = build_indexes(corpus, settings, run_id=RUN_ID)
    return TinyWorld(synth, root, settings, corpus, indexes)
