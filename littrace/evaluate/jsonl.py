"""Reading JSONL the way the official LitTraceQA scripts do.

Both official scripts read UTF-8 JSONL line by line, skip lines that are blank after
trimming, parse the rest with Python's ``json`` module (which accepts ``NaN``, ``Infinity``
and integers of any size) and require every record to be a JSON object. They differ only in
their messages, so the reader raises one error type and each caller words it.

Example:
    >>> from pathlib import Path
    >>> for line_no, record in read_official_jsonl(Path("gold.jsonl")):  # doctest: +SKIP
    ...     print(line_no, record["query_id"])
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal


@dataclass(frozen=True)
class JsonlLineError(ValueError):
    """A line that the official scripts would stop on.

    ``line`` is the physical 1-based line number; ``problem`` says what is wrong with it.
    """

    path: Path
    line: int
    problem: Literal["invalid_json", "not_object", "not_utf8"]
    detail: str = ""

    def __str__(self) -> str:
        what = {
            "invalid_json": "is not valid JSON",
            "not_object": "must be a JSON object",
            "not_utf8": "is not valid UTF-8",
        }[self.problem]
        suffix = f" ({self.detail})" if self.detail else ""
        return f"{self.path}:{self.line} {what}{suffix}"


def read_official_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(physical line number, record)`` for each non-blank line of ``path``.

    Raises :class:`JsonlLineError` at the first line that is not valid UTF-8, not valid JSON
    or not a JSON object, and ``FileNotFoundError`` if the file is missing.
    """
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        prefix = raw[: error.start].decode("utf-8", errors="replace")
        bad_line = len(_physical_lines(prefix))
        raise JsonlLineError(path, bad_line, "not_utf8", str(error.reason)) from error
    # Text-mode iteration splits on \n, \r\n and \r alone: the official scripts' physical lines.
    for line_no, line in enumerate(_physical_lines(text), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        try:
            record = json.loads(stripped)
        except (ValueError, RecursionError) as error:
            raise JsonlLineError(path, line_no, "invalid_json", str(error)) from error
        if not isinstance(record, dict):
            raise JsonlLineError(path, line_no, "not_object", type(record).__name__)
        yield line_no, record


def _physical_lines(text: str) -> list[str]:
    """Split like a text-mode file object with universal newlines (``\\n``, ``\\r\\n``, ``\\r``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
