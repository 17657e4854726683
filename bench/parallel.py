"""Benchmark: questions answered on a 2-worker Dask cluster against one process.

Answers the realqa questions (``bench/realqa/<split>/questions.jsonl``, default dev: 85 real
questions over 24 real PDFs among 2,271 distractors) with ``littrace answer`` twice in the
same run, each from a fresh copy of the same ingested and indexed artifact root:

* in one process (``runtime.task_runner: thread``: the questions one after another);
* on a local Dask cluster of 2 single-threaded worker processes (``runtime.task_runner:
  dask``, ``runtime.workers: 2``), each worker opening the indexes once.

Each is timed end to end as a user runs it (process start, opening the indexes, answering,
writing the artifact). The two submissions must be byte-identical; the bench then prints both
throughputs and their ratio against the target, beside the load average (the ratio needs two
idle cores: whatever else the machine runs takes from the parallel run first).

Target (issue 15 item 5): at least 1.6x the one-process throughput on the 2-core machine.

The corpus and indexes are built once under ``--artifacts`` (default ``artifacts/realqa``,
shared with ``make bench-realqa``: cached after the first run).

Usage:
    .venv/bin/python bench/parallel.py [--split dev] [--limit N] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.realqa.build import FIXTURES  # noqa: E402
from bench.realqa.run import littrace  # noqa: E402

REALQA = ROOT / "bench" / "realqa"
TARGET = 1.6
# Not copied into the scratch roots: what answering writes.
ANSWER_OUTPUTS = ("answers", "submissions")


def on(root: Path) -> argparse.Namespace:
    """The options :func:`bench.realqa.run.littrace` takes: ``root``, default profile."""
    return argparse.Namespace(artifacts=root, profile=None)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def answered(
    prepared: Path, scratch: Path, questions: Path, runtime: dict[str, str]
) -> tuple[float, bytes, str]:
    """Seconds to answer ``questions`` from a fresh copy of ``prepared`` with the ``runtime``
    settings, the submission's bytes, and the load average when it started."""
    root = scratch / "artifacts"
    shutil.copytree(prepared, root, ignore=shutil.ignore_patterns(*ANSWER_OUTPUTS))
    environ = {f"LITTRACE_RUNTIME__{name.upper()}": value for name, value in runtime.items()}
    os.environ.update(environ)
    try:
        started_load = load()
        clock = time.perf_counter()
        printed = littrace(on(root), "answer", "--questions", str(questions))
        seconds = time.perf_counter() - clock
    finally:
        for name in environ:
            del os.environ[name]
    return seconds, Path(printed["submission"]).read_bytes(), started_load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--limit", type=int, default=None, help="First N questions only.")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--artifacts", type=Path, default=ROOT / "artifacts" / "realqa")
    args = parser.parse_args()

    print(f"cpus {os.cpu_count()}, load average {load()} (1, 5, 15 min)")
    clock = time.perf_counter()
    littrace(
        on(args.artifacts), "ingest", "--pool", str(REALQA / "pool.jsonl"), "--pdfs", str(FIXTURES)
    )
    littrace(on(args.artifacts), "index")
    print(f"corpus and indexes ready in {time.perf_counter() - clock:.0f} s")

    with tempfile.TemporaryDirectory(prefix="littrace-bench-parallel-") as tmp:
        scratch = Path(tmp)
        questions = scratch / "questions.jsonl"
        asked = (REALQA / args.split / "questions.jsonl").read_text().splitlines(True)
        questions.write_text("".join(asked[: args.limit]))
        count = len(questions.read_text().splitlines())
        one = {"task_runner": "thread"}
        dask = {"task_runner": "dask", "workers": str(args.workers)}
        (scratch / "one").mkdir()
        (scratch / "dask").mkdir()
        one_s, one_submission, one_load = answered(args.artifacts, scratch / "one", questions, one)
        print(f"one process:  {count} questions in {one_s:.1f} s (load at start {one_load})")
        dask_s, dask_submission, dask_load = answered(
            args.artifacts, scratch / "dask", questions, dask
        )
        print(
            f"dask x{args.workers}:      {count} questions in {dask_s:.1f} s "
            f"(load at start {dask_load})"
        )

    identical = one_submission == dask_submission
    ratio = one_s / dask_s
    result = {
        "split": args.split,
        "questions": count,
        "workers": args.workers,
        "one_process": {"seconds": round(one_s, 1), "questions_per_s": round(count / one_s, 3)},
        "dask": {"seconds": round(dask_s, 1), "questions_per_s": round(count / dask_s, 3)},
        "ratio": round(ratio, 2),
        "target": TARGET,
        "identical_submissions": identical,
        "load_average_after": load(),
    }
    print(json.dumps(result, indent=2))
    print(
        f"throughput ratio {ratio:.2f}x (target {TARGET}x: {'met' if ratio >= TARGET else 'NOT met'}"
        f"); submissions {'identical' if identical else 'DIFFER'}"
    )
    if not identical:
        raise SystemExit("the Dask run's submission differs from the one-process run's")


if __name__ == "__main__":
    main()
