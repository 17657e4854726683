"""One section per question: its answers, papers and evidence, each evidence item as a
crop of its PDF page (rendered once per region), and its traces.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from littrace.artifacts import TRACES_FILE
from littrace.evaluate.official import evidence_key, id_norm
from littrace.report.build.summary import fallbacks_of
from littrace.report.crops import CropUnavailable, EvidenceItem, PageRenderer, Region, RegionFinder
from littrace.report.html import Html, badge, fmt, table
from littrace.report.scores import AnswersRun, QuestionScore

# Candidates shown per question besides the selected and the gold ones.
_TOP_CANDIDATES = 5
# A trace longer than this is cut in the page (the full one is in traces.jsonl).
_MAX_TRACE_CHARS = 60_000


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


class Crops:
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


def _evidence_html(qid: str, gold: Mapping[str, Any] | None, run: AnswersRun, crops: Crops) -> Html:
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


def question(
    qid: str,
    gold: Mapping[str, Any] | None,
    score: QuestionScore | None,
    run: AnswersRun,
    crops: Crops,
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
    fallbacks = fallbacks_of(trace)
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
