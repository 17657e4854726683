"""Fixtures of the flow tests: a Prefect test server for the session, a synthetic corpus."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prefect.testing.utilities import prefect_test_harness

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
