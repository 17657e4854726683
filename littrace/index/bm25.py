"""Lucene BM25 through pyserini: the chunk index and the paper index of Lit3R §2.1.2.

Both indexes are built by Anserini's ``IndexCollection`` (the class behind
``python -m pyserini.index.lucene``) over JSONL files we write ourselves (``id`` and
``contents``), with positions, document vectors and the raw document stored. The indexer runs
in this process's JVM, so a build pays no second JVM start-up and reports its counters
directly; ``IndexCollection`` gives one thread to each input file, so the JSONL is written as
``threads`` shards.

* Chunk index: one document per chunk, id = chunk id (``"acl2025_00005#0012"``).
* Paper index: one document per paper, id = paper id; the text is the paper's chunks joined in
  chunk order with the title-and-abstract chunk first, so the first 1,200 characters a seed
  paper is queried with (Lit3R §2.1.3) are its title and abstract.

:class:`Bm25Searcher` searches with Lucene's ``IndexSearcher`` and BM25 ``k1``/``b`` set at
search time, over the index's segments on a few JVM threads. Queries go through Anserini's
bag-of-words generator and analyzer, not Lucene's classic query parser: the text is analysed
(Porter stemming, English stop words) and every distinct term becomes one SHOULD clause, so
quotes, brackets, colons, ``AND``/``OR``/``NOT`` and backslashes are plain text and never a
syntax error. What can fail is handled by :func:`clean_query`: lone UTF-16 surrogates (which
pyjnius cannot encode) are replaced, and text is cut at :data:`MAX_QUERY_CHARS` while Lucene's
clause limit is raised to the same number, because more distinct terms than the limit (1,024
by default) would throw ``TooManyClauses``. Hits are exactly those of Anserini's
``SimpleSearcher`` (what pyserini's ``LuceneSearcher`` wraps): ordered by score, then id, with
scores rounded to 1e-4 and ties lowered by 1e-6 each (Anserini's tie adjuster), so rankings
are deterministic. Unlike it, a search loads no stored document: Lucene's document numbers
are named through the id list written beside the index (:data:`DOC_IDS_FILE`), which made a
1,000-hit search several times faster.

Example:
    >>> import littrace
    >>> stats = build_bm25_index([("d1", "BM25 ranks documents.")], Path("work/bm25"))  # doctest: +SKIP
    >>> searcher = Bm25Searcher(Path("work/bm25"), k1=1.5, b=0.75)  # doctest: +SKIP
    >>> searcher.search('"ranking" AND documents?', k=10)  # doctest: +SKIP
    [Hit(doc_id='d1', score=0.2876, rank=1)]
    >>> searcher.doc_text("d1")  # doctest: +SKIP
    'BM25 ranks documents.'
"""

from __future__ import annotations

import json
import os
import re
import struct
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from littrace.corpus.document import Chunk

MAX_QUERY_CHARS = 16_384
"""Longest query text searched; longer text is cut here. Lucene's clause limit is raised to
this too: an analysed term is at least one character, so the cut text cannot exceed it."""

PAPER_CHUNK_SEPARATOR = "\n\n"

DOC_IDS_FILE = "littrace-docids.json"
"""The index's document ids in Lucene's document order, written beside its segments."""

ID_FIELD = "id"
CONTENTS_FIELD = "contents"

# Lucene's in-memory buffer before it flushes a segment. Anserini's default (4 GiB) would let
# the JVM inside this process grow to its heap limit on a large corpus; at 100,000 chunks a
# 256 MiB buffer built as fast as a 4 GiB one.
_MEMORY_BUFFER_MB = 1024

_encode_json = json.JSONEncoder(ensure_ascii=False).encode

# pyjnius binds a Java method to its object on the method's shared descriptor just before the
# call, so two threads calling one method on two objects can swap them (a NullPointerException
# building two indexes at once, or the other index's hits). This module's calls into the JVM
# are made one at a time; Lucene and Anserini still run their own threads inside a call.
_JVM_LOCK = threading.RLock()


