"""Real PDFs added to a synthetic corpus as extra pool papers (distractors with real layouts).

The demo mixes the generated papers with the real fixture PDFs, so ingest meets real
two-column papers, long appendices and files that once crashed parsers (recorded as failures),
and retrieval has to rank the synthetic gold above real text. Real papers get no questions.

Example:
    >>> from pathlib import Path
    >>> real_paper_id(Path("2020.acl-main.207.pdf"))
    'real_2020_acl_main_207'
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from littrace.synth.generator import SynthCorpus

__all__ = ["add_real_papers", "real_paper_id"]

_MAX_ID_CHARS = 40  # parser-crash fixtures are named with a 40-digit hash


def real_paper_id(pdf: Path) -> str:
    """A pool id for a real PDF, from its file name."""
    slug = re.sub(r"[^a-z0-9]+", "_", pdf.stem.lower()).strip("_")
    return f"real_{slug}"[:_MAX_ID_CHARS].rstrip("_")


def add_real_papers(corpus: SynthCorpus, pdf_dir: Path) -> list[str]:
    """Copy every ``*.pdf`` of ``pdf_dir`` into the corpus and append it to the pool (title
    from the file name, no abstract: conversion reads them from the PDF); returns their ids.

    Call it right after generation: the pool is rewritten by each generation, so the result
    is the same bytes every time and every downstream artifact stays cached.
    """
    added = []
    with corpus.pool.open("a", encoding="utf-8") as pool:
        for pdf in sorted(pdf_dir.glob("*.pdf")):
            paper_id = real_paper_id(pdf)
            shutil.copyfile(pdf, corpus.pdf_dir / f"{paper_id}.pdf")
            record = {"paper_id": paper_id, "title": pdf.stem, "authors": [], "abstract": ""}
            pool.write(json.dumps(record, ensure_ascii=False) + "\n")
            added.append(paper_id)
    return added
