"""What the report's header notes and run-wide sections show: official metrics, candidate
recall, scores by group, where gold was lost, and timings, LLM cost and fallbacks (the
markup is ``templates/report.html.j2``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from littrace.artifacts import Artifact
from littrace.report.html import RecallChart, Table, fmt, recall_chart
from littrace.report.scores import AnswersRun, RunScores

_METRIC_LABELS = {
    "paper_f1_macro": "paper F1",
    "evidence_f1_macro": "evidence F1",
    "multiple_choice_accuracy": "MC accuracy",
    "freeform_exact_match": "freeform EM",
    "table_row_f1_macro": "table row F1",
    "table_cell_accuracy_macro": "table cell acc.",
}


@dataclass(frozen=True)
class FailureNote:
    """One corpus failure record as the header lists it."""

    paper: str
    error_type: str
    fatal: bool
    message: str

    @property
    def kept(self) -> str:
        return "metadata only" if self.fatal else "non-fatal: readable pages kept"


def failure_notes(corpus: Artifact) -> list[FailureNote]:
    """The corpus's failure records: papers kept as metadata only (fatal) and papers kept
    with only the pages that could be read (non-fatal)."""
    return [
        FailureNote(
            row["paper_id"] or "(pool)",
            row["error_type"],
            row.get("fatal") is not False,
            row["message"],
        )
        for row in corpus.table("failures").to_pylist()
    ]


@dataclass(frozen=True)
class MetricsView:
    """The official metrics card: the composite score and the table of metrics."""

    composite: str
    total: int
    missing: int
    extra: int
    gold: str
    table: Table


def metrics_view(scores: RunScores, gold: Path | None) -> MetricsView | None:
    """The official metrics, or None without gold (nothing was scored)."""
    if scores.official is None:
        return None
    official = scores.official
    details = official["details"]
    return MetricsView(
        fmt(official["composite_score"], 4),
        details["total"],
        details["missing_prediction_count"],
        details["extra_prediction_count"],
        str(gold),
        Table(["metric", "value"], [[n, fmt(v, 4)] for n, v in official["metrics"].items()]),
    )


@dataclass(frozen=True)
class RecallView:
    """Recall@k as a chart and a table; no chart when recall is unknown."""

    chart: RecallChart | None
    table: Table


def recall_view(scores: RunScores) -> RecallView:
    rows = [[f"recall@{k}", fmt(v)] for k, v in scores.recall_at_k.items()]
    known = not all(v is None for v in scores.recall_at_k.values())
    return RecallView(
        recall_chart(scores.recall_at_k) if known else None, Table(["cut-off", "recall"], rows)
    )


def group_tables(scores: RunScores) -> list[Table]:
    """Scores by task family, then by primary evidence type (a table without rows: no gold)."""
    tables = []
    for scope, title in (
        ("task_family", "Task family"),
        ("primary_evidence_type", "Primary evidence type"),
    ):
        rows = [
            [g.group or "—", g.questions, fmt(g.composite_score)]
            + [fmt(g.metrics.get(name)) for name in _METRIC_LABELS]
            for g in scores.groups
            if g.scope == scope
        ]
        tables.append(Table([title, "questions", "composite", *_METRIC_LABELS.values()], rows))
    return tables


def stages_table(scores: RunScores) -> Table:
    """How many questions first lost gold at each stage (no rows without gold)."""
    lost = Counter(q.lost_at or "nothing lost" for q in scores.questions)
    order = ("retrieval", "selection", "evidence", "locator", "nothing lost")
    rows = [[stage, lost.get(stage, 0)] for stage in order] if scores.questions else []
    return Table(["stage", "questions"], rows)


@dataclass(frozen=True)
class CostsView:
    """Timings, LLM cost and the fallbacks by kind."""

    timings: Table
    costs: Table
    fallbacks: Table
    fallbacks_total: int
    fallback_questions: int


def costs_view(scores: RunScores, run: AnswersRun) -> CostsView:
    timings: dict[str, list[float]] = defaultdict(list)
    tokens = 0
    # By kind (the step, ``deadline``, or the writer's ``repaired``/``fallback``): entries
    # over the run, and the questions with one.
    fallbacks: Counter[str] = Counter()
    questions: Counter[str] = Counter()
    for trace in run.traces.values():
        for name, value in (trace.get("timings") or {}).items():
            if isinstance(value, int | float):
                timings[name].append(float(value))
        tokens += int((trace.get("llm") or {}).get("tokens") or 0)
        kinds = [_fallback_kind(entry) for entry in fallbacks_of(trace)]
        fallbacks.update(kinds)
        questions.update(set(kinds))
    timing_rows = [
        [name, fmt(sum(values) / len(values), 2), fmt(max(values), 2), fmt(sum(values), 1)]
        for name, values in sorted(timings.items())
    ]
    cost_rows = [[name, fmt(value, 4)] for name, value in scores.costs.items()]
    cost_rows.append(["llm_tokens_total", str(tokens)])
    return CostsView(
        Table(["timing (s)", "mean", "max", "total"], timing_rows),
        Table(["cost", "value"], cost_rows),
        Table(
            ["fallback", "times", "questions"],
            [[name, count, questions[name]] for name, count in fallbacks.most_common()],
        ),
        fallbacks.total(),
        sum(1 for t in run.traces.values() if fallbacks_of(t)),
    )


def fallbacks_of(trace: Mapping[str, Any]) -> list[str]:
    """The trace's ``fallbacks``: the deadline, the writer's repair, each step that fell back."""
    return [str(entry) for entry in trace.get("fallbacks") or []]


def _fallback_kind(entry: str) -> str:
    """What fell back: each entry reads ``"<kind>: <why>"``."""
    return entry.split(": ", 1)[0]
