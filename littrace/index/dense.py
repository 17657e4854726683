"""The dense chunk index: resumable encoding to disk, an HNSW index over it, exact search.

Encoding and indexing are separate steps with separate files, so an index can be rebuilt with
other HNSW settings without encoding again (Lit3R §2.1.2 encodes every chunk once with
Qwen3-Embedding; on a CPU that is the slowest step of indexing).

:func:`encode_chunks` caches vectors per paper under a content-addressed file (the encoder
settings' digest plus the paper's chunk ids and texts), written atomically as each encoder
batch finishes. A killed run therefore resumes from the papers it finished, and a pool that
grows encodes only its new papers. The cached papers are then joined into ``vectors.npy``
with ``vectors.json`` (ids and metadata, written last, so its presence means the vectors are
complete).

:func:`build_hnsw` writes ``hnsw.bin`` and ``hnsw.json`` (settings and the row → chunk id map);
:meth:`DenseIndex.load` reads them back and applies ``ef_search``. Scores are cosine
similarities (for ``space: ip`` or ``l2`` they equal cosine on unit vectors, which
``index.encoder.normalize`` gives). :func:`exact_search` is the brute-force reference.

Example:
    >>> import littrace
    >>> from littrace.config import EncoderSettings, HnswSettings
    >>> from littrace.index.encoders import load_encoder
    >>> encoder = load_encoder(EncoderSettings())  # doctest: +SKIP
    >>> stored = encode_chunks([("p1#0", "Dense retrieval.")], encoder, "work/vectors",
    ...     cache_dir="work/cache", encoder_key="minilm")  # doctest: +SKIP
    >>> build_hnsw(stored.vectors, stored.ids, "work/hnsw", HnswSettings())  # doctest: +SKIP
    >>> index = DenseIndex.load("work/hnsw", ef_search=1000)  # doctest: +SKIP
    >>> index.search(encoder.encode_queries(["dense retrieval"]), k=10)  # doctest: +SKIP
    [[('p1#0', 0.83)]]
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import hnswlib
import numpy as np
from numpy.typing import ArrayLike, NDArray

from littrace.config import HnswSettings
from littrace.files import atomic_path, atomic_write
from littrace.index.encoders import Encoder
from littrace.progress import ProgressCallback

__all__ = [
    "DenseIndex",
    "Hits",
    "StoredVectors",
    "build_hnsw",
    "encode_chunks",
    "exact_search",
    "load_vectors",
    "top_k",
]

log = logging.getLogger(__name__)

Hits = list[tuple[str, float]]

VECTORS_FILE = "vectors.npy"
VECTORS_META = "vectors.json"
HNSW_FILE = "hnsw.bin"
HNSW_META = "hnsw.json"
# Rows handed to hnswlib at once: it copies (and for cosine normalises) each block it gets.
_ADD_BLOCK = 100_000
# Bound on the scores matrix of one exact-search block (float32 elements, 64 MiB).
_SCORE_ELEMENTS = 1 << 24


@dataclass(frozen=True)
class StoredVectors:
    """Encoded texts on disk: row ``i`` of ``vectors`` (memory-mapped) belongs to ``ids[i]``."""

    ids: tuple[str, ...]
    vectors: NDArray[np.float32]
    encoder: str

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1])


def chunk_group(chunk_id: str) -> str:
    """The paper a chunk id (``"<paper_id>#<n>"``) belongs to: the unit of the vector cache."""
    return chunk_id.rsplit("#", 1)[0]


def encode_chunks(
    chunks: Sequence[tuple[str, str]],
    encoder: Encoder,
    out_dir: str | os.PathLike[str],
    *,
    cache_dir: str | os.PathLike[str],
    encoder_key: str,
    batch_size: int = 1024,
    progress: ProgressCallback | None = None,
    step: str = "encoding",
) -> StoredVectors:
    """Encode ``(id, text)`` pairs as documents into ``out_dir``, reusing cached papers.

    Vectors are cached per paper (consecutive chunks of one :func:`chunk_group`) under
    ``cache_dir``, keyed by ``encoder_key`` (a digest of the encoder settings) and the
    paper's chunk ids and texts. So an interrupted run resumes from the last paper it
    finished, and adding papers encodes only the new ones. ``batch_size`` texts go to the
    encoder at once. Ids must be unique. ``progress(step, texts encoded, texts to encode)``
    is called after each encoder batch.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    ids = [chunk_id for chunk_id, _ in chunks]
    if len(set(ids)) != len(ids):
        raise ValueError("chunk ids are not unique")
    cache = Path(cache_dir)
    groups = _groups(chunks, encoder, encoder_key, cache)
    missing = [
        group for group in groups if not _shard_ok(group.path, len(group.chunks), encoder.dimension)
    ]
    total = sum(len(group.chunks) for group in missing)
    done = 0
    pending: list[_Group] = []
    for index, group in enumerate(missing):
        pending.append(group)
        size = sum(len(item.chunks) for item in pending)
        if size < batch_size and index < len(missing) - 1:
            continue
        vectors = encoder.encode_documents([text for item in pending for _, text in item.chunks])
        if vectors.shape != (size, encoder.dimension):
            raise ValueError(
                f"encoder {encoder.name} returned shape {vectors.shape} for "
                f"{size} texts of dimension {encoder.dimension}"
            )
        row = 0
        for item in pending:
            part = vectors[row : row + len(item.chunks)].astype(np.float32, copy=False)
            _save_npy(item.path, part)
            row += len(item.chunks)
        done += size
        pending.clear()
        if progress is not None:
            progress(step, done, total)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    _join_shards(out, [group.path for group in groups], len(chunks), encoder.dimension)
    _write_json(
        out / VECTORS_META,
        {
            "encoder": encoder.name,
            "encoder_key": encoder_key,
            "dimension": encoder.dimension,
            "ids": ids,
        },
    )
    return load_vectors(out)


