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

:class:`Bm25Searcher` wraps Anserini's ``SimpleSearcher`` (the object pyserini's
``LuceneSearcher`` holds) with BM25 ``k1``/``b`` applied at search time. Queries go through
Anserini's bag-of-words generator, not Lucene's classic query parser: the text is analysed
(Porter stemming, English stop words) and every distinct term becomes one SHOULD clause, so
quotes, brackets, colons, ``AND``/``OR``/``NOT`` and backslashes are plain text and never a
syntax error. What can fail is handled by :func:`clean_query`: lone UTF-16 surrogates (which
pyjnius cannot encode) are replaced, and text is cut at :data:`MAX_QUERY_CHARS` while Lucene's
clause limit is raised to the same number, because more distinct terms than the limit (1,024
by default) would throw ``TooManyClauses``. Scores come back rounded to 1e-4 with ties broken
by document id (Anserini's tie adjuster), so rankings are deterministic.

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
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from littrace.corpus.model import Chunk

MAX_QUERY_CHARS = 16_384
"""Longest query text searched; longer text is cut here. Lucene's clause limit is raised to
this too: an analysed term is at least one character, so the cut text cannot exceed it."""

PAPER_CHUNK_SEPARATOR = "\n\n"

# Lucene's in-memory buffer before it flushes a segment. Anserini's default (4 GiB) would let
# the JVM inside this process grow to its heap limit on a large corpus; at 100,000 chunks a
# 256 MiB buffer built as fast as a 4 GiB one.
_MEMORY_BUFFER_MB = 1024

_encode_json = json.JSONEncoder(ensure_ascii=False).encode


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


@cache
def _java() -> _Java:
    """Anserini's classes, loaded once; the first call starts the JVM (about half a second)."""
    # pyserini.pyclass puts the Anserini jar on the classpath; importing it alone avoids
    # pyserini.search, which pulls in torch and transformers (~6 s, ~500 MB) for nothing here.
    from pyserini.pyclass import autoclass

    java = _Java(
        index_collection=autoclass("io.anserini.index.IndexCollection"),
        index_collection_args=autoclass("io.anserini.index.IndexCollection$Args"),
        simple_searcher=autoclass("io.anserini.search.SimpleSearcher"),
        index_searcher=autoclass("org.apache.lucene.search.IndexSearcher"),
        array_list=autoclass("java.util.ArrayList"),
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
        finished = time.perf_counter()
    if errors or indexed + empty != written:
        raise RuntimeError(
            f"Anserini indexed {indexed} of {written} documents into {index_dir} "
            f"({empty} empty, {errors} errors, {int(counters.skipped.get())} skipped)"
        )
    return Bm25Stats(
        documents=written,
        indexed=indexed,
        empty=empty,
        write_seconds=wrote - started,
        index_seconds=finished - wrote,
    )


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

    ``search`` and ``batch_search`` accept any text (see :func:`clean_query`).
    """

    def __init__(self, index_dir: Path, k1: float = 1.5, b: float = 0.75) -> None:
        index_dir = Path(index_dir)
        if not index_dir.is_dir():
            raise FileNotFoundError(f"no BM25 index at {index_dir}")
        self.index_dir = index_dir
        self.k1 = k1
        self.b = b
        self._java = _java()
        self._searcher = self._java.simple_searcher(os.fspath(index_dir))
        self._searcher.set_bm25(float(k1), float(b))

    @property
    def num_docs(self) -> int:
        return int(self._searcher.get_total_num_docs())

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The top ``k`` documents for ``query``; empty for a query with no indexed term."""
        _check_k(k)
        return _hits(self._searcher.search(clean_query(query), int(k)))

    def batch_search(
        self, queries: Sequence[str], k: int = 10, threads: int = 2
    ) -> list[list[Hit]]:
        """``search`` for each query, run concurrently in the JVM; results in query order."""
        _check_k(k)
        if not queries:
            return []
        texts = self._java.array_list()
        qids = self._java.array_list()
        for position, query in enumerate(queries):
            texts.add(clean_query(query))
            qids.add(str(position))
        results = self._searcher.batch_search(texts, qids, int(k), int(threads))
        return [_hits(results.get(str(position))) for position in range(len(queries))]

    def doc_text(self, doc_id: str) -> str:
        """The indexed text of ``doc_id``; ``KeyError`` if the index has no such document."""
        raw = self._searcher.doc_raw(doc_id)
        if raw is None:
            raise KeyError(doc_id)
        contents: str = json.loads(raw)["contents"]
        return contents

    def close(self) -> None:
        self._searcher.close()

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


def _hits(scored_docs: Any) -> list[Hit]:
    # Scores are Java floats rounded to 1e-4 minus 1e-6 per tie; six decimals keep exactly that.
    return [
        Hit(doc_id=str(doc.docid), score=round(float(doc.score), 6), rank=rank)
        for rank, doc in enumerate(scored_docs, start=1)
    ]
