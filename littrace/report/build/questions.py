"""What one question's section shows: its answers, papers and evidence, each evidence item
as a crop of its PDF page (rendered once per region), and its traces (the markup is
``templates/question.html.j2``).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from littrace.artifacts import TRACES_FILE
from littrace.evaluate.official import evidence_key, id_norm
from littrace.report.build.summary import fallbacks_of
from littrace.report.crops import CropUnavailable, EvidenceItem, PageRenderer, Region, RegionFinder
from littrace.report.html import Badge, Table, fmt
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

    def figure(self, item: EvidenceItem, verdict: Badge | None) -> EvidenceView:
        """The item's crop with ``verdict`` (whether gold has it) and where it is from."""
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
        image, note = None, "the item names no page or known object"
        if isinstance(uri, str) and region is not None:
            image = uri
            how = f"region from the {region.how}" + (
                f", page {region.page}" if region.page != item.page else ""
            )
        elif region is not None:
            note = str(uri)
            how = f"region from the {region.how}"
        else:
            how = "not located"
        score = f" · score {fmt(item.score)}" if item.score is not None else ""
        return EvidenceView(image, note, verdict, where, item.text or "", how, score)


@dataclass(frozen=True)
class EvidenceView:
    """An evidence item as shown: its crop (a ``data:`` URI) or why there is none."""

    image: str | None
    note: str
    verdict: Badge | None
    where: str
    text: str
    how: str
    score: str


@dataclass(frozen=True)
class GoldItemView:
    """A gold evidence item: found (its crop is with the prediction) or its own crop."""

    found: Badge
    where: str
    crop: EvidenceView | None


@dataclass(frozen=True)
class AnswerView:
    """An answer as a person reads it: the letter and its option, the text, the table, or
    the raw record when it has none of them."""

    title: str
    empty: bool = False
    choice: tuple[str, str] | None = None
    freeform: str | None = None
    table: Table | None = None
    raw: str | None = None


@dataclass(frozen=True)
class QuestionView:
    """One question's section (``templates/question.html.j2``)."""

    qid: str
    lost: str
    badges: list[Badge]
    question: str
    cost_line: str
    fallbacks: list[str]
    answers: list[AnswerView]
    papers: Table
    predicted: list[EvidenceView]
    has_gold: bool
    gold: list[GoldItemView]
    retrieval_trace: str
    rest_trace: str


def _answer_view(answer: Any, title: str, options: Mapping[str, Any]) -> AnswerView:
    if not isinstance(answer, dict) or not answer:
        return AnswerView(title, empty=True)
    choice = answer.get("multiple_choice")
    chosen = None
    if isinstance(choice, dict):
        letter = str(choice.get("gold") or "")
        chosen = (letter, str(options.get(letter.strip().upper(), "")))
    freeform = answer.get("freeform")
    text = str(freeform.get("text", "")) if isinstance(freeform, dict) else None
    grid = answer.get("table")
    rows_table = None
    if isinstance(grid, dict) and isinstance(grid.get("rows"), list):
        rows = [r for r in grid["rows"] if isinstance(r, dict)]
        columns = list(dict.fromkeys(name for row in rows for name in row))
        rows_table = Table(columns, [[_fmt_cell(row.get(c)) for c in columns] for row in rows])
    if chosen is None and text is None and rows_table is None:
        return AnswerView(title, raw=_pretty(answer))
    return AnswerView(title, choice=chosen, freeform=text, table=rows_table)


def _fmt_cell(value: Any) -> str:
    return "null" if value is None else str(value)


def _papers_table(
    qid: str, run: AnswersRun, gold_papers: set[str], titles: Mapping[str, str]
) -> Table:
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
                Badge("selected", "good") if c.get("selected") else "",
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
                Badge("submitted", "good") if paper in submitted else "",
                _gold_badge(paper, gold_papers, missing=True),
            ]
        )
    return Table(["paper", "title", "final rank", "rank A", "rank B", "selected", "gold"], rows)


def _gold_badge(paper: str, gold: set[str], missing: bool = False) -> Badge | str:
    if paper not in gold:
        return ""
    return Badge("gold, not a candidate" if missing else "gold", "warn" if missing else "good")


def _evidence_views(
    qid: str, gold: Mapping[str, Any] | None, run: AnswersRun, crops: Crops
) -> tuple[list[EvidenceView], list[GoldItemView]]:
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
        verdict = Badge("matches gold", "good") if key in gold_keys else Badge("not in gold", "bad")
        figures.append(crops.figure(item, verdict if gold is not None else None))
    golds = []
    for raw in gold_items:
        item = EvidenceItem.from_locator(raw)
        # A found item's crop is already there, with the prediction.
        found = evidence_key(raw) in predicted_keys
        where = " · ".join(
            str(p) for p in (item.paper_id, item.source_type, item.page, item.object_id) if p
        )
        crop = None if found else crops.figure(item, Badge("missed", "bad"))
        golds.append(GoldItemView(Badge("found", "good"), where, crop))
    return figures, golds


def question(
    qid: str,
    gold: Mapping[str, Any] | None,
    score: QuestionScore | None,
    run: AnswersRun,
    crops: Crops,
    titles: Mapping[str, str],
) -> QuestionView:
    trace = run.traces.get(qid, {})
    submission = run.submission.get(qid, {})
    # The answers stage's trace keeps the whole input record under "question".
    asked = trace.get("question")
    question = (asked.get("question") if isinstance(asked, dict) else asked) or (gold or {}).get(
        "question", ""
    )
    gold_papers = {id_norm(p.get("paper_id")) for p in (gold or {}).get("gold_papers") or []}
    predicted, gold_evidence = _evidence_views(qid, gold, run, crops)
    badges = [Badge(qid)]
    if gold is not None:
        badges += [
            Badge(str(gold.get("task_family") or "?")),
            Badge(str(gold.get("primary_evidence_type") or "?")),
        ]
    if score is not None:
        badges.append(Badge(f"composite {fmt(score.composite_score, 2)}"))
        badges.append(
            Badge(f"lost at {score.lost_at}", "bad")
            if score.lost_at
            else Badge("nothing lost", "good")
        )
    prediction = run.predictions.get(qid, {})
    fallbacks = fallbacks_of(trace)
    if fallbacks:
        badges.append(Badge(f"fallbacks: {len(fallbacks)}", "warn"))
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
    answers = [_answer_view(submission.get("answer", {}), "Predicted answer", options)]
    if gold is not None:
        answers.append(_answer_view(gold_answer, "Gold answer", options))
    return QuestionView(
        qid=qid,
        lost=score.lost_at if score is not None and score.lost_at else "",
        badges=badges,
        question=str(question),
        cost_line=cost_line,
        fallbacks=fallbacks,
        answers=answers,
        papers=_papers_table(qid, run, gold_papers, titles),
        predicted=predicted,
        has_gold=gold is not None,
        gold=gold_evidence,
        retrieval_trace=trace_text,
        rest_trace=_pretty(rest)[:_MAX_TRACE_CHARS],
    )