@dataclass(frozen=True)
class _Group:
    chunks: list[tuple[str, str]]
    path: Path


def _groups(
    chunks: Sequence[tuple[str, str]], encoder: Encoder, encoder_key: str, cache: Path
) -> list[_Group]:
    """Runs of consecutive chunks of one paper, each with its content-addressed cache file."""
    runs: list[list[tuple[str, str]]] = []
    for chunk in chunks:
        if runs and chunk_group(runs[-1][-1][0]) == chunk_group(chunk[0]):
            runs[-1].append(chunk)
        else:
            runs.append([chunk])
    groups = []
    for run in runs:
        digest = hashlib.sha256(f"{encoder_key}\0{encoder.dimension}\0".encode())
        for chunk_id, text in run:
            digest.update(f"{len(chunk_id)}:{chunk_id}{len(text)}:{text}".encode())
        key = digest.hexdigest()
        groups.append(_Group(run, cache / key[:2] / f"{key}.npy"))
    return groups


def load_vectors(directory: str | os.PathLike[str]) -> StoredVectors:
    """The complete vectors :func:`encode_chunks` wrote to ``directory``."""
    path = Path(directory)
    meta = _read_json(path / VECTORS_META)
    if meta is None:
        raise FileNotFoundError(f"no complete vectors in {path} (missing {VECTORS_META})")
    ids = tuple(cast(list[str], meta["ids"]))
    # numpy cannot memory-map an empty file.
    vectors = np.load(path / VECTORS_FILE, mmap_mode="r" if ids else None)
    return StoredVectors(ids=ids, vectors=vectors, encoder=str(meta["encoder"]))


class DenseIndex:
    """An hnswlib index over chunk vectors, searched by cosine similarity."""

    def __init__(self, index: Any, ids: Sequence[str], space: str) -> None:
        self._index = index
        self.ids = tuple(ids)
        self.space = space

    @classmethod
    def load(cls, directory: str | os.PathLike[str], ef_search: int) -> DenseIndex:
        """Read an index :func:`build_hnsw` wrote and set its query-time ``ef``."""
        path = Path(directory)
        meta = _read_json(path / HNSW_META)
        if meta is None:
            raise FileNotFoundError(f"no HNSW index in {path} (missing {HNSW_META})")
        ids = cast(list[str], meta["ids"])
        index = hnswlib.Index(space=meta["space"], dim=int(meta["dimension"]))
        index.load_index(str(path / HNSW_FILE), max_elements=max(len(ids), 1))
        dense = cls(index, ids, str(meta["space"]))
        dense.ef_search = ef_search
        return dense

    @property
    def dimension(self) -> int:
        return int(self._index.dim)

    @property
    def ef_search(self) -> int:
        return int(self._index.ef)

    @ef_search.setter
    def ef_search(self, ef: int) -> None:
        # hnswlib searches with max(ef, k), so a small ef never returns fewer than k hits.
        self._index.set_ef(ef)

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query_vectors: ArrayLike, k: int) -> list[Hits]:
        """The ``k`` nearest chunks of each query as ``(chunk_id, cosine)``, best first."""
        queries = _as_queries(query_vectors, self.dimension)
        k = min(k, len(self))
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        labels, distances = self._index.knn_query(queries, k=k)
        scores = 1.0 - distances / 2.0 if self.space == "l2" else 1.0 - distances
        return [
            [(self.ids[label], float(score)) for label, score in zip(row, row_scores, strict=True)]
            for row, row_scores in zip(labels, scores, strict=True)
        ]


