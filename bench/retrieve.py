"""Benchmark of the model-free retriever at 100k+ chunks: latency and recall against BM25.

Builds, under ``--work``, the 50-paper synthetic corpus (``littrace synth``, seed 0, 30
questions with gold), ingests it, then adds generated distractor papers until the corpus has
``--chunks`` chunks, and indexes it with the real index stage (Lucene BM25 over chunks and
papers, HNSW, paper vectors, citation graph). Then, in one run:

* the retriever (:func:`littrace.retrieve.run.retrieve_questions`, default settings: heuristic
  planner, decomposer and verifier, embedding reranker, Relate, target-aware selection) on
  the 30 questions: per-question latency (p50, p95; the trace's wall time) and candidate
  recall@k by task family;
* the baseline: chunk BM25 with the question as query (1,000 hits) through pyserini's
  ``LuceneSearcher``, as a pyserini user runs it, each paper ranked by its best chunk;
  latency and recall@k the same way; and the same search through littrace's own
  ``Bm25Searcher`` (the same hits, checked, without loading each hit's stored document).
  The first question's latency is left out of every percentile: it pays the JVM's JIT and
  the encoder's first call, and on 30 questions it alone would be the p95;
* the latency ratios (p50, p95) of the retriever to the baseline and the peak RSS of the
  process, beside their targets (``P50_TARGET``, ``P95_TARGET``, ``RSS_TARGET_GIB``). The peak
  covers the build too on a run that builds; run again for the retrieval alone.

Distractors: papers planned and written by the synthetic generator
(:func:`littrace.synth.plan.plan_corpus` + :func:`littrace.synth.prose.paper_body`) with other
seeds, so they share the real papers' topics, datasets, baselines and vocabulary; a
distractor whose method name is one of the real corpus's methods is dropped (it would be a
second source of a gold answer). Their body text is packed into chunks of
``corpus.chunk.max_chars`` characters. Encoding 100k chunks with MiniLM on 2 CPU cores takes
about an hour, so only ``--encoded`` distractor chunks (and every real chunk and paper) go
through the encoder; every other distractor chunk and paper gets the vector of one of those,
chosen by a hash of its text, plus Gaussian noise (sigma ``--noise`` per dimension, then
renormalised). The dense index thus holds 100k+ vectors spread like real ones around the
same topics, and its search cost is the real one; its hits among distractors are noisier
than real embeddings would be. Everything under ``--work`` is cached: a second run only
retrieves.

Usage:
    .venv/bin/python bench/retrieve.py [--work /tmp/littrace-bench-retrieve] [--chunks 100000]
        [--threads 1]
"""

from __future__ import annotations

import littrace  # noqa: F401  (before torch/transformers: the bootstrap keeps the hub offline)

# isort: split
import argparse
import hashlib
import random
import resource
import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch
from numpy.typing import NDArray

from littrace.artifacts import Artifact, ArtifactStore, Catalog, LineageRecord
from littrace.config import Settings, load_settings
from littrace.corpus.document import Chunk, PaperRecord, records_to_table, table_to_records
from littrace.corpus.ingest import ingest
from littrace.evaluate.recall import RecallReport, candidate_recall, read_gold_papers
from littrace.fusion import best_per_group
from littrace.index.bm25 import Bm25Searcher
from littrace.index.dense import encode_chunks
from littrace.index.encoders import Encoder, load_encoder
from littrace.index.papers import encode_papers, paper_text
from littrace.index.stage import BM25_DIR, VECTORS_DIR, build_indexes, index_key
from littrace.retrieve.run import (
    candidates_key,
    open_indexes,
    read_questions,
    retrieve_questions,
)
from littrace.synth import generate_corpus
from littrace.synth.plan import plan_corpus
from littrace.synth.prose import Paragraph, paper_body

KS = (1, 5, 10, 20, 50)
# Issue 15's targets at 100k chunks: latency as a multiple of plain BM25's in the same run
# (the machine is shared, so absolute seconds vary), and the process's peak memory.
P50_TARGET = 12.0
P95_TARGET = 10.0
RSS_TARGET_GIB = 4.0


