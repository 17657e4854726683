"""Rank fusion used by every retrieval step: RRF, round-robin merge, best item per group.

One implementation of each idea, shared by the paper-level fusion of the three indexes and
PRF (Lit3R §2.1.2, k=60), the fusion of the expansion signals (§2.1.3, k=60) and the A/B
fusion (§2.1.3, k=10).

* :func:`rrf` — weighted reciprocal rank fusion, ``score(d) = Σ_i w_i / (k + rank_i(d))`` with
  1-based ranks (Cormack et al., 2009).
* :func:`round_robin` — each list's first unseen item before any list's second.
* :func:`best_per_group` — a ranking of groups (papers) from a ranking of items (chunks), each
  group represented by its highest-ranked item.

Example:
    >>> rrf([["a", "b"], ["b", "c"]], k=60)[0]
    ('b', 0.03252247488101534)
    >>> round_robin([["a", "b"], ["c", "a", "d"]])
    ['a', 'c', 'b', 'd']
    >>> best_per_group([("p1#1", 3.0), ("p2#4", 2.0), ("p1#2", 1.0)], lambda c: c[:2])
    [('p1', 3.0, 'p1#1'), ('p2', 2.0, 'p2#4')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

__all__ = ["best_per_group", "round_robin", "rrf"]


def rrf(
    rankings: Sequence[Sequence[str]],
    k: int,
    weights: Sequence[float] | None = None,
    depth: int | None = None,
) -> list[tuple[str, float]]:
    """Fuse ``rankings`` (best first) by weighted RRF; returns ``(id, score)`` best first.

    ``score(d) = Σ_i weights[i] / (k + rank_i(d))`` over the rankings holding ``d``, ranks
    1-based; ``weights`` default to 1 each. Only the first ``depth`` items of each ranking
    take part (all when ``None``). A repeated id within one ranking counts at its first rank.

    Ties are broken deterministically by, in order: the best (smallest) rank the id has in
    any single ranking, then first appearance, i.e. the earliest ranking holding the id and
    its position there. No two ids share a first appearance, so the order is total and the id
    itself is never needed as a further key.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    if k < 0:
        raise ValueError(f"k must be at least 0, got {k}")
    scores: dict[str, float] = {}  # insertion order = first appearance
    best_rank: dict[str, int] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for item, rank in _first_ranks(ranking[:depth]):
            held = scores.get(item)
            if held is None:
                scores[item] = weight / (k + rank)
                best_rank[item] = rank
            else:
                scores[item] = held + weight / (k + rank)
                if rank < best_rank[item]:
                    best_rank[item] = rank
    # Two stable sorts (reverse=True keeps equal keys in order): by score, then by best rank,
    # then by first appearance, with no per-item key tuples.
    order = sorted(scores, key=best_rank.__getitem__)
    order.sort(key=scores.__getitem__, reverse=True)
    return [(item, scores[item]) for item in order]


def _first_ranks(ranking: Sequence[str]) -> Iterable[tuple[str, int]]:
    """Each distinct item of ``ranking`` with the 1-based rank of its first occurrence."""
    if len(set(ranking)) == len(ranking):
        return zip(ranking, range(1, len(ranking) + 1), strict=True)
    first: dict[str, int] = {}
    for rank, item in enumerate(ranking, start=1):
        first.setdefault(item, rank)
    return first.items()


def round_robin(rankings: Sequence[Sequence[str]], limit: int | None = None) -> list[str]:
    """Merge ``rankings`` by rank: every list's first unseen item before any list's second.

    In each round every list (in the given order) gives its first item not taken yet, so a
    list whose head another list already gave still contributes a new item in that round
    (Lit3R §2.1.3: "each seed paper's first unseen neighbor"). Each id appears once. With
    ``limit`` the merge stops after that many items, within a round if need be.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    merged: dict[str, None] = {}
    cursors = [0] * len(rankings)
    while True:
        took = False
        for index, ranking in enumerate(rankings):
            if limit is not None and len(merged) >= limit:
                return list(merged)
            position = cursors[index]
            while position < len(ranking) and ranking[position] in merged:
                position += 1
            if position < len(ranking):
                merged[ranking[position]] = None
                took = True
                position += 1
            cursors[index] = position
        if not took:
            return list(merged)


def best_per_group(
    ranked_items: Sequence[tuple[str, float]], group_of: Callable[[str], str]
) -> list[tuple[str, float, str]]:
    """Groups ranked by their best item: ``(group, score of that item, item)``, best first.

    ``ranked_items`` must be best first (a search result, a sorted pool); each group is
    represented by its first item there, so the groups keep that item's position and score.
    """
    best: dict[str, tuple[str, float, str]] = {}
    for item, score in ranked_items:
        group = group_of(item)
        if group not in best:
            best[group] = (group, score, item)
    return list(best.values())