class Hit(NamedTuple):
    """One search result: document id, BM25 score and 1-based rank.

    Anserini rounds scores to 1e-4 and lowers each further tie by 1e-6, so scores sort the
    same way as ranks; tied documents are ordered by id.
    """

    doc_id: str
    score: float
    rank: int


@dataclass(frozen=True, slots=True)
class Bm25Stats:
    """What a build did: documents written, indexed and skipped as empty, and its timings."""

    documents: int
    indexed: int
    empty: int
    write_seconds: float
    index_seconds: float

    @property
    def seconds(self) -> float:
        return self.write_seconds + self.index_seconds


@dataclass(frozen=True, slots=True)
class _Java:
    index_collection: Any
    index_collection_args: Any
    simple_searcher: Any
    index_searcher: Any
    array_list: Any
    directory_reader: Any
    fs_directory: Any
    paths: Any
    bm25_similarity: Any
    query_generator: Any
    fork_join_pool: Any
    reflection_to_string: Any
    short_style: Any
    cast: Any


@cache
def _java() -> _Java:
    """Anserini's and Lucene's classes, loaded once; the first call starts the JVM (about half
    a second)."""
    # pyserini.pyclass puts the Anserini jar on the classpath; importing it alone avoids
    # pyserini.search, which pulls in torch and transformers (~6 s, ~500 MB) for nothing here.
    from pyserini.pyclass import autoclass, cast

    java = _Java(
        index_collection=autoclass("io.anserini.index.IndexCollection"),
        index_collection_args=autoclass("io.anserini.index.IndexCollection$Args"),
        simple_searcher=autoclass("io.anserini.search.SimpleSearcher"),
        index_searcher=autoclass("org.apache.lucene.search.IndexSearcher"),
        array_list=autoclass("java.util.ArrayList"),
        directory_reader=autoclass("org.apache.lucene.index.DirectoryReader"),
        fs_directory=autoclass("org.apache.lucene.store.FSDirectory"),
        paths=autoclass("java.nio.file.Paths"),
        bm25_similarity=autoclass("org.apache.lucene.search.similarities.BM25Similarity"),
        query_generator=autoclass("io.anserini.search.query.BagOfWordsQueryGenerator"),
        fork_join_pool=autoclass("java.util.concurrent.ForkJoinPool"),
        reflection_to_string=autoclass(
            "org.apache.commons.lang3.builder.ReflectionToStringBuilder"
        ),
        short_style=autoclass("org.apache.commons.lang3.builder.ToStringStyle").SHORT_PREFIX_STYLE,
        cast=cast,
    )
    if java.index_searcher.getMaxClauseCount() < MAX_QUERY_CHARS:
        java.index_searcher.setMaxClauseCount(MAX_QUERY_CHARS)
    return java


def start_jvm() -> None:
    """Start the JVM and load Anserini now rather than on the first build or search."""
    _java()


# --------------------------------------------------------------------------- writing


def _json_line(doc_id: str, contents: str) -> str:
    return _encode_json({"id": doc_id, "contents": contents}) + "\n"


def write_jsonl(docs: Iterable[tuple[str, str]], path: Path) -> int:
    """Write ``(id, contents)`` pairs as one JSONL collection file; returns the number written."""
    return write_jsonl_shards(docs, [path])


def write_jsonl_shards(docs: Iterable[tuple[str, str]], paths: Sequence[Path]) -> int:
    """Write ``(id, contents)`` pairs round-robin into ``paths``; returns the number written.

    Lone surrogates, which UTF-8 cannot hold, are written as ``?``.
    """
    if not paths:
        raise ValueError("need at least one output path")
    count = 0
    with ExitStack() as stack:
        files = [
            stack.enter_context(path.open("w", encoding="utf-8", errors="replace"))
            for path in paths
        ]
        for count, (doc_id, contents) in enumerate(docs, start=1):
            files[count % len(files)].write(_json_line(doc_id, contents))
    return count


