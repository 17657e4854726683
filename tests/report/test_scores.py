"""Tests for littrace.report.scores: official scores per run, group and question, recall@k,
the stage where gold was lost, and the run-metrics artifact."""

from __future__ import annotations

import json

import pytest

from littrace.artifacts import SUBMISSION_FILE, Catalog
from littrace.evaluate.official import evaluate_files
from littrace.report import DEFAULT_RECALL_K
from littrace.report.scores import (
    RUN_METRICS_STAGE,
    AnswersRun,
    run_metrics_artifact,
    run_recall,
    score_run,
)
from tests.report.fake_answers import fault
from tests.report.synthetic_run import SyntheticRun

KS = (1, 5, 10)


def test_run_recall_counts_questions_without_candidates_and_skips_those_without_gold() -> None:
    ranked = {"q1": ["a", "b", "c"], "q2": ["x"], "q3": ["a"]}
    gold = {
        "q1": {"gold_papers": [{"paper_id": "c"}, {"paper_id": "z"}]},
        "q2": {"gold_papers": [{"paper_id": "y"}]},
        "q3": {"gold_papers": []},
        "q4": {"gold_papers": ["a"]},  # gold, but no candidates: nothing found
    }
    assert run_recall(ranked, gold, [1, 3]) == {1: 0.0, 3: pytest.approx(0.5 / 3)}
    assert run_recall({}, gold, [5]) == {5: None}
    assert run_recall(ranked, {"q": {"gold_papers": []}}, [5]) == {5: None}


def test_run_scores_are_the_official_ones_overall_and_per_group(
    synthetic_run: SyntheticRun,
) -> None:
    answers = synthetic_run.answers[0]
    gold = synthetic_run.synth.gold
    scores = score_run(AnswersRun.load(answers), gold, KS)
    official = evaluate_files(gold, answers.path / SUBMISSION_FILE)
    assert scores.official == official
    golds = [json.loads(line) for line in gold.read_text().splitlines()]
    families = {g["task_family"] for g in golds}
    by_family = {g.group: g for g in scores.groups if g.scope == "task_family"}
    assert set(by_family) == families
    assert sum(g.questions for g in by_family.values()) == len(golds)
    types = {g.group for g in scores.groups if g.scope == "primary_evidence_type"}
    assert types == {g["primary_evidence_type"] for g in golds}


def test_each_question_is_lost_at_the_stage_its_fault_was_injected(
    synthetic_run: SyntheticRun,
) -> None:
    scores = score_run(AnswersRun.load(synthetic_run.answers[0]), synthetic_run.synth.gold, KS)
    for index, question in enumerate(scores.questions):
        expected = fault(index)
        if expected == "answer":
            assert question.lost_at is None
            assert question.answer_score is not None and question.answer_score < 1.0
        elif expected == "locator" and question.evidence_recall == 1.0:
            pytest.fail(f"{question.query_id}: a page off by one must cost evidence recall")
        else:
            assert question.lost_at == expected, question.query_id
        if expected is None:
            assert question.composite_score == 1.0, question.query_id
    assert [q.latency_s for q in scores.questions] == [
        1.0 + i for i in range(len(scores.questions))
    ]
    assert scores.costs["llm_cost_total"] == pytest.approx(
        sum(0.001 * (i % 3) for i in range(len(scores.questions)))
    )


def test_recall_of_a_run_drops_where_a_gold_paper_was_left_out(
    synthetic_run: SyntheticRun,
) -> None:
    scores = score_run(AnswersRun.load(synthetic_run.answers[0]), synthetic_run.synth.gold, (100,))
    lost = [q for q in scores.questions if q.lost_at == "retrieval"]
    assert lost
    expected = 1 - sum(1 / q.gold_papers for q in lost) / len(scores.questions)
    assert scores.recall_at_k[100] == pytest.approx(expected)


def test_without_gold_only_costs_are_known(synthetic_run: SyntheticRun) -> None:
    scores = score_run(AnswersRun.load(synthetic_run.answers[0]), None, KS)
    assert scores.official is None and not scores.questions
    assert scores.recall_at_k == {k: None for k in KS}
    assert scores.costs["latency_s_total"] == pytest.approx(
        sum(1.0 + i for i in range(len(synthetic_run.synth.gold.read_text().splitlines())))
    )


def test_run_metrics_artifact_is_cached_and_compared_across_runs_in_the_catalog(
    synthetic_run: SyntheticRun,
) -> None:
    gold = synthetic_run.synth.gold
    first = synthetic_run.answers[0]
    scores = score_run(
        AnswersRun.load(first), gold, DEFAULT_RECALL_K
    )  # as the fixture's reports did
    artifact = run_metrics_artifact(first, gold, scores)
    assert run_metrics_artifact(first, gold, scores).path == artifact.path
    assert artifact.stage == RUN_METRICS_STAGE
    for table in ("metrics", "question_metrics", "gold_evidence"):
        assert set(artifact.table(table).column("answers_hash").to_pylist()) == {first.hash}
    composite = Catalog(synthetic_run.root).query(
        "SELECT run_id, value FROM metrics WHERE scope = 'overall' "
        "AND metric = 'composite_score' ORDER BY run_id"
    )
    assert composite.column("run_id").to_pylist() == ["run-1", "run-2"]
    values = composite.column("value").to_pylist()
    assert values[0] == pytest.approx(scores.official["composite_score"])  # type: ignore[index]
    assert values[0] != values[1]
