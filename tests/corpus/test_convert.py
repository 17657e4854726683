"""Conversion output does not depend on what else the process imported: importing PyMuPDF
imports pymupdf4llm when it is installed, which turns MuPDF's character box corrections off
for the whole process; the converter sets that option itself."""

from __future__ import annotations

import subprocess
import sys

from littrace.runtime import PROJECT_ROOT

PDF = PROJECT_ROOT.parent / "shared/fixtures/pdfs/N18-3011.pdf"

CONVERT = """
import dataclasses, hashlib, json, sys
from pathlib import Path
if sys.argv[2] == "without":
    sys.modules["pymupdf4llm"] = None  # its import fails, as if it were not installed
import littrace
from littrace.corpus.convert import convert_pdf
document = dataclasses.asdict(convert_pdf(Path(sys.argv[1]), "p1"))
print(hashlib.sha256(json.dumps(document, sort_keys=True, default=str).encode()).hexdigest())
"""


def converted(pymupdf4llm: str) -> str:
    """The digest of the conversion of :data:`PDF` in a fresh process with or without
    pymupdf4llm importable."""
    done = subprocess.run(
        [sys.executable, "-c", CONVERT, str(PDF), pymupdf4llm],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_conversion_is_the_same_with_or_without_pymupdf4llm() -> None:
    assert converted("with") == converted("without")
