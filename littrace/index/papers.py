"""Paper vectors: one title-and-abstract embedding per pool paper, for paper-to-paper expansion.

Lit3R §2.1.3 retrieves, for each seed paper, the papers whose SPECTER2 title-and-abstract
embedding is closest to the seed's. Here the text of each :class:`PaperRecord` (title, newline,
abstract) is encoded with ``index.paper_encoder`` (``index.encoder`` when that is null) and
stored exactly like the chunk vectors (:func:`littrace.index.dense.encode_chunks`: cached per
paper, so a run resumes and a grown pool encodes only its new papers). Papers with neither
title nor abstract get no vector.

Search is exact: the unit vectors live in memory and a query is one matrix-vector product.
For the LitTraceQA pool (27,487 papers) at 1,024 dimensions that is ~113 MiB and a few
milliseconds per seed on 2 cores (see ``bench/index_dense.py``), so no ANN index is needed.

Example:
    >>> import littrace
    >>> from littrace.config import load_settings
    >>> settings = load_settings("test", environ={})
    >>> encoder = load_paper_encoder(settings.index)  # doctest: +SKIP
    >>> vectors = encode_papers(papers, encoder, "work/paper_vectors",
    ...     cache_dir="work/cache", encoder_key=settings.digest("index.encoder"))  # doctest: +SKIP
    >>> vectors.neighbors("2401.00001", k=5)  # doctest: +SKIP
    [('2403.01234', 0.91), ...]
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from littrace.config import IndexSettings
from littrace.corpus.document import PaperRecord
from littrace.index.dense import Hits, encode_chunks, load_vectors, top_k
from littrace.index.encoders import Encoder, load_encoder
from littrace.progress import ProgressCallback

__all__ = ["PaperVectors", "encode_papers", "load_paper_encoder", "paper_text"]


def paper_text(paper: PaperRecord) -> str:
    """The text a paper vector encodes: the title, a newline, the abstract (either may be empty)."""
    return "\n".join(part for part in (paper.title.strip(), paper.abstract.strip()) if part)


def load_paper_encoder(settings: IndexSettings) -> Encoder:
    """The encoder of paper vectors: ``index.paper_encoder``, or ``index.encoder`` if unset."""
    if settings.paper_encoder is None:
        return load_encoder(settings.encoder, "index.encoder.model")
    return load_encoder(settings.paper_encoder, "index.paper_encoder.model")


class PaperVectors:
    """Unit-length paper vectors in memory with exact cosine search."""

    def __init__(self, ids: Sequence[str], vectors: ArrayLike) -> None:
        matrix = np.array(vectors, dtype=np.float32)  # a copy: rows are normalised in place
        if matrix.ndim != 2 or matrix.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} paper ids for vectors of shape {matrix.shape}")
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        matrix /= norms
        self.ids = tuple(ids)
        self.vectors: NDArray[np.float32] = matrix
        self._rows = {paper_id: row for row, paper_id in enumerate(self.ids)}

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> PaperVectors:
        """The vectors :func:`encode_papers` wrote to ``directory``."""
        stored = load_vectors(directory)
        return cls(stored.ids, stored.vectors)

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1])

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._rows

    def vector(self, paper_id: str) -> NDArray[np.float32]:
        """The unit vector of ``paper_id``; KeyError for a paper without one."""
        row: NDArray[np.float32] = self.vectors[self._row(paper_id)]
        return row

    def neighbors(self, paper_id: str, k: int) -> Hits:
        """The ``k`` papers most similar to ``paper_id`` as ``(paper_id, cosine)``, seed excluded."""
        return self.search(self.vector(paper_id), k, exclude=(paper_id,))

    def search(self, query_vector: ArrayLike, k: int, *, exclude: Collection[str] = ()) -> Hits:
        """The ``k`` papers closest to ``query_vector`` by cosine, best first, minus ``exclude``."""
        query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dimension:
            raise ValueError(f"a {query.shape[0]}-d query for {self.dimension}-d paper vectors")
        norm = float(np.linalg.norm(query))
        scores = self.vectors @ (query / norm if norm else query)
        excluded = list({self._rows[paper_id] for paper_id in exclude if paper_id in self._rows})
        scores[excluded] = -np.inf
        return top_k(scores, self.ids, min(k, len(self.ids) - len(excluded)))

    def _row(self, paper_id: str) -> int:
        try:
            return self._rows[paper_id]
        except KeyError:
            raise KeyError(f"paper {paper_id!r} has no vector (no title or abstract?)") from None


def encode_papers(
    papers: Iterable[PaperRecord],
    encoder: Encoder,
    out_dir: str | os.PathLike[str],
    *,
    cache_dir: str | os.PathLike[str],
    encoder_key: str,
    batch_size: int = 1024,
    progress: ProgressCallback | None = None,
    step: str = "encoding papers",
) -> PaperVectors:
    """Encode every paper's title and abstract into ``out_dir`` (cached per paper) and load them."""
    items = [(paper.paper_id, text) for paper in papers if (text := paper_text(paper))]
    stored = encode_chunks(
        items,
        encoder,
        out_dir,
        cache_dir=cache_dir,
        encoder_key=encoder_key,
        batch_size=batch_size,
        progress=progress,
        step=step,
    )
    return PaperVectors(stored.ids, stored.vectors)
