"""A converter for ingest's worker processes that reports what the process loaded.

A module of its own, importing only littrace: a worker imports it to find the converter, and
the test module itself imports PyMuPDF before littrace can keep PyMuPDF's extras out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from littrace.corpus.ingest import ConversionJob, convert_job
from littrace.runtime import PYMUPDF_LAYOUT


def convert_noting_modules(job: ConversionJob, cache_root: Path, citation_contexts: bool) -> str:
    """convert_job, then a note (``modules-<paper>.json`` beside the cache) of whether this
    process loaded PyMuPDF's layout analyzer and its model."""
    digest = convert_job(job, cache_root, citation_contexts)
    pymupdf = sys.modules["pymupdf"]
    note = {
        "layout_model": callable(pymupdf._get_layout),
        "analyzer_imported": sys.modules.get(PYMUPDF_LAYOUT) is not None,
    }
    (cache_root.parent / f"modules-{job.paper_id}.json").write_text(json.dumps(note))
    return digest
