"""Benchmark: PDF conversion speed against plain text extraction, and scaling with processes.

Over the real fixture PDFs (``../shared/fixtures/pdfs``), in one run and in rounds:

* plain ``page.get_text()`` over every page (the baseline: the least any converter must do);
* full conversion (:func:`littrace.corpus.convert.convert_pdf`: objects, layout, references,
  citation contexts) in one process;
* the same conversions spread over 2 worker processes.

Each round runs all three back to back, so a change in machine load between rounds moves
the baseline with the conversion; the ratios printed are the medians over the rounds. Speed
per core is CPU time of this process (wall time is shown too, and moves with whatever else
the machine runs); the speed-up from processes is wall time, and needs that many idle cores.

Targets (issue 3): full conversion at least 1/3 of plain extraction speed per core, and
near-linear scaling with processes.

The converter's hot modules run compiled when ``make native`` has built them from the
current sources (:mod:`littrace.native`); the first line says which. ``LITTRACE_NATIVE=0``
measures the pure-Python modules.

Usage:
    .venv/bin/python bench/ingest.py [--rounds 5] [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pymupdf

import littrace  # noqa: F401  (environment bootstrap before anything heavy)
from littrace.corpus import layout
from littrace.corpus.convert import convert_pdf
from littrace.native import native_module

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "pdfs"


def plain_text(path: Path) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
        return int(doc.page_count)


def convert(path: Path) -> int:
    return len(convert_pdf(path, path.stem).layout.pages)


def timed(run: Callable[[], int]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of this process, and pages of one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    pages = run()
    return time.perf_counter() - wall, time.process_time() - cpu, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes over the fixtures")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    files = sorted(FIXTURES.glob("*.pdf"))
    compiled = native_module(layout)
    print(f"converter modules: {'compiled (build/native)' if compiled else 'pure Python'}")
    print(
        f"{len(files)} fixture PDFs, {args.rounds} rounds; pages/s per CPU second of this process"
    )
    print(
        f"  {'round':<6} {'plain pages/s':>14} {'full pages/s':>13} {'ratio (wall)':>13}"
        f" {'ratio':>6} {'speed-up':>9}"
    )

    ratios: list[float] = []
    wall_ratios: list[float] = []
    speedups: list[float] = []
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        # Start the workers and warm them (imports, first conversion) before timing.
        list(pool.map(convert, files[: args.workers]))
        convert(files[0])
        for round_ in range(1, args.rounds + 1):
            plain_wall, plain_cpu, pages = timed(lambda: sum(map(plain_text, files)))
            full_wall, full_cpu, _ = timed(lambda: sum(map(convert, files)))
            parallel_wall, _, _ = timed(lambda: sum(pool.map(convert, files, chunksize=1)))
            ratios.append(plain_cpu / full_cpu)
            wall_ratios.append(plain_wall / full_wall)
            speedups.append(full_wall / parallel_wall)
            print(
                f"  {round_:<6} {pages / plain_cpu:14.1f} {pages / full_cpu:13.1f}"
                f" {wall_ratios[-1]:13.2f} {ratios[-1]:6.2f} {speedups[-1]:9.2f}"
            )

    print()
    print(f"  full / plain speed per core     {statistics.median(ratios):6.2f}  (target >= 0.33)")
    print(f"  (wall-time ratio, median)       {statistics.median(wall_ratios):6.2f}")
    print(
        f"  speed-up with {args.workers} processes        {statistics.median(speedups):6.2f}"
        f"  (ideal {args.workers})"
    )
    print(f"  pages per round                 {pages}")


if __name__ == "__main__":
    main()
