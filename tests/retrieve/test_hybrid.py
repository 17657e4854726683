"""Hybrid retrieval: the chunk-ranking rule by hand, then real BM25 + MiniLM/HNSW indexes with PRF."""

from __future__ import annotations

import littrace  # noqa: F401  (before transformers: the bootstrap keeps the model hub offline)

# isort: split
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import cast

import numpy as np
import pytest
from numpy.typing import NDArray

from littrace.config import EncoderSettings, Settings, load_settings
from littrace.corpus.document import Chunk
from littrace.index.bm25 import Bm25Searcher, Hit, build_chunk_index, build_paper_index
from littrace.index.dense import build_hnsw, chunk_group
from littrace.index.encoders import load_encoder
from littrace.retrieve.hybrid import INDEXES, HybridSearcher, fused_chunks
from tests.retrieve.conftest import CountingEncoder


def test_fused_chunks_follow_paper_rank_then_best_index_rank() -> None:
    papers = ["p2", "p1"]
    chunk_bm25 = ["p1#0001", "p2#0003", "p9#0000", "p2#0001"]
    dense = ["p2#0001", "p1#0002", "p1#0001"]

    chunks = fused_chunks(papers, [chunk_bm25, dense], chunk_group)

    # p2 first (paper rank): p2#0001 (best rank 1, in dense) before p2#0003 (best rank 2);
    # then p1: p1#0001 (rank 1) before p1#0002 (rank 2). p9 is not a fused paper.
    assert chunks == ["p2#0001", "p2#0003", "p1#0001", "p1#0002"]


def test_fused_chunks_equal_best_rank_falls_back_to_chunk_id() -> None:
    assert fused_chunks(["p1"], [["p1#0002"], ["p1#0001"]], chunk_group) == ["p1#0001", "p1#0002"]


# --------------------------------------------------------------------------- real indexes

FILLER = "We report experiments on standard benchmarks and discuss limitations."
PAPERS = {
    "p1": (
        "ZephyrRank: learned sparse lexical expansion for passage retrieval",
        "Sparse passage retrieval expands queries and documents with learned term weights.",
        ["ZephyrRank relies on a masked language head to score vocabulary entries."],
    ),
    "p2": (
        "Convolutional segmentation of satellite images",
        "We segment satellite photographs into land cover classes with convolutions.",
        ["A U-Net decoder upsamples feature maps of the satellite encoder."],
    ),
    "p3": (
        "Speech recognition with spectrogram transformers",
        "Acoustic models transcribe spoken audio from log-mel spectrograms.",
        ["Beam search decodes characters from the acoustic transformer outputs."],
    ),
    "p4": (
        "Message passing networks for molecular property prediction",
        "Graph neural networks predict chemical properties of molecules.",
        ["Atoms exchange messages along chemical bonds for several layers."],
    ),
    "p5": (
        "Dense passage retrieval with dual encoders",
        "Dual encoders embed questions and passages for nearest neighbour search.",
        ["Hard negatives mined with BM25 improve the dual encoder."],
    ),
}


def _chunks() -> list[Chunk]:
    chunks = []
    for paper_id, (title, abstract, bodies) in PAPERS.items():
        head = f"[SIGIR 2025] {title}. {abstract}"
        chunks.append(Chunk(f"{paper_id}#0000", paper_id, "title_abstract", 1, head))
        for number, body in enumerate([*bodies, FILLER, f"{title} limitations."], start=1):
            chunks.append(Chunk(f"{paper_id}#{number:04d}", paper_id, "body", 2, body))
    return chunks


CHUNKS = _chunks()
TITLE_ABSTRACT = {c.paper_id: c.text for c in CHUNKS if c.type == "title_abstract"}
QUERY = "sparse passage retrieval with learned expansion terms"


@pytest.fixture(scope="module")
def settings() -> Settings:
    return load_settings("test", environ={})


@pytest.fixture(scope="module")
def searcher(
    tmp_path_factory: pytest.TempPathFactory, settings: Settings
) -> Iterator[HybridSearcher]:
    root = tmp_path_factory.mktemp("hybrid")
    build_chunk_index(CHUNKS, root / "bm25-chunks")
    build_paper_index(CHUNKS, root / "bm25-papers")
    encoder = load_encoder(EncoderSettings())
    vectors = encoder.encode_documents([chunk.text for chunk in CHUNKS])
    build_hnsw(vectors, [chunk.chunk_id for chunk in CHUNKS], root / "hnsw", settings.index.hnsw)
    searcher = HybridSearcher.from_dirs(
        root / "bm25-chunks", root / "bm25-papers", root / "hnsw", encoder, settings
    )
    yield searcher
    searcher.chunk_bm25.close()
    searcher.paper_bm25.close()


def test_one_sweep_ranks_papers_per_index_and_fuses_them(searcher: HybridSearcher) -> None:
    result = searcher.search(QUERY)

    assert set(result.hits) == set(result.paper_rankings) == set(INDEXES)
    for name in INDEXES:
        papers = [paper for paper, _ in result.paper_rankings[name]]
        assert len(papers) == len(set(papers))  # one entry per paper: its best chunk
    assert result.papers[0][0] == "p1"
    # Only chunks hit by a chunk-level index, grouped by fused paper rank.
    assert result.chunks[0].startswith("p1#")
    assert len(result.chunks) == len(CHUNKS)  # dense search at depth 100 reaches every chunk
    paper_order = [chunk_group(chunk) for chunk in result.chunks]
    assert list(dict.fromkeys(paper_order)) == [paper for paper, _ in result.papers]
    assert searcher.chunk_text("p1#0001").startswith("ZephyrRank relies")


