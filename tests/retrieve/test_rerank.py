"""Chunk reranking: the rank blend, pinning, the pool cut, and the three reranker backends."""

from __future__ import annotations

import littrace  # noqa: F401  (before transformers: the bootstrap keeps the model hub offline)

# isort: split
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
import torch
from numpy.typing import NDArray
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    Qwen3ForCausalLM,
)

from littrace.config import RerankSettings
from littrace.index.dense import StoredVectors
from littrace.retrieve.rerank import (
    QWEN3_PREFIX,
    QWEN3_SUFFIX,
    EmbeddingReranker,
    NoReranker,
    Qwen3Reranker,
    Reranker,
    load_reranker,
    qwen3_pair,
    rerank_chunks,
)
from tests.tiny_qwen3 import save_tiny_qwen3


class TableReranker:
    """Scores looked up by text, recording what it was asked to score."""

    def __init__(self, scores: dict[str, float], default: float = 0.5) -> None:
        self.scores = scores
        self.default = default
        self.calls: list[list[str]] = []

    def score(
        self, query: str, texts: Sequence[str], ids: Sequence[str] | None = None
    ) -> list[float]:
        self.calls.append(list(texts))
        return [self.scores.get(text, self.default) for text in texts]


def _ranked(n: int) -> list[tuple[str, str]]:
    """``n`` chunks in retrieval order; chunk ``r`` (1-based) has text ``t{r}``."""
    return [(f"p{r}#0000", f"t{r}") for r in range(1, n + 1)]


def test_blend_is_weighted_reciprocal_ranks() -> None:
    # The reranker reverses the retrieval order: r_rr = (3, 2, 1).
    reranker = TableReranker({"t1": 0.1, "t2": 0.2, "t3": 0.3})
    settings = RerankSettings(pin_top=0)

    chunks = rerank_chunks("q", _ranked(3), reranker, settings)

    by_id = {chunk.chunk_id: chunk for chunk in chunks}
    assert by_id["p1#0000"].score == pytest.approx(0.6 / 61 + 0.4 / 63, rel=1e-12)
    assert by_id["p2#0000"].score == pytest.approx(0.6 / 62 + 0.4 / 62, rel=1e-12)
    assert by_id["p3#0000"].score == pytest.approx(0.6 / 63 + 0.4 / 61, rel=1e-12)
    assert [(c.retrieval_rank, c.rerank_rank) for c in chunks] == [(1, 3), (2, 2), (3, 1)]
    assert [c.reranker_score for c in chunks] == [0.1, 0.2, 0.3]
    assert not any(chunk.pinned for chunk in chunks)


def test_reranker_can_overturn_retrieval_order_outside_the_pinned_block() -> None:
    # Retrieval rank 2 with the best reranker score beats rank 1 with the worst (of 5).
    reranker = TableReranker({"t1": 0.0, "t2": 1.0})
    chunks = rerank_chunks("q", _ranked(5), reranker, RerankSettings(pin_top=0))

    assert chunks[0].chunk_id == "p2#0000"
    assert chunks[0].score == pytest.approx(0.6 / 62 + 0.4 / 61)


def test_equal_reranker_scores_are_ranked_in_retrieval_order() -> None:
    chunks = rerank_chunks("q", _ranked(3), TableReranker({}), RerankSettings(pin_top=0))

    assert [c.rerank_rank for c in chunks] == [1, 2, 3]
    assert [c.chunk_id for c in chunks] == ["p1#0000", "p2#0000", "p3#0000"]


