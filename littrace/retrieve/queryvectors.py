"""Query vectors kept across the steps of retrieval, so a text is encoded once per process.

A round's subqueries are encoded for the dense search, and the embedding reranker then asks
for the same subqueries' vectors again; :class:`CachedQueryEncoder` answers the second request
from the first. It wraps one encoder, lives in the resources a process opens once, and holds
at most ``size`` vectors (the least recently used go first).

Each text is encoded alone: a transformer's output for one text differs in its last bits
with the batch it is run in (its size, the padding to its longest text), and which texts a
request still has to encode depends on what earlier questions left in the cache. Encoded in
batches, a question's vectors, and so the order of near-tied chunks, depended on the
questions answered before it in the process; alone, a query vector is a function of its text
and the encoder only, so an entry never goes stale and a question gets the same answer in
any run.

Example:
    >>> encoder = CachedQueryEncoder(load_encoder(settings.index.encoder))  # doctest: +SKIP
    >>> vectors = encoder.encode_queries(["sparse retrieval", "dense retrieval"])  # doctest: +SKIP
    >>> encoder.encode_queries(["dense retrieval"])  # doctest: +SKIP
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from littrace.index.encoders import Encoder

__all__ = ["CachedQueryEncoder"]


class CachedQueryEncoder:
    """``encoder`` with its query vectors remembered (up to ``size``); documents pass through.

    Texts not yet held are encoded one by one (see the module doc).
    """

    def __init__(self, encoder: Encoder, size: int = 4096) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.encoder = encoder
        self.size = size
        self._vectors: OrderedDict[str, NDArray[np.float32]] = OrderedDict()

    @property
    def name(self) -> str:
        return self.encoder.name

    @property
    def dimension(self) -> int:
        return self.encoder.dimension

    def __len__(self) -> int:
        return len(self._vectors)

    def encode_queries(self, texts: Sequence[str]) -> NDArray[np.float32]:
        for text in dict.fromkeys(texts):
            if text not in self._vectors:
                self._vectors[text] = self.encoder.encode_queries([text])[0]
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._vectors[text]
            self._vectors.move_to_end(text)
        while len(self._vectors) > self.size:
            self._vectors.popitem(last=False)
        return out

    def encode_documents(self, texts: Sequence[str]) -> NDArray[np.float32]:
        return self.encoder.encode_documents(texts)
