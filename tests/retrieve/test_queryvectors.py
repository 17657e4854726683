"""The query-vector cache around the real MiniLM encoder: same vectors, fewer calls."""

from __future__ import annotations

import littrace  # noqa: F401  (before transformers: the bootstrap keeps the model hub offline)

# isort: split

import numpy as np
import pytest

from littrace.config import EncoderSettings
from littrace.index.encoders import Encoder, load_encoder
from littrace.retrieve.queryvectors import CachedQueryEncoder
from tests.retrieve.conftest import CountingEncoder


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder(EncoderSettings())


def test_cached_vectors_are_the_encoders_and_each_text_is_encoded_once(encoder: Encoder) -> None:
    counting = CountingEncoder(encoder)
    cached = CachedQueryEncoder(counting)

    first = cached.encode_queries(["sparse retrieval", "dense retrieval", "sparse retrieval"])
    again = cached.encode_queries(["dense retrieval", "graph networks"])

    # Only texts not held are encoded, each once and alone.
    assert counting.calls == [["sparse retrieval"], ["dense retrieval"], ["graph networks"]]
    alone = [encoder.encode_queries([t])[0] for t in ("sparse retrieval", "dense retrieval")]
    np.testing.assert_array_equal(first, np.stack([alone[0], alone[1], alone[0]]))
    np.testing.assert_array_equal(again[0], first[1])  # the held vector itself
    np.testing.assert_array_equal(again[1], encoder.encode_queries(["graph networks"])[0])
    np.testing.assert_array_equal(
        cached.encode_documents(["a text"]), encoder.encode_documents(["a text"])
    )


def test_a_vector_does_not_depend_on_what_was_encoded_before(encoder: Encoder) -> None:
    # In a batch the model's output for a text moves in its last bits with its batch mates;
    # which texts are still to encode depends on what earlier questions cached.
    text = "search cost in seconds of random search"
    batched = encoder.encode_queries([text, "a longer text encoded in the same batch as it"])[0]
    assert not np.array_equal(batched, encoder.encode_queries([text])[0])
    fresh = CachedQueryEncoder(encoder).encode_queries([text, "graph networks"])[0]
    warm = CachedQueryEncoder(encoder)
    warm.encode_queries(["graph networks"])
    np.testing.assert_array_equal(warm.encode_queries([text, "graph networks"])[0], fresh)


def test_the_least_recently_used_vector_goes_first(encoder: Encoder) -> None:
    counting = CountingEncoder(encoder)
    cached = CachedQueryEncoder(counting, size=2)

    cached.encode_queries(["a"])
    cached.encode_queries(["b"])
    cached.encode_queries(["a"])  # "a" used last: "b" is the one to go
    cached.encode_queries(["c"])
    cached.encode_queries(["a"])

    assert len(cached) == 2
    assert counting.calls == [["a"], ["b"], ["c"]]
    cached.encode_queries(["b"])
    assert counting.calls[-1] == ["b"]
    with pytest.raises(ValueError, match="size"):
        CachedQueryEncoder(encoder, size=0)
