"""Benchmark of the dense index: encoding speed, HNSW build and query, paper-vector search.

Measures, on this machine:

* MiniLM (the bundled default encoder) encoding passages/s through the resumable
  :func:`littrace.index.dense.encode_chunks`, with torch on ``--threads`` threads;
* HNSW build time, single-query latency (p50/p95) and recall@10 against exact search on
  ``--vectors`` random 384-d unit vectors, at the default ``index.hnsw`` settings and a few
  ``ef_search`` values, for two kinds of data: isotropic (uniform on the sphere, random
  queries: the worst case, no query has real near neighbours) and clustered (points and
  queries around random centres, closer to how topical text embeddings are spread);
* exact paper-neighbour search at LitTraceQA pool size (27,487 papers) for 384-d (MiniLM)
  and 1,024-d (Qwen3-Embedding-0.6B, SPECTER2-sized) vectors;
* peak resident memory after each stage.

Usage:
    .venv/bin/python bench/index_dense.py [--passages 1000] [--vectors 100000] [--threads 2]
"""

from __future__ import annotations

import littrace  # noqa: F401  (before torch/transformers: the bootstrap keeps the hub offline)

# isort: split
import argparse
import functools
import random
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from numpy.typing import NDArray

from littrace.config import EncoderSettings, HnswSettings
from littrace.index.dense import DenseIndex, build_hnsw, encode_chunks, exact_search
from littrace.index.encoders import load_encoder
from littrace.index.papers import PaperVectors

WORDS = (  # noqa: SIM905 (a sentence is easier to edit than 80 quoted words)
    "the of and to in a is that for on with as by we this are be from model models results "
    "method methods data dataset datasets training performance language learning neural task "
    "tasks retrieval dense sparse passage passages question answering evaluation benchmark "
    "accuracy baseline baselines approach propose proposed show table figure section "
    "experiments across significantly improves improvement attention transformer encoder "
    "decoder layer embedding embeddings representation representations graph network "
    "networks knowledge generation large small scale corpus documents scientific papers "
    "citation evidence"
).split()
POOL_PAPERS = 27_487
DIM = 384  # MiniLM

Row = tuple[str, str, str]