class SampledEncoder:
    """The real encoder for texts in ``real``; for any other text, the vector of one of
    ``samples`` (by a hash of the text) plus Gaussian noise, renormalised."""

    def __init__(
        self, encoder: Encoder, real: set[str], samples: NDArray[np.float32], noise: float
    ) -> None:
        self.encoder = encoder
        self.real = real
        self.samples = samples
        self.noise = noise

    @property
    def name(self) -> str:
        return self.encoder.name

    @property
    def dimension(self) -> int:
        return self.encoder.dimension

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.encoder.encode_queries(texts)

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        real = [i for i, text in enumerate(texts) if text in self.real]
        if real:
            out[real] = self.encoder.encode_documents([texts[i] for i in real])
        for i, text in enumerate(texts):
            if text in self.real:
                continue
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            rng = np.random.default_rng(seed)
            vector = self.samples[seed % len(self.samples)] + rng.normal(
                0, self.noise, self.dimension
            ).astype(np.float32)
            out[i] = vector / np.linalg.norm(vector)
        return out


def distractors(
    count: int, max_chars: int, avoid: set[str]
) -> tuple[list[PaperRecord], list[Chunk]]:
    """Generated papers (metadata + body chunks) until ``count`` chunks; see the module doc."""
    papers: list[PaperRecord] = []
    chunks: list[Chunk] = []
    round_no = 0
    while len(chunks) < count:
        plan = plan_corpus(random.Random(f"distractors:{round_no}"), 300, distractor_share=0.0)
        for paper in plan.papers:
            if paper.method in avoid or len(chunks) >= count:
                continue
            paper_id = f"distractor_{len(papers):06d}"
            papers.append(
                PaperRecord(
                    paper_id, paper.title, paper.authors, paper.abstract, paper.venue, paper.year,
                    has_pdf=True,
                )
            )  # fmt: skip
            blocks = paper_body(paper, random.Random(f"{round_no}:{paper.paper_id}"), 6)
            sentences = [s.text for b in blocks if isinstance(b, Paragraph) for s in b.sentences]
            text = ""
            for sentence in [paper.title, paper.abstract, *sentences]:
                if text and len(text) + 1 + len(sentence) > max_chars:
                    chunks.append(_chunk(paper_id, len(chunks), text))
                    text = ""
                text = f"{text} {sentence}".strip()
            if text:
                chunks.append(_chunk(paper_id, len(chunks), text))
        round_no += 1
    return papers, chunks


def _chunk(paper_id: str, number: int, text: str) -> Chunk:
    return Chunk(f"{paper_id}#{number:06d}", paper_id, "body", 1, text, char_end=len(text))


