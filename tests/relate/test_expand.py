"""Ranking B (round-robin per signal, RRF of signals, seeds first) and the A/B fusion."""

from __future__ import annotations

from fractions import Fraction
from typing import cast

import pytest

from littrace.config import AbFusionSettings, RelateSettings
from littrace.index.bm25 import Bm25Searcher, Hit
from littrace.index.citations import CouplingGraph
from littrace.index.papers import PaperVectors
from littrace.relate.expand import (
    Signal,
    ab_fusion,
    bm25_signal,
    build_signals,
    coupling_signal,
    embedding_signal,
    expand,
)


def _table(neighbours: dict[str, list[str]]) -> Signal:
    return lambda seed: neighbours.get(seed, [])


def test_seed_lists_are_merged_round_robin_within_each_signal() -> None:
    signals = {
        "embedding": _table({"s1": ["a", "b", "c"], "s2": ["d", "a", "e"]}),
        "coupling": _table({"s2": ["f", "g"]}),
    }

    ranking = expand(["s1", "s2"], signals, RelateSettings())

    # Round two: s1 gives "b"; s2's "a" is taken, so it gives its first unseen, "e".
    assert ranking.merged == {"embedding": ["a", "d", "b", "e", "c"], "coupling": ["f", "g"]}


def test_signals_are_fused_by_equal_weight_rrf_k60() -> None:
    signals = {
        "embedding": _table({"s": ["a", "b", "c"]}),
        "coupling": _table({"s": ["b", "d"]}),
        "bm25": _table({"s": ["c", "b"]}),
    }

    ranking = expand(["s"], signals, RelateSettings())

    scores = {p: Fraction(score).limit_denominator(10**7) for p, score in ranking.fused}
    assert scores == {
        "b": Fraction(1, 62) + Fraction(1, 61) + Fraction(1, 62),
        "c": Fraction(1, 63) + Fraction(1, 61),
        "a": Fraction(1, 61),
        "d": Fraction(1, 62),
    }
    assert ranking.papers == ["s", "b", "c", "a", "d"]


def test_signal_weights_and_enabled_flags_come_from_settings() -> None:
    signals = {"embedding": _table({"s": ["a"]}), "bm25": _table({"s": ["b"]})}
    heavier_bm25 = RelateSettings.model_validate({"bm25": {"weight": 2.0}})
    no_bm25 = RelateSettings.model_validate({"bm25": {"enabled": False}})

    assert expand(["s"], signals, heavier_bm25).papers == ["s", "b", "a"]
    assert expand(["s"], signals, no_bm25).papers == ["s", "a"]
    with pytest.raises(ValueError, match="unknown expansion signals"):
        expand(["s"], {"specter": _table({})}, RelateSettings())


def test_seeds_come_first_in_seed_order_and_only_once() -> None:
    # Each seed is the other's best neighbour; the fused list must not repeat them.
    signals = {"embedding": _table({"s2": ["s1", "x"], "s1": ["s2", "y"]})}

    ranking = expand(["s2", "s1", "s2"], signals, RelateSettings())

    assert ranking.seeds == ["s2", "s1"]
    assert ranking.papers == ["s2", "s1", "x", "y"]


def test_keep_top_bounds_the_non_seed_papers() -> None:
    signals = {"embedding": _table({"s": [f"n{i:03d}" for i in range(150)]})}

    papers = expand(["s"], signals, RelateSettings()).papers

    assert papers[0] == "s"
    assert papers[1:] == [f"n{i:03d}" for i in range(100)]
    no_seeds = RelateSettings(seeds_first=False, keep_top=3)
    assert expand(["s"], signals, no_seeds).papers == ["n000", "n001", "n002"]


def test_embedding_signal_returns_nearest_papers_without_the_seed() -> None:
    vectors = PaperVectors(
        ["s", "near", "far", "mid"], [[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5]]
    )
    signal = embedding_signal(vectors, k=2)

    assert signal("s") == ["near", "mid"]
    assert signal("no-vector") == []


def test_coupling_signal_requires_min_shared_references() -> None:
    graph = CouplingGraph(
        {
            "s": ["r1", "r2", "r3"],
            "two": ["r1", "r2"],  # Jaccard 2/3
            "three": ["r1", "r2", "r3", "r4", "r5", "r6"],  # Jaccard 3/6
            "one": ["r1"],  # a single shared reference is not enough
        }
    )

    assert coupling_signal(graph, k=10, min_shared=2)("s") == ["two", "three"]
    assert coupling_signal(graph, k=10, min_shared=3)("s") == ["three"]