def build_hnsw(
    vectors: ArrayLike,
    ids: Sequence[str],
    out_dir: str | os.PathLike[str],
    settings: HnswSettings,
    *,
    num_threads: int = -1,
) -> DenseIndex:
    """Build an HNSW index of ``vectors`` (row ``i`` is ``ids[i]``) and save it in ``out_dir``.

    Uses ``settings.space``, ``m`` and ``ef_construction``; the returned index searches with
    ``settings.ef_search``. ``num_threads=-1`` uses every core.
    """
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != len(ids):
        raise ValueError(f"{len(ids)} ids for vectors of shape {matrix.shape}")
    count, dimension = matrix.shape
    index = hnswlib.Index(space=settings.space, dim=dimension)
    index.init_index(
        max_elements=max(count, 1), M=settings.m, ef_construction=settings.ef_construction
    )
    for start in range(0, count, _ADD_BLOCK):
        stop = min(start + _ADD_BLOCK, count)
        index.add_items(matrix[start:stop], np.arange(start, stop), num_threads=num_threads)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # hnswlib writes in place; the rename keeps a killed save from looking complete.
    with atomic_path(out / HNSW_FILE) as scratch:
        index.save_index(str(scratch))
    _write_json(
        out / HNSW_META,
        {
            "space": settings.space,
            "m": settings.m,
            "ef_construction": settings.ef_construction,
            "dimension": dimension,
            "ids": list(ids),
        },
    )
    dense = DenseIndex(index, ids, settings.space)
    dense.ef_search = settings.ef_search
    return dense


def exact_search(
    vectors: ArrayLike, ids: Sequence[str], query_vectors: ArrayLike, k: int
) -> list[Hits]:
    """Brute-force cosine search: the ``k`` best ``(id, cosine)`` of each query, best first."""
    matrix = np.asarray(vectors, dtype=np.float32)
    queries = _as_queries(query_vectors, matrix.shape[1])
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
    norms[norms == 0] = 1.0
    query_norms = np.linalg.norm(queries, axis=1, keepdims=True)
    query_norms[query_norms == 0] = 1.0
    queries = queries / query_norms
    block = max(1, _SCORE_ELEMENTS // max(len(matrix), 1))
    results: list[Hits] = []
    for start in range(0, len(queries), block):
        scores = (queries[start : start + block] @ matrix.T) / norms
        results.extend(top_k(row, ids, k) for row in scores)
    return results


def top_k(scores: NDArray[np.floating[Any]], ids: Sequence[str], k: int) -> Hits:
    """The ``k`` highest ``scores`` as ``(ids[i], score)``, ties broken by row order."""
    k = min(k, len(scores))
    if k <= 0:
        return []
    best = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    best = best[np.lexsort((best, -scores[best]))]
    return [(ids[i], float(scores[i])) for i in best]


def _as_queries(query_vectors: ArrayLike, dimension: int) -> NDArray[np.float32]:
    queries = np.atleast_2d(np.asarray(query_vectors, dtype=np.float32))
    if queries.ndim != 2 or queries.shape[1] != dimension:
        raise ValueError(f"query vectors of shape {queries.shape} for an index of {dimension}-d")
    return queries


def _shard_ok(path: Path, rows: int, dimension: int) -> bool:
    try:
        shard = np.load(path, mmap_mode="r")
    except (OSError, ValueError):
        return False
    return bool(shard.shape == (rows, dimension) and shard.dtype == np.float32)


def _join_shards(out: Path, shards: list[Path], total: int, dimension: int) -> None:
    if total == 0:
        _save_npy(out / VECTORS_FILE, np.zeros((0, dimension), dtype=np.float32))
        return
    with atomic_path(out / VECTORS_FILE) as scratch:
        # Streamed shard by shard into a memory map: the matrix need not fit in memory.
        joined = np.lib.format.open_memmap(
            scratch, mode="w+", dtype=np.float32, shape=(total, dimension)
        )
        row = 0
        for shard in shards:
            part = np.load(shard, mmap_mode="r")
            joined[row : row + len(part)] = part
            row += len(part)
        joined.flush()
        del joined


def _save_npy(path: Path, array: NDArray[np.float32]) -> None:
    with atomic_write(path, "wb") as handle:
        np.save(handle, array)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with atomic_write(path) as handle:
        handle.write(json.dumps(data))


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return cast(dict[str, Any], data) if isinstance(data, dict) else None
