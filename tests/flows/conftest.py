"""Fixtures of the flow tests: a Prefect test server for the session, a synthetic corpus, and
an artifact root with that corpus ingested and indexed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from prefect.testing.utilities import prefect_test_harness

from littrace.config import load_settings
from littrace.corpus.ingest import ingest
from littrace.index.stage import build_indexes
from littrace.synth import SynthCorpus, generate_corpus


@pytest.fixture(scope="session")
def prefect_api() -> Iterator[None]:
    """A Prefect server on a temporary database, shared by the session's flow tests."""
    with prefect_test_harness(server_startup_timeout=180):
        yield


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> SynthCorpus:
    """Six synthetic papers with gold (read-only: tests copy what they change)."""
    return generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=6, seed=3, n_questions=6)


@pytest.fixture(scope="session")
def indexed(synth: SynthCorpus, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An artifact root holding the six papers' corpus and indexes, built by the library
    (read-only: tests copy it)."""
    root = tmp_path_factory.mktemp("indexed") / "artifacts"
    settings = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    corpus = ingest(synth.pool, synth.pdf_dir, settings, run_id="fixture").artifact
    build_indexes(corpus, settings, run_id="fixture")
    return root
