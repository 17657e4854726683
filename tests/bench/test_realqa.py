"""The real-question benchmark's data: up to date, self-consistent, and the mix it promises."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.realqa import build
from bench.realqa.run import markdown, metrics_table
from littrace.evaluate.families import evaluate_by_family, families_json
from littrace.evaluate.official import read_records

HERE = build.HERE


def _records(split: str, name: str) -> list[dict[str, Any]]:
    return build.read_jsonl(HERE / split / name)


def _all_gold() -> list[dict[str, Any]]:
    return [r for split in build.SPLITS for r in _records(split, "gold.jsonl")]


def test_the_generated_files_match_their_sources() -> None:
    stale = [
        str(path.relative_to(HERE))
        for path, text in build.outputs().items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run bench/realqa/build.py"


@pytest.mark.parametrize("split", build.SPLITS)
def test_the_gold_scores_one_against_itself_and_validates(split: str) -> None:
    assert list(build.self_check_errors(HERE / split, HERE / "pool.jsonl")) == []


def test_a_broken_gold_is_caught_by_the_self_check(tmp_path: Path) -> None:
    gold = _records("dev", "gold.jsonl")
    gold[0]["gold_papers"][0]["paper_id"] = "dist_00001"
    (tmp_path / "gold.jsonl").write_text(build.dumps(gold))
    (tmp_path / "questions.jsonl").write_text(build.dumps(build.question_of(g) for g in gold))
    errors = list(build.self_check_errors(tmp_path, HERE / "pool.jsonl"))
    assert any("dist_00001 is not a PDF-backed pool paper" in e for e in errors)


def test_every_fixture_paper_is_in_the_pool_and_asked_about() -> None:
    papers = build.read_jsonl(HERE / "papers.jsonl")
    pdfs = {p["pdf"] for p in papers}
    on_disk = {
        str(path.relative_to(build.FIXTURES))
        for folder in ("pdfs", "recent")
        for path in (build.FIXTURES / folder).glob("*.pdf")
    }
    assert pdfs == on_disk
    pool = build.read_jsonl(HERE / "pool.jsonl")
    assert len(pool) == len(papers) + 2271 and len({p["paper_id"] for p in pool}) == len(pool)
    asked = Counter(p["paper_id"] for r in _all_gold() for p in r["gold_papers"])
    assert {p["paper_id"] for p in papers} <= set(asked)
    assert all(p["abstract"] and p["authors"] and p["venue"] and p["year"] for p in papers)


def test_the_mix_follows_the_real_splits() -> None:
    gold = _all_gold()
    n = len(gold)
    assert n >= 100
    multi = [r for r in gold if r["task_family"] == "multi_paper"]
    assert len(multi) / n >= 0.30
    assert any(len({p["paper_id"] for p in r["gold_papers"]}) >= 3 for r in multi)
    choice = sum("multiple_choice" in r["answer_types"] for r in gold) / n
    table = sum("table" in r["answer_types"] for r in gold) / n
    assert 0.55 <= choice <= 0.75 and 0.15 <= table <= 0.35
    assert sum(r["answer_types"] == ["freeform"] for r in gold) >= 5
    evidence = Counter(r["primary_evidence_type"] for r in gold)
    assert set(evidence) == {
        "table",
        "figure",
        "text_span",
        "equation_algorithm",
        "citation_context",
    }
    assert min(evidence.values()) >= 5
    for r in gold:
        if "multiple_choice" in r["answer_types"]:
            options = r["answer"]["multiple_choice"]["options"]
            assert sorted(options) == ["A", "B", "C", "D"], r["query_id"]
    letters = Counter(
        r["answer"]["multiple_choice"]["gold"] for r in gold if "multiple_choice" in r["answer"]
    )
    assert min(letters.values()) >= 0.15 * sum(letters.values())


def test_every_question_says_who_checked_it_and_how() -> None:
    styles = Counter()
    for split in build.SPLITS:
        notes = _records(split, "notes.jsonl")
        gold = _records(split, "gold.jsonl")
        assert [n["query_id"] for n in notes] == [g["query_id"] for g in gold]
        for note in notes:
            assert note["checked_by"].strip() and len(note["notes"]) >= 20, note["query_id"]
            styles[note["style"]] += 1
    wanted = {
        "nth_reference",
        "figure_best",
        "multilevel_header",
        "prose_value",
        "hyperparameter",
        "difference",
        "dataset_statistic",
    }
    assert wanted <= set(styles)


def test_the_split_is_about_two_thirds_dev_and_covers_every_family() -> None:
    dev = _records("dev", "gold.jsonl")
    test = _records("test", "gold.jsonl")
    assert not {r["query_id"] for r in dev} & {r["query_id"] for r in test}
    assert 0.25 <= len(test) / (len(dev) + len(test)) <= 0.40
    for family in ("hidden_source_single_paper", "multi_paper"):
        assert sum(r["task_family"] == family for r in test) >= 5
    for kind in ("table", "multiple_choice", "freeform"):
        assert sum(kind in r["answer_types"] for r in test) >= 5
    assert all(build.split_of(r["query_id"]) == "test" for r in test)


def test_the_report_tables_show_every_family() -> None:
    gold = read_records(HERE / "test" / "gold.jsonl", "gold")
    families = evaluate_by_family(gold, gold)
    table = metrics_table("test", families)
    assert table.row_count == sum(len(groups) for groups in families.values())
    results = {
        "label": "t",
        "when": "now",
        "profile": None,
        "llm": None,
        "reader": None,
        "commit": "c",
        "splits": {
            "test": {
                "questions": len(gold),
                "seconds": 1.0,
                "families": families_json(families),
                "recall": {
                    "overall": {
                        "questions": len(gold),
                        **{f"recall@{k}": 1.0 for k in (1, 5, 10, 20, 50)},
                    }
                },
            }
        },
    }
    text = markdown(results)
    assert "| task_family: multi_paper |" in text and "| overall |" in text
    assert json.dumps(results)  # what run.py writes beside the markdown


def test_reused_answers_are_reported_as_reused_not_as_a_time(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from bench.realqa.run import answer_time, answers_reused
    from littrace.artifacts import ArtifactStore

    store = ArtifactStore(tmp_path, catalog=False)
    with store.writer(store.key("answers", code_version="t", inputs={}, config={})) as writer:
        (writer.path / "submission.jsonl").write_text("")
    made = writer.artifact.path
    assert answers_reused(made, datetime.now(UTC) + timedelta(seconds=1))
    assert not answers_reused(made, datetime.now(UTC) - timedelta(hours=1))
    assert answer_time({"seconds": 2.0, "answers_reused": True}) == (
        "answers reused from an earlier run"
    )
    assert answer_time({"seconds": 93.4, "answers_reused": False}) == "93 s to answer"
