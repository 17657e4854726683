"""Candidate recall@k (Lit3R §3, Table 1) and the retriever ablations (Lit3R Table 2).

Recall@k of one question is the share of its gold papers among its first k candidates;
a report averages it over questions, overall and per task family. Paper ids are compared
after the official evaluator's normalisation (:func:`littrace.evaluate.official.id_norm`).

The retriever ablations (Lit3R Table 2) are run by :mod:`littrace.retrieve.ablations` and
scored here.

Example:
    >>> gold = {"q1": GoldPapers("multi_paper", frozenset({"a", "b"}))}
    >>> report = candidate_recall({"q1": ["a", "x", "b"]}, gold, ks=[1, 3])
    >>> report.overall, report.by_family["multi_paper"]
    ({1: 0.5, 3: 1.0}, {1: 0.5, 3: 1.0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from littrace.evaluate.official import id_norm
from littrace.littraceqa import GoldRecord, read_jsonl

__all__ = [
    "GoldPapers",
    "RecallReport",
    "candidate_recall",
    "read_gold_papers",
]

OVERALL = "overall"


@dataclass(frozen=True)
class GoldPapers:
    """A gold question's task family and its gold paper ids (normalised)."""

    family: str
    papers: frozenset[str]


def read_gold_papers(path: Path) -> dict[str, GoldPapers]:
    """Per ``query_id`` of a gold JSONL file, its family and gold papers."""
    return {
        record.query_id: GoldPapers(
            record.task_family, frozenset(id_norm(p.paper_id) for p in record.gold_papers)
        )
        for record in read_jsonl(path, GoldRecord)
    }


@dataclass
class RecallReport:
    """Mean recall@k overall and per family, over the questions both sides have."""

    ks: list[int]
    overall: dict[int, float]
    by_family: dict[str, dict[int, float]]
    counts: dict[str, int]
    without_candidates: list[str] = field(default_factory=list)

    def rows(self) -> list[tuple[str, int, dict[int, float]]]:
        """(family, questions, recall by k) rows, overall first."""
        return [(OVERALL, self.counts[OVERALL], self.overall)] + [
            (family, self.counts[family], values) for family, values in self.by_family.items()
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            family: {"questions": count, **{f"recall@{k}": round(v, 4) for k, v in values.items()}}
            for family, count, values in self.rows()
        } | {"gold_without_candidates": self.without_candidates}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def candidate_recall(
    candidates: Mapping[str, Sequence[str]], gold: Mapping[str, GoldPapers], ks: Sequence[int]
) -> RecallReport:
    """Recall@k for each k of ``ks``; a candidate question without gold is an error."""
    unknown = sorted(set(candidates) - set(gold))
    if unknown:
        raise ValueError(f"candidates for query ids without gold: {', '.join(unknown[:5])}")
    scored = [query_id for query_id in gold if query_id in candidates]
    if not scored:
        raise ValueError("no question has both gold and candidates")
    per_question: dict[str, dict[int, float]] = {}
    for query_id in scored:
        wanted = gold[query_id].papers
        ranked = [id_norm(paper) for paper in candidates[query_id]]
        per_question[query_id] = {k: len(wanted & set(ranked[:k])) / len(wanted) for k in ks}
    families = sorted({gold[query_id].family for query_id in scored})
    members = {
        family: [q for q in scored if gold[q].family == family] for family in [*families, OVERALL]
    }
    members[OVERALL] = scored

    def average(query_ids: list[str]) -> dict[int, float]:
        return {k: _mean([per_question[q][k] for q in query_ids]) for k in ks}

    return RecallReport(
        ks=list(ks),
        overall=average(scored),
        by_family={family: average(members[family]) for family in families},
        counts={name: len(query_ids) for name, query_ids in members.items()},
        without_candidates=[q for q in gold if q not in candidates],
    )
