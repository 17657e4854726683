"""Candidate recall@k: per question, averaged overall and per task family."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from littrace.evaluate.recall import GoldPapers, candidate_recall, read_gold_papers

GOLD = {
    "s1": GoldPapers("hidden_source_single_paper", frozenset({"p1"})),
    "s2": GoldPapers("hidden_source_single_paper", frozenset({"p2"})),
    "m1": GoldPapers("multi_paper", frozenset({"p1", "p2", "p3", "p4"})),
}


def test_recall_is_the_share_of_gold_papers_in_the_top_k_averaged_over_questions() -> None:
    candidates = {
        "s1": ["p1", "x"],
        "s2": ["x", "y", "p2"],
        "m1": ["p3", "x", "p1", "p4", "y", "p2"],
    }
    report = candidate_recall(candidates, GOLD, ks=[1, 3, 5, 10])
    assert report.by_family["hidden_source_single_paper"] == {1: 0.5, 3: 1.0, 5: 1.0, 10: 1.0}
    assert report.by_family["multi_paper"] == {1: 0.25, 3: 0.5, 5: 0.75, 10: 1.0}
    # Overall is the mean over questions, not over families.
    assert report.overall[1] == pytest.approx((1 + 0 + 0.25) / 3)
    assert report.counts == {"hidden_source_single_paper": 2, "multi_paper": 1, "overall": 3}
    rows = report.rows()
    assert rows[0][0] == "overall" and rows[0][1] == 3
    assert report.to_json()["multi_paper"]["recall@5"] == 0.75


def test_ids_are_compared_as_the_official_evaluator_does_and_missing_questions_are_listed() -> None:
    report = candidate_recall({"s1": [" p1 "]}, GOLD, ks=[1])  # trimmed, case kept
    assert report.overall == {1: 1.0}
    assert report.without_candidates == ["s2", "m1"]


def test_candidates_without_gold_or_without_overlap_are_errors() -> None:
    with pytest.raises(ValueError, match="without gold: q9"):
        candidate_recall({"q9": ["p1"]}, GOLD, ks=[1])
    with pytest.raises(ValueError, match="no question"):
        candidate_recall({}, GOLD, ks=[1])


def test_gold_papers_are_read_from_a_gold_file(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2].parent / "shared/data/littraceqa/validation.jsonl"
    gold = read_gold_papers(source)
    first = json.loads(source.read_text().splitlines()[0])
    assert gold[first["query_id"]].family == first["task_family"]
    assert gold[first["query_id"]].papers == {p["paper_id"] for p in first["gold_papers"]}
