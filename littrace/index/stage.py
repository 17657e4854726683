"""The index stage: corpus artifact → BM25 (chunks, papers), dense vectors + HNSW, paper
vectors and the citation graph, each a cached artifact.

Every index is an artifact whose hash covers its input artifact and only the settings it
reads, so rebuilding with nothing changed does nothing, changing ``index.hnsw.m`` rebuilds
the HNSW graph from the stored vectors without encoding, and BM25's k1/b (applied when
searching) change nothing here. Dense and paper vectors are cached per paper under
``<artifact_root>/cache/``, so a grown pool encodes only its new papers; the caches are keyed
by the encoder settings and the index code version (:func:`encoding_cache_key`).

:func:`build_indexes` builds all of them in order; an orchestrator runs one index at a time
with :func:`build_index` (in the order of :data:`INDEXES`) and can compute each index's key
up front with :func:`index_key`, since a key depends only on its source's hash and settings.

Example:
    >>> indexes = build_indexes(corpus_artifact, load_settings())  # doctest: +SKIP
    >>> indexes.summary()["bm25-chunks"]["artifact"]  # doctest: +SKIP
    'e1d1277986aea733'
    >>> key = index_key("hnsw", indexes.artifacts["vectors"].hash, load_settings())  # doctest: +SKIP
    >>> build_index("hnsw", indexes.artifacts["vectors"], load_settings()).artifact.hash == key.hash  # doctest: +SKIP
    True
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import pyarrow as pa

from littrace.artifacts import (
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
    Catalog,
    LineageRecord,
)
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.corpus.document import Chunk, PaperRecord, Reference, table_to_records
from littrace.index.bm25 import build_chunk_index, build_paper_index
from littrace.index.citations import CouplingGraph, reference_key, resolve_references
from littrace.index.dense import build_hnsw, encode_chunks, load_vectors
from littrace.index.encoders import load_encoder
from littrace.index.papers import encode_papers, load_paper_encoder
from littrace.progress import ProgressCallback

BM25_DIR = "bm25"
VECTORS_DIR = "vectors"
HNSW_DIR = "hnsw"
# Settings that change the numbers an encoder produces (batch size and device do not).
ENCODER_FIELDS = ("model", "pooling", "max_length", "normalize", "dtype")

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


def encoding_cache_key(settings: Settings, section: str) -> str:
    """The key of the per-paper vector caches (``cache/vectors``, ``cache/paper-vectors``):
    the encoder settings of ``section`` and the index code version, so vectors the old code
    made are not reused after an edit of the encoding code (pinning ``runtime.code_versions
    .index`` keeps them, as it keeps the index artifacts)."""
    encoder = _encoder_digest(settings, section)
    code = code_version("index", settings.runtime.code_versions.index)
    return hashlib.sha256(f"{encoder}\0{code}".encode()).hexdigest()


class _Sources:
    """An index's input artifact, with the corpus tables read at most once per build run."""

    def __init__(self, artifact: Artifact) -> None:
        self.artifact = artifact

    @cached_property
    def chunks(self) -> list[Chunk]:
        return table_to_records(self.artifact.table("chunks"), Chunk)

    @cached_property
    def papers(self) -> list[PaperRecord]:
        return table_to_records(self.artifact.table("papers"), PaperRecord)


# Writes one index into a writer's temp dir: (writer, sources, settings, cache dir, progress).
_Write = Callable[[ArtifactWriter, _Sources, Settings, Path, ProgressCallback | None], None]


@dataclass(frozen=True)
class _Step:
    source: str  # stage of the artifact the index is built from
    config: Callable[[Settings], dict[str, Any] | str]  # the settings the index depends on
    write: _Write


def _paper_section(settings: Settings) -> str:
    return "index.paper_encoder" if settings.index.paper_encoder else "index.encoder"


def _no_config(settings: Settings) -> dict[str, Any]:
    return {}  # BM25 k1/b are applied when searching


def index_source(name: str) -> str:
    """The stage whose artifact index ``name`` is built from: ``corpus``, or ``vectors`` (HNSW)."""
    return _STEPS[name].source


def index_key(name: str, source_hash: str, settings: Settings) -> ArtifactKey:
    """The key of index ``name`` built from the artifact ``source_hash`` with ``settings``.

    Known before building, so an orchestrator can look the index up (or use the hash as its
    own cache key) without touching the corpus.
    """
    step = _STEPS[name]
    store = ArtifactStore(settings.runtime.artifact_root, catalog=False)
    return store.key(
        name,
        code_version=code_version("index", settings.runtime.code_versions.index),
        inputs={step.source: source_hash},
        config=step.config(settings),
    )


@dataclass(frozen=True)
class IndexBuild:
    """One index: its artifact, and the seconds it took if it was built now (else None)."""

    artifact: Artifact
    built_seconds: float | None