def build_corpus(
    work: Path, settings: Settings, target: int, encoded: int, noise: float
) -> Artifact:
    """The real synthetic corpus plus distractors, with its vectors artifacts pre-built."""
    root = Path(settings.runtime.artifact_root)
    synth = work / "synth"
    if not (synth / "gold.jsonl").exists():
        generate_corpus(synth, n_papers=50, seed=0, n_questions=30)
    real = ingest(synth / "paper_metadata.jsonl", synth / "pdfs", settings).artifact
    real_papers = table_to_records(real.table("papers"), PaperRecord)
    real_chunks = table_to_records(real.table("chunks"), Chunk)
    methods = {paper.title.split(":")[0] for paper in real_papers}
    store = ArtifactStore(root)
    key = store.key(
        "corpus",
        code_version="bench-retrieve-1",
        inputs={"corpus": real.hash},
        config={"chunks": target, "max_chars": settings.corpus.chunk.max_chars},
    )
    corpus = store.get(key)
    if corpus is None:
        started = time.perf_counter()
        extra_papers, extra_chunks = distractors(
            target - len(real_chunks), settings.corpus.chunk.max_chars, methods
        )
        with store.writer(key) as writer:
            writer.write_table("papers", records_to_table(real_papers + extra_papers, PaperRecord))
            writer.write_table("chunks", records_to_table(real_chunks + extra_chunks, Chunk))
            writer.write_table("references", real.table("references"))
        corpus = writer.artifact
        print(f"distractors: {len(extra_papers)} papers, {len(extra_chunks)} chunks "
              f"({time.perf_counter() - started:.1f}s)")  # fmt: skip
    now = datetime.now(UTC)
    Catalog(root).record_lineage(LineageRecord.for_artifact("bench-retrieve", corpus, now, now))

    # Vectors: real texts through MiniLM, distractors sampled (module docstring).
    real_texts = {chunk.text for chunk in real_chunks} | {paper_text(p) for p in real_papers}
    all_chunks = table_to_records(corpus.table("chunks"), Chunk)
    all_papers = table_to_records(corpus.table("papers"), PaperRecord)
    encoder = load_encoder(settings.index.encoder)
    digest = settings.digest(*(f"index.encoder.{f}" for f in ("model", "pooling", "max_length")))
    cache = root / "cache" / "bench-retrieve"
    vectors_key = index_key("vectors", corpus.hash, settings)
    # The distractor stream is the same for any --chunks, so its first chunks' vectors are too.
    samples_file = work / f"samples-{encoded}.npy"
    if store.get(vectors_key) is None:
        started = time.perf_counter()
        if not samples_file.exists():
            pool = [c.text for c in all_chunks if c.paper_id.startswith("distractor_")]
            np.save(samples_file, encoder.encode_documents(pool[:encoded]))
        sampled = SampledEncoder(encoder, real_texts, np.load(samples_file), noise)
        with store.writer(vectors_key) as writer:
            encode_chunks(
                [(c.chunk_id, c.text) for c in all_chunks], sampled, writer.path / VECTORS_DIR,
                cache_dir=cache / "vectors", encoder_key=digest, batch_size=4096,
            )  # fmt: skip
        print(f"chunk vectors: {time.perf_counter() - started:.1f}s")
    papers_key = index_key("paper-vectors", corpus.hash, settings)
    if store.get(papers_key) is None:
        sampled = SampledEncoder(encoder, real_texts, np.load(samples_file), noise)
        with store.writer(papers_key) as writer:
            encode_papers(
                all_papers, sampled, writer.path / VECTORS_DIR,
                cache_dir=cache / "paper-vectors", encoder_key=digest,
            )  # fmt: skip
    started = time.perf_counter()
    build_indexes(corpus, settings)
    print(
        f"indexes (BM25, HNSW, citation graph; vectors above): {time.perf_counter() - started:.1f}s"
    )
    return corpus


def percentiles(samples: Sequence[float]) -> tuple[float, float]:
    """p50 and p95 of ``samples`` after the first (the warm-up; module docstring)."""
    samples = samples[1:]
    cuts = statistics.quantiles(samples, n=20, method="inclusive")
    return statistics.median(samples), cuts[18]


def bm25_baseline(
    corpus: Artifact, settings: Settings, questions: Path, *, stock: bool
) -> tuple[dict[str, list[str]], list[float]]:
    """Chunk BM25 on the question, papers by their best chunk: rankings and seconds per query.

    ``stock``: pyserini's ``LuceneSearcher`` as a user of pyserini runs it (the baseline the
    targets are against); else littrace's own :class:`Bm25Searcher` (the same hits, faster).
    """
    indexes = build_indexes(corpus, settings)
    index_dir = indexes.path("bm25-chunks") / BM25_DIR
    bm25 = settings.index.bm25
    search: Callable[[str, int], list[tuple[str, float]]]
    if stock:
        from pyserini.search.lucene import LuceneSearcher

        lucene = LuceneSearcher(str(index_dir))
        lucene.set_bm25(bm25.k1, bm25.b)

        def search(query: str, k: int) -> list[tuple[str, float]]:
            return [(hit.docid, hit.score) for hit in lucene.search(query, k=k)]
    else:
        ours = Bm25Searcher(index_dir, bm25.k1, bm25.b)

        def search(query: str, k: int) -> list[tuple[str, float]]:
            return [(hit.doc_id, hit.score) for hit in ours.search(query, k=k)]

    rankings: dict[str, list[str]] = {}
    seconds: list[float] = []
    for question in read_questions(questions):
        started = time.perf_counter()
        hits = search(question.question, settings.retrieve.depth)
        ranked = best_per_group(hits, lambda c: c.split("#")[0])
        rankings[question.query_id] = [paper for paper, _, _ in ranked]
        seconds.append(time.perf_counter() - started)
    return rankings, seconds