def _passages(count: int, chars: int, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    passages = []
    for i in range(count):
        words: list[str] = []
        while sum(len(w) + 1 for w in words) < chars:
            words.append(rng.choice(WORDS))
        passages.append((f"p{i}", " ".join(words)))
    return passages


def _unit(rows: int, dimension: int, seed: int) -> NDArray[np.float32]:
    vectors = np.random.default_rng(seed).standard_normal((rows, dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def _isotropic(count: int, queries: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Uniform on the sphere, queries too: no query has true near neighbours (worst case)."""
    return _unit(count, DIM, seed=1), _unit(queries, DIM, seed=2)


def _clustered(count: int, queries: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Points and queries around ``count // 100`` random centres, as topical embeddings are."""
    rng = np.random.default_rng(4)
    centres = _unit(max(count // 100, 1), DIM, seed=5)

    def around(rows: int) -> NDArray[np.float32]:
        noise = rng.standard_normal((rows, DIM)).astype(np.float32) * (0.5 / np.sqrt(DIM))
        points = centres[rng.integers(0, len(centres), rows)] + noise
        unit: NDArray[np.float32] = points / np.linalg.norm(points, axis=1, keepdims=True)
        return unit

    return around(count), around(queries)


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _latencies_ms(
    search: Callable[[NDArray[np.float32]], object], queries: NDArray[np.float32]
) -> tuple[float, float]:
    times = []
    for query in queries:
        start = time.perf_counter()
        search(query[None, :])
        times.append((time.perf_counter() - start) * 1000)
    p50, p95 = np.percentile(times, [50, 95])
    return float(p50), float(p95)


def bench_encoding(passages: int, chars: int, work: Path, rows: list[Row]) -> None:
    encoder = load_encoder(EncoderSettings())
    texts = _passages(passages, chars)
    encoder.encode_documents([texts[0][1]])  # warm-up outside the timing
    start = time.perf_counter()
    encode_chunks(
        texts,
        encoder,
        work / "vectors",
        cache_dir=work / "cache",
        encoder_key="bench",
        batch_size=256,
    )
    seconds = time.perf_counter() - start
    mean_chars = sum(len(t) for _, t in texts) / len(texts)
    rows.append(
        (
            f"MiniLM encode_chunks, {passages} passages of ~{mean_chars:.0f} chars",
            f"{passages / seconds:.1f} passages/s ({seconds:.1f} s)",
            f"{_peak_rss_mib():.0f} MiB",
        )
    )


def bench_hnsw(
    name: str,
    vectors: NDArray[np.float32],
    query_vectors: NDArray[np.float32],
    work: Path,
    rows: list[Row],
) -> None:
    settings = HnswSettings()  # conf/default.yaml: cosine, M=32, ef_construction=200
    count, queries = len(vectors), len(query_vectors)
    ids = [f"c{i}" for i in range(count)]
    start = time.perf_counter()
    build_hnsw(vectors, ids, work / name, settings)
    built = time.perf_counter() - start
    size = (work / name / "hnsw.bin").stat().st_size / 2**20
    rows.append(
        (
            f"HNSW build, {count} x {DIM}-d {name}, "
            f"M={settings.m}, ef_construction={settings.ef_construction}",
            f"{built:.1f} s, index {size:.0f} MiB",
            f"{_peak_rss_mib():.0f} MiB",
        )
    )
    start = time.perf_counter()
    exact = exact_search(vectors, ids, query_vectors, k=10)
    exact_ms = (time.perf_counter() - start) * 1000 / queries
    rows.append(
        (
            f"exact search, {count} x {DIM}-d {name}",
            f"{exact_ms:.1f} ms/query (batched)",
            f"{_peak_rss_mib():.0f} MiB",
        )
    )
    for ef in (100, 400, settings.ef_search):
        index = DenseIndex.load(work / name, ef_search=ef)
        found = index.search(query_vectors, k=10)
        recall = np.mean(
            [
                len({i for i, _ in f} & {i for i, _ in e}) / 10
                for f, e in zip(found, exact, strict=True)
            ]
        )
        p50, p95 = _latencies_ms(functools.partial(index.search, k=10), query_vectors)
        rows.append(
            (
                f"HNSW query k=10, ef_search={ef}, {name}",
                f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, recall@10 {recall:.3f}",
                f"{_peak_rss_mib():.0f} MiB",
            )
        )


def bench_papers(queries: int, rows: list[Row]) -> None:
    ids = [f"paper{i}" for i in range(POOL_PAPERS)]
    for dimension in (384, 1024):
        papers = PaperVectors(ids, _unit(POOL_PAPERS, dimension, seed=3))
        seeds = [ids[i] for i in range(0, POOL_PAPERS, POOL_PAPERS // queries)][:queries]
        times = []
        for seed in seeds:
            start = time.perf_counter()
            papers.neighbors(seed, k=100)
            times.append((time.perf_counter() - start) * 1000)
        p50, p95 = np.percentile(times, [50, 95])
        rows.append(
            (
                f"paper neighbours k=100, {POOL_PAPERS} x {dimension}-d "
                f"({papers.vectors.nbytes / 2**20:.0f} MiB)",
                f"p50 {p50:.2f} ms, p95 {p95:.2f} ms",
                f"{_peak_rss_mib():.0f} MiB",
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=1000)
    parser.add_argument("--chars", type=int, default=800)
    parser.add_argument("--vectors", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-dense-") as tmp:
        work = Path(tmp)
        bench_encoding(args.passages, args.chars, work, rows)
        for name, make in (("isotropic", _isotropic), ("clustered", _clustered)):
            bench_hnsw(name, *make(args.vectors, args.queries), work, rows)
    bench_papers(args.queries, rows)
    widths = [
        max(len(row[i]) for row in [("measure", "result", "peak RSS"), *rows]) for i in range(3)
    ]
    for row in [("measure", "result", "peak RSS"), tuple("-" * w for w in widths), *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