def build_index(
    name: str,
    source: Artifact,
    settings: Settings,
    *,
    run_id: str | None = None,
    progress: ProgressCallback | None = None,
) -> IndexBuild:
    """Build (or find) the index ``name`` of ``source`` (the corpus; the vectors for HNSW)."""
    return _build(name, _Sources(source), settings, run_id or _run_id(), progress)


def _run_id() -> str:
    return f"index-{uuid.uuid4().hex[:8]}"


def _build(
    name: str,
    sources: _Sources,
    settings: Settings,
    run_id: str,
    progress: ProgressCallback | None,
) -> IndexBuild:
    step = _STEPS[name]
    if sources.artifact.stage != step.source:
        raise ValueError(
            f"index {name} is built from a {step.source} artifact, not {sources.artifact.stage}"
        )
    root = Path(settings.runtime.artifact_root)
    store = ArtifactStore(root)
    key = index_key(name, sources.artifact.hash, settings)
    started = datetime.now(UTC)
    clock = time.perf_counter()
    artifact = store.get(key)
    built: float | None = None
    if artifact is None:
        artifact = store.get_or_build(
            key, lambda w: step.write(w, sources, settings, root / "cache", progress)
        )
        built = time.perf_counter() - clock
    Catalog(root).record_lineage(
        LineageRecord.for_artifact(run_id, artifact, started, datetime.now(UTC))
    )
    return IndexBuild(artifact, built)


def build_indexes(
    corpus: Artifact,
    settings: Settings,
    *,
    run_id: str | None = None,
    progress: ProgressCallback | None = None,
) -> IndexArtifacts:
    """Build (or find) every index of ``corpus``; ``progress(step, done, total)`` reports encoding."""
    run = run_id or _run_id()
    result = IndexArtifacts({})
    on_corpus = _Sources(corpus)  # shared, so the chunks are read once for all indexes
    for name in INDEXES:
        source = index_source(name)
        sources = on_corpus if source == "corpus" else _Sources(result.artifacts[source])
        built = _build(name, sources, settings, run, progress)
        result.artifacts[name] = built.artifact
        if built.built_seconds is not None:
            result.built_seconds[name] = built.built_seconds
    return result


def _write_bm25_chunks(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    build_chunk_index(sources.chunks, writer.path / BM25_DIR)


def _write_bm25_papers(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    build_paper_index(sources.chunks, writer.path / BM25_DIR)


def _write_vectors(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    encoder = load_encoder(settings.index.encoder)
    encode_chunks(
        [(chunk.chunk_id, chunk.text) for chunk in sources.chunks],
        encoder,
        writer.path / VECTORS_DIR,
        cache_dir=cache / "vectors",
        encoder_key=encoding_cache_key(settings, "index.encoder"),
        batch_size=max(settings.index.encoder.batch_size * 8, 256),
        progress=progress,
        step="encoding chunks",
    )


def _write_hnsw(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    stored = load_vectors(sources.artifact.path / VECTORS_DIR)
    build_hnsw(stored.vectors, stored.ids, writer.path / HNSW_DIR, settings.index.hnsw)


def _write_paper_vectors(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    encode_papers(
        sources.papers,
        load_paper_encoder(settings.index),
        writer.path / VECTORS_DIR,
        cache_dir=cache / "paper-vectors",
        encoder_key=encoding_cache_key(settings, _paper_section(settings)),
        progress=progress,
        step="encoding papers",
    )


def _write_citation_graph(
    writer: ArtifactWriter,
    sources: _Sources,
    settings: Settings,
    cache: Path,
    progress: ProgressCallback | None,
) -> None:
    references = table_to_records(sources.artifact.table("references"), Reference)
    resolved = resolve_references(
        references, sources.papers, min_similarity=settings.index.references.min_title_similarity
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


def _hnsw_config(settings: Settings) -> str:
    return settings.digest("index.hnsw.space", "index.hnsw.m", "index.hnsw.ef_construction")


_STEPS: dict[str, _Step] = {
    "bm25-chunks": _Step("corpus", _no_config, _write_bm25_chunks),
    "bm25-papers": _Step("corpus", _no_config, _write_bm25_papers),
    "vectors": _Step(
        "corpus", lambda settings: _encoder_digest(settings, "index.encoder"), _write_vectors
    ),
    "hnsw": _Step("vectors", _hnsw_config, _write_hnsw),
    "paper-vectors": _Step(
        "corpus",
        lambda settings: _encoder_digest(settings, _paper_section(settings)),
        _write_paper_vectors,
    ),
    "citation-graph": _Step(
        "corpus", lambda settings: settings.digest("index.references"), _write_citation_graph
    ),
}
# Build order: an index comes after the index it is built from.
INDEXES: tuple[str, ...] = tuple(_STEPS)
