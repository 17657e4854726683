"""The HTML report of a run and the scores behind it.

Example:
    >>> from littrace.report import build_report
    >>> build_report(answers, Path("gold.jsonl"), corpus, Path("report.html"))  # doctest: +SKIP
    PosixPath('report.html')
"""

from littrace.report.build import (
    DEFAULT_RECALL_K,
    SECTION_IDS,
    build_report,
    pdf_paths,
    report_for_run,
)
from littrace.report.scores import RunScores, score_run

__all__ = [
    "DEFAULT_RECALL_K",
    "SECTION_IDS",
    "RunScores",
    "build_report",
    "pdf_paths",
    "report_for_run",
    "score_run",
]
