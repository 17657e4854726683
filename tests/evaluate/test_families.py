"""Official metrics per family: each family scores as a gold file of only its questions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from littrace.evaluate.families import AXES, evaluate_by_family, family_labels
from littrace.evaluate.official import evaluate_records, read_records

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "littraceqa"


def _wrong_letters(records: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """The gold as a prediction, with every multiple-choice letter of a multi-paper question wrong."""
    predicted = []
    for line, record in records:
        copy = json.loads(json.dumps(record))
        choice = copy["answer"].get("multiple_choice")
        if choice and record["task_family"] == "multi_paper":
            choice["gold"] = "A" if choice["gold"] != "A" else "B"
        predicted.append((line, copy))
    return predicted


def test_each_family_scores_like_a_gold_file_of_its_questions() -> None:
    gold = read_records(DATA / "validation.jsonl", "gold")
    predicted = _wrong_letters(gold)
    families = evaluate_by_family(gold, predicted)
    assert list(families) == list(AXES)
    assert families["overall"]["all"].questions == 55
    assert {label: s.questions for label, s in families["task_family"].items()} == {
        "hidden_source_single_paper": 26,
        "multi_paper": 29,
    }
    multi = [(n, r) for n, r in gold if r["task_family"] == "multi_paper"]
    expected = evaluate_records(multi, predicted)
    assert families["task_family"]["multi_paper"].metrics == expected["metrics"]
    assert families["task_family"]["multi_paper"].metrics["multiple_choice_accuracy"] == 0.0
    assert families["task_family"]["hidden_source_single_paper"].composite_score == 1.0
    overall = evaluate_records(gold, predicted)
    assert families["overall"]["all"].composite_score == overall["composite_score"]


def test_a_question_with_two_answer_types_is_in_both_families() -> None:
    record = {
        "task_family": "multi_paper",
        "primary_evidence_type": "figure",
        "answer_types": ["multiple_choice", "freeform"],
    }
    assert family_labels(record) == {
        "overall": ["all"],
        "task_family": ["multi_paper"],
        "answer_type": ["freeform", "multiple_choice"],
        "evidence_type": ["figure"],
    }
    gold = read_records(DATA / "validation.jsonl", "gold")
    families = evaluate_by_family(gold, gold)
    both = sum({"freeform", "multiple_choice"} <= set(r["answer_types"]) for _, r in gold)
    sizes = {label: s.questions for label, s in families["answer_type"].items()}
    assert sum(sizes.values()) == 55 + both + 3  # 3 questions are freeform + table
    assert sizes["table"] == 11
