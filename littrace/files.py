"""Writing a file so that its readers see the old content or the new, never half of either.

Every writer of a file another process may read while it is written (a submission, a
lineage record, an LLM reply in the cache, an index file, a report) goes through
:func:`atomic_write`, or :func:`atomic_path` when a library writes the file itself from a
path (hnswlib, ``shutil.copyfile``, a NumPy memory map): the content goes to a scratch file
beside the target, is flushed to disk, and replaces the target in one rename; a failure
leaves the target as it was and removes the scratch file.

Example:
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "answers.jsonl"
    >>> with atomic_write(target) as handle:
    ...     _ = handle.write('{"query_id": "q1"}\\n')
    >>> target.read_text()
    '{"query_id": "q1"}\\n'
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

__all__ = ["atomic_path", "atomic_write"]


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A scratch path beside ``target`` (same directory, so the rename cannot cross file
    systems) that replaces ``target`` when the block succeeds and is removed when it fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # Hidden and ending in ".tmp": no reader globbing for the target's kind picks it up.
    scratch = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        yield scratch
        os.replace(scratch, target)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(target: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """``target`` opened for writing (``mode`` "w" for UTF-8 text or "wb"), replaced only once
    everything written to the handle is on disk."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write writes a whole file: mode 'w' or 'wb', not {mode!r}")
    encoding = None if mode == "wb" else "utf-8"
    with atomic_path(target) as scratch, scratch.open(mode, encoding=encoding) as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())
