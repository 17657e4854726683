"""Content identity: the digest of a value's canonical JSON, and of a file's bytes.

The artifact store names an artifact by the digest of what made it, the settings tree
digests the sub-trees a stage reads, and the LLM cache keys a reply by its request: all
three hash the same canonical text (keys sorted, no whitespace, UTF-8, no NaN), so a value
has one digest whatever order its keys were written in.

Example:
    >>> stable_digest({"b": 1, "a": [1, 2]}) == stable_digest({"a": [1, 2], "b": 1})
    True
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

__all__ = ["canonical_json", "sha256_file", "stable_digest"]


def canonical_json(value: Any) -> str:
    """``value`` as JSON text that depends on its content only: sorted keys, fixed
    separators, non-ASCII kept, NaN refused."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def stable_digest(value: Any) -> str:
    """SHA-256 hex of ``value``'s :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    """SHA-256 hex of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
