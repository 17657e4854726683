"""Dense index: resumable encoding to disk, HNSW build/load/search against exact search."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from littrace.config import HnswSettings
from littrace.index.dense import (
    DenseIndex,
    StoredVectors,
    build_hnsw,
    encode_chunks,
    exact_search,
    load_vectors,
)
from littrace.progress import ProgressCallback

DIM = 8
CHUNKS = [(f"p{i // 4}#{i % 4}", f"chunk text number {i}") for i in range(23)]


def _vector(text: str) -> NDArray[np.float32]:
    seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
    vector = np.random.default_rng(seed).standard_normal(DIM)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


class CountingEncoder:
    """A deterministic encoder that records every batch it is asked to encode."""

    name = "counting"
    dimension = DIM

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.encode_documents(texts)

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return np.stack([_vector(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)


class Interrupt(Exception):
    pass


def _interrupt_after(texts_done: int) -> ProgressCallback:
    def progress(step: str, done: int, total: int) -> None:
        if done >= texts_done:
            raise Interrupt(f"killed after {done}/{total}")

    return progress


def _encoded(calls: list[list[str]]) -> list[str]:
    return [text for call in calls for text in call]


def _encode(
    chunks: Sequence[tuple[str, str]],
    encoder: CountingEncoder,
    root: Path,
    out: str = "vectors",
    batch_size: int = 10,
    progress: ProgressCallback | None = None,
) -> StoredVectors:
    return encode_chunks(
        chunks,
        encoder,
        root / out,
        cache_dir=root / "cache",
        encoder_key="counting-v1",
        batch_size=batch_size,
        progress=progress,
    )


def test_encode_chunks_stores_vectors_and_ids_in_input_order(tmp_path: Path) -> None:
    encoder = CountingEncoder()
    seen: list[tuple[str, int, int]] = []

    stored = _encode(CHUNKS, encoder, tmp_path, progress=lambda *args: seen.append(args))

    assert stored.ids == tuple(chunk_id for chunk_id, _ in CHUNKS)
    assert stored.encoder == "counting" and stored.dimension == DIM
    np.testing.assert_array_equal(stored.vectors, np.stack([_vector(t) for _, t in CHUNKS]))
    # Whole papers (4 chunks each) fill a batch of at least 10 texts; the last takes the rest.
    assert [len(call) for call in encoder.calls] == [12, 11]
    assert seen == [("encoding", 12, 23), ("encoding", 23, 23)]
    assert sorted(p.name for p in (tmp_path / "vectors").iterdir()) == [
        "vectors.json",
        "vectors.npy",
    ]
    assert len(list((tmp_path / "cache").rglob("*.npy"))) == 6  # one file per paper
    np.testing.assert_array_equal(load_vectors(tmp_path / "vectors").vectors, stored.vectors)


def test_cached_papers_are_not_encoded_again(tmp_path: Path) -> None:
    _encode(CHUNKS, CountingEncoder(), tmp_path)
    again = CountingEncoder()

    stored = _encode(CHUNKS, again, tmp_path, out="second")

    assert again.calls == []
    np.testing.assert_array_equal(stored.vectors, np.stack([_vector(t) for _, t in CHUNKS]))


def test_interrupted_encoding_resumes_from_the_papers_it_finished(tmp_path: Path) -> None:
    reference = _encode(CHUNKS, CountingEncoder(), tmp_path / "uninterrupted")
    first = CountingEncoder()
    with pytest.raises(Interrupt):
        _encode(CHUNKS, first, tmp_path / "run", batch_size=4, progress=_interrupt_after(8))
    assert len(first.calls) == 2  # two papers finished, then the run was killed

    resumed = CountingEncoder()
    stored = _encode(CHUNKS, resumed, tmp_path / "run", batch_size=4)

    assert _encoded(resumed.calls) == [text for _, text in CHUNKS[8:]]
    assert stored.ids == reference.ids
    np.testing.assert_array_equal(stored.vectors, reference.vectors)


def test_a_lost_or_damaged_cache_file_is_encoded_again_and_only_it(tmp_path: Path) -> None:
    _encode(CHUNKS, CountingEncoder(), tmp_path, batch_size=4)
    files = sorted((tmp_path / "cache").rglob("*.npy"))
    lost_rows = len(np.load(files[0])) + len(np.load(files[1]))
    files[0].unlink()
    files[1].write_bytes(b"truncated")

    resumed = CountingEncoder()
    stored = _encode(CHUNKS, resumed, tmp_path, out="again", batch_size=4)

    assert sum(len(call) for call in resumed.calls) == lost_rows
    np.testing.assert_array_equal(stored.vectors, np.stack([_vector(t) for _, t in CHUNKS]))


def test_a_grown_or_changed_corpus_encodes_only_new_and_changed_papers(tmp_path: Path) -> None:
    _encode(CHUNKS, CountingEncoder(), tmp_path)
    new_paper = [(f"p9#{i}", f"new paper text {i}") for i in range(3)]
    changed = [
        (cid, text.upper()) if cid.startswith("p2#") else (cid, text) for cid, text in CHUNKS
    ]

    again = CountingEncoder()
    stored = _encode(changed + new_paper, again, tmp_path, out="grown")

    assert sorted(_encoded(again.calls)) == sorted(
        [text for cid, text in changed if cid.startswith("p2#")] + [text for _, text in new_paper]
    )
    assert stored.ids == tuple(cid for cid, _ in changed + new_paper)


def test_another_encoder_key_does_not_reuse_vectors(tmp_path: Path) -> None:
    _encode(CHUNKS, CountingEncoder(), tmp_path)
    other = CountingEncoder()
    encode_chunks(
        CHUNKS, other, tmp_path / "other", cache_dir=tmp_path / "cache", encoder_key="counting-v2"
    )
    assert len(_encoded(other.calls)) == len(CHUNKS)


def test_duplicate_ids_and_empty_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not unique"):
        _encode([("a", "x"), ("a", "y")], CountingEncoder(), tmp_path, out="dup")

    stored = _encode([], CountingEncoder(), tmp_path, out="empty")

    assert stored.vectors.shape == (0, DIM) and stored.ids == ()


# --------------------------------------------------------------------------- HNSW


N, D = 3000, 384
HNSW = HnswSettings(m=16, ef_construction=100, ef_search=400)


@pytest.fixture(scope="module")
def corpus() -> tuple[NDArray[np.float32], list[str], NDArray[np.float32]]:
    # Isotropic random vectors and unrelated queries: the hardest case for HNSW recall.
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((N, D)).astype(np.float32)
    queries = rng.standard_normal((100, D)).astype(np.float32)
    return vectors, [f"chunk-{i}" for i in range(N)], queries


@pytest.fixture(scope="module")
def hnsw_dir(
    corpus: tuple[NDArray[np.float32], list[str], NDArray[np.float32]],
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    vectors, ids, _ = corpus
    out = tmp_path_factory.mktemp("hnsw")
    build_hnsw(vectors, ids, out, HNSW)
    return out


def _recall(found: list[list[tuple[str, float]]], exact: list[list[tuple[str, float]]]) -> float:
    hits = [
        len({i for i, _ in f} & {i for i, _ in e}) / len(e)
        for f, e in zip(found, exact, strict=True)
    ]
    return float(np.mean(hits))


def test_hnsw_recall_at_10_against_exact_search(
    corpus: tuple[NDArray[np.float32], list[str], NDArray[np.float32]], hnsw_dir: Path
) -> None:
    vectors, ids, queries = corpus
    index = DenseIndex.load(hnsw_dir, ef_search=HNSW.ef_search)

    found = index.search(queries, k=10)
    exact = exact_search(vectors, ids, queries, k=10)

    assert _recall(found, exact) >= 0.98
    for row, exact_row in zip(found, exact, strict=True):
        assert [score for _, score in row] == sorted((score for _, score in row), reverse=True)
        exact_scores = dict(exact_row)
        for chunk_id, score in row:
            if chunk_id in exact_scores:  # the score is the cosine exact search computes
                assert score == pytest.approx(exact_scores[chunk_id], abs=1e-5)


def test_search_maps_rows_back_to_chunk_ids(
    corpus: tuple[NDArray[np.float32], list[str], NDArray[np.float32]], hnsw_dir: Path
) -> None:
    vectors, ids, _ = corpus
    index = DenseIndex.load(hnsw_dir, ef_search=100)
    rows = [0, 1234, N - 1]

    found = index.search(vectors[rows] * 3.0, k=1)  # cosine ignores the length

    assert [row[0][0] for row in found] == [ids[r] for r in rows]
    assert all(row[0][1] == pytest.approx(1.0, abs=1e-5) for row in found)
    assert index.search(vectors[0], k=2)[0][0][0] == ids[0]  # a single vector is one query


def test_ef_search_is_applied_on_load(
    corpus: tuple[NDArray[np.float32], list[str], NDArray[np.float32]], hnsw_dir: Path
) -> None:
    vectors, ids, queries = corpus
    exact = exact_search(vectors, ids, queries, k=10)

    narrow = DenseIndex.load(hnsw_dir, ef_search=10)
    wide = DenseIndex.load(hnsw_dir, ef_search=400)

    assert (narrow.ef_search, wide.ef_search) == (10, 400)
    assert (
        _recall(narrow.search(queries, 10), exact) < 0.8 < _recall(wide.search(queries, 10), exact)
    )


@pytest.mark.parametrize("space", ["cosine", "ip", "l2"])
def test_scores_are_cosine_for_unit_vectors_in_every_space(tmp_path: Path, space: str) -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((200, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"c{i}" for i in range(200)]
    settings = HnswSettings.model_validate(
        {"space": space, "m": 16, "ef_construction": 100, "ef_search": 200}
    )
    build_hnsw(vectors, ids, tmp_path, settings)

    found = DenseIndex.load(tmp_path, ef_search=200).search(vectors[:5], k=5)

    exact = exact_search(vectors, ids, vectors[:5], k=5)
    for row, expected in zip(found, exact, strict=True):
        assert [i for i, _ in row] == [i for i, _ in expected]
        np.testing.assert_allclose([s for _, s in row], [s for _, s in expected], atol=1e-5)


def test_k_beyond_the_index_returns_every_chunk(tmp_path: Path) -> None:
    vectors = np.eye(4, dtype=np.float32)
    index = build_hnsw(vectors, ["a", "b", "c", "d"], tmp_path, HNSW)

    (hits,) = index.search(vectors[:1], k=50)

    assert hits[0][0] == "a" and len(hits) == 4
    assert exact_search(vectors, ["a", "b", "c", "d"], vectors[:1], k=50)[0][0] == ("a", 1.0)


def test_rebuilding_with_other_settings_reuses_stored_vectors(tmp_path: Path) -> None:
    encoder = CountingEncoder()
    _encode(CHUNKS, encoder, tmp_path)
    calls = len(encoder.calls)

    for m in (4, 8):
        stored = load_vectors(tmp_path / "vectors")
        build_hnsw(stored.vectors, stored.ids, tmp_path / f"hnsw-m{m}", HnswSettings(m=m))

    assert len(encoder.calls) == calls
    assert json.loads((tmp_path / "hnsw-m8" / "hnsw.json").read_text())["m"] == 8
    index = DenseIndex.load(tmp_path / "hnsw-m4", ef_search=50)
    assert index.search(_vector(CHUNKS[7][1]), k=1)[0][0][0] == CHUNKS[7][0]
