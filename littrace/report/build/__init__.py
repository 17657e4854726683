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

The submodules: :mod:`~littrace.report.build.summary` (header notes and run-wide sections),
:mod:`~littrace.report.build.questions` (the per-question sections and their crops) and
:mod:`~littrace.report.build.writer` (writing the file, its inputs key, the settings' way in).

Example:
    >>> out = build_report(answers, Path("gold.jsonl"), corpus, Path("report.html"))  # doctest: +SKIP
    >>> out.read_text()[:15]  # doctest: +SKIP
    '<!DOCTYPE html>'
"""

from littrace.report.build.writer import (
    DEFAULT_RECALL_K,
    SECTION_IDS,
    build_report,
    pdf_paths,
    report_for_run,
)

__all__ = [
    "DEFAULT_RECALL_K",
    "SECTION_IDS",
    "build_report",
    "pdf_paths",
    "report_for_run",
]