class FakePaperBm25:
    """Stands in for the paper index: records queries, answers with fixed hits."""

    def __init__(self) -> None:
        self.queries: list[tuple[str, int]] = []

    def doc_text(self, doc_id: str) -> str:
        if doc_id != "s":
            raise KeyError(doc_id)
        return "[ACL 2025] Title: sparse retrieval.  Abstract: we study " + "x" * 2000

    def search(self, query: str, k: int = 10) -> list[Hit]:
        self.queries.append((query, k))
        return [Hit(doc, 1.0 / rank, rank) for rank, doc in enumerate(["s", "a", "b", "c"], 1)]


def test_bm25_signal_sends_the_seed_opening_unchanged() -> None:
    index = FakePaperBm25()
    signal = bm25_signal(cast(Bm25Searcher, index), k=2, seed_chars=40)

    assert signal("s") == ["a", "b"]
    assert index.queries == [(index.doc_text("s")[:40], 3)]
    assert signal("unknown") == []


def test_build_signals_uses_only_enabled_signals_with_an_index() -> None:
    vectors = PaperVectors(["s", "a"], [[1.0, 0.0], [1.0, 1.0]])
    graph = CouplingGraph({"s": ["r1", "r2"], "a": ["r1", "r2"]})
    settings = RelateSettings.model_validate({"coupling": {"enabled": False}})

    signals = build_signals(settings, vectors=vectors, graph=graph)

    assert sorted(signals) == ["embedding"]
    assert signals["embedding"]("s") == ["a"]


# --------------------------------------------------------------------------- A/B fusion


def _a_and_b(position: int) -> tuple[list[str], list[str]]:
    """Ranking A topped by "top" (absent from B) with "both" at ``position`` in A and B."""
    a = ["top"] + [f"a{i}" for i in range(2, 30)]
    b = [f"b{i}" for i in range(1, 30)]
    a[position - 1] = "both"
    b[position - 1] = "both"
    return a, b


@pytest.mark.parametrize("position", [2, 11])
def test_a_paper_in_both_at_position_up_to_11_beats_the_top_of_a_alone(position: int) -> None:
    fused = ab_fusion(*_a_and_b(position), AbFusionSettings())
    order = [paper.paper_id for paper in fused]

    both = fused[order.index("both")]
    assert both.score == pytest.approx(2 / (10 + position), rel=1e-12)
    assert (both.rank_a, both.rank_b) == (position, position)
    assert order.index("both") < order.index("top")


def test_at_position_12_both_ties_the_top_of_a_and_loses_on_best_rank() -> None:
    fused = ab_fusion(*_a_and_b(12), AbFusionSettings())
    scores = {paper.paper_id: paper.score for paper in fused}
    order = [paper.paper_id for paper in fused]

    assert scores["both"] == scores["top"] == 1 / 11  # 2/(10+12) = 1/(10+1) exactly
    assert order.index("top") < order.index("both")


def test_at_position_13_both_scores_below_the_top_of_a() -> None:
    fused = ab_fusion(*_a_and_b(13), AbFusionSettings())
    scores = {paper.paper_id: paper.score for paper in fused}

    assert scores["both"] == pytest.approx(2 / 23) and scores["both"] < scores["top"]


def test_ranking_a_is_fused_at_full_length_and_cut_to_top_n() -> None:
    a = [f"a{i}" for i in range(1, 201)]
    b = ["a200", "b2"]

    fused = ab_fusion(a, b, AbFusionSettings(top_n=50))
    deep = ab_fusion(a, b, AbFusionSettings(top_n=500))

    assert len(fused) == 50
    # A's last paper is still fused, and B's top spot lifts it first: 1/210 + 1/11 > 1/11.
    assert [(p.paper_id, p.rank_a, p.rank_b) for p in fused[:2]] == [
        ("a200", 200, 1),
        ("a1", 1, None),
    ]
    assert fused[0].score == pytest.approx(1 / 210 + 1 / 11)
    assert len(deep) == 201
    cut = ab_fusion(a, b, AbFusionSettings(a_depth=100, top_n=500))
    assert next(p for p in cut if p.paper_id == "a200").rank_a is None