# --------------------------------------------------------------------------- building


def build_bm25_index(
    docs: Iterable[tuple[str, str]], index_dir: Path, threads: int = 2
) -> Bm25Stats:
    """Build a Lucene BM25 index of ``(id, contents)`` pairs in ``index_dir``.

    Ids must be unique. ``index_dir`` must be missing or empty. Documents with empty contents
    are counted in ``empty`` and not indexed. Raises ``RuntimeError`` when Anserini reports
    errors or indexes fewer documents than were written (its threads log and swallow them).
    """
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    index_dir = Path(index_dir)
    if index_dir.exists() and any(index_dir.iterdir()):
        raise FileExistsError(f"index directory is not empty: {index_dir}")
    index_dir.mkdir(parents=True, exist_ok=True)
    java = _java()
    # The JSONL sits next to the index (same file system), and goes once it is indexed:
    # the index stores every document's raw JSON.
    with tempfile.TemporaryDirectory(prefix=".bm25-jsonl-", dir=index_dir.parent) as tmp:
        started = time.perf_counter()
        paths = [Path(tmp) / f"part{shard:03d}.jsonl" for shard in range(threads)]
        written = write_jsonl_shards(docs, paths)
        wrote = time.perf_counter()
        with _JVM_LOCK:
            args = java.index_collection_args()
            args.collectionClass = "JsonCollection"
            args.generatorClass = "DefaultLuceneDocumentGenerator"
            args.input = tmp
            args.index = os.fspath(index_dir)
            args.threads = threads
            args.storePositions = True
            args.storeDocvectors = True
            args.storeRaw = True
            args.memoryBuffer = _MEMORY_BUFFER_MB
            args.quiet = True
            indexer = java.index_collection(args)
            indexer.run()
            counters = indexer.getCounters()
            indexed = int(counters.indexed.get())
            empty = int(counters.empty.get())
            errors = int(counters.errors.get())
            skipped = int(counters.skipped.get())
    if errors or indexed + empty != written:
        raise RuntimeError(
            f"Anserini indexed {indexed} of {written} documents into {index_dir} "
            f"({empty} empty, {errors} errors, {skipped} skipped)"
        )
    write_doc_ids(index_dir)
    finished = time.perf_counter()
    return Bm25Stats(
        documents=written,
        indexed=indexed,
        empty=empty,
        write_seconds=wrote - started,
        index_seconds=finished - wrote,
    )


def write_doc_ids(index_dir: Path) -> None:
    """Write the ids of a finished index in Lucene's document order to :data:`DOC_IDS_FILE`.

    A search reads only Lucene's document numbers and scores and names hits through this
    list, so no stored document is loaded per hit (Anserini's searcher loads every hit's
    stored fields, raw text included, which cost most of a 1,000-hit search).
    """
    java = _java()
    with _JVM_LOCK:
        reader = java.directory_reader.open(
            java.fs_directory.open(java.paths.get(os.fspath(index_dir)))
        )
        try:
            stored = reader.storedFields()
            ids = [stored.document(number).get(ID_FIELD) for number in range(reader.maxDoc())]
        finally:
            reader.close()
    target = Path(index_dir) / DOC_IDS_FILE
    partial = target.with_suffix(".partial")
    partial.write_text(_encode_json(ids), encoding="utf-8")
    partial.replace(target)


def chunk_documents(chunks: Iterable[Chunk]) -> Iterator[tuple[str, str]]:
    """The chunk index's documents: ``(chunk_id, text)``."""
    for chunk in chunks:
        yield chunk.chunk_id, chunk.text


