"""Paper-to-paper expansion (Ranking B) and the A/B rank fusion (Lit3R §2.1.3).

Each *signal* maps a seed paper to its ranked neighbours: title+abstract embedding
neighbours (:func:`embedding_signal`), bibliographic coupling with at least ``min_shared``
shared references (:func:`coupling_signal`), and paper-level BM25 queried with the first
``seed_chars`` characters of the seed's indexed text, unchanged (:func:`bm25_signal`).
:func:`expand` merges the seeds' lists within each signal by round-robin rank, fuses the
signals by RRF (``relate.rrf_k``), keeps the top ``keep_top`` and puts the seeds first.
:func:`ab_fusion` fuses Ranking A (full length) with Ranking B by RRF with ``k=10``.

Example:
    >>> from littrace.config import RelateSettings
    >>> signals = {"embedding": {"s": ["x", "y"]}.__getitem__, "bm25": {"s": ["y"]}.__getitem__}
    >>> expand(["s"], signals, RelateSettings()).papers
    ['s', 'y', 'x']
    >>> [(f.paper_id, f.rank_a, f.rank_b) for f in ab_fusion(["a", "y"], ["s", "y"],
    ...     RelateSettings().fusion)]
    [('y', 2, 2), ('a', 1, None), ('s', None, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from littrace.config import AbFusionSettings, RelateSettings, SignalSettings
from littrace.fusion import round_robin, rrf
from littrace.index.bm25 import Bm25Searcher
from littrace.index.citations import CouplingGraph
from littrace.index.papers import PaperVectors

__all__ = [
    "AbPaper",
    "RankingB",
    "Signal",
    "ab_fusion",
    "bm25_signal",
    "build_signals",
    "coupling_signal",
    "embedding_signal",
    "expand",
]

Signal = Callable[[str], list[str]]
"""A seed paper id → its neighbours' paper ids, best first (the seed itself excluded)."""


@dataclass(frozen=True)
class RankingB:
    """Ranking B and how it was made.

    ``papers``: the ranking (seeds first when ``seeds_first``). ``seeds``: the distinct seeds
    in order. ``merged``: per signal, the round-robin merge over seeds. ``fused``: the RRF of
    the merged lists, seeds removed, before ``keep_top``.
    """

    papers: list[str]
    seeds: list[str]
    merged: dict[str, list[str]]
    fused: list[tuple[str, float]]


def _signal_settings(settings: RelateSettings) -> dict[str, SignalSettings]:
    return {"embedding": settings.embedding, "coupling": settings.coupling, "bm25": settings.bm25}


def expand(seeds: Sequence[str], signals: dict[str, Signal], settings: RelateSettings) -> RankingB:
    """Ranking B from ``seeds`` and ``signals`` named ``embedding``, ``coupling``, ``bm25``.

    Disabled signals (``relate.<name>.enabled``) are skipped; each enabled one is weighted by
    ``relate.<name>.weight``. Seeds are taken out of the fused list and, with ``seeds_first``,
    put in front of its top ``keep_top`` (so Ranking B holds up to ``len(seeds) + keep_top``
    papers); without it they keep only the places the fusion gives them. Signals are fused
    in the order embedding, coupling, BM25, which settles exact RRF ties (see
    :func:`~littrace.fusion.rrf`).
    """
    known = _signal_settings(settings)
    unknown = sorted(set(signals) - set(known))
    if unknown:
        raise ValueError(f"unknown expansion signals {unknown}; expected {sorted(known)}")
    ordered_seeds = list(dict.fromkeys(seeds))
    active = [name for name in known if name in signals and known[name].enabled]
    merged = {name: round_robin([signals[name](seed) for seed in ordered_seeds]) for name in active}
    fused = rrf(
        [merged[name] for name in active],
        k=settings.rrf_k,
        weights=[known[name].weight for name in active],
    )
    if settings.seeds_first:
        seed_set = set(ordered_seeds)
        fused = [(paper, score) for paper, score in fused if paper not in seed_set]
        papers = ordered_seeds + [paper for paper, _ in fused[: settings.keep_top]]
    else:
        papers = [paper for paper, _ in fused[: settings.keep_top]]
    return RankingB(papers, ordered_seeds, merged, fused)


def embedding_signal(vectors: PaperVectors, k: int) -> Signal:
    """The ``k`` papers whose title+abstract vectors are closest to the seed's."""

    def neighbors(seed: str) -> list[str]:
        # A seed without a vector (no title or abstract) simply has no neighbours here.
        return [paper for paper, _ in vectors.neighbors(seed, k)] if seed in vectors else []

    return neighbors


def coupling_signal(graph: CouplingGraph, k: int, min_shared: int) -> Signal:
    """The ``k`` papers with the highest reference-set Jaccard, sharing ``min_shared``+ works."""

    def neighbors(seed: str) -> list[str]:
        return [item.paper_id for item in graph.neighbors(seed, k=k, min_shared=min_shared)]

    return neighbors


def bm25_signal(paper_bm25: Bm25Searcher, k: int, seed_chars: int) -> Signal:
    """The ``k`` best paper-BM25 hits for the first ``seed_chars`` characters of the seed's
    indexed text, passed unchanged (no term selection or weighting)."""

    def neighbors(seed: str) -> list[str]:
        try:
            text = paper_bm25.doc_text(seed)[:seed_chars]
        except KeyError:
            return []
        # One extra hit, since the seed usually finds itself first.
        hits = paper_bm25.search(text, k=k + 1)
        return [hit.doc_id for hit in hits if hit.doc_id != seed][:k]

    return neighbors


def build_signals(
    settings: RelateSettings,
    vectors: PaperVectors | None = None,
    graph: CouplingGraph | None = None,
    paper_bm25: Bm25Searcher | None = None,
) -> dict[str, Signal]:
    """The enabled signals among those whose index is given, ``neighbors_per_seed`` deep."""
    k = settings.neighbors_per_seed
    signals: dict[str, Signal] = {}
    if vectors is not None and settings.embedding.enabled:
        signals["embedding"] = embedding_signal(vectors, k)
    if graph is not None and settings.coupling.enabled:
        signals["coupling"] = coupling_signal(graph, k, settings.coupling.min_shared)
    if paper_bm25 is not None and settings.bm25.enabled:
        signals["bm25"] = bm25_signal(paper_bm25, k, settings.bm25.seed_chars)
    return signals


@dataclass(frozen=True, slots=True)
class AbPaper:
    """A paper of the A/B fusion: its RRF score and 1-based ranks in A and B (None if absent)."""

    paper_id: str
    score: float
    rank_a: int | None
    rank_b: int | None


def ab_fusion(
    ranking_a: Sequence[str], ranking_b: Sequence[str], settings: AbFusionSettings
) -> list[AbPaper]:
    """Fuse Ranking A (first ``a_depth``; all when null) and Ranking B by RRF ``k=rrf_k``.

    The best ``top_n`` papers, ties broken as :func:`~littrace.fusion.rrf` does
    (A is the first ranking, so it wins a tie of equal best ranks).
    """
    a = list(ranking_a[: settings.a_depth])
    b = list(ranking_b)
    fused = rrf([a, b], k=settings.rrf_k, weights=[settings.a_weight, settings.b_weight])
    rank_a = {paper: rank for rank, paper in reversed(list(enumerate(a, start=1)))}
    rank_b = {paper: rank for rank, paper in reversed(list(enumerate(b, start=1)))}
    return [
        AbPaper(paper, score, rank_a.get(paper), rank_b.get(paper))
        for paper, score in fused[: settings.top_n]
    ]
