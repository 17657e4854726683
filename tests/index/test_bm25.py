"""Lucene BM25 indexes built for real in a temp dir: ranking, BM25 parameters, hostile queries."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from littrace.corpus.document import Chunk
from littrace.index.bm25 import (
    DOC_IDS_FILE,
    MAX_QUERY_CHARS,
    PAPER_CHUNK_SEPARATOR,
    Bm25Searcher,
    Hit,
    build_bm25_index,
    build_chunk_index,
    build_paper_index,
    clean_query,
    paper_documents,
    write_doc_ids,
    write_jsonl,
)
from littrace.index.bm25 import _java as anserini

TOPICS = {
    "p1": ("retrieval", "sparse retrieval with inverted indexes and term weighting"),
    "p2": ("vision", "convolutional image segmentation of satellite photographs"),
    "p3": ("speech", "acoustic speech recognition with spectrogram encoders"),
    "p4": ("graphs", "message passing over molecular graphs for chemistry"),
    "p5": ("robotics", "robotic grasping with tactile feedback and manipulators"),
}
FILLER = (
    "We describe the experimental setup, report results on several benchmarks and discuss "
    "limitations of the approach in detail."
)
# Words that occur in exactly one chunk each, so the right answer to a query is unambiguous.
NEEDLES = {
    "p1#0003": "zeppelin",
    "p2#0001": "quokka",
    "p3#0005": "marimba",
    "p4#0002": "tesseract",
    "p5#0004": "kumquat",
}
UNICODE_TEXT = 'Café naïve — “cited” \\ back\\slash\nnewline 中文 😀 {json: "x"}'


def _chunks() -> list[Chunk]:
    chunks: list[Chunk] = []
    for paper_id, (name, topic) in TOPICS.items():
        # The title-and-abstract chunk comes last on purpose: the paper index must move it first.
        for number in range(1, 6):
            chunk_id = f"{paper_id}#{number:04d}"
            text = f"Section {number} of the {name} paper on {topic}. {FILLER}"
            if chunk_id in NEEDLES:
                text += f" The {NEEDLES[chunk_id]} appears here."
            chunks.append(Chunk(chunk_id, paper_id, "body", number, text))
        chunks.append(
            Chunk(f"{paper_id}#0000", paper_id, "title_abstract", 1, f"Title: {name}. {topic}.")
        )
    chunks.append(Chunk("p1#0099", "p1", "table", 3, UNICODE_TEXT, object_id="Table 1"))
    # For the BM25 parameter test: a word in one document, and a word in a short and a long one.
    chunks.append(Chunk("p1#0096", "p1", "body", 4, "A dirigible flies."))
    chunks.append(Chunk("p1#0097", "p1", "body", 4, "The aardvark digs."))
    chunks.append(Chunk("p1#0098", "p1", "body", 4, f"The aardvark digs. {FILLER} {FILLER}"))
    return chunks


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return _chunks()


@pytest.fixture(scope="module")
def chunk_index(tmp_path_factory: pytest.TempPathFactory, chunks: list[Chunk]) -> Path:
    index_dir = tmp_path_factory.mktemp("bm25") / "chunks"
    stats = build_chunk_index(chunks, index_dir)
    assert (stats.documents, stats.indexed, stats.empty) == (len(chunks), len(chunks), 0)
    return index_dir


@pytest.fixture(scope="module")
def paper_index(tmp_path_factory: pytest.TempPathFactory, chunks: list[Chunk]) -> Path:
    index_dir = tmp_path_factory.mktemp("bm25") / "papers"
    stats = build_paper_index(chunks, index_dir)
    assert stats.indexed == len(TOPICS)
    return index_dir


@pytest.fixture(scope="module")
def searcher(chunk_index: Path) -> Bm25Searcher:
    return Bm25Searcher(chunk_index)


# --------------------------------------------------------------------------- building


def test_write_jsonl_round_trips_and_replaces_lone_surrogates(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    assert write_jsonl([("a", UNICODE_TEXT), ("b", "bad \ud800 char")], path) == 2
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert rows == [{"id": "a", "contents": UNICODE_TEXT}, {"id": "b", "contents": "bad ? char"}]


def test_paper_documents_put_title_abstract_first_then_chunk_order(chunks: list[Chunk]) -> None:
    papers = dict(paper_documents(chunks))
    assert list(papers) == list(TOPICS)
    parts = papers["p2"].split(PAPER_CHUNK_SEPARATOR)
    assert parts[0] == "Title: vision. convolutional image segmentation of satellite photographs."
    assert [part.split(" of ")[0] for part in parts[1:]] == [f"Section {n}" for n in range(1, 6)]


def test_paper_documents_group_interleaved_papers() -> None:
    chunks = [
        Chunk("a#1", "a", "body", 1, "a1"),
        Chunk("b#1", "b", "body", 1, "b1"),
        Chunk("a#2", "a", "body", 2, "a2"),
        Chunk("a#0", "a", "title_abstract", 1, "a0"),
    ]
    sep = PAPER_CHUNK_SEPARATOR
    assert list(paper_documents(chunks)) == [("a", f"a0{sep}a1{sep}a2"), ("b", "b1")]


def test_build_counts_empty_documents_and_refuses_a_non_empty_dir(tmp_path: Path) -> None:
    stats = build_bm25_index([("x", "some words"), ("y", "")], tmp_path / "idx", threads=1)
    assert (stats.documents, stats.indexed, stats.empty) == (2, 1, 1)
    with pytest.raises(FileExistsError):
        build_bm25_index([("z", "more words")], tmp_path / "idx")
    # The temporary JSONL shards are gone; only the index is left.
    assert [path.name for path in tmp_path.iterdir()] == ["idx"]


# --------------------------------------------------------------------------- searching


@pytest.mark.parametrize(("chunk_id", "needle"), sorted(NEEDLES.items()))
def test_unique_word_finds_its_chunk_at_rank_one(
    searcher: Bm25Searcher, chunk_id: str, needle: str
) -> None:
    hits = searcher.search(f"Is there a {needle}?", k=5)
    assert hits[0].doc_id == chunk_id
    assert hits[0].rank == 1
    assert len(hits) == 1  # no other chunk has the word; stop words match nothing


def test_topic_query_ranks_that_papers_chunks_first(searcher: Bm25Searcher) -> None:
    hits = searcher.search("tactile robotic grasping manipulators", k=6)
    assert {hit.doc_id.split("#")[0] for hit in hits} == {"p5"}
    assert [hit.rank for hit in hits] == list(range(1, 7))
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_paper_index_finds_the_paper_and_stores_concatenated_text(
    paper_index: Path, chunks: list[Chunk]
) -> None:
    with Bm25Searcher(paper_index) as papers:
        assert papers.num_docs == len(TOPICS)
        assert papers.search("spectrogram acoustic recognition", k=3)[0].doc_id == "p3"
        assert papers.search("marimba", k=3)[0].doc_id == "p3"
        assert papers.doc_text("p4") == dict(paper_documents(chunks))["p4"]
        assert papers.doc_text("p4")[:1200].startswith("Title: graphs.")


def test_doc_text_round_trips_unicode_and_rejects_unknown_ids(searcher: Bm25Searcher) -> None:
    assert searcher.doc_text("p1#0099") == UNICODE_TEXT
    assert searcher.doc_text("p2#0001").endswith("The quokka appears here.")
    with pytest.raises(KeyError):
        searcher.doc_text("p9#0000")


def test_k1_and_b_are_the_bm25_parameters(chunk_index: Path) -> None:
    # "dirigible" occurs once, in one document: with b = 0 there is no length normalisation and
    # Lucene's BM25 is exactly idf * tf / (tf + k1) with idf = ln(1 + (N - n + 0.5) / (n + 0.5)).
    with Bm25Searcher(chunk_index, k1=1.2, b=0.0) as flat:
        n_docs = flat.num_docs
        idf = math.log(1 + (n_docs - 1 + 0.5) / (1 + 0.5))
        assert flat.search("dirigible", k=1)[0].score == pytest.approx(idf / (1 + 1.2), abs=1e-4)
    with Bm25Searcher(chunk_index, k1=3.0, b=0.0) as other_k1:
        assert other_k1.search("dirigible", k=1)[0].score == pytest.approx(idf / 4.0, abs=1e-4)
    # "aardvark" occurs once in a short and once in a long document: without length
    # normalisation they tie (and ties go by id); with it the short one wins.
    with Bm25Searcher(chunk_index, b=0.0) as flat, Bm25Searcher(chunk_index, b=0.75) as normal:
        flat_hits = flat.search("aardvark", k=5)
        normal_hits = normal.search("aardvark", k=5)
    assert [hit.doc_id for hit in flat_hits] == ["p1#0097", "p1#0098"]
    assert flat_hits[0].score == pytest.approx(flat_hits[1].score, abs=2e-6)
    assert [hit.doc_id for hit in normal_hits] == ["p1#0097", "p1#0098"]
    assert normal_hits[0].score > normal_hits[1].score + 0.01
    assert normal_hits[0].score > flat_hits[0].score > normal_hits[1].score


NASTY_QUERIES = [
    "",
    "   ",
    "the of and a",
    'title:"quokka" AND (appears OR NOT here) \\ / : ] [ { } ~ ^ * ? ! + - && || <>',
    '"unbalanced quote quokka',
    "((((quokka",
    "quokka/marimba\\kumquat",
    "NOT AND OR",
    "field:value^2 fuzzy~0.8 wild* ?card [a TO z]",
    "naïve café 中文 العربية 😀 quokka",
    "quokka \ud800 lone \udfff surrogates",
    "nul\x00char quokka",
    "quokka " * 5000,  # long, one term repeated
    " ".join(f"w{number}" for number in range(2000)) + " quokka",  # > 1024 distinct terms
    "x" * (MAX_QUERY_CHARS * 3),
]


@pytest.mark.parametrize("query", NASTY_QUERIES, ids=range(len(NASTY_QUERIES)))
def test_any_text_searches_without_error(searcher: Bm25Searcher, query: str) -> None:
    hits = searcher.search(query, k=3)
    assert all(isinstance(hit, Hit) for hit in hits)
    if "quokka" in query:
        assert "p2#0001" in [hit.doc_id for hit in hits]


def test_query_syntax_is_plain_text(searcher: Bm25Searcher) -> None:
    syntax = searcher.search('title:"quokka" AND (section OR NOT "appears")', k=10)
    plain = searcher.search("title quokka section appears", k=10)
    assert syntax == plain


def test_clean_query_cuts_and_replaces() -> None:
    assert clean_query("a\ud800b") == "a?b"
    assert len(clean_query("y" * (MAX_QUERY_CHARS + 10))) == MAX_QUERY_CHARS
    assert clean_query("café 😀") == "café 😀"


def test_batch_search_equals_single_search_in_query_order(searcher: Bm25Searcher) -> None:
    queries = [f"the {needle}" for needle in NEEDLES.values()]
    queries += ["sparse retrieval term weighting", *NASTY_QUERIES, "quokka"]
    batched = searcher.batch_search(queries, k=4)
    assert batched == [searcher.search(query, k=4) for query in queries]
    assert [hits[0].doc_id for hits in batched[: len(NEEDLES)]] == list(NEEDLES)
    assert searcher.batch_search([], k=4) == []


def test_k_must_be_positive(searcher: Bm25Searcher) -> None:
    with pytest.raises(ValueError):
        searcher.search("quokka", k=0)
    with pytest.raises(ValueError):
        searcher.batch_search(["quokka"], k=0)


def test_missing_index_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Bm25Searcher(tmp_path / "nowhere")


@pytest.mark.parametrize("k", [1, 3, 10, 40])
def test_hits_are_anserinis_own(chunk_index: Path, k: int) -> None:
    # Anserini's SimpleSearcher (what pyserini's LuceneSearcher wraps) is the reference: the
    # same documents, order (score, then id) and tie-adjusted scores.
    reference = anserini().simple_searcher(str(chunk_index))
    reference.set_bm25(1.2, 0.75)
    queries = ["section paper results", "the aardvark digs", "quokka marimba", FILLER, "zzz"]
    with Bm25Searcher(chunk_index, k1=1.2, b=0.75) as searcher:
        for query in queries:
            expected = [
                (str(hit.docid), round(float(hit.score), 6)) for hit in reference.search(query, k)
            ]
            assert [(hit.doc_id, hit.score) for hit in searcher.search(query, k)] == expected
    reference.close()


def test_a_tie_across_the_cut_keeps_the_smallest_ids(tmp_path: Path) -> None:
    # Forty equal documents indexed in descending id order: Lucene's own cut would keep the
    # first indexed (largest ids); the searcher keeps the smallest, as Anserini's sort does.
    docs = [(f"d{number:02d}", "identical words in every document") for number in range(39, -1, -1)]
    build_bm25_index(docs, tmp_path / "ties", threads=1)
    with Bm25Searcher(tmp_path / "ties", threads=1) as searcher:
        hits = searcher.search("identical words", k=5)
    assert [hit.doc_id for hit in hits] == ["d00", "d01", "d02", "d03", "d04"]
    assert [hit.rank for hit in hits] == [1, 2, 3, 4, 5]
    # Anserini's tie adjuster: each further tie is 1e-6 lower.
    assert [round(hits[0].score - hit.score, 6) for hit in hits] == [0, 1e-6, 2e-6, 3e-6, 4e-6]


def test_doc_ids_are_written_with_the_index_and_required_to_search(tmp_path: Path) -> None:
    build_bm25_index([("a", "alpha words"), ("b", "beta words")], tmp_path / "idx", threads=1)
    ids_file = tmp_path / "idx" / DOC_IDS_FILE
    assert sorted(json.loads(ids_file.read_text(encoding="utf-8"))) == ["a", "b"]
    ids_file.unlink()
    with pytest.raises(FileNotFoundError, match="write_doc_ids"):
        Bm25Searcher(tmp_path / "idx")
    write_doc_ids(tmp_path / "idx")
    with Bm25Searcher(tmp_path / "idx") as searcher:
        assert [hit.doc_id for hit in searcher.search("beta", k=2)] == ["b"]


def test_two_threads_build_and_search_two_indexes_at_once(tmp_path: Path) -> None:
    # The index stage builds the chunk and paper indexes on two threads; pyjnius calls made
    # at once from two threads on two objects could swap them (a NullPointerException).
    import threading

    docs = [(f"d{n:04d}", f"word{n % 50} text number {n}") for n in range(3000)]
    failures: list[BaseException] = []
    found: dict[str, list[list[str]]] = {}

    def build_and_search(name: str) -> None:
        try:
            build_bm25_index(docs, tmp_path / name, threads=1)
            for _ in range(3):
                write_doc_ids(tmp_path / name)
            with Bm25Searcher(tmp_path / name) as searcher:
                found[name] = [
                    [hit.doc_id for hit in searcher.search(f"word{n} number", k=20)]
                    for n in range(50)
                ]
        except BaseException as error:  # reported by the assertion below
            failures.append(error)

    threads = [threading.Thread(target=build_and_search, args=(name,)) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Bm25Searcher(tmp_path / "a") as searcher:
        alone = [
            [hit.doc_id for hit in searcher.search(f"word{n} number", k=20)] for n in range(50)
        ]
    assert found["a"] == found["b"] == alone