def paper_documents(chunks: Iterable[Chunk]) -> Iterator[tuple[str, str]]:
    """The paper index's documents: ``(paper_id, text)``, in order of first appearance.

    A paper's text is its chunks in the order given, title-and-abstract chunk(s) first,
    joined by :data:`PAPER_CHUNK_SEPARATOR`. Chunks need not be grouped by paper.
    """
    heads: dict[str, list[str]] = {}
    bodies: dict[str, list[str]] = {}
    for chunk in chunks:
        if chunk.paper_id not in heads:
            heads[chunk.paper_id] = []
            bodies[chunk.paper_id] = []
        target = heads if chunk.type == "title_abstract" else bodies
        target[chunk.paper_id].append(chunk.text)
    for paper_id, head in heads.items():
        yield paper_id, PAPER_CHUNK_SEPARATOR.join(head + bodies[paper_id])


def build_chunk_index(chunks: Iterable[Chunk], index_dir: Path, threads: int = 2) -> Bm25Stats:
    """Build the chunk-level BM25 index (document id = chunk id)."""
    return build_bm25_index(chunk_documents(chunks), index_dir, threads=threads)


def build_paper_index(chunks: Iterable[Chunk], index_dir: Path, threads: int = 2) -> Bm25Stats:
    """Build the paper-level BM25 index over each paper's concatenated chunks."""
    return build_bm25_index(paper_documents(chunks), index_dir, threads=threads)


# --------------------------------------------------------------------------- searching


def clean_query(text: str) -> str:
    """Make any text safe to hand to the searcher (see the module docstring for why)."""
    # pyjnius encodes Python strings to UTF-16 strictly; a lone surrogate would raise.
    return text[:MAX_QUERY_CHARS].encode("utf-8", "replace").decode("utf-8")


