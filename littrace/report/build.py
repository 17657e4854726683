"""The HTML report of one answers run: one self-contained file that opens offline.

Top: the papers the corpus could not convert, or converted only in part (its ``failures``
table: a PDF MuPDF had to repair, pages that could not be read); then the official metrics
and composite score, candidate recall@k, the scores by task family and by primary evidence
type, where gold was lost, timings, LLM cost and the steps that fell back. Then one section
per question: the question, the predicted and gold answers, the selected papers with their
ranks in Rankings A and B, every predicted and gold evidence item as a crop of its PDF page
with the located region highlighted, and the retrieval trace folded away.

Crops are PNGs embedded as ``data:`` URIs, and CSS and JS are inline, so the one file is the
whole report. The PDFs are the ones the corpus recorded at ingest (``papers.pdf_path``), or
those given in their place; an item whose PDF is gone or changed gets a note, not a crop. The
answers artifact is the ``answers`` stage's output: ``submission.jsonl``, ``traces.jsonl``
and the tables ``candidates``, ``evidence`` and ``predictions``.

Example:
    >>> out = build_report(answers, Path("gold.jsonl"), corpus, Path("report.html"))  # doctest: +SKIP
    >>> out.read_text()[:15]  # doctest: +SKIP
    '<!DOCTYPE html>'
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any, Final

from littrace.artifacts import (
    TRACES_FILE,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    Catalog,
    LineageRecord,
)
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.digest import sha256_file
from littrace.evaluate.official import evidence_key, id_norm, read_records
from littrace.files import atomic_write
from littrace.report.crops import (
    CropUnavailable,
    EvidenceItem,
    PageRenderer,
    Region,
    RegionFinder,
    recorded_pdfs,
)
from littrace.report.html import Html, badge, fmt, page, recall_chart, table
from littrace.report.scores import (
    AnswersRun,
    QuestionScore,
    RunScores,
    run_metrics_artifact,
    run_metrics_key,
    score_run,
)

__all__ = [
    "DEFAULT_RECALL_K",
    "REPORTS_DIR",
    "SECTION_IDS",
    "build_report",
    "pdf_paths",
    "report_for_run",
    "report_key",
    "written_for",
]

DEFAULT_RECALL_K = (1, 5, 10, 20, 50, 100)
REPORTS_DIR = "reports"
REPORT_STAGE: Final = "report"
# Where page() puts the inputs hash: in the first bytes of the file.
_INPUTS_META = re.compile(rb'<meta name="littrace-report-inputs" content="([0-9a-f]{64})">')
_HEAD_BYTES = 1024
# The ids of the report's top-level sections, in order (the browser test looks for them).
SECTION_IDS = ("metrics", "recall", "groups", "stages", "costs", "questions")
# Candidates shown per question besides the selected and the gold ones.
_TOP_CANDIDATES = 5
# A trace longer than this is cut in the page (the full one is in traces.jsonl).
_MAX_TRACE_CHARS = 60_000
_METRIC_LABELS = {
    "paper_f1_macro": "paper F1",
    "evidence_f1_macro": "evidence F1",
    "multiple_choice_accuracy": "MC accuracy",
    "freeform_exact_match": "freeform EM",
    "table_row_f1_macro": "table row F1",
    "table_cell_accuracy_macro": "table cell acc.",
}


def pdf_paths(pdf_dir: Path | None = None, pool: Path | None = None) -> dict[str, Path]:
    """``paper_id → PDF`` from a pool file (its ``pdf`` fields, else ``<pdf_dir>/<id>.pdf``)
    or, without a pool, from the ``<paper_id>.pdf`` files in ``pdf_dir``: PDFs to use in
    place of the paths the corpus recorded (for PDFs that moved)."""
    if pool is not None:
        from littrace.corpus.pool import load_pool

        return dict(load_pool(pool, pdf_dir).pdfs)
    if pdf_dir is None:
        return {}
    return {path.stem: path for path in sorted(pdf_dir.glob("*.pdf"))}


class _Crops:
    """Renders each region once and hands out ``data:`` URIs, or why there is no crop."""

    def __init__(self, finder: RegionFinder, renderer: PageRenderer) -> None:
        self.finder = finder
        self.renderer = renderer
        self._uris: dict[Region, str | CropUnavailable] = {}

    def _uri(self, region: Region) -> str | CropUnavailable:
        if region not in self._uris:
            try:
                encoded = base64.b64encode(self.renderer.render(region)).decode("ascii")
                self._uris[region] = f"data:image/png;base64,{encoded}"
            except CropUnavailable as problem:
                self._uris[region] = problem
        return self._uris[region]

    def figure(self, item: EvidenceItem, verdict: Html) -> Html:
        region = self.finder.locate(item)
        uri = None if region is None else self._uri(region)
        where = " · ".join(
            part
            for part in (
                item.paper_id,
                item.source_type,
                f"p. {item.page}" if item.page else "",
                item.object_id,
                item.section,
            )
            if part
        )
        if isinstance(uri, str) and region is not None:
            image = f'<img src="{uri}" alt="{escape(where)}" loading="lazy">'
            how = f"region from the {region.how}" + (
                f", page {region.page}" if region.page != item.page else ""
            )
        elif region is not None:
            image = f'<p class="muted">no page image: {escape(str(uri))}</p>'
            how = f"region from the {region.how}"
        else:
            image = '<p class="muted">no page image: the item names no page or known object</p>'
            how = "not located"
        text = f" — “{escape(item.text)}”" if item.text else ""
        score = f" · score {fmt(item.score)}" if item.score is not None else ""
        return Html(
            f'<figure class="evidence">{image}<figcaption>{verdict} {escape(where)}{text}'
            f' <span class="muted">({escape(how)}{escape(score)})</span></figcaption></figure>'
        )


def _unusable_note(unusable: Mapping[str, str]) -> str:
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


def _failures_note(corpus: Artifact) -> str:
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


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def _metrics_section(scores: RunScores, gold: Path | None) -> Html:
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


def _recall_section(scores: RunScores) -> Html:
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


def _groups_section(scores: RunScores) -> Html:
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


def _stages_section(scores: RunScores) -> Html:
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


def _costs_section(scores: RunScores, run: AnswersRun) -> Html:
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
        kinds = [_fallback_kind(entry) for entry in _fallbacks_of(trace)]
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
        f"{sum(1 for t in run.traces.values() if _fallbacks_of(t))} questions</p>"
        f"{table(['fallback', 'times', 'questions'], fallback_rows) if fallback_rows else ''}"
        "</div></div></section>"
    )


def _fallbacks_of(trace: Mapping[str, Any]) -> list[str]:
    """The trace's ``fallbacks``: the deadline, the writer's repair, each step that fell back."""
    return [str(entry) for entry in trace.get("fallbacks") or []]


def _fallback_kind(entry: str) -> str:
    """What fell back: each entry reads ``"<kind>: <why>"``."""
    return entry.split(": ", 1)[0]


def _fallback_list(fallbacks: Sequence[str]) -> str:
    if not fallbacks:
        return ""
    items = "".join(f"<li>{escape(entry)}</li>" for entry in fallbacks)
    return f"<details><summary>Fallbacks ({len(fallbacks)})</summary><ul>{items}</ul></details>"


def _answer_html(answer: Any, options: Mapping[str, Any]) -> str:
    """An answer as a person reads it: the letter and its option, the text, the table."""
    if not isinstance(answer, dict) or not answer:
        return '<p class="muted">no answer</p>'
    parts = []
    choice = answer.get("multiple_choice")
    if isinstance(choice, dict):
        letter = str(choice.get("gold") or "")
        text = options.get(letter.strip().upper(), "")
        parts.append(f"<p><b>choice</b> {escape(letter)} {escape(str(text))}</p>")
    freeform = answer.get("freeform")
    if isinstance(freeform, dict):
        parts.append(f"<p><b>freeform</b> {escape(str(freeform.get('text', '')))}</p>")
    grid = answer.get("table")
    if isinstance(grid, dict) and isinstance(grid.get("rows"), list):
        rows = [r for r in grid["rows"] if isinstance(r, dict)]
        columns = list(dict.fromkeys(name for row in rows for name in row))
        parts.append(table(columns, [[_fmt_cell(row.get(c)) for c in columns] for row in rows]))
    return "".join(parts) or f"<pre>{escape(_pretty(answer))}</pre>"


def _fmt_cell(value: Any) -> str:
    return "null" if value is None else str(value)


def _answer_block(answer: Any, title: str, options: Mapping[str, Any]) -> str:
    return f"<div><h4>{escape(title)}</h4>{_answer_html(answer, options)}</div>"


def _papers_table(
    qid: str, run: AnswersRun, gold_papers: set[str], titles: Mapping[str, str]
) -> Html:
    candidates = run.candidates.get(qid, [])
    submitted = {
        id_norm(p.get("paper_id") if isinstance(p, dict) else p)
        for p in run.submission.get(qid, {}).get("gold_papers") or []
    }
    shown = [
        c
        for c in candidates
        if c.get("selected") or c["paper_id"] in gold_papers or int(c["rank"]) <= _TOP_CANDIDATES
    ]
    listed = {c["paper_id"] for c in shown}
    rows: list[list[object]] = []
    for c in shown:
        rows.append(
            [
                c["paper_id"],
                titles.get(c["paper_id"], ""),
                c["rank"],
                fmt(c.get("rank_a")),
                fmt(c.get("rank_b")),
                badge("selected", "good") if c.get("selected") else "",
                _gold_badge(c["paper_id"], gold_papers),
            ]
        )
    for paper in sorted((gold_papers | submitted) - listed):
        rows.append(
            [
                paper,
                titles.get(paper, ""),
                "—",
                "—",
                "—",
                badge("submitted", "good") if paper in submitted else "",
                _gold_badge(paper, gold_papers, missing=True),
            ]
        )
    return table(["paper", "title", "final rank", "rank A", "rank B", "selected", "gold"], rows)


def _gold_badge(paper: str, gold: set[str], missing: bool = False) -> Html | str:
    if paper not in gold:
        return ""
    return badge("gold, not a candidate" if missing else "gold", "warn" if missing else "good")


def _evidence_html(
    qid: str, gold: Mapping[str, Any] | None, run: AnswersRun, crops: _Crops
) -> Html:
    """The predicted evidence, each with its crop and whether gold has it, then the gold
    evidence: a crop of each item the prediction missed."""
    submission = run.submission.get(qid, {})
    gold_items = [i for i in (gold or {}).get("evidence") or [] if isinstance(i, dict)]
    gold_keys = {evidence_key(i) for i in gold_items}
    rows = run.evidence.get(qid)
    predicted = (
        [EvidenceItem.from_row(r) for r in rows]
        if rows
        else [EvidenceItem.from_locator(i) for i in submission.get("evidence") or []]
    )
    crops.finder.load_chunks(item.chunk_id for item in predicted)
    predicted_keys = set()
    figures = []
    for item in predicted:
        key = evidence_key(
            {"paper_id": item.paper_id, "source_type": item.source_type, "locator": item.locator()}
        )
        predicted_keys.add(key)
        verdict = badge("matches gold", "good") if key in gold_keys else badge("not in gold", "bad")
        figures.append(crops.figure(item, verdict if gold is not None else Html("")))
    parts = [f"<h4>Predicted evidence ({len(predicted)})</h4>", *figures]
    if not figures:
        parts.append('<p class="muted">none</p>')
    if gold is not None:
        parts.append(f"<h4>Gold evidence ({len(gold_items)})</h4>")
    for raw in gold_items:
        item = EvidenceItem.from_locator(raw)
        if evidence_key(raw) in predicted_keys:
            # A found item's crop is already above, with the prediction.
            where = " · ".join(
                str(p) for p in (item.paper_id, item.source_type, item.page, item.object_id) if p
            )
            parts.append(f"<p>{badge('found', 'good')} {escape(where)}</p>")
        else:
            parts.append(crops.figure(item, badge("missed", "bad")))
    return Html("".join(parts))


def _question(
    qid: str,
    gold: Mapping[str, Any] | None,
    score: QuestionScore | None,
    run: AnswersRun,
    crops: _Crops,
    titles: Mapping[str, str],
) -> Html:
    trace = run.traces.get(qid, {})
    submission = run.submission.get(qid, {})
    # The answers stage's trace keeps the whole input record under "question".
    asked = trace.get("question")
    question = (asked.get("question") if isinstance(asked, dict) else asked) or (gold or {}).get(
        "question", ""
    )
    gold_papers = {id_norm(p.get("paper_id")) for p in (gold or {}).get("gold_papers") or []}
    evidence = _evidence_html(qid, gold, run, crops)
    badges = [badge(qid)]
    if gold is not None:
        badges += [
            badge(str(gold.get("task_family") or "?")),
            badge(str(gold.get("primary_evidence_type") or "?")),
        ]
    if score is not None:
        badges.append(badge(f"composite {fmt(score.composite_score, 2)}"))
        badges.append(
            badge(f"lost at {score.lost_at}", "bad")
            if score.lost_at
            else badge("nothing lost", "good")
        )
    prediction = run.predictions.get(qid, {})
    fallbacks = _fallbacks_of(trace)
    if fallbacks:
        badges.append(badge(f"fallbacks: {len(fallbacks)}", "warn"))
    timings = trace.get("timings") or {}
    llm = trace.get("llm") or {}
    cost_line = (
        f"latency {fmt(prediction.get('latency_s') or timings.get('total_s'), 2)} s · "
        f"retrieve {fmt(timings.get('retrieve_s'), 2)} s · read {fmt(timings.get('read_s'), 2)} s · "
        f"LLM calls {llm.get('calls', prediction.get('llm_calls', '—'))} · "
        f"LLM steps fallen back {llm.get('fallbacks', '—')} · "
        f"tokens {llm.get('tokens', '—')} · cost {fmt(llm.get('cost', prediction.get('llm_cost')), 4)}"
    )
    retrieval = trace.get("retrieval")
    trace_text = _pretty(retrieval) if retrieval is not None else "no retrieval trace"
    if len(trace_text) > _MAX_TRACE_CHARS:
        trace_text = trace_text[:_MAX_TRACE_CHARS] + f"\n… cut; the full trace is in {TRACES_FILE}"
    rest = {k: v for k, v in trace.items() if k not in ("retrieval", "question", "query_id")}
    gold_answer = (gold or {}).get("answer") or {}
    options = (gold_answer.get("multiple_choice") or {}).get("options") or {}
    answers = _answer_block(submission.get("answer", {}), "Predicted answer", options)
    if gold is not None:
        answers += _answer_block(gold_answer, "Gold answer", options)
    lost = score.lost_at if score is not None and score.lost_at else ""
    return Html(
        f'<article class="question" id="q-{escape(qid)}" data-lost="{escape(lost)}">'
        f'<h3>{"".join(badges)}</h3><p class="q-text">{escape(str(question))}</p>'
        f'<p class="muted">{escape(cost_line)}</p>{_fallback_list(fallbacks)}'
        f'<div class="answers">{answers}</div>'
        f"<h4>Papers</h4>{_papers_table(qid, run, gold_papers, titles)}{evidence}"
        f"<details><summary>Retrieval trace</summary><pre>{escape(trace_text)}</pre></details>"
        f"<details><summary>Reading, selection and synthesis trace</summary>"
        f"<pre>{escape(_pretty(rest)[:_MAX_TRACE_CHARS])}</pre></details>"
        "</article>"
    )


def build_report(
    answers: Artifact,
    gold: Path | None,
    corpus: Artifact,
    out: Path,
    *,
    pdfs: Mapping[str, Path] | None = None,
    recall_k: Sequence[int] = DEFAULT_RECALL_K,
    run_id: str | None = None,
) -> Path:
    """Write the report of ``answers`` (scored against ``gold`` when given) to ``out``.

    The page crops come from the PDFs the corpus recorded; ``pdfs`` maps paper ids to PDFs
    to use instead (see :func:`pdf_paths`), e.g. after the files moved. A PDF that is gone
    or differs from the one converted (SHA-256) gives a note in place of each crop, and the
    header lists those papers. With gold, the scores are also stored as a ``run-metrics``
    artifact, and with ``run_id`` recorded in the catalog's lineage.

    An ``out`` written for the same inputs (:func:`report_key`) is left as it is: only the
    lineage is recorded (its header still names the run that wrote it).
    """
    started = datetime.now(UTC)
    recorded, sha256 = recorded_pdfs(corpus)
    pdf_files = {**recorded, **(pdfs or {})}
    key = report_key(answers, gold, corpus, pdf_files, recall_k)
    if written_for(out) == key.hash:
        metrics = _stored_metrics(answers, gold, recall_k)
        if gold is None or metrics is not None:
            _record_metrics(metrics, run_id, started)
            return out
    run = AnswersRun.load(answers)
    scores = score_run(run, gold, recall_k)
    _record_metrics(
        run_metrics_artifact(answers, gold, scores) if gold is not None else None, run_id, started
    )
    gold_by_id = (
        {id_norm(r.get("query_id")): r for _, r in read_records(gold, "gold")} if gold else {}
    )
    titles = {
        str(r["paper_id"]): str(r["title"])
        for r in corpus.table("papers", columns=["paper_id", "title"]).to_pylist()
    }
    order = list(gold_by_id) + [qid for qid in run.submission if qid not in gold_by_id]
    by_id = {q.query_id: q for q in scores.questions}
    with PageRenderer(pdf_files, sha256) as renderer:
        crops = _Crops(RegionFinder(corpus), renderer)
        questions = [
            _question(qid, gold_by_id.get(qid), by_id.get(qid), run, crops, titles) for qid in order
        ]
        unusable = renderer.unusable
    question_section = Html(
        '<section id="questions"><h2>Questions</h2>'
        '<div id="filters"><input type="search" id="filter" placeholder="filter by any text">'
        ' <label><input type="checkbox" id="only-lost"> only questions that lost gold</label>'
        f' <span class="muted"><span id="shown">{len(questions)}</span> of {len(questions)} shown'
        "</span></div>" + "".join(questions) + "</section>"
    )
    created = answers.manifest.created
    header = Html(
        f"<h1>littrace run report</h1><p>answers artifact <code>{escape(answers.hash[:16])}</code>"
        f" (created {escape(created)}), corpus <code>{escape(corpus.hash[:16])}</code>, "
        f"{len(order)} questions</p><p>report written {escape(datetime.now(UTC).isoformat(timespec='seconds'))}"
        f"{' · run ' + escape(run_id) if run_id else ''}</p>{_failures_note(corpus)}"
        f"{_unusable_note(unusable)}"
    )
    sections = [
        _metrics_section(scores, gold),
        _recall_section(scores),
        _groups_section(scores),
        _stages_section(scores),
        _costs_section(scores, run),
        question_section,
    ]
    with atomic_write(out) as handle:
        handle.write(
            page(f"littrace report {answers.hash[:12]}", header, sections, inputs=key.hash)
        )
    return out


def report_key(
    answers: Artifact,
    gold: Path | None,
    corpus: Artifact,
    pdfs: Mapping[str, Path],
    recall_k: Sequence[int],
) -> ArtifactKey:
    """What a report shows follows from: the answers, the corpus, the gold file, the PDFs its
    crops may come from (path, size and modification time: whether each is there and
    unchanged, without reading it), ``recall_k`` and this code. Its hash is stored in the
    report, so an unchanged report is not written again."""
    stats: dict[str, list[str | int | None]] = {}
    for paper_id, path in sorted(pdfs.items()):
        try:
            stat = path.stat()
            stats[paper_id] = [str(path), stat.st_size, stat.st_mtime_ns]
        except OSError:
            stats[paper_id] = [str(path), None, None]
    inputs = {"answers": answers.hash, "corpus": corpus.hash}
    if gold is not None:
        inputs["gold"] = sha256_file(gold)
    return ArtifactStore(answers.path.parents[1], catalog=False).key(
        REPORT_STAGE,
        code_version=code_version(REPORT_STAGE),
        inputs=inputs,
        config={"recall_k": sorted(set(recall_k)), "pdfs": stats},
    )


def written_for(report: Path) -> str | None:
    """The inputs hash (:func:`report_key`) a report file was written for, if it is one."""
    try:
        with report.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return None
    found = _INPUTS_META.search(head)
    return found.group(1).decode("ascii") if found else None


def _stored_metrics(
    answers: Artifact, gold: Path | None, recall_k: Sequence[int]
) -> Artifact | None:
    if gold is None:
        return None
    return ArtifactStore(answers.path.parents[1], catalog=False).get(
        run_metrics_key(answers, gold, recall_k)
    )


def _record_metrics(metrics: Artifact | None, run_id: str | None, started: datetime) -> None:
    """Record the scores of this run in the catalog's lineage, under ``run_id``."""
    if metrics is not None and run_id is not None:
        Catalog(metrics.path.parents[1]).record_lineage(
            LineageRecord.for_artifact(run_id, metrics, started, datetime.now(UTC))
        )


def report_for_run(
    answers: Artifact,
    gold: Path | None,
    settings: Settings,
    *,
    out: Path | None = None,
    pdf_dir: Path | None = None,
    pool: Path | None = None,
    run_id: str | None = None,
) -> Path:
    """:func:`build_report` with what the settings say: the answers' corpus (whose recorded
    PDFs give the crops), the PDFs of ``pool``/``pdf_dir`` or else of
    ``runtime.pool``/``runtime.pdfs`` in their place when set, ``evaluate.recall_k``, and by
    default ``<artifact_root>/reports/<answers hash>.html``. What ``littrace report``,
    ``evaluate --report``, ``demo`` and ``run`` call."""
    from littrace.report.locate import corpus_of

    root = answers.path.parents[1]
    corpus = corpus_of(answers, root)
    pdfs = pdf_paths(pdf_dir or settings.runtime.pdfs, pool or settings.runtime.pool)
    target = out or root / REPORTS_DIR / f"{answers.hash[:16]}.html"
    return build_report(
        answers,
        gold,
        corpus,
        target,
        pdfs=pdfs,
        recall_k=settings.evaluate.recall_k,
        run_id=run_id,
    )
