"""Content identity: one digest per value whatever its key order, and of a file's bytes."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import pytest

from littrace.digest import canonical_json, sha256_file, stable_digest


def test_a_value_has_one_digest_whatever_order_its_keys_were_written_in() -> None:
    assert stable_digest({"b": 1, "a": {"y": 2, "x": [1, "é"]}}) == stable_digest(
        {"a": {"x": [1, "é"], "y": 2}, "b": 1}
    )
    assert stable_digest({"a": 1}) != stable_digest({"a": 2})
    # The canonical text the artifact store, the settings and the LLM cache all hash.
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    expected = hashlib.sha256('{"a":"é","b":1}'.encode()).hexdigest()
    assert stable_digest({"b": 1, "a": "é"}) == expected


def test_a_value_without_a_canonical_text_is_refused() -> None:
    with pytest.raises(ValueError):
        stable_digest({"score": math.nan})


def test_a_file_digest_is_the_digest_of_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / "pool.jsonl"
    path.write_bytes(b"x" * (3 << 20))  # more than one block
    assert sha256_file(path) == hashlib.sha256(b"x" * (3 << 20)).hexdigest()
