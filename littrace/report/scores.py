"""Scores of one answers run against gold: official metrics, per group and per question.

Everything here is computed with the official evaluator (:mod:`littrace.evaluate.official`):
the run's metrics are :func:`evaluate_records` on its ``submission.jsonl``; the scores of a
task family or primary evidence type are the same function on that subset of gold; a
question's scores are the function on that one question. On top come what the official
script does not report: candidate recall@k (Lit3R §3, Table 1; :mod:`littrace.evaluate.recall`) from the
``candidates`` table,
and, per question, where the gold papers were lost on the way from the retriever's candidates
to the selected papers, the evidence and the evidence locators.

The scores are stored as a ``run-metrics`` artifact (tables ``metrics``,
``question_metrics`` and ``gold_evidence``) keyed by the answers artifact and the gold file, so the catalog's
``metrics`` view compares runs.

Example:
    >>> scores = score_run(AnswersRun.load(answers_artifact), Path("gold.jsonl"), [1, 10])  # doctest: +SKIP
    >>> scores.official["composite_score"], scores.recall_at_k[10]  # doctest: +SKIP
    (0.61, 0.93)
    >>> run_metrics_artifact(answers_artifact, Path("gold.jsonl"), scores).tables  # doctest: +SKIP
    ('metrics', 'question_metrics', 'gold_evidence')
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import pyarrow as pa

from littrace.artifacts import (
    SUBMISSION_FILE,
    TRACES_FILE,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
)
from littrace.codeversion import code_version
from littrace.digest import sha256_file
from littrace.evaluate.official import (
    composite_score,
    evaluate_records,
    evidence_key,
    evidence_keys,
    id_norm,
    paper_ids,
    read_records,
)
from littrace.evaluate.recall import GoldPapers, candidate_recall

__all__ = [
    "RUN_METRICS_STAGE",
    "AnswersRun",
    "GroupScore",
    "QuestionScore",
    "RunScores",
    "run_metrics_artifact",
    "run_metrics_key",
    "run_recall",
    "score_run",
]

RUN_METRICS_STAGE: Final = "run-metrics"
# The stages a gold paper or locator passes on its way to the submission, in order.
STAGES = ("retrieval", "selection", "evidence", "locator")

ANSWERS_HASH = pa.field("answers_hash", pa.string())
METRICS_SCHEMA = pa.schema(
    [
        ("scope", pa.string()),
        ("group", pa.string()),
        ("metric", pa.string()),
        ("value", pa.float64()),
        ("questions", pa.int64()),
    ]
)
GOLD_EVIDENCE_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("paper_id", pa.string()),
        ("source_type", pa.string()),
        ("location", pa.string()),  # the scorer's page-or-section
        ("object_id", pa.string()),  # the scorer's normalised object id ("table 1")
        ("found", pa.bool_()),
    ]
)
QUESTION_METRICS_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("task_family", pa.string()),
        ("primary_evidence_type", pa.string()),
        ("gold_papers", pa.int64()),
        ("candidate_recall", pa.float64()),
        ("selected_recall", pa.float64()),
        ("evidence_paper_recall", pa.float64()),
        ("paper_f1", pa.float64()),
        ("evidence_precision", pa.float64()),
        ("evidence_recall", pa.float64()),
        ("evidence_f1", pa.float64()),
        ("answer_score", pa.float64()),
        ("composite_score", pa.float64()),
        ("lost_at", pa.string()),
        ("latency_s", pa.float64()),
        ("llm_calls", pa.int64()),
        ("llm_cost", pa.float64()),
    ]
)


@dataclass(frozen=True)
class QuestionScore:
    """One question's official scores and the stage where its gold was first lost.

    The recalls are the share of gold papers among the retriever's candidates, the selected
    candidates and the papers of the evidence items; ``lost_at`` is the first of
    :data:`STAGES` that dropped a gold paper (or, for ``locator``, a gold evidence key), or
    None when nothing was lost.
    """

    query_id: str
    task_family: str
    primary_evidence_type: str
    gold_papers: int
    candidate_recall: float | None
    selected_recall: float | None
    evidence_paper_recall: float | None
    paper_f1: float | None
    evidence_precision: float | None
    evidence_recall: float | None
    evidence_f1: float | None
    answer_score: float | None
    composite_score: float | None
    lost_at: str | None
    latency_s: float | None
    llm_calls: int | None
    llm_cost: float | None


@dataclass(frozen=True)
class GroupScore:
    """The official metrics and composite score over the questions of one group."""

    scope: str  # "task_family" or "primary_evidence_type"
    group: str
    questions: int
    metrics: Mapping[str, float | None]
    composite_score: float | None


@dataclass(frozen=True)
class RunScores:
    """Everything the report and the ``run-metrics`` artifact show about one run."""

    official: Mapping[str, Any] | None  # evaluate_records output; None without gold
    recall_at_k: Mapping[int, float | None]
    groups: Sequence[GroupScore]
    questions: Sequence[QuestionScore]
    costs: Mapping[str, float | None] = field(default_factory=dict)
    # Rows of the gold_evidence table: each gold item's key and whether the run found it.
    gold_evidence: Sequence[Mapping[str, Any]] = ()

    def metric_rows(self) -> list[dict[str, Any]]:
        """Rows of the ``metrics`` table: scope, group, metric, value, questions."""
        rows: list[dict[str, Any]] = []
        n = len(self.questions)
        if self.official is not None:
            rows.append(
                _row("overall", "all", "composite_score", self.official["composite_score"], n)
            )
            for name, value in self.official["metrics"].items():
                rows.append(_row("overall", "all", name, value, n))
        for k, value in self.recall_at_k.items():
            rows.append(_row("overall", "all", f"recall@{k}", value, n))
        for name, value in self.costs.items():
            rows.append(_row("overall", "all", name, value, n))
        for group in self.groups:
            rows.append(
                _row(
                    group.scope,
                    group.group,
                    "composite_score",
                    group.composite_score,
                    group.questions,
                )
            )
            for name, value in group.metrics.items():
                rows.append(_row(group.scope, group.group, name, value, group.questions))
        return rows


def _row(
    scope: str, group: str, metric: str, value: float | None, questions: int
) -> dict[str, Any]:
    return {
        "scope": scope,
        "group": group,
        "metric": metric,
        "value": value,
        "questions": questions,
    }


@dataclass(frozen=True)
class AnswersRun:
    """What an answers artifact holds, indexed by question: the submission, the traces and
    the rows of the ``candidates`` (in rank order), ``evidence`` and ``predictions`` tables."""

    artifact: Artifact
    submission_records: list[tuple[int, dict[str, Any]]]
    traces: dict[str, dict[str, Any]]
    candidates: dict[str, list[dict[str, Any]]]
    evidence: dict[str, list[dict[str, Any]]]
    predictions: dict[str, dict[str, Any]]

    @cached_property
    def submission(self) -> dict[str, dict[str, Any]]:
        """The submission by question (the last line of a repeated id wins, as in the scorer)."""
        return {id_norm(r.get("query_id")): r for _, r in self.submission_records}

    @classmethod
    def load(cls, answers: Artifact) -> AnswersRun:
        submission = answers.path / SUBMISSION_FILE
        if not submission.is_file():
            raise FileNotFoundError(f"answers artifact {answers.path} has no {SUBMISSION_FILE}")

        def grouped(name: str) -> dict[str, list[dict[str, Any]]]:
            rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
            if name in answers.tables:
                for row in answers.table(name).to_pylist():
                    rows[str(row["query_id"])].append(row)
            return rows

        traces = answers.path / TRACES_FILE
        return cls(
            artifact=answers,
            submission_records=read_records(submission, "submission"),
            traces={id_norm(r.get("query_id")): r for _, r in read_records(traces, "traces")}
            if traces.is_file()
            else {},
            candidates={
                qid: sorted(rows, key=lambda r: int(r["rank"]))
                for qid, rows in grouped("candidates").items()
            },
            evidence=grouped("evidence"),
            predictions={qid: rows[-1] for qid, rows in grouped("predictions").items()},
        )


def run_recall(
    ranked: Mapping[str, Sequence[str]], gold: Mapping[str, Mapping[str, Any]], ks: Sequence[int]
) -> dict[int, float | None]:
    """Candidate recall@k (:func:`littrace.evaluate.recall.candidate_recall`) over every gold
    question with gold papers; one without candidates counts as finding none. None for every
    k when the run has no candidates or the gold no papers.

    Example:
        >>> gold = {"q1": {"gold_papers": [{"paper_id": "b"}, {"paper_id": "z"}]},
        ...         "q2": {"gold_papers": [{"paper_id": "y"}]}}
        >>> run_recall({"q1": ["a", "b"]}, gold, [1, 2])
        {1: 0.0, 2: 0.25}
    """
    papers = {
        qid: GoldPapers(str(record.get("task_family") or ""), frozenset(paper_ids(record)))
        for qid, record in gold.items()
    }
    papers = {qid: entry for qid, entry in papers.items() if entry.papers}
    if not ranked or not papers:
        return {k: None for k in ks}
    report = candidate_recall({qid: ranked.get(qid, []) for qid in papers}, papers, ks)
    return {k: report.overall[k] for k in ks}


def _share(gold: set[str], found: set[str]) -> float | None:
    return len(gold & found) / len(gold) if gold else None


def _lost_at(recalls: Sequence[float | None], evidence_recall: float | None) -> str | None:
    previous = 1.0
    for stage, value in zip(STAGES, recalls, strict=False):
        if value is not None and value < previous:
            return stage
        previous = previous if value is None else value
    if evidence_recall is not None and evidence_recall < 1.0:
        return "locator"
    return None


def _answer_part(metrics: Mapping[str, float | None], has_tables: bool) -> float | None:
    # The composite's answer part alone: the composite of a run without paper and evidence scores.
    answer_only = {
        k: v for k, v in metrics.items() if k not in ("paper_f1_macro", "evidence_f1_macro")
    }
    return composite_score(answer_only, has_tables)


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def _costs(predictions: Mapping[str, dict[str, Any]]) -> dict[str, float | None]:
    latencies = [
        float(p["latency_s"]) for p in predictions.values() if p.get("latency_s") is not None
    ]
    costs = [float(p["llm_cost"]) for p in predictions.values() if p.get("llm_cost") is not None]
    calls = [int(p["llm_calls"]) for p in predictions.values() if p.get("llm_calls") is not None]
    return {
        "latency_s_mean": statistics.fmean(latencies) if latencies else None,
        "latency_s_p50": _percentile(sorted(latencies), 0.5),
        "latency_s_p95": _percentile(sorted(latencies), 0.95),
        "latency_s_total": sum(latencies) if latencies else None,
        "llm_calls_total": float(sum(calls)) if calls else None,
        "llm_cost_total": sum(costs) if costs else None,
        "llm_cost_mean": statistics.fmean(costs) if costs else None,
    }


def score_run(run: AnswersRun, gold: Path | None, recall_k: Sequence[int]) -> RunScores:
    """Score an answers run's ``submission.jsonl`` and tables against ``gold``.

    Without gold only the costs are known; every gold-based score is None.
    """
    predicted_records = run.submission_records
    predicted = run.submission
    predictions, candidates, evidence_rows = run.predictions, run.candidates, run.evidence
    costs = _costs(predictions)
    if gold is None:
        return RunScores(None, {k: None for k in recall_k}, (), (), costs)

    gold_records = read_records(gold, "gold")
    gold_by_id = {id_norm(r.get("query_id")): r for _, r in gold_records}
    ranked = {qid: [str(r["paper_id"]) for r in rows] for qid, rows in candidates.items()}
    questions = []
    gold_evidence = []
    for qid, record in gold_by_id.items():
        one = evaluate_records([(1, record)], [(1, predicted[qid])] if qid in predicted else [])
        found = evidence_keys(predicted.get(qid, {}))
        for item in record.get("evidence") or []:
            if isinstance(item, dict):
                paper, source_type, location, object_id = evidence_key(item)
                gold_evidence.append(
                    {
                        "query_id": qid,
                        "paper_id": paper,
                        "source_type": source_type,
                        "location": location,
                        "object_id": object_id,
                        "found": (paper, source_type, location, object_id) in found,
                    }
                )
        metrics = one["metrics"]
        papers = paper_ids(record)
        selected = {str(r["paper_id"]) for r in candidates.get(qid, []) if r.get("selected")}
        evidence_papers = {str(r["paper_id"]) for r in evidence_rows.get(qid, [])}
        if not evidence_rows and qid in predicted:
            evidence_papers = {paper for paper, *_ in evidence_keys(predicted[qid])}
        recalls = (
            _share(papers, set(ranked.get(qid, []))),
            _share(papers, selected),
            _share(papers, evidence_papers),
        )
        prediction = predictions.get(qid, {})
        questions.append(
            QuestionScore(
                query_id=qid,
                task_family=str(record.get("task_family") or ""),
                primary_evidence_type=str(record.get("primary_evidence_type") or ""),
                gold_papers=len(papers),
                candidate_recall=recalls[0],
                selected_recall=recalls[1],
                evidence_paper_recall=recalls[2],
                paper_f1=metrics["paper_f1_macro"],
                evidence_precision=metrics["evidence_precision_macro"],
                evidence_recall=metrics["evidence_recall_macro"],
                evidence_f1=metrics["evidence_f1_macro"],
                answer_score=_answer_part(metrics, "table" in (record.get("answer_types") or [])),
                composite_score=one["composite_score"],
                lost_at=_lost_at(recalls, metrics["evidence_recall_macro"]),
                latency_s=prediction.get("latency_s"),
                llm_calls=prediction.get("llm_calls"),
                llm_cost=prediction.get("llm_cost"),
            )
        )
    groups = []
    for scope in ("task_family", "primary_evidence_type"):
        members: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for line, record in gold_records:
            members[str(record.get(scope) or "")].append((line, record))
        for name, subset in sorted(members.items()):
            ids = {id_norm(r.get("query_id")) for _, r in subset}
            result = evaluate_records(
                subset,
                [(ln, r) for ln, r in predicted_records if id_norm(r.get("query_id")) in ids],
            )
            groups.append(
                GroupScore(scope, name, len(subset), result["metrics"], result["composite_score"])
            )
    return RunScores(
        official=evaluate_records(gold_records, predicted_records),
        recall_at_k=run_recall(ranked, gold_by_id, recall_k),
        groups=groups,
        questions=questions,
        costs=costs,
        gold_evidence=gold_evidence,
    )


def run_metrics_key(answers: Artifact, gold: Path, recall_k: Iterable[int]) -> ArtifactKey:
    """The key of the ``run-metrics`` artifact of ``answers`` scored against ``gold``."""
    return ArtifactStore(answers.path.parents[1], catalog=False).key(
        RUN_METRICS_STAGE,
        code_version=code_version(RUN_METRICS_STAGE),  # not pinnable: rescoring takes seconds
        inputs={"answers": answers.hash, "gold": sha256_file(gold)},
        config={"recall_k": sorted(set(recall_k))},
    )


def run_metrics_artifact(answers: Artifact, gold: Path, scores: RunScores) -> Artifact:
    """Store ``scores`` (of ``answers`` against ``gold``) as a ``run-metrics`` artifact beside
    the answers artifact; found again, not rebuilt, for the same answers and gold."""
    store = ArtifactStore(answers.path.parents[1])
    key = run_metrics_key(answers, gold, scores.recall_at_k)

    def build(writer: ArtifactWriter) -> None:
        # answers_hash joins these rows to the run's candidates, evidence and predictions
        # (their artifact_hash) even when the answers were made outside a recorded run.
        tables = (
            ("metrics", scores.metric_rows(), METRICS_SCHEMA),
            ("question_metrics", [asdict(q) for q in scores.questions], QUESTION_METRICS_SCHEMA),
            ("gold_evidence", scores.gold_evidence, GOLD_EVIDENCE_SCHEMA),
        )
        for name, rows, schema in tables:
            tagged = [{**row, "answers_hash": answers.hash} for row in rows]
            writer.write_table(name, tagged, schema=schema.append(ANSWERS_HASH))
        summary = {"official": scores.official, "recall_at_k": dict(scores.recall_at_k)}
        (writer.path / "result.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")

    return store.get_or_build(key, build)
