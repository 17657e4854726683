"""The official metrics per question family: task family, answer type and evidence type.

A family is a subset of the gold questions scored on its own with
:func:`littrace.evaluate.official.evaluate_records`, so each family's numbers are exactly what
the official evaluator would print for a gold file holding only those questions. A question
with several answer types (freeform + multiple choice) belongs to each of their families.

Example:
    >>> gold = [(1, {"query_id": "q1", "task_family": "multi_paper",
    ...              "primary_evidence_type": "table", "answer_types": ["multiple_choice"],
    ...              "gold_papers": [{"paper_id": "p1"}],
    ...              "answer": {"multiple_choice": {"gold": "B"}}})]
    >>> pred = [(1, {"query_id": "q1", "gold_papers": [{"paper_id": "p1"}],
    ...              "answer": {"multiple_choice": {"gold": "A"}}})]
    >>> scores = evaluate_by_family(gold, pred)
    >>> scores["task_family"]["multi_paper"].questions
    1
    >>> scores["answer_type"]["multiple_choice"].metrics["multiple_choice_accuracy"]
    0.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from littrace.evaluate.official import evaluate_records

__all__ = ["AXES", "FamilyScore", "evaluate_by_family", "families_json", "family_labels"]

AXES = ("overall", "task_family", "answer_type", "evidence_type")
"""The ways questions are grouped, in report order; ``overall`` has the one group ``all``."""

Records = list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class FamilyScore:
    """One family's size, official metrics and composite score."""

    questions: int
    metrics: dict[str, float | None]
    composite_score: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "composite_score": self.composite_score,
            "metrics": self.metrics,
        }


def family_labels(gold: Mapping[str, Any]) -> dict[str, list[str]]:
    """The families of one gold record on each axis."""
    answer_types = gold.get("answer_types")
    return {
        "overall": ["all"],
        "task_family": [str(gold.get("task_family") or "unknown")],
        "answer_type": sorted({str(kind) for kind in answer_types or []}) or ["unknown"],
        "evidence_type": [str(gold.get("primary_evidence_type") or "unknown")],
    }


def evaluate_by_family(
    gold_records: Records, predicted_records: Records
) -> dict[str, dict[str, FamilyScore]]:
    """``{axis: {family: FamilyScore}}`` for every axis of :data:`AXES`, families sorted."""
    members: dict[str, dict[str, Records]] = {axis: {} for axis in AXES}
    for line, record in gold_records:
        for axis, labels in family_labels(record).items():
            for label in labels:
                members[axis].setdefault(label, []).append((line, record))
    scores: dict[str, dict[str, FamilyScore]] = {}
    for axis in AXES:
        scores[axis] = {}
        for label in sorted(members[axis]):
            result = evaluate_records(members[axis][label], predicted_records)
            scores[axis][label] = FamilyScore(
                questions=len(members[axis][label]),
                metrics=result["metrics"],
                composite_score=result["composite_score"],
            )
    return scores


def families_json(scores: dict[str, dict[str, FamilyScore]]) -> dict[str, Any]:
    """:func:`evaluate_by_family`'s result as JSON: ``{axis: {family: {...}}}``."""
    return {
        axis: {label: score.to_json() for label, score in groups.items()}
        for axis, groups in scores.items()
    }
