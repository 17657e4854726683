"""The index stage on a synthetic corpus: real Lucene, MiniLM and HNSW; caching and increments."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import littrace.codeversion as codeversion
from littrace.config import Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.index.bm25 import Bm25Searcher
from littrace.index.citations import CouplingGraph
from littrace.index.dense import DenseIndex
from littrace.index.encoders import load_encoder
from littrace.index.stage import (
    BM25_DIR,
    HNSW_DIR,
    IndexArtifacts,
    build_indexes,
    encoding_cache_key,
    latest_artifact,
)
from littrace.runtime import PROJECT_ROOT
from littrace.synth import SynthCorpus
from tests.tiny_world import TinyWorld


def settings_for(root: Path, **overrides: Any) -> Settings:
    return load_settings(
        "test", overrides={"runtime.artifact_root": str(root), **overrides}, environ={}
    )


@pytest.fixture(scope="module")
def synth(tiny_world: TinyWorld) -> SynthCorpus:
    """The tiny world's ten papers with gold (read-only)."""
    return tiny_world.synth


@pytest.fixture(scope="module")
def built(
    tiny_world: TinyWorld, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Settings, IndexArtifacts]:
    """The tiny world's corpus and indexes, in a copy of its artifact root this module may
    build more indexes in."""
    world = tiny_world.copy(tmp_path_factory.mktemp("built") / "artifacts")
    return world.settings, world.indexes


def gold(synth: SynthCorpus) -> list[dict[str, Any]]:
    return [json.loads(line) for line in synth.gold.read_text(encoding="utf-8").splitlines()]


def single_paper_questions(synth: SynthCorpus) -> list[tuple[str, str, int]]:
    """(question, gold paper, gold evidence page) of single-paper questions."""
    return [
        (
            record["question"],
            record["gold_papers"][0]["paper_id"],
            record["evidence"][0]["locator"]["page"],
        )
        for record in gold(synth)
        if record["task_family"] == "hidden_source_single_paper"
    ]


def test_known_questions_find_their_gold_chunk_by_bm25_and_dense(
    synth: SynthCorpus, built: tuple[Settings, IndexArtifacts]
) -> None:
    settings, indexes = built
    questions = single_paper_questions(synth)
    assert len(questions) >= 4
    chunks = {
        row["chunk_id"]: row
        for row in latest_artifact(Path(settings.runtime.artifact_root), "corpus")
        .table("chunks")
        .to_pylist()
    }
    encoder = load_encoder(settings.index.encoder)
    dense = DenseIndex.load(indexes.path("hnsw") / HNSW_DIR, settings.index.hnsw.ef_search)
    with Bm25Searcher(indexes.path("bm25-chunks") / BM25_DIR) as bm25:
        for question, paper_id, page in questions:
            lexical = [chunks[hit.doc_id] for hit in bm25.search(question, k=10)]
            semantic = [
                chunks[cid] for cid, _ in dense.search(encoder.encode_queries([question]), k=10)[0]
            ]
            for hits in (lexical, semantic):
                assert any(c["paper_id"] == paper_id for c in hits), question
            assert any(
                (c["paper_id"], c["page"]) == (paper_id, page) for c in lexical + semantic
            ), question


def test_paper_index_and_coupling_find_the_line_of_work(
    synth: SynthCorpus, built: tuple[Settings, IndexArtifacts]
) -> None:
    _, indexes = built
    coupling = CouplingGraph.from_table(indexes.artifacts["citation-graph"].table("coupling"))
    for line in synth.lines_of_work:
        members = set(line)
        for paper_id in line:
            neighbours = {n.paper_id for n in coupling.neighbors(paper_id)}
            assert neighbours == members - {paper_id}, paper_id
    with Bm25Searcher(indexes.path("bm25-papers") / BM25_DIR) as papers:
        seed = synth.lines_of_work[0][0]
        assert papers.search(papers.doc_text(seed)[:1200], k=1)[0].doc_id == seed


def test_rerunning_builds_nothing_and_hnsw_settings_reuse_the_vectors(
    built: tuple[Settings, IndexArtifacts],
) -> None:
    settings, first = built
    corpus = latest_artifact(Path(settings.runtime.artifact_root), "corpus")
    again = build_indexes(corpus, settings)
    assert again.built_seconds == {}
    assert {k: a.hash for k, a in again.artifacts.items()} == {
        k: a.hash for k, a in first.artifacts.items()
    }
    # BM25 k1/b are applied when searching: they change no index.
    searching = settings_for(Path(settings.runtime.artifact_root), **{"index.bm25.k1": 0.9})
    assert build_indexes(corpus, searching).built_seconds == {}
    other_graph = settings_for(
        Path(settings.runtime.artifact_root), **{"index.hnsw.m": settings.index.hnsw.m + 4}
    )
    rebuilt = build_indexes(corpus, other_graph)
    assert set(rebuilt.built_seconds) == {"hnsw"}


def test_a_grown_pool_encodes_only_the_new_papers(synth: SynthCorpus, tmp_path: Path) -> None:
    papers = [json.loads(line) for line in synth.pool.read_text(encoding="utf-8").splitlines()]
    with_pdf = [p for p in papers if (synth.pdf_dir / f"{p['paper_id']}.pdf").exists()]
    small_pool = tmp_path / "small.jsonl"
    small_pool.write_text("".join(json.dumps(p) + "\n" for p in with_pdf[:6]), encoding="utf-8")
    settings = settings_for(tmp_path / "artifacts")
    build_indexes(ingest(small_pool, synth.pdf_dir, settings).artifact, settings)

    progress: list[tuple[str, int, int]] = []
    grown = ingest(synth.pool, synth.pdf_dir, settings)
    build_indexes(grown.artifact, settings, progress=lambda *args: progress.append(args))

    first_ids = {p["paper_id"] for p in with_pdf[:6]}
    chunks = grown.artifact.table("chunks").column("paper_id").to_pylist()
    new_chunks = sum(1 for paper_id in chunks if paper_id not in first_ids)
    encoded = max(done for step, done, _ in progress if step == "encoding chunks")
    assert 0 < encoded == new_chunks < len(chunks)


def test_the_vector_caches_are_keyed_by_the_encoding_code(tmp_path: Path) -> None:
    """Editing the module that encodes (in a copy of the sources) changes the caches' key, as
    it changes the index artifacts' keys; a pinned index code version keeps it."""
    settings = load_settings("test", environ={})
    pinned = load_settings("test", overrides={"runtime.code_versions.index": "kept"}, environ={})

    def keys(root: Path) -> tuple[str, str]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(codeversion, "PROJECT_ROOT", root)
            return (
                encoding_cache_key(settings, "index.encoder"),
                encoding_cache_key(pinned, "index.encoder"),
            )

    original, edited = tmp_path / "original", tmp_path / "edited"
    for root in (original, edited):
        for package in codeversion.PROJECT_PACKAGES:
            shutil.copytree(
                PROJECT_ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__")
            )
    dense = edited / "littrace/index/dense.py"
    dense.write_bytes(dense.read_bytes() + b"\n# edited\n")
    before, after = keys(original), keys(edited)
    assert before[0] != after[0]
    assert before[1] == after[1]
    # Unedited sources elsewhere give the key of the sources here.
    assert before[0] == encoding_cache_key(settings, "index.encoder")