class Bm25Searcher:
    """An open BM25 index. Keep one per index per process: opening it costs a JVM call and
    the JVM (started on first use) stays for the life of the process.

    ``search`` and ``batch_search`` accept any text (see :func:`clean_query`). A query runs on
    Lucene's ``IndexSearcher`` with BM25 and Anserini's query generator and analyzer, over the
    index's segments on ``threads`` JVM threads; hits are named through :data:`DOC_IDS_FILE`
    and ordered and scored as Anserini's ``SimpleSearcher`` does (see :func:`_ranked`).
    """

    def __init__(self, index_dir: Path, k1: float = 1.5, b: float = 0.75, threads: int = 2) -> None:
        index_dir = Path(index_dir)
        if not index_dir.is_dir():
            raise FileNotFoundError(f"no BM25 index at {index_dir}")
        ids_path = index_dir / DOC_IDS_FILE
        if not ids_path.is_file():
            raise FileNotFoundError(
                f"{index_dir} has no {DOC_IDS_FILE}: build it with build_bm25_index, or call "
                "write_doc_ids on an index built elsewhere"
            )
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.index_dir = index_dir
        self.k1 = k1
        self.b = b
        java = _java()
        self._java = java
        self._doc_ids: list[str] = json.loads(ids_path.read_text(encoding="utf-8"))
        with _JVM_LOCK:
            self._searcher = java.simple_searcher(os.fspath(index_dir))
            self._analyzer = self._searcher.get_analyzer()
            self._generator = java.query_generator()
            self._reader = java.directory_reader.open(
                java.fs_directory.open(java.paths.get(os.fspath(index_dir)))
            )
            # ForkJoinPool threads are daemons: an open searcher never holds the process.
            self._pool = java.fork_join_pool(int(threads))
            self._lucene = java.index_searcher(
                java.cast("org.apache.lucene.index.IndexReader", self._reader), self._pool
            )
            self._lucene.setSimilarity(java.bm25_similarity(float(k1), float(b)))

    @property
    def num_docs(self) -> int:
        with _JVM_LOCK:
            return int(self._searcher.get_total_num_docs())

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The top ``k`` documents for ``query``; empty for a query with no indexed term."""
        _check_k(k)
        # Lucene keeps the lowest document numbers among equal scores, and document numbers
        # follow the indexing threads; so a tie across place k is fetched whole, and cut by id.
        depth = k + max(_TIE_MARGIN, k // 20)
        with _JVM_LOCK:
            lucene_query = self._generator.buildQuery(
                CONTENTS_FIELD, self._analyzer, clean_query(query)
            )
            while True:
                docs, scores = self._score_docs(self._lucene.search(lucene_query, depth))
                if len(scores) < depth or scores[k - 1] != scores[-1]:
                    break
                depth *= 2
        ids = self._doc_ids
        return _ranked(np.array([ids[doc] for doc in docs.tolist()], dtype=str), scores, k)

    def _score_docs(self, top: Any) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        """Lucene document numbers and scores of a ``TopDocs``'s hits, in its order.

        Reading ``top.scoreDocs`` through pyjnius builds a Python proxy per hit (about 5 ms
        for 1,000 hits); the hits printed in one string by one JVM call and parsed here cost
        a tenth of that. Java prints each float32 score exactly (shortest round-trip form).
        """
        text = self._java.reflection_to_string.toString(top, self._java.short_style)
        docs = np.fromiter(map(int, _DOC.findall(text)), dtype=np.int64)
        scores = np.fromiter(map(float, _SCORE.findall(text)), dtype=np.float64)
        return docs, scores.astype(np.float32)

    def batch_search(self, queries: Sequence[str], k: int = 10) -> list[list[Hit]]:
        """``search`` for each query; results in query order."""
        _check_k(k)
        return [self.search(query, k) for query in queries]

    def doc_text(self, doc_id: str) -> str:
        """The indexed text of ``doc_id``; ``KeyError`` if the index has no such document."""
        with _JVM_LOCK:
            raw = self._searcher.doc_raw(doc_id)
        if raw is None:
            raise KeyError(doc_id)
        contents: str = json.loads(raw)[CONTENTS_FIELD]
        return contents

    def close(self) -> None:
        with _JVM_LOCK:
            self._searcher.close()
            self._reader.close()
            self._pool.shutdown()

    def __enter__(self) -> Bm25Searcher:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


_TIE_MARGIN = 16
# Lucene's ScoreDoc.toString(), as ReflectionToStringBuilder prints the ScoreDoc[] of a TopDocs.
_DOC = re.compile(r"doc=(\d+) score=")
_SCORE = re.compile(r" score=(\S+) shardIndex=")
_ROUNDING = 10_000.0
_FLOAT32 = struct.Struct("f")
_TIE_GAP = float(np.float32(1e-4))
_TIE_STEP = float(np.float32(1e-6))


def _ranked(ids: NDArray[np.str_], scores: NDArray[np.float32], k: int) -> list[Hit]:
    """The first ``k`` hits, ordered and scored as Anserini's ``SimpleSearcher`` returns them.

    Anserini sorts by score, then by document id, and its tie adjuster rounds each score to
    1e-4 and lowers the n-th score within 1e-4 of the one above it by n * 1e-6, all in Java
    floats. Here the sort and the rounding are done on all scores at once; the adjuster, whose
    n depends on the scores it has already lowered, in doubles, which hold those float32
    differences exactly, rounding to float32 where Java rounds.
    """
    order = np.lexsort((ids, -scores))[:k]
    raw = scores[order].astype(np.float64)
    rounded = (np.floor(raw * _ROUNDING + 0.5) / _ROUNDING).astype(np.float32).tolist()
    # n * 1e-6 as a Java float product.
    steps = (np.arange(len(rounded), dtype=np.float32) * np.float32(_TIE_STEP)).tolist()
    pack, unpack = _FLOAT32.pack, _FLOAT32.unpack
    hits: list[Hit] = []
    previous = 0.0
    ties = 0
    for rank, (doc_id, score) in enumerate(zip(ids[order].tolist(), rounded, strict=True), start=1):
        if rank > 1 and previous - score <= _TIE_GAP:
            ties += 1
            score = unpack(pack(score - steps[ties]))[0]
        else:
            ties = 0
        previous = score
        # Six decimals keep a float32 score of this size exactly as Anserini reports it.
        hits.append(Hit(doc_id, round(score, 6), rank))
    return hits
