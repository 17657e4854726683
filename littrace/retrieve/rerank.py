"""Chunk reranking (Lit3R §2.1.2): a reranker backend and the rank blend with pinning.

Every backend has one interface, :class:`Reranker`: ``score(query, texts) -> list[float]``,
higher is more relevant, one score per text in the given order.

* :class:`Qwen3Reranker` — a local Qwen3-Reranker checkpoint (causal LM) asked whether the
  document meets the query, scored as ``P(yes)`` from a softmax over the ``no``/``yes``
  logits at the last position, with the model card's chat template.
* :class:`EmbeddingReranker` — cosine between query and document vectors of an
  :class:`~littrace.index.encoders.Encoder` (the offline default).
* :class:`NoReranker` — keeps the retrieval order.

:func:`rerank_chunks` takes up to ``max_chunks`` chunks of the retrieval ranking, scores them,
ranks by ``s = retrieval_weight/(k + r_ret) + reranker_weight/(k + r_rr)``, pins the top
``pin_top`` retrieval chunks above all others and returns the best ``pool_top``.

Example:
    >>> reranker = NoReranker()
    >>> top = rerank_chunks("q", [("p1#0001", "a"), ("p2#0003", "b")], reranker, RerankSettings())
    >>> [(c.chunk_id, c.retrieval_rank, c.rerank_rank, c.pinned) for c in top]
    [('p1#0001', 1, 1, True), ('p2#0003', 2, 2, True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from littrace.config import RerankSettings
from littrace.index.dense import StoredVectors
from littrace.index.encoders import Encoder, resolve_model_path, weights_dtype

__all__ = [
    "EmbeddingReranker",
    "NoReranker",
    "Qwen3Reranker",
    "RerankedChunk",
    "Reranker",
    "load_reranker",
    "rerank_chunks",
]

# The Qwen3-Reranker model card's prompt: a fixed system turn, the pair as the user turn, and
# an assistant turn opened with an empty thinking block so the next token is the verdict.
QWEN3_SYSTEM = (
    "Judge whether the Document meets the requirements based on the Query and the Instruct "
    'provided. Note that the answer can only be "yes" or "no".'
)
QWEN3_PREFIX = f"<|im_start|>system\n{QWEN3_SYSTEM}<|im_end|>\n<|im_start|>user\n"
QWEN3_SUFFIX = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"


@runtime_checkable
class Reranker(Protocol):
    """Scores texts against a query; higher is more relevant."""

    def score(
        self, query: str, texts: Sequence[str], ids: Sequence[str] | None = None
    ) -> list[float]:
        """One score per text, in the order of ``texts`` (``ids`` name the chunks, if known)."""
        ...


def qwen3_pair(instruction: str, query: str, document: str) -> str:
    """The user turn of the Qwen3-Reranker prompt for one query-document pair."""
    return f"<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {document}"


class Qwen3Reranker:
    """A local Qwen3-Reranker: ``P(yes)`` of the next token after the chat-formatted pair.

    Pairs are cut (the document end first, as the model card's ``longest_first`` on a single
    text) so prefix + pair + suffix fit ``max_length`` tokens, and batched ``batch_size`` at
    a time with left padding, so the last position of every row is its own last token.
    """

    def __init__(self, settings: RerankSettings, path: Path) -> None:
        # Imported here, as in the methods below: torch and transformers take seconds to
        # import, and most runs load no reranker model.
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerBase

        self.settings = settings
        self.device = torch.device(settings.device)
        dtype = weights_dtype(settings.dtype, self.device, f"reranker {path}")
        tokenizer = cast(
            PreTrainedTokenizerBase, AutoTokenizer.from_pretrained(path, local_files_only=True)
        )
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        self.tokenizer = tokenizer
        model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, dtype=dtype)
        self.model = cast(torch.nn.Module, model).to(self.device).eval()
        self.yes_id = self._token_id("yes")
        self.no_id = self._token_id("no")
        self._prefix = tokenizer.encode(QWEN3_PREFIX, add_special_tokens=False)
        self._suffix = tokenizer.encode(QWEN3_SUFFIX, add_special_tokens=False)

    def _token_id(self, token: str) -> int:
        token_id = self.tokenizer.convert_tokens_to_ids(token)
        if not isinstance(token_id, int) or token_id == self.tokenizer.unk_token_id:
            raise ValueError(f"reranker tokenizer has no single token {token!r}")
        return token_id

    def score(
        self, query: str, texts: Sequence[str], ids: Sequence[str] | None = None
    ) -> list[float]:
        import torch

        scores: list[float] = []
        size = self.settings.batch_size
        with torch.inference_mode():
            for start in range(0, len(texts), size):
                scores.extend(self._score_batch(query, texts[start : start + size]))
        return scores

    def _score_batch(self, query: str, texts: Sequence[str]) -> list[float]:
        import torch

        budget = max(self.settings.max_length - len(self._prefix) - len(self._suffix), 1)
        pairs = self.tokenizer(
            [qwen3_pair(self.settings.instruction, query, text) for text in texts],
            add_special_tokens=False,
            truncation=True,
            max_length=budget,
            return_attention_mask=False,
        )
        ids = [self._prefix + list(row) + self._suffix for row in pairs["input_ids"]]
        batch = self.tokenizer.pad({"input_ids": ids}, padding=True, return_tensors="pt")
        logits = self.model(**batch.to(self.device)).logits[:, -1, :]
        verdict = torch.stack([logits[:, self.no_id], logits[:, self.yes_id]], dim=1).float()
        return [float(p) for p in torch.softmax(verdict, dim=1)[:, 1].cpu()]


class EmbeddingReranker:
    """Cosine similarity of query and document vectors from ``encoder``.

    With ``stored`` (the dense index's chunk vectors, from the same encoder) a chunk whose id
    is stored is not encoded again: its vector is looked up.
    """

    def __init__(self, encoder: Encoder, stored: StoredVectors | None = None) -> None:
        self.encoder = encoder
        self.stored = stored
        self._rows = {chunk_id: row for row, chunk_id in enumerate(stored.ids)} if stored else {}

    def score(
        self, query: str, texts: Sequence[str], ids: Sequence[str] | None = None
    ) -> list[float]:
        if not texts:
            return []
        query_vector = self.encoder.encode_queries([query])[0]
        documents = self._documents(texts, ids)
        norms = np.linalg.norm(documents, axis=1) * np.linalg.norm(query_vector)
        norms[norms == 0] = 1.0
        return [float(value) for value in (documents @ query_vector) / norms]

    def _documents(self, texts: Sequence[str], ids: Sequence[str] | None) -> NDArray[np.float32]:
        rows = [self._rows.get(chunk_id) for chunk_id in ids] if ids is not None else []
        if self.stored is None or not rows or any(row is None for row in rows):
            return self.encoder.encode_documents(texts)
        return np.asarray(self.stored.vectors[[row for row in rows if row is not None]])


class NoReranker:
    """Scores that keep the given (retrieval) order: ``1/1, 1/2, 1/3, ...``."""

    def score(
        self, query: str, texts: Sequence[str], ids: Sequence[str] | None = None
    ) -> list[float]:
        return [1.0 / position for position in range(1, len(texts) + 1)]


def load_reranker(
    settings: RerankSettings, encoder: Encoder | None = None, stored: StoredVectors | None = None
) -> Reranker:
    """The reranker ``settings.backend`` names; ``embedding`` needs ``encoder`` (and reuses
    ``stored`` chunk vectors of that encoder when given)."""
    if settings.backend == "qwen3":
        if settings.model is None:
            raise ValueError("retrieve.rerank.model must name a local Qwen3-Reranker directory")
        return Qwen3Reranker(settings, resolve_model_path(settings.model, "retrieve.rerank.model"))
    if settings.backend == "embedding":
        if encoder is None:
            raise ValueError("retrieve.rerank.backend 'embedding' needs an encoder")
        return EmbeddingReranker(encoder, stored)
    return NoReranker()


@dataclass(frozen=True, slots=True)
class RerankedChunk:
    """A chunk after reranking.

    ``score`` is the blend ``s``; ``reranker_score`` the backend's raw score; ranks are 1-based
    (``rerank_rank`` is the rank by ``reranker_score`` alone); ``pinned`` marks the top
    ``pin_top`` of the retrieval ranking.
    """

    chunk_id: str
    score: float
    reranker_score: float
    retrieval_rank: int
    rerank_rank: int
    pinned: bool


def rerank_chunks(
    query: str,
    ranked_chunks: Sequence[tuple[str, str]],
    reranker: Reranker,
    settings: RerankSettings,
) -> list[RerankedChunk]:
    """Rerank ``(chunk_id, text)`` pairs given in retrieval order; the best ``pool_top``.

    The first ``max_chunks`` are scored. ``r_ret`` is the position in ``ranked_chunks``,
    ``r_rr`` the position by reranker score (ties: retrieval order). The top ``pin_top``
    retrieval chunks come first, ordered among themselves by ``s`` like all the others, so
    the reranker can reorder but never evict them (Lit3R §2.1.2); ties in ``s`` go to the
    better retrieval rank.
    """
    candidates = list(ranked_chunks[: settings.max_chunks])
    raw = reranker.score(
        query, [text for _, text in candidates], [chunk_id for chunk_id, _ in candidates]
    )
    if len(raw) != len(candidates):
        raise ValueError(f"reranker returned {len(raw)} scores for {len(candidates)} texts")
    by_score = sorted(range(len(candidates)), key=lambda i: (-raw[i], i))
    rerank_rank = {index: rank for rank, index in enumerate(by_score, start=1)}
    k = settings.k
    chunks = [
        RerankedChunk(
            chunk_id=chunk_id,
            score=settings.retrieval_weight / (k + index + 1)
            + settings.reranker_weight / (k + rerank_rank[index]),
            reranker_score=raw[index],
            retrieval_rank=index + 1,
            rerank_rank=rerank_rank[index],
            pinned=index < settings.pin_top,
        )
        for index, (chunk_id, _) in enumerate(candidates)
    ]
    chunks.sort(key=lambda chunk: (not chunk.pinned, -chunk.score, chunk.retrieval_rank))
    return chunks[: settings.pool_top]
