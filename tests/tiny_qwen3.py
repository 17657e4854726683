"""Tiny random Qwen3 models with offline word-level tokenizers, saved like real checkpoints.

The encoder and reranker tests load them through the same ``from_pretrained(path)`` code as
real Qwen3-Embedding / Qwen3-Reranker weights, which cannot be downloaded here.
"""

from __future__ import annotations

import littrace  # noqa: F401  (before transformers: the bootstrap keeps the model hub offline)

# isort: split

from pathlib import Path

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import PreTrainedModel, PreTrainedTokenizerFast, Qwen3Config

SPECIAL = ["<pad>", "<unk>", "<|endoftext|>"]


def save_tiny_qwen3(
    path: Path,
    words: list[str],
    model_class: type[PreTrainedModel],
    *,
    padding_side: str,
    append_eos: bool,
    max_positions: int,
) -> Path:
    """Save a 2-layer random Qwen3 ``model_class`` and its tokenizer over ``words`` to ``path``.

    ``words`` must start with :data:`SPECIAL`. With ``append_eos`` the tokenizer ends every
    text with ``<|endoftext|>``, as Qwen3-Embedding's does.
    """
    assert words[: len(SPECIAL)] == SPECIAL
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    if append_eos:
        tokenizer.post_processor = processors.TemplateProcessing(
            single="$A <|endoftext|>", special_tokens=[("<|endoftext|>", 2)]
        )
    PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        pad_token="<pad>",
        unk_token="<unk>",
        eos_token="<|endoftext|>",
        padding_side=padding_side,
    ).save_pretrained(path)
    config = Qwen3Config(
        vocab_size=len(words),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        max_position_embeddings=max_positions,
        pad_token_id=0,
    )
    torch.manual_seed(0)
    model_class(config).save_pretrained(path)
    return path
