"""The index stage: corpus artifact → BM25 (chunks, papers), dense vectors + HNSW, paper
vectors and the citation graph, each a cached artifact.

Every index is an artifact whose hash covers its input artifact and only the settings it
reads, so rebuilding with nothing changed does nothing, changing ``index.hnsw.m`` rebuilds
the HNSW graph from the stored vectors without encoding, and BM25's k1/b (applied when
searching) change nothing here. Dense and paper vectors are cached per paper under
``<artifact_root>/cache/``, so a grown pool encodes only its new papers.

Example:
    >>> indexes = build_indexes(corpus_artifact, load_settings())  # doctest: +SKIP
    >>> indexes.summary()["bm25_chunks"]["documents"]  # doctest: +SKIP
    1532
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from littrace.artifacts import Artifact, ArtifactStore, ArtifactWriter, Catalog, LineageRecord
from littrace.config import Settings
from littrace.corpus.model import Chunk, PaperRecord, Reference, table_to_records
from littrace.index.bm25 import build_chunk_index, build_paper_index
from littrace.index.citations import CouplingGraph, reference_key, resolve_references
from littrace.index.dense import build_hnsw, encode_chunks, load_vectors
from littrace.index.encoders import load_encoder
from littrace.index.papers import encode_papers, load_paper_encoder

INDEX_VERSION = "1"
BM25_DIR = "bm25"
VECTORS_DIR = "vectors"
HNSW_DIR = "hnsw"
# Settings that change the numbers an encoder produces (batch size and device do not).
ENCODER_FIELDS = ("model", "pooling", "max_length", "normalize", "dtype")

ProgressCallback = Callable[[str, int, int], None]
REFERENCE_LINKS_SCHEMA = pa.schema(
    [(name, pa.string()) for name in ("paper_id", "label", "reference_key", "resolved_paper_id")]
)


class MissingCorpusError(LookupError):
    """No corpus artifact to index: ``littrace ingest`` has not run for this artifact root."""


def latest_artifact(root: Path, stage: str) -> Artifact:
    """The artifact of ``stage`` that the most recent run used (per the lineage table)."""
    store = ArtifactStore(root, catalog=False)
    hashes = Catalog(root).query(
        "SELECT artifact_hash FROM lineage WHERE stage = $1 ORDER BY finished DESC", [stage]
    )
    for artifact_hash in hashes.column("artifact_hash").to_pylist():
        for artifact in store.artifacts(stage):
            if artifact.hash == artifact_hash:
                return artifact
    raise MissingCorpusError(f"no {stage} artifact under {root}: run `littrace ingest` first")


@dataclass
class IndexArtifacts:
    """The artifacts of one index run, with the build seconds of those built now."""

    artifacts: dict[str, Artifact]
    built_seconds: dict[str, float] = field(default_factory=dict)

    def path(self, name: str) -> Path:
        return self.artifacts[name].path

    def summary(self) -> dict[str, Any]:
        """Per index: artifact hash, whether it was built now (and in how many seconds), size."""
        return {
            name: {
                "artifact": artifact.hash[:16],
                "built_s": round(self.built_seconds[name], 2)
                if name in self.built_seconds
                else "cached",
                "size_mb": round(_size(artifact.path) / 1e6, 2),
                **{table: rows for table, rows in artifact.manifest.tables.items()},
            }
            for name, artifact in self.artifacts.items()
        }


def _size(path: Path) -> int:
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())


def _encoder_digest(settings: Settings, section: str) -> str:
    return settings.digest(*(f"{section}.{name}" for name in ENCODER_FIELDS))


def build_indexes(
    corpus: Artifact,
    settings: Settings,
    *,
    run_id: str | None = None,
    progress: ProgressCallback | None = None,
) -> IndexArtifacts:
    """Build (or find) every index of ``corpus``; ``progress(step, done, total)`` reports encoding."""
    root = Path(settings.runtime.artifact_root)
    store = ArtifactStore(root)
    catalog = Catalog(root)
    run = run_id or f"index-{uuid.uuid4().hex[:8]}"
    result = IndexArtifacts({})
    chunks: list[Chunk] | None = None

    def corpus_chunks() -> list[Chunk]:
        nonlocal chunks
        if chunks is None:
            chunks = table_to_records(corpus.table("chunks"), Chunk)
        return chunks

    def stage(
        name: str,
        inputs: dict[str, str],
        config: dict[str, Any] | str,
        build: Callable[[ArtifactWriter], None],
    ) -> Artifact:
        key = store.key(name, code_version=INDEX_VERSION, inputs=inputs, config=config)
        started = datetime.now(UTC)
        clock = time.perf_counter()
        artifact = store.get(key)
        if artifact is None:
            artifact = store.get_or_build(key, build)
            result.built_seconds[name] = time.perf_counter() - clock
        catalog.record_lineage(
            LineageRecord.for_artifact(run, artifact, started, datetime.now(UTC))
        )
        result.artifacts[name] = artifact
        return artifact

    on_corpus = {"corpus": corpus.hash}
    stage(
        "bm25-chunks",
        on_corpus,
        {},
        lambda w: _write_bm25(w, build_chunk_index, corpus_chunks()),
    )
    stage(
        "bm25-papers",
        on_corpus,
        {},
        lambda w: _write_bm25(w, build_paper_index, corpus_chunks()),
    )
    cache = root / "cache"
    vectors = stage(
        "vectors",
        on_corpus,
        _encoder_digest(settings, "index.encoder"),
        lambda w: _write_vectors(w, corpus_chunks(), settings, cache, progress),
    )
    stage(
        "hnsw",
        {"vectors": vectors.hash},
        settings.digest("index.hnsw.space", "index.hnsw.m", "index.hnsw.ef_construction"),
        lambda w: _write_hnsw(w, vectors, settings),
    )
    paper_section = "index.paper_encoder" if settings.index.paper_encoder else "index.encoder"
    stage(
        "paper-vectors",
        on_corpus,
        _encoder_digest(settings, paper_section),
        lambda w: _write_paper_vectors(w, corpus, settings, cache, progress),
    )
    stage(
        "citation-graph",
        on_corpus,
        settings.digest("index.references"),
        lambda w: _write_citation_graph(w, corpus, settings),
    )
    return result


def _write_bm25(
    writer: ArtifactWriter, build: Callable[[list[Chunk], Path], Any], chunks: list[Chunk]
) -> None:
    build(chunks, writer.path / BM25_DIR)


def _write_vectors(
    writer: ArtifactWriter,
    chunks: list[Chunk],
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    encoder = load_encoder(settings.index.encoder)
    encode_chunks(
        [(chunk.chunk_id, chunk.text) for chunk in chunks],
        encoder,
        writer.path / VECTORS_DIR,
        cache_dir=cache / "vectors",
        encoder_key=_encoder_digest(settings, "index.encoder"),
        batch_size=max(settings.index.encoder.batch_size * 8, 256),
        progress=(lambda done, total: progress("encoding chunks", done, total))
        if progress
        else None,
    )


def _write_hnsw(writer: ArtifactWriter, vectors: Artifact, settings: Settings) -> None:
    stored = load_vectors(vectors.path / VECTORS_DIR)
    build_hnsw(stored.vectors, stored.ids, writer.path / HNSW_DIR, settings.index.hnsw)


def _write_paper_vectors(
    writer: ArtifactWriter,
    corpus: Artifact,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    papers = table_to_records(corpus.table("papers"), PaperRecord)
    section = "index.paper_encoder" if settings.index.paper_encoder else "index.encoder"
    encode_papers(
        papers,
        load_paper_encoder(settings.index),
        writer.path / VECTORS_DIR,
        cache_dir=cache / "paper-vectors",
        encoder_key=_encoder_digest(settings, section),
        progress=(lambda done, total: progress("encoding papers", done, total))
        if progress
        else None,
    )


def _write_citation_graph(writer: ArtifactWriter, corpus: Artifact, settings: Settings) -> None:
    references = table_to_records(corpus.table("references"), Reference)
    papers = table_to_records(corpus.table("papers"), PaperRecord)
    resolved = resolve_references(
        references, papers, min_similarity=settings.index.references.min_title_similarity
    )
    writer.write_table(
        "reference_links",
        [
            {
                "paper_id": ref.paper_id,
                "label": ref.label,
                "reference_key": reference_key(ref),
                "resolved_paper_id": resolved.get((ref.paper_id, ref.label)),
            }
            for ref in references
        ],
        schema=REFERENCE_LINKS_SCHEMA,
    )
    writer.write_table("coupling", CouplingGraph.build(references, resolved).to_table())
