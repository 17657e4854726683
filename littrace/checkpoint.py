"""Resumable per-question work: finished records survive an interrupted run.

Each finished question's record is appended to a JSONL journal and flushed to disk before the
next one starts, so a rerun after a crash or Ctrl-C skips what is done. A torn last line (the
process died mid-write) is ignored and that question is simply redone.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> journal = QuestionJournal(Path(tempfile.mkdtemp()) / "records.jsonl")
    >>> journal.append({"query_id": "q1", "answer": 1})
    >>> sorted(QuestionJournal(journal.path).done)
    ['q1']
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

Record = dict[str, Any]


class QuestionJournal:
    """An append-only JSONL file of finished per-question records keyed by ``query_id``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _drop_torn_tail(path)
        self.done: dict[str, Record] = dict(_read(path))

    def append(self, record: Record) -> None:
        """Persist one finished record (flushed and fsynced before returning)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Keys in their order, and the record kept as a rerun will read it back: a resumed
        # run must write what an uninterrupted one writes, byte for byte.
        line = json.dumps(record, ensure_ascii=False, default=str)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.done[str(record["query_id"])] = json.loads(line)

    def run(
        self,
        query_ids: Iterable[str],
        work: Callable[[str], Record],
        *,
        on_done: Callable[[str, bool], None] | None = None,
    ) -> list[Record]:
        """Records for ``query_ids`` in order, computing those not yet in the journal one at a
        time with ``work``.

        ``on_done(query_id, reused)`` is called after each question (for progress bars).
        """
        return self.run_pending(query_ids, lambda pending: map(work, pending), on_done=on_done)

    def run_pending(
        self,
        query_ids: Iterable[str],
        answer: Callable[[list[str]], Iterable[Record]],
        *,
        on_done: Callable[[str, bool], None] | None = None,
    ) -> list[Record]:
        """Records for ``query_ids`` in order; ``answer(pending)`` computes the questions not
        yet in the journal and yields each record as it finishes, in any order (parallel
        workers finish out of order). Each record is journaled as it arrives, so an
        interrupted run keeps every question that finished.

        ``on_done(query_id, reused)`` is called for each reused question, then for each
        record as it arrives.
        """
        query_ids = list(dict.fromkeys(query_ids))
        pending = [query_id for query_id in query_ids if query_id not in self.done]
        if on_done is not None:
            for query_id in query_ids:
                if query_id in self.done:
                    on_done(query_id, True)
        missing = set(pending)
        for record in answer(pending):
            query_id = str(record["query_id"])
            if query_id not in missing:
                raise ValueError(f"journal: a record for {query_id!r}, not a pending question")
            missing.discard(query_id)
            self.append(record)
            if on_done is not None:
                on_done(query_id, False)
        if missing:
            raise ValueError(f"journal: no record came for {sorted(missing)}")
        return [self.done[query_id] for query_id in query_ids]


def _drop_torn_tail(path: Path) -> None:
    # A process killed mid-write leaves a line without its newline; appending after it would
    # glue the next record onto it, so cut the file back to its last complete line.
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


def _read(path: Path) -> Iterator[tuple[str, Record]]:
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and "query_id" in record:
                yield str(record["query_id"]), record
