"""Write a synthetic LitTraceQA corpus: PDFs, paper pool, questions, gold and object gold.

:func:`generate_corpus` plans ``n_papers`` papers in lines of work
(:mod:`littrace.synth.plan`), writes their prose (:mod:`littrace.synth.prose`), lays them
out and draws them (:mod:`littrace.synth.render`), then asks questions whose gold comes from
that layout (:mod:`littrace.synth.questions`). Everything derives from ``seed``: the same
seed writes byte-identical files.

Files under ``out_dir``:

* ``pdfs/<paper_id>.pdf``: the papers (4-8 pages each).
* ``paper_metadata.jsonl``: the pool. PDF papers carry ``pdf`` (a path relative to
  ``pdfs/``); about 20% more papers are metadata-only distractors without ``pdf``.
* ``questions.jsonl`` / ``gold.jsonl``: LitTraceQA input and gold records.
* ``objects_gold.jsonl``: per paper, every section heading, table, figure, equation,
  algorithm, reference and citing sentence with its page: ground truth for PDF conversion.

Example:
    >>> from pathlib import Path
    >>> corpus = generate_corpus(Path("/tmp/synth"), n_papers=6, seed=1, n_questions=5)  # doctest: +SKIP
    >>> corpus.counts["questions"]  # doctest: +SKIP
    5
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from littrace.synth.plan import CorpusPlan, PaperPlan, plan_corpus
from littrace.synth.prose import paper_body
from littrace.synth.questions import build_questions
from littrace.synth.render import RenderedPaper, render_paper

MIN_PAGES, MAX_PAGES = 4, 8
# Filler verbosity that lands near each target page count (measured on both layouts).
_VERBOSITY_FOR_PAGES = {4: 3, 5: 6, 6: 10, 7: 14, 8: 18}


@dataclass(frozen=True, slots=True)
class SynthCorpus:
    """Where a generated corpus lies, and how much of everything it holds."""

    root: Path
    pdf_dir: Path
    pool: Path
    questions: Path
    gold: Path
    objects_gold: Path
    counts: dict[str, int] = field(default_factory=dict)
    question_kinds: dict[str, int] = field(default_factory=dict)
    lines_of_work: tuple[tuple[str, ...], ...] = ()


def render_within_pages(plan: PaperPlan, seed: int) -> RenderedPaper:
    """Render ``plan`` with as much filler prose as brings it to a seeded 4-8 page target."""
    target = random.Random(f"{seed}:{plan.paper_id}:pages").choice((4, 5, 5, 6, 6, 7, 8))
    verbosity = _VERBOSITY_FOR_PAGES[target]
    tried: dict[int, RenderedPaper] = {}
    while verbosity not in tried:
        body = paper_body(plan, random.Random(f"{seed}:{plan.paper_id}:{verbosity}"), verbosity)
        paper = tried[verbosity] = render_paper(plan, body)
        if paper.n_pages < MIN_PAGES:
            verbosity += 2
        elif paper.n_pages > MAX_PAGES:
            verbosity = max(0, verbosity - 2)
    if not MIN_PAGES <= paper.n_pages <= MAX_PAGES:
        raise RuntimeError(f"{plan.paper_id}: cannot fit in {MIN_PAGES}-{MAX_PAGES} pages")
    return paper


def _json_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(_json_line(r) for r in records), encoding="utf-8")


def _pool_records(plan: CorpusPlan) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for paper in plan.papers:
        records.append(
            {
                "paper_id": paper.paper_id,
                "title": paper.pool_title,
                "authors": list(paper.authors),
                "abstract": paper.abstract,
                "venue": paper.venue,
                "year": paper.year,
                "pdf_url": f"https://synth.example.org/pdf/{paper.paper_id}.pdf",
                "pdf": f"{paper.paper_id}.pdf",
            }
        )
    for other in plan.distractors:
        records.append(
            {
                "paper_id": other.paper_id,
                "title": other.title,
                "authors": list(other.authors),
                "abstract": other.abstract,
                "venue": other.venue,
                "year": other.year,
                "pdf_url": f"https://synth.example.org/pdf/{other.paper_id}.pdf",
            }
        )
    return sorted(records, key=lambda r: str(r["paper_id"]))


def objects_gold_record(paper: RenderedPaper) -> dict[str, Any]:
    """Everything a converter should recover from one PDF, with physical 1-based pages."""
    plan = paper.plan
    return {
        "paper_id": plan.paper_id,
        "title": plan.title,
        "authors": list(plan.authors),
        "layout": plan.layout,
        "n_pages": paper.n_pages,
        "header": paper.header,
        "footer": "page number, centred",
        "sections": [
            {"number": s.number, "title": s.title, "page": s.page, "level": s.level}
            for s in paper.sections
        ],
        "objects": [
            {
                "kind": o.kind,
                "object_id": o.object_id,
                "number": o.number,
                "page": o.page,
                "caption_page": o.caption_page,
                "caption": o.caption,
                "bbox": list(o.bbox),
                "split": o.split,
                "text": o.text,
                "cells": [list(row) for row in o.cells],
            }
            for o in paper.objects
        ],
        "references": [
            {
                "label": str(r.label),
                "first_author": r.first_author,
                "title": r.title,
                "year": r.year,
                "page": r.page,
                "raw": r.raw,
            }
            for r in paper.references
        ],
        "citations": [
            {
                "page": s.page,
                "pages": list(s.pages),
                "contiguous": s.one_block,
                "section": s.section,
                "sentence": s.text,
                "labels": [str(label) for label in s.labels],
            }
            for s in paper.sentences
            if s.labels
        ],
    }


def generate_corpus(
    out_dir: Path, n_papers: int = 50, seed: int = 0, n_questions: int = 30
) -> SynthCorpus:
    """Generate the corpus into ``out_dir`` (created if needed; earlier PDFs there are removed)."""
    plan = plan_corpus(random.Random(seed), n_papers)
    pdf_dir = out_dir / "pdfs"
    pdf_dir.mkdir(parents=True, exist_ok=True)
    for stale in pdf_dir.glob("*.pdf"):
        stale.unlink()
    papers = [render_within_pages(paper, seed) for paper in plan.papers]
    for paper in papers:
        (pdf_dir / f"{paper.plan.paper_id}.pdf").write_bytes(paper.pdf)

    questions = build_questions(random.Random(f"{seed}:questions"), papers, n_questions)
    golds = [q.gold for q in questions]
    corpus = SynthCorpus(
        root=out_dir,
        pdf_dir=pdf_dir,
        pool=out_dir / "paper_metadata.jsonl",
        questions=out_dir / "questions.jsonl",
        gold=out_dir / "gold.jsonl",
        objects_gold=out_dir / "objects_gold.jsonl",
        counts={
            "papers": len(papers),
            "distractors": len(plan.distractors),
            "pages": sum(p.n_pages for p in papers),
            "questions": len(questions),
            "single_paper": sum(g["task_family"] != "multi_paper" for g in golds),
            "multi_paper": sum(g["task_family"] == "multi_paper" for g in golds),
        },
        question_kinds=dict(sorted(Counter(q.kind for q in questions).items())),
        lines_of_work=tuple(tuple(p.paper_id for p in line) for line in plan.lines),
    )
    _write_jsonl(corpus.pool, _pool_records(plan))
    _write_jsonl(corpus.questions, [q.question for q in questions])
    _write_jsonl(corpus.gold, golds)
    _write_jsonl(corpus.objects_gold, [objects_gold_record(p) for p in papers])
    return corpus