def show(name: str, report: RecallReport, seconds: Sequence[float]) -> None:
    p50, p95 = percentiles(seconds)
    print(f"{name}: latency p50 {p50:.2f}s  p95 {p95:.2f}s")
    for family, count, values in report.rows():
        cells = "  ".join(f"@{k} {values[k]:.3f}" for k in KS)
        print(f"  {family:<28} n={count:<3} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/littrace-bench-retrieve"))
    parser.add_argument("--chunks", type=int, default=100_000, help="Chunks in the index.")
    parser.add_argument("--encoded", type=int, default=2_000, help="Distractor chunks encoded.")
    parser.add_argument("--noise", type=float, default=0.02, help="Sigma of sampled vectors.")
    parser.add_argument("--threads", type=int, default=1, help="torch threads.")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    settings = load_settings(overrides={"runtime.artifact_root": str(args.work / "artifacts")})
    corpus = build_corpus(args.work, settings, args.chunks, args.encoded, args.noise)
    print(f"corpus: {corpus.manifest.tables}")

    questions = args.work / "synth" / "questions.jsonl"
    gold = read_gold_papers(args.work / "synth" / "gold.jsonl")
    baseline, baseline_s = bm25_baseline(corpus, settings, questions, stock=True)
    own_baseline, own_s = bm25_baseline(corpus, settings, questions, stock=False)
    if own_baseline != baseline:
        raise SystemExit("littrace's BM25 ranked papers differently from pyserini's")
    # Timing is the point: a candidates artifact left by an earlier run would hand back the
    # seconds that run measured.
    store = ArtifactStore(settings.runtime.artifact_root, catalog=False)
    shutil.rmtree(
        store.path(candidates_key(questions, settings, open_indexes(corpus, settings))),
        ignore_errors=True,
    )
    run = retrieve_questions(questions, settings)
    retrieved_s = [float(r["retrieval"]["seconds"]) for r in run.records]
    ours = candidate_recall(run.candidates(), gold, KS)
    plain = candidate_recall(baseline, gold, KS)
    show("retriever (model-free)", ours, retrieved_s)
    show("BM25 chunks (pyserini LuceneSearcher) -> best chunk per paper", plain, baseline_s)
    own_p50, own_p95 = percentiles(own_s)
    print(f"  the same with littrace's Bm25Searcher: p50 {own_p50:.3f}s  p95 {own_p95:.3f}s")
    print("ratios retriever/BM25 (recall; latency):")
    for family, _, values in ours.rows():
        base = dict((f, v) for f, _, v in plain.rows())[family]
        cells = "  ".join(f"@{k} {values[k] / base[k]:.2f}" if base[k] else f"@{k} inf" for k in KS)
        print(f"  {family:<28} {cells}")
    (ours_p50, ours_p95), (base_p50, base_p95) = percentiles(retrieved_s), percentiles(baseline_s)
    print(
        f"  latency p50 x{ours_p50 / base_p50:.1f} (target <= x{P50_TARGET:g})  "
        f"p95 x{ours_p95 / base_p95:.1f} (target <= x{P95_TARGET:g})"
    )
    print(
        f"  against littrace's own BM25 search: p50 x{ours_p50 / own_p50:.1f}  "
        f"p95 x{ours_p95 / own_p95:.1f}"
    )
    # ru_maxrss is in KiB on Linux; it covers the JVM (in-process) and, on a first run, the build.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak RSS of this process: {peak:.2f} GiB (target <= {RSS_TARGET_GIB:g} GiB)")


if __name__ == "__main__":
    main()