def test_prf_appends_the_top_papers_opening_and_fuses_both_sweeps(
    searcher: HybridSearcher, settings: Settings
) -> None:
    result = searcher.search_with_prf(QUERY, TITLE_ABSTRACT.__getitem__)

    opening = TITLE_ABSTRACT["p1"][: settings.retrieve.prf.chars]
    assert result.prf_query == f"{QUERY}\n{opening}"
    assert result.expanded is not None and result.expanded.query == result.prf_query
    assert result.papers[0][0] == "p1"
    # The paper's own name for its method reaches the chunk it alone occurs in: BM25 misses
    # that chunk for the question's words and finds it for the expanded query.
    original_bm25 = [chunk for chunk, _ in result.original.hits["chunk_bm25"]]
    expanded_bm25 = [chunk for chunk, _ in result.expanded.hits["chunk_bm25"]]
    assert "p1#0001" not in original_bm25
    assert "p1#0001" in expanded_bm25
    # Equal-weight fusion of the two sweeps: both rankings fully present, p1 chunks first.
    assert set(result.chunks) == set(result.original.chunks) | set(result.expanded.chunks)
    assert result.chunks[0].startswith("p1#")


def test_prf_disabled_returns_the_original_sweep(searcher: HybridSearcher) -> None:
    prf_off = searcher.settings.model_copy(
        update={"prf": searcher.settings.prf.model_copy(update={"enabled": False})}
    )
    plain = HybridSearcher(
        searcher.chunk_bm25, searcher.paper_bm25, searcher.dense, searcher.encoder, prf_off
    )

    result = plain.search_with_prf(QUERY, TITLE_ABSTRACT.__getitem__)

    assert result.expanded is None and result.prf_query is None
    assert result.papers == result.original.papers


QUERIES = [QUERY, "satellite image segmentation", "molecular property prediction", "zzzqx"]


def test_queries_searched_together_find_what_each_finds_alone(searcher: HybridSearcher) -> None:
    counting = CountingEncoder(searcher.encoder)
    batched = HybridSearcher(
        searcher.chunk_bm25, searcher.paper_bm25, searcher.dense, counting, searcher.settings
    )

    together = batched.search_with_prf_many(QUERIES, TITLE_ABSTRACT.__getitem__)

    # One encoder call for the subqueries, one for their expansions; none per query.
    assert len(counting.calls) == 2
    assert counting.calls[0] == QUERIES
    assert counting.calls[1] == [r.prf_query for r in together if r.prf_query is not None]
    for query, result in zip(QUERIES, together, strict=True):
        alone = searcher.search_with_prf(query, TITLE_ABSTRACT.__getitem__)
        assert result.prf_query == alone.prf_query
        assert [p for p, _ in result.papers] == [p for p, _ in alone.papers]
        assert result.chunks == alone.chunks
        for name in ("chunk_bm25", "paper_bm25"):
            assert result.original.hits[name] == alone.original.hits[name]
        dense = result.original.hits["dense"]
        assert [c for c, _ in dense] == [c for c, _ in alone.original.hits["dense"]]
        assert [s for _, s in dense] == pytest.approx(
            [s for _, s in alone.original.hits["dense"]], abs=1e-5
        )
    assert batched.search_with_prf_many([], TITLE_ABSTRACT.__getitem__) == []


@pytest.fixture
def torch_threads() -> Iterator[Callable[[int], None]]:
    """Sets torch's thread count for one test, and restores it."""
    import torch

    before = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(before)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs a core to spare")
def test_dense_side_encodes_while_bm25_searches_when_torch_leaves_a_core(
    searcher: HybridSearcher, torch_threads: Callable[[int], None]
) -> None:
    # The encoder waits for the chunk BM25 search to have run: searched one after the other,
    # the wait would time out.
    torch_threads(1)
    searched = threading.Event()

    class SignallingBm25:
        def batch_search(self, queries: Sequence[str], k: int = 10) -> list[list[Hit]]:
            found = searcher.chunk_bm25.batch_search(queries, k)
            searched.set()
            return found

    class WaitingEncoder(CountingEncoder):
        def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
            self.thread = threading.current_thread()
            assert searched.wait(timeout=30), "BM25 did not search while the encoder ran"
            return super().encode_queries(texts)

    encoder = WaitingEncoder(searcher.encoder)
    concurrent = HybridSearcher(
        cast(Bm25Searcher, SignallingBm25()),
        searcher.paper_bm25,
        searcher.dense,
        encoder,
        searcher.settings,
    )

    result = concurrent.search(QUERY)

    assert encoder.thread is not threading.current_thread()
    assert result.papers == searcher.search(QUERY).papers


def test_dense_side_runs_first_when_torch_uses_every_core(
    searcher: HybridSearcher, torch_threads: Callable[[int], None]
) -> None:
    torch_threads(os.cpu_count() or 1)
    encoder = CountingEncoder(searcher.encoder)
    threads = []
    original = encoder.encode_queries

    def recording(texts: Sequence[str]) -> NDArray[np.float32]:
        threads.append(threading.current_thread())
        return original(texts)

    encoder.encode_queries = recording  # type: ignore[method-assign]
    plain = HybridSearcher(
        searcher.chunk_bm25, searcher.paper_bm25, searcher.dense, encoder, searcher.settings
    )

    assert plain.search(QUERY).papers == searcher.search(QUERY).papers
    assert threads == [threading.current_thread()]
