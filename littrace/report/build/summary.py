"""The report's header notes and run-wide sections: official metrics, candidate recall,
scores by group, where gold was lost, and timings, LLM cost and fallbacks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

from littrace.artifacts import Artifact
from littrace.report.html import Html, fmt, recall_chart, table
from littrace.report.scores import AnswersRun, RunScores

_METRIC_LABELS = {
    "paper_f1_macro": "paper F1",
    "evidence_f1_macro": "evidence F1",
    "multiple_choice_accuracy": "MC accuracy",
    "freeform_exact_match": "freeform EM",
    "table_row_f1_macro": "table row F1",
    "table_cell_accuracy_macro": "table cell acc.",
}


def unusable_note(unusable: Mapping[str, str]) -> str:
    """The header's list of papers whose crops were skipped, and why."""
    if not unusable:
        return ""
    items = "".join(
        f"<li>{escape(paper)}: {escape(why)}</li>" for paper, why in sorted(unusable.items())
    )
    return (
        f'<details id="skipped-crops"><summary>papers without crops: {len(unusable)} '
        f"(PDF unknown, gone or changed)</summary><ul>{items}</ul></details>"
    )


def failures_note(corpus: Artifact) -> str:
    """The header's list of the corpus's failure records: papers kept as metadata only
    (fatal) and papers kept with only the pages that could be read (non-fatal)."""
    rows = corpus.table("failures").to_pylist()
    if not rows:
        return ""
    kept = sum(1 for row in rows if row.get("fatal") is False)
    items = "".join(
        f"<li>{escape(row['paper_id'] or '(pool)')} · {escape(row['error_type'])} "
        f"({'non-fatal: readable pages kept' if row.get('fatal') is False else 'metadata only'})"
        f": {escape(row['message'])}</li>"
        for row in rows
    )
    return (
        f'<details id="corpus-failures"><summary>corpus failures: {len(rows)} '
        f"({kept} non-fatal)</summary><ul>{items}</ul></details>"
    )


def metrics_section(scores: RunScores, gold: Path | None) -> Html:
    if scores.official is None:
        return Html(
            '<section id="metrics"><h2>Official metrics</h2>'
            '<p class="muted">No gold file was given: nothing to score.</p></section>'
        )
    official = scores.official
    rows = [[name, fmt(value, 4)] for name, value in official["metrics"].items()]
    details = official["details"]
    return Html(
        '<section id="metrics"><h2>Official metrics</h2><div class="cards">'
        f'<div><div class="muted">composite score</div><div class="score" id="composite">'
        f"{fmt(official['composite_score'], 4)}</div>"
        f'<p class="muted">{details["total"]} gold questions, '
        f"{details['missing_prediction_count']} missing and "
        f"{details['extra_prediction_count']} extra predictions<br>gold: {escape(str(gold))}</p></div>"
        f"{table(['metric', 'value'], rows)}</div></section>"
    )


def recall_section(scores: RunScores) -> Html:
    rows = [[f"recall@{k}", fmt(v)] for k, v in scores.recall_at_k.items()]
    if all(v is None for v in scores.recall_at_k.values()):
        body = '<p class="muted">No gold papers or no candidates table: recall is unknown.</p>'
    else:
        body = f'<div class="cards">{recall_chart(scores.recall_at_k)}{table(["cut-off", "recall"], rows)}</div>'
    return Html(
        '<section id="recall"><h2>Candidate recall@k</h2>'
        '<p class="muted">Share of each question\'s gold papers among the first k of the '
        "final candidate ranking, averaged over questions.</p>"
        f"{body}</section>"
    )


def groups_section(scores: RunScores) -> Html:
    parts = ['<section id="groups"><h2>Scores by task family and evidence type</h2>']
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
        header = [title, "questions", "composite", *_METRIC_LABELS.values()]
        parts.append(table(header, rows) if rows else '<p class="muted">No gold.</p>')
    parts.append("</section>")
    return Html("".join(parts))


def stages_section(scores: RunScores) -> Html:
    lost = Counter(q.lost_at or "nothing lost" for q in scores.questions)
    order = ("retrieval", "selection", "evidence", "locator", "nothing lost")
    rows = [[stage, lost.get(stage, 0)] for stage in order]
    return Html(
        '<section id="stages"><h2>Where gold was lost</h2>'
        '<p class="muted">The first stage at which a question lost a gold paper (retrieval: '
        "not among the candidates; selection: a candidate not selected; evidence: a selected "
        "paper without evidence) or, with all papers kept, a gold evidence locator.</p>"
        f"{table(['stage', 'questions'], rows) if scores.questions else '<p class=muted>No gold.</p>'}"
        "</section>"
    )


def costs_section(scores: RunScores, run: AnswersRun) -> Html:
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
    fallback_rows = [[name, count, questions[name]] for name, count in fallbacks.most_common()]
    return Html(
        '<section id="costs"><h2>Timings, LLM cost and fallbacks</h2><div class="cards">'
        f"{table(['timing (s)', 'mean', 'max', 'total'], timing_rows)}"
        f"{table(['cost', 'value'], cost_rows)}"
        f'<div id="fallbacks"><p>fallbacks: {fallbacks.total()} in '
        f"{sum(1 for t in run.traces.values() if fallbacks_of(t))} questions</p>"
        f"{table(['fallback', 'times', 'questions'], fallback_rows) if fallback_rows else ''}"
        "</div></div></section>"
    )


def fallbacks_of(trace: Mapping[str, Any]) -> list[str]:
    """The trace's ``fallbacks``: the deadline, the writer's repair, each step that fell back."""
    return [str(entry) for entry in trace.get("fallbacks") or []]


def _fallback_kind(entry: str) -> str:
    """What fell back: each entry reads ``"<kind>: <why>"``."""
    return entry.split(": ", 1)[0]
