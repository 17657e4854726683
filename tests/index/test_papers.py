"""Paper vectors: title+abstract embeddings with the bundled MiniLM, exact neighbour search."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from littrace.config import EncoderSettings, IndexSettings
from littrace.corpus.document import PaperRecord
from littrace.index.encoders import BUNDLED_MODEL, Encoder, EncoderNotFound
from littrace.index.papers import (
    PaperVectors,
    encode_papers,
    load_paper_encoder,
    paper_text,
)


def _paper(paper_id: str, title: str, abstract: str) -> PaperRecord:
    return PaperRecord(paper_id, title, (), abstract, venue="ACL", year=2024, has_pdf=True)


SEED = _paper(
    "seed",
    "Dense Passage Retrieval for Open-Domain Question Answering",
    "We show that retrieval can be implemented using dense representations alone, where "
    "embeddings are learned from a small number of questions and passages by a dual-encoder "
    "framework, outperforming a strong BM25 system.",
)
PAPERS = [
    _paper(
        "unrelated-crops",
        "Drought Stress and Maize Yield",
        "Field trials across five seasons measure how irrigation timing changes grain yield.",
    ),
    SEED,
    _paper(
        "related-sparse",
        "Okapi BM25 Revisited for Passage Ranking",
        "We revisit term weighting for sparse lexical retrieval of passages.",
    ),
    _paper(
        "near-duplicate",
        "Dense Passage Retrieval for Open Domain Question Answering (extended version)",
        "We show that retrieval can be implemented with dense representations alone: "
        "embeddings are learned from a small number of questions and passages with a "
        "dual-encoder framework, and outperform a strong BM25 system.",
    ),
    _paper(
        "unrelated-protein",
        "Predicting Protein Structure with Attention",
        "An attention network predicts three-dimensional protein folds from amino acid sequences.",
    ),
    _paper("no-text", "", "  "),
]


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_paper_encoder(IndexSettings())


@pytest.fixture(scope="module")
def vectors(encoder: Encoder, tmp_path_factory: pytest.TempPathFactory) -> PaperVectors:
    out = tmp_path_factory.mktemp("papers")
    return encode_papers(
        PAPERS,
        encoder,
        out / "vectors",
        cache_dir=out / "cache",
        encoder_key="minilm",
        batch_size=2,
    )


def test_paper_text_is_title_then_abstract() -> None:
    assert paper_text(_paper("p", " A Title ", "The abstract.")) == "A Title\nThe abstract."
    assert paper_text(_paper("p", "Only a title", "")) == "Only a title"


def test_neighbours_exclude_the_seed_and_rank_the_near_duplicate_first(
    vectors: PaperVectors,
) -> None:
    neighbours = vectors.neighbors("seed", k=3)

    assert [paper_id for paper_id, _ in neighbours][:2] == ["near-duplicate", "related-sparse"]
    assert "seed" not in {paper_id for paper_id, _ in neighbours}
    assert neighbours[0][1] > 0.9
    scores = [score for _, score in neighbours]
    assert scores == sorted(scores, reverse=True)


def test_neighbour_scores_are_cosines_of_the_encoded_texts(
    vectors: PaperVectors, encoder: Encoder
) -> None:
    seed, duplicate = encoder.encode_documents([paper_text(SEED), paper_text(PAPERS[3])])
    expected = float(seed @ duplicate / np.linalg.norm(seed) / np.linalg.norm(duplicate))

    ((paper_id, score),) = vectors.neighbors("seed", k=1)
    assert paper_id == "near-duplicate"
    assert score == pytest.approx(expected, abs=1e-5)


def test_every_other_paper_with_text_is_a_neighbour_when_k_is_large(vectors: PaperVectors) -> None:
    neighbours = vectors.neighbors("seed", k=100)

    assert sorted(paper_id for paper_id, _ in neighbours) == [
        "near-duplicate",
        "related-sparse",
        "unrelated-crops",
        "unrelated-protein",
    ]


def test_papers_without_title_or_abstract_get_no_vector(vectors: PaperVectors) -> None:
    assert len(vectors) == len(PAPERS) - 1
    assert "no-text" not in vectors and "seed" in vectors
    with pytest.raises(KeyError, match="no-text"):
        vectors.neighbors("no-text", k=3)


def test_search_by_query_vector(vectors: PaperVectors, encoder: Encoder) -> None:
    query = encoder.encode_queries(["how do proteins fold"])[0]

    assert vectors.search(query, k=1)[0][0] == "unrelated-protein"
    hits = vectors.search(query, k=10, exclude=["unrelated-protein", "unknown-id"])
    assert "unrelated-protein" not in {paper_id for paper_id, _ in hits} and len(hits) == 4
    with pytest.raises(ValueError, match="384-d"):
        vectors.search(np.ones(8), k=1)


class MustNotEncode:
    """Stands in for MiniLM where the stored vectors must be reused."""

    name = BUNDLED_MODEL
    dimension = 384

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        raise AssertionError("complete vectors must not be encoded again")

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        raise AssertionError("complete vectors must not be encoded again")


def test_stored_paper_vectors_load_back(vectors: PaperVectors, tmp_path: Path) -> None:
    cached = {"cache_dir": tmp_path / "cache", "encoder_key": "minilm"}
    encode_papers(PAPERS, load_paper_encoder(IndexSettings()), tmp_path / "first", **cached)

    loaded = PaperVectors.load(tmp_path / "first")
    again = encode_papers(PAPERS, MustNotEncode(), tmp_path / "again", **cached)

    assert loaded.ids == vectors.ids == again.ids
    np.testing.assert_allclose(loaded.vectors, vectors.vectors, atol=1e-6)
    np.testing.assert_array_equal(again.vectors, loaded.vectors)
    assert [p for p, _ in loaded.neighbors("seed", k=4)] == [
        p for p, _ in vectors.neighbors("seed", k=4)
    ]


def test_paper_encoder_setting_takes_precedence_over_the_chunk_encoder(tmp_path: Path) -> None:
    settings = IndexSettings(paper_encoder=EncoderSettings(model=str(tmp_path / "specter2")))

    with pytest.raises(EncoderNotFound, match=r"index\.paper_encoder\.model"):
        load_paper_encoder(settings)
    assert load_paper_encoder(IndexSettings()).dimension == 384  # null reuses index.encoder
