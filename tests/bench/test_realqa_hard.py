"""The hard realqa pool: the realqa pool first, then synthetic distractors on its papers'
topics up to the size asked, written once; and its results table."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.realqa import hard


def test_the_hard_pool_is_the_realqa_pool_then_distractors_on_its_topics(tmp_path: Path) -> None:
    path = hard.write_pool(tmp_path / "pool.jsonl", 10_000)
    lines = path.read_text().splitlines()
    base = (hard.HERE / "pool.jsonl").read_text().splitlines()
    assert len(lines) == 10_000 and lines[: len(base)] == base
    records = [json.loads(line) for line in lines]
    assert len({r["paper_id"] for r in records}) == 10_000
    synthetic = records[len(base) :]
    assert all(r["abstract"] and r["title"] and r["authors"] for r in synthetic)
    # Every realqa work's subject heads a share of the distractors, none crowding the rest.
    realqa = [json.loads(line) for line in (hard.HERE / "papers.jsonl").read_text().splitlines()]
    subjects = {p["title"].split(":", 1)[-1].strip().lower() for p in realqa}
    per_subject = Counter(r["title"].split(" for ", 1)[1].lower() for r in synthetic)
    assert len(per_subject) == len(subjects)
    assert max(per_subject.values()) < 3 * min(per_subject.values())

    before = path.stat().st_mtime_ns
    hard.write_pool(path, 10_000)
    assert path.stat().st_mtime_ns == before  # unchanged content is not rewritten
    with pytest.raises(SystemExit, match="below"):
        hard.write_pool(tmp_path / "small.jsonl", 100)


def test_the_results_table_has_a_row_per_variant_and_single_multi_all_columns() -> None:
    def report(value: float) -> dict[str, object]:
        cells = {f"recall@{k}": value for k in (1, 5, 10, 20, 50, 100)}
        return {
            "hidden_source_single_paper": {"questions": 2, **cells},
            "multi_paper": {"questions": 1, **cells},
            "overall": {"questions": 3, **cells},
            "gold_without_candidates": [],
        }

    results = {
        "label": "hard",
        "when": "now",
        "commit": "abc",
        "profile": None,
        "pool_papers": 10_000,
        "ingest": {"chunks": 12},
        "splits": {"dev": {"seconds": 5, "variants": {"a": report(0.5), "b": report(1.0)}}},
    }
    text = hard.markdown(results)
    assert "## dev (single 2, multi 1, all 3 questions; 5 s for all variants" in text
    assert "| a | " + " | ".join(["0.500"] * 12) + " |" in text
    assert "| variant | single @1 | single @5 | single @10 | single @50 | multi @1" in text