def test_pinned_retrieval_top_stays_above_better_blended_chunks() -> None:
    # 30 chunks. Retrieval ranks 3 and 20 get the worst reranker scores; ranks 21-30 the best.
    scores = {f"t{r}": 0.5 for r in range(1, 31)}
    scores |= {"t3": 0.0, "t20": 0.01}
    scores |= {f"t{r}": 0.9 + r / 1000 for r in range(21, 31)}
    settings = RerankSettings()  # pin_top = pool_top = 20, k = 60

    chunks = rerank_chunks("q", _ranked(30), TableReranker(scores), settings)

    assert len(chunks) == 20
    assert all(chunk.pinned for chunk in chunks)
    assert {chunk.retrieval_rank for chunk in chunks} == set(range(1, 21))
    rank3 = next(chunk for chunk in chunks if chunk.retrieval_rank == 3)
    assert rank3.rerank_rank == 30
    # Rank 21 with reranker rank 10 outscores the pinned rank-20 chunk yet stays out.
    unpinned = rerank_chunks("q", _ranked(30), TableReranker(scores), RerankSettings(pool_top=30))
    rank20 = next(chunk for chunk in unpinned if chunk.retrieval_rank == 20)
    rank21 = next(chunk for chunk in unpinned if chunk.retrieval_rank == 21)
    assert rank21.score > rank20.score
    positions = {chunk.retrieval_rank: i for i, chunk in enumerate(unpinned)}
    assert positions[21] >= 20 > positions[20]


def test_pinned_block_keeps_blended_order_among_itself() -> None:
    # r_rr = (4, 2, 3, 1): s2 = 1/62 > s1 = .6/61 + .4/64 > s4 = .6/64 + .4/61 > s3 = 1/63.
    reranker = TableReranker({"t1": 0.0, "t2": 0.9, "t3": 0.5, "t4": 1.0})
    chunks = rerank_chunks("q", _ranked(4), reranker, RerankSettings(pin_top=3))

    assert [c.chunk_id for c in chunks] == ["p2#0000", "p1#0000", "p3#0000", "p4#0000"]
    assert [c.pinned for c in chunks] == [True, True, True, False]
    assert chunks[3].score > chunks[2].score  # p4 outscores pinned p3 and still comes after


def test_only_max_chunks_are_scored_and_pool_top_returned() -> None:
    reranker = TableReranker({})
    chunks = rerank_chunks("q", _ranked(10), reranker, RerankSettings(max_chunks=6, pool_top=4))

    assert reranker.calls == [[f"t{r}" for r in range(1, 7)]]
    assert [c.retrieval_rank for c in chunks] == [1, 2, 3, 4]


def test_no_reranker_keeps_retrieval_order() -> None:
    reranker = NoReranker()
    assert isinstance(reranker, Reranker)
    assert reranker.score("q", ["a", "b", "c"]) == [1.0, 0.5, 1 / 3]

    chunks = rerank_chunks("q", _ranked(25), reranker, RerankSettings(pin_top=0, pool_top=25))

    assert [c.retrieval_rank for c in chunks] == list(range(1, 26))
    assert all(c.retrieval_rank == c.rerank_rank for c in chunks)


class FixedEncoder:
    """An :class:`~littrace.index.encoders.Encoder` with hand-set vectors per text."""

    name = "fixed"
    dimension = 2
    vectors: ClassVar[dict[str, list[float]]] = {
        "q": [1.0, 0.0],
        "same": [2.0, 0.0],
        "diagonal": [1.0, 1.0],
        "opposite": [-3.0, 0.0],
    }

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return np.array([self.vectors[text] for text in texts], dtype=np.float32)

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.encode_queries(texts)


def test_embedding_reranker_scores_cosine() -> None:
    reranker = load_reranker(RerankSettings(backend="embedding"), FixedEncoder())
    assert isinstance(reranker, EmbeddingReranker)

    scores = reranker.score("q", ["diagonal", "same", "opposite"])

    assert scores == pytest.approx([2**-0.5, 1.0, -1.0], rel=1e-6)
    assert reranker.score("q", []) == []


def test_load_reranker_checks_what_each_backend_needs() -> None:
    assert isinstance(load_reranker(RerankSettings(backend="none")), NoReranker)
    with pytest.raises(ValueError, match="needs an encoder"):
        load_reranker(RerankSettings(backend="embedding"))
    with pytest.raises(ValueError, match=r"retrieve\.rerank\.model"):
        load_reranker(RerankSettings(backend="qwen3"))


