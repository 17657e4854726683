"""Benchmark: PDF conversion speed against plain text extraction, and scaling with processes.

Over the real fixture PDFs (``../shared/fixtures/pdfs``), in one run:

* plain ``page.get_text()`` over every page (the baseline: the least any converter must do);
* full conversion (:func:`littrace.corpus.convert.convert_pdf`: objects, layout, references,
  citation contexts) in one process;
* the same conversions spread over 2 worker processes.

Targets (issue 3): full conversion at least 1/3 of plain extraction speed per core, and
near-linear scaling with processes.

Usage:
    .venv/bin/python bench/ingest.py [--repeat 3] [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pymupdf

import littrace  # noqa: F401  (environment bootstrap before anything heavy)
from littrace.corpus.convert import convert_pdf

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "pdfs"


def plain_text(path: Path) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
        return int(doc.page_count)


def convert(path: Path) -> int:
    return len(convert_pdf(path, path.stem).layout.pages)


def timed(label: str, run: object) -> tuple[float, int]:
    start = time.perf_counter()
    pages = run()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    print(f"  {label:<34} {seconds:7.2f} s  {pages / seconds:8.1f} pages/s")
    return seconds, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes over the fixtures")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    files = sorted(FIXTURES.glob("*.pdf")) * args.repeat
    print(f"{len(files)} PDF conversions ({len(files) // args.repeat} fixtures x {args.repeat})")

    plain_s, pages = timed("plain page.get_text(), 1 process", lambda: sum(map(plain_text, files)))
    full_s, _ = timed("full conversion, 1 process", lambda: sum(map(convert, files)))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        list(pool.map(plain_text, files[: args.workers]))  # start the workers before timing
        parallel_s, _ = timed(
            f"full conversion, {args.workers} processes",
            lambda: sum(pool.map(convert, files, chunksize=1)),
        )

    print()
    print(f"  full / plain speed per core     {plain_s / full_s:6.2f}  (target >= 0.33)")
    print(
        f"  speed-up with {args.workers} processes        {full_s / parallel_s:6.2f}  (ideal {args.workers})"
    )
    print(f"  pages converted                 {pages}")


if __name__ == "__main__":
    main()
