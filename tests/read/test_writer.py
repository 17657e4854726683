"""The fail-closed writer: validate, repair or fall back, never drop; atomic JSONL."""

from __future__ import annotations

import json
from pathlib import Path

from littrace.evaluate.validate import validate_submission
from littrace.littraceqa import Question
from littrace.read.writer import checked_record, fallback_record, record_errors, write_submission

QUESTION = Question.model_validate(
    {
        "query_id": "q1",
        "benchmark": "LitTraceQA",
        "question": "Which and how much?",
        "answer_types": ["multiple_choice", "freeform", "table"],
        "multiple_choice_options": [{"label": "A", "text": "x"}, {"label": "B", "text": "y"}],
        "table_schema": [
            {"name": "Method", "type": "string", "is_row_key": True},
            {"name": "Score", "type": "number", "is_row_key": False},
        ],
    }
)
GOOD = {
    "query_id": "q1",
    "gold_papers": [{"paper_id": "p1"}],
    "evidence": [
        {"paper_id": "p1", "source_type": "table", "locator": {"page": 3, "table_id": "Table 1"}}
    ],
    "answer": {
        "multiple_choice": {"gold": "B"},
        "freeform": {"text": "41.2"},
        "table": {"rows": [{"Method": "M", "Score": 41.2}]},
    },
}


def test_a_valid_record_passes_unchanged() -> None:
    assert record_errors(GOOD, QUESTION) == []
    assert checked_record(GOOD, QUESTION) == (GOOD, None)


def test_an_invalid_record_is_repaired_and_the_reason_kept() -> None:
    bad = {
        "query_id": "q1",
        "gold_papers": [{"paper_id": "p1"}, {"paper_id": "p1"}],
        "evidence": [
            {"paper_id": "p1", "source_type": "table", "locator": {"page": 3}},
            {"paper_id": "p9", "source_type": "table", "locator": {"page": 1}},  # not emitted
            {"paper_id": "p1", "source_type": "slide", "locator": {"page": 2}},  # bad type
            {"paper_id": "p1", "source_type": "text_span", "locator": {}},  # empty locator
        ],
        "answer": {
            "multiple_choice": {"gold": "Q"},
            "freeform": {"text": "  "},
            "table": {"rows": [{"Method": "M", "Score": "41.2%"}]},
        },
    }
    record, reason = checked_record(bad, QUESTION)
    assert record_errors(record, QUESTION) == []
    assert reason is not None and reason.startswith("repaired:") and "duplicate paper_id" in reason
    assert record["gold_papers"] == [{"paper_id": "p1"}]
    assert record["evidence"] == [bad["evidence"][0]]
    assert record["answer"]["multiple_choice"] == {"gold": "A"}
    assert record["answer"]["freeform"] == {"text": "unknown"}
    assert record["answer"]["table"] == {"rows": [{"Method": "M", "Score": 41.2}]}


def test_an_unrepairable_record_becomes_the_recorded_fallback() -> None:
    record, reason = checked_record({"query_id": "other", "answer": 7}, QUESTION)
    assert record == fallback_record(QUESTION)
    assert reason is not None and reason.startswith("fallback:")
    assert record_errors(record, QUESTION) == []


def test_the_file_has_one_line_per_question_and_passes_the_official_validator(
    tmp_path: Path,
) -> None:
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(QUESTION.model_dump_json(exclude_none=True) + "\n", encoding="utf-8")
    out = tmp_path / "sub" / "submission.jsonl"
    assert write_submission(out, [GOOD]) == 1
    assert [json.loads(line) for line in out.read_text().splitlines()] == [GOOD]
    assert validate_submission(inputs, out).ok
    assert [p.name for p in out.parent.iterdir()] == ["submission.jsonl"]  # no temp file left