# --------------------------------------------------------------------------- Qwen3-Reranker

WORDS = ["<pad>", "<unk>", "<|endoftext|>", "yes", "no", "Query", "Document", "Instruct"]
WORDS += ["sparse", "dense", "retrieval", "graph", "neural", "network", "paper", "the", "of"]
TEXTS = ["sparse retrieval of the paper", "graph", "dense neural network", "the paper of graph"]


@pytest.fixture(scope="module")
def tiny_reranker_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer Qwen3ForCausalLM with a word-level tokenizer that knows yes/no."""
    # Saved right-padding on purpose: the reranker must switch to left padding itself.
    return save_tiny_qwen3(
        tmp_path_factory.mktemp("qwen3-reranker"),
        WORDS,
        Qwen3ForCausalLM,
        padding_side="right",
        append_eos=False,
        max_positions=256,
    )


def _qwen3(path: Path, batch_size: int = 2) -> Qwen3Reranker:
    settings = RerankSettings(backend="qwen3", model=str(path), batch_size=batch_size)
    reranker = load_reranker(settings)
    assert isinstance(reranker, Qwen3Reranker)
    return reranker


def test_qwen3_reranker_scores_are_probabilities_in_text_order(tiny_reranker_dir: Path) -> None:
    reranker = _qwen3(tiny_reranker_dir, batch_size=3)  # batches of 3 and 1, padded

    scores = reranker.score("sparse retrieval", TEXTS)

    assert len(scores) == len(TEXTS)
    assert all(0.0 < score < 1.0 for score in scores)
    assert len(set(scores)) == len(TEXTS)
    alone = [reranker.score("sparse retrieval", [text])[0] for text in TEXTS]
    assert scores == pytest.approx(alone, abs=1e-5)
    reversed_scores = reranker.score("sparse retrieval", TEXTS[::-1])
    assert reversed_scores == pytest.approx(scores[::-1], abs=1e-5)
    assert reranker.score("sparse retrieval", TEXTS) == scores  # deterministic


def test_qwen3_reranker_is_p_yes_of_the_model_card_prompt(tiny_reranker_dir: Path) -> None:
    reranker = _qwen3(tiny_reranker_dir)
    tokenizer = AutoTokenizer.from_pretrained(tiny_reranker_dir, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(tiny_reranker_dir, local_files_only=True).eval()
    prompt = QWEN3_PREFIX + qwen3_pair(reranker.settings.instruction, "graph", TEXTS[1])
    prompt += QWEN3_SUFFIX
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert 'Note that the answer can only be "yes" or "no".' in prompt

    with torch.inference_mode():
        logits = model(**tokenizer(prompt, return_tensors="pt")).logits[0, -1]
    yes, no = (
        logits[tokenizer.convert_tokens_to_ids("yes")],
        logits[tokenizer.convert_tokens_to_ids("no")],
    )
    expected = float(torch.sigmoid(yes - no))  # softmax over [no, yes], yes column

    assert reranker.score("graph", [TEXTS[1]])[0] == pytest.approx(expected, abs=1e-5)


def test_embedding_reranker_reuses_stored_chunk_vectors(tmp_path: Path) -> None:
    class CountingEncoder:
        name = "counting"
        dimension = 2

        def __init__(self) -> None:
            self.documents = 0

        def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
            return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)

        def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
            self.documents += len(texts)
            return np.array([[0.0, 1.0]] * len(texts), dtype=np.float32)

    encoder = CountingEncoder()
    stored = StoredVectors(
        ("p#0", "p#1"), np.array([[1.0, 0.0], [0.0, 1.0]], np.float32), "counting"
    )
    reranker = EmbeddingReranker(encoder, stored)
    assert reranker.score("q", ["a", "b"], ["p#1", "p#0"]) == [0.0, 1.0]
    assert encoder.documents == 0
    # An id the index does not hold: every text is encoded.
    assert reranker.score("q", ["a", "b"], ["p#0", "x#9"]) == [0.0, 0.0]
    assert encoder.documents == 2
