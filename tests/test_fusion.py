"""Fusion rules with hand-made rankings: RRF values, weights, depth, ties; round-robin; best per group."""

from __future__ import annotations

from fractions import Fraction

import pytest

from littrace.fusion import best_per_group, round_robin, rrf


def _exact(fused: list[tuple[str, float]]) -> dict[str, Fraction]:
    """Scores as the nearest small fractions, for exact comparison."""
    return {item: Fraction(score).limit_denominator(10**7) for item, score in fused}


def test_rrf_scores_are_sums_of_reciprocal_ranks() -> None:
    fused = rrf([["a", "b", "c"], ["c", "a"], ["d"]], k=60)

    assert _exact(fused) == {
        "a": Fraction(1, 61) + Fraction(1, 62),
        "c": Fraction(1, 63) + Fraction(1, 61),
        "b": Fraction(1, 62),
        "d": Fraction(1, 61),
    }
    assert [item for item, _ in fused] == ["a", "c", "d", "b"]


def test_rrf_weights_scale_each_ranking() -> None:
    fused = rrf([["a", "b"], ["b", "a"]], k=0, weights=[3.0, 1.0])

    assert _exact(fused) == {"a": Fraction(3) + Fraction(1, 2), "b": Fraction(3, 2) + 1}
    assert [item for item, _ in fused] == ["a", "b"]


def test_rrf_zero_weight_ranking_adds_nothing() -> None:
    fused = rrf([["a"], ["b", "a"]], k=1, weights=[0.0, 1.0])

    assert _exact(fused) == {"b": Fraction(1, 2), "a": Fraction(1, 3)}


def test_rrf_depth_cuts_every_ranking() -> None:
    fused = rrf([["a", "b", "c"], ["c", "d"]], k=60, depth=1)

    assert _exact(fused) == {"a": Fraction(1, 61), "c": Fraction(1, 61)}


def test_rrf_repeated_id_counts_once_at_its_first_rank() -> None:
    assert _exact(rrf([["a", "a", "b"]], k=0)) == {"a": Fraction(1), "b": Fraction(1, 3)}


def test_rrf_tie_goes_to_best_single_rank() -> None:
    # x at ranks (4, 1) and y at ranks (2, 2) with k=2: 1/6 + 1/3 = 1/4 + 1/4 = 1/2.
    fused = rrf([["p", "y", "q", "x"], ["x", "y", "r", "s"]], k=2)
    scores = dict(fused)

    assert scores["x"] == scores["y"] == 0.5
    order = [item for item, _ in fused]
    # x is ranked first somewhere, y at best second: x wins though y appeared first.
    assert order.index("x") < order.index("y")


def test_rrf_full_tie_goes_to_first_appearance() -> None:
    # Same score, same best rank: the earlier ranking (then earlier position) decides, not the id.
    fused = rrf([["z", "a"], ["a", "z"]], k=60)

    assert fused[0][1] == fused[1][1]
    assert [item for item, _ in fused] == ["z", "a"]
    assert [item for item, _ in rrf([["b"], ["a"]], k=60)] == ["b", "a"]


def test_rrf_rejects_mismatched_weights() -> None:
    with pytest.raises(ValueError, match="2 weights for 1 rankings"):
        rrf([["a"]], k=60, weights=[1.0, 1.0])


def test_rrf_of_nothing_is_empty() -> None:
    assert rrf([], k=60) == []
    assert rrf([[], []], k=60) == []


def test_round_robin_takes_each_lists_first_before_any_second() -> None:
    merged = round_robin([["a1", "a2", "a3"], ["b1"], ["c1", "c2"]])

    assert merged == ["a1", "b1", "c1", "a2", "c2", "a3"]


def test_round_robin_skips_items_already_taken() -> None:
    # "x" is taken from the first list; the second list's next unseen item follows.
    merged = round_robin([["x", "y"], ["z", "x", "w"], ["x"]])

    assert merged == ["x", "z", "y", "w"]


def test_round_robin_gives_each_list_its_first_unseen_item_per_round() -> None:
    # The second list's head is already taken, so it gives "c" in round one, before "b".
    assert round_robin([["a", "b"], ["a", "c"]]) == ["a", "c", "b"]


def test_round_robin_never_takes_more_than_its_limit() -> None:
    rankings = [["a1", "a2"], ["b1", "b2"], ["c1", "c2"]]
    for limit in range(8):
        merged = round_robin(rankings, limit=limit)
        # The limit can fall inside a round: the merge stops there, not at the round's end.
        assert merged == round_robin(rankings)[:limit]


def test_round_robin_rejects_a_negative_limit() -> None:
    with pytest.raises(ValueError, match="limit"):
        round_robin([["a"]], limit=-1)


def test_round_robin_of_nothing_is_empty() -> None:
    assert round_robin([]) == []
    assert round_robin([[], []]) == []


def test_best_per_group_keeps_each_groups_highest_ranked_item() -> None:
    chunks = [("p2#0004", 9.0), ("p1#0001", 8.0), ("p2#0000", 7.5), ("p3#0002", 7.0)]

    papers = best_per_group(chunks, lambda chunk_id: chunk_id.split("#")[0])

    assert papers == [("p2", 9.0, "p2#0004"), ("p1", 8.0, "p1#0001"), ("p3", 7.0, "p3#0002")]
