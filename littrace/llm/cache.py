"""Persistent, content-addressed cache of LLM calls: one JSON file per request.

The key is the SHA-256 of the canonical JSON of everything that shapes a reply (model, server,
messages, sampling parameters, response format); credentials and timeouts are left out, so
changing a key or a deadline keeps the cache. The client stores a reply only once it parsed
(:mod:`littrace.llm.client`). Files live at ``<dir>/<key[:2]>/<key>.json`` and
are written to a temporary file in the same folder, then renamed over the target: a reader in
any thread or process sees a whole entry or none, and two writers of one key both leave a
whole (identical) entry.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> cache = CallCache(Path(tempfile.mkdtemp()))
    >>> key = request_key({"model": "openai/gpt-4.1-mini", "messages": []})
    >>> cache.put(key, CachedReply(content='{"ok": true}', prompt_tokens=3, completion_tokens=2))
    >>> cache.get(key).content
    '{"ok": true}'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from littrace.digest import stable_digest
from littrace.files import atomic_write

__all__ = ["CachedReply", "CallCache", "request_key"]


class CachedReply(BaseModel):
    """What one provider call returned, enough to replay it without the provider."""

    content: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


def request_key(request: dict[str, Any]) -> str:
    """SHA-256 hex of the request's canonical JSON (sorted keys, no whitespace)."""
    return stable_digest(request)


class CallCache:
    """A folder of cached replies addressed by :func:`request_key`."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        # Two-character fan-out keeps folders small on runs with many thousands of calls.
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedReply | None:
        """The cached reply, or None when absent or unreadable (then the call is made again)."""
        try:
            return CachedReply.model_validate_json(self.path(key).read_bytes())
        except (OSError, ValidationError):
            return None

    def put(self, key: str, reply: CachedReply) -> None:
        """Store ``reply`` atomically (temporary file, fsync, rename)."""
        with atomic_write(self.path(key), "wb") as handle:
            handle.write(reply.model_dump_json().encode("utf-8"))
