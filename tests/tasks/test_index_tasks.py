"""Index tasks: keys known before building, each depending only on what its index reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from prefect.logging import disable_run_logger

from littrace.artifacts import Catalog
from littrace.config import load_settings
from littrace.corpus.ingest import ingest
from littrace.index.stage import INDEXES
from littrace.synth import generate_corpus
from tasks.index import build_index_task, index_keys

CORPUS = "c" * 64


def keys(**overrides: Any) -> dict[str, str]:
    settings = load_settings("test", overrides=overrides, environ={})
    return {name: key.hash for name, key in index_keys(CORPUS, settings).items()}


def test_each_index_key_changes_only_with_what_that_index_reads() -> None:
    base = keys()
    assert list(base) == list(INDEXES) and len(set(base.values())) == len(INDEXES)

    def changed(**overrides: Any) -> set[str]:
        return {name for name, digest in keys(**overrides).items() if digest != base[name]}

    assert changed(**{"index.bm25.k1": 0.9}) == set()  # applied when searching
    assert changed(**{"index.hnsw.m": 16}) == {"hnsw"}
    assert changed(**{"index.encoder.max_length": 64}) == {"vectors", "hnsw", "paper-vectors"}
    assert changed(**{"index.references.min_title_similarity": 0.8}) == {"citation-graph"}
    assert changed(**{"index.encoder.batch_size": 4}) == set()  # same vectors either way


def test_an_index_task_builds_the_artifact_its_key_names(tmp_path: Path) -> None:
    synth = generate_corpus(tmp_path / "synth", n_papers=3, seed=2, n_questions=1)
    settings = load_settings(
        "test", overrides={"runtime.artifact_root": str(tmp_path / "artifacts")}, environ={}
    )
    corpus = ingest(synth.pool, synth.pdf_dir, settings).artifact
    key = index_keys(corpus.hash, settings)["citation-graph"]
    with disable_run_logger():
        result = build_index_task.fn("citation-graph", key, settings, "run-7")
        again = build_index_task.fn("citation-graph", key, settings, "run-8")
    assert result["artifact"] == again["artifact"] == key.hash
    assert result["built_s"] is not None and again["built_s"] is None
    assert result["tables"]["reference_links"] > 0
    runs = Catalog(tmp_path / "artifacts").query(
        "SELECT run_id FROM lineage WHERE artifact_hash = $1 ORDER BY run_id", [key.hash]
    )
    assert runs.column("run_id").to_pylist() == ["run-7", "run-8"]

    hnsw = index_keys(corpus.hash, settings)["hnsw"]
    with disable_run_logger(), pytest.raises(LookupError, match="no vectors artifact"):
        build_index_task.fn("hnsw", hnsw, settings, "run-9")
