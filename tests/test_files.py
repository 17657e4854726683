"""Atomic file writes: readers see the old content or the new, never half of either."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from littrace.files import atomic_path, atomic_write


def test_a_write_replaces_the_file_whole_and_leaves_no_scratch(tmp_path: Path) -> None:
    target = tmp_path / "out" / "answers.jsonl"
    with atomic_write(target) as handle:
        handle.write("é\n")
        # Until the block ends, the target is not there to be read half-written.
        assert not target.exists()
    assert target.read_text(encoding="utf-8") == "é\n"
    with atomic_write(target, "wb") as handle:
        handle.write(b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    assert [p.name for p in target.parent.iterdir()] == ["answers.jsonl"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_scratch(tmp_path: Path) -> None:
    target = tmp_path / "answers.jsonl"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write("half a new file")
        raise RuntimeError("killed")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["answers.jsonl"]


def test_a_library_writing_by_path_gets_a_scratch_path_beside_the_target(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    source.write_text("copied\n", encoding="utf-8")
    target = tmp_path / "run" / "test.jsonl"
    with atomic_path(target) as scratch:
        assert scratch.parent == target.parent and scratch.name.endswith(".tmp")
        shutil.copyfile(source, scratch)
    assert target.read_text(encoding="utf-8") == "copied\n"


def test_only_whole_file_modes_are_accepted(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"), atomic_write(tmp_path / "x", "a"):
        pass
