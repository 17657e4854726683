"""LitTraceQA models: they accept and reject what the official JSON schemas do."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from littrace.littraceqa import (
    GoldRecord,
    JsonlError,
    Locator,
    MultipleChoiceAnswer,
    PoolPaper,
    PredictedEvidence,
    PredictedPaper,
    Question,
    Submission,
    SubmissionAnswer,
    TableAnswer,
    official_schema,
    read_jsonl,
    schema_errors,
)

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "littraceqa"
BUNDLED = Path(__file__).resolve().parents[1] / "littrace" / "schemas"


@pytest.mark.parametrize("name", ["input", "littraceqa", "submission"])
def test_bundled_schemas_equal_the_release(name: str) -> None:
    release = json.loads((DATA / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert official_schema(name) == release
    assert (BUNDLED / f"{name}.schema.json").read_bytes() == (
        DATA / f"{name}.schema.json"
    ).read_bytes()


@pytest.mark.parametrize(
    ("file_name", "model", "count"),
    [
        ("validation.jsonl", GoldRecord, 55),
        ("validation_inputs.jsonl", Question, 55),
        ("test.jsonl", Question, 71),
        ("test_extra.jsonl", Question, 4901),
        ("sample_submission.jsonl", Submission, 55),
        ("test_sample_submission.jsonl", Submission, 71),
    ],
)
def test_release_files_read(file_name: str, model: type[BaseModel], count: int) -> None:
    assert len(read_jsonl(DATA / file_name, model)) == count


def test_release_gold_deviates_from_its_schema_only_in_locator_details() -> None:
    for line in (DATA / "validation.jsonl").read_text(encoding="utf-8").splitlines():
        for error in schema_errors(json.loads(line), "littraceqa"):
            assert error.startswith("evidence/") and "/locator/" in error, error


def test_submission_line_round_trips_and_passes_the_official_schema() -> None:
    record = Submission(
        query_id="q_001",
        gold_papers=[PredictedPaper(paper_id="acl2025_00005")],
        evidence=[
            PredictedEvidence(
                paper_id="acl2025_00005",
                source_type="table",
                locator=Locator(page=6, table_id="Table 4"),
            )
        ],
        answer=SubmissionAnswer(
            multiple_choice=MultipleChoiceAnswer(gold="C"),
            table=TableAnswer(rows=[{"model": "x", "score": None}]),
        ),
    )
    line = record.to_json_line()
    assert json.loads(line)["evidence"][0]["locator"] == {"page": 6, "table_id": "Table 4"}
    assert json.loads(line)["answer"]["table"]["rows"] == [{"model": "x", "score": None}]
    assert schema_errors(json.loads(line), "submission") == []
    assert Submission.model_validate_json(line) == record


@pytest.mark.parametrize(
    "locator",
    [
        {"page": 0},
        {"page": "6"},
        {"page": 6.0},
        {"page": True},
        {"row": "1"},
        {"page": 2, "table_id": 4},
    ],
)
def test_locators_the_schema_rejects(locator: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Locator.model_validate(locator)


def test_pool_paper_keeps_unknown_fields() -> None:
    paper = PoolPaper.model_validate(
        {"paper_id": "acl2025_00005", "title": "T", "openreview_id": "x"}
    )
    assert paper.model_extra == {"openreview_id": "x"}


def test_pool_paper_reads_the_shared_distractor_records() -> None:
    # Metadata-only records: null venue, year, pdf (../shared/data/distractors/README.md).
    distractors = DATA.parent / "distractors" / "abstracts.jsonl"
    records = read_jsonl(distractors, PoolPaper)
    assert len(records) == 2271
    assert records[0].venue == "" and records[0].year is None and records[0].pdf is None
    assert records[0].title.startswith("Uncovering the Potential of ChatGPT")


def test_read_jsonl_names_every_bad_line(tmp_path: Path) -> None:
    good = {
        "query_id": "q1",
        "benchmark": "LitTraceQA",
        "question": "Q?",
        "answer_types": ["freeform"],
    }
    lines = [
        json.dumps(good),
        "{not json",
        "",
        json.dumps({**good, "answer_types": ["table"]}),
        json.dumps({**good, "extra": 1}),
    ]
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(JsonlError) as caught:
        read_jsonl(path, Question)
    bad = caught.value.bad_lines
    assert [item.line for item in bad] == [2, 4, 5]
    assert "invalid JSON" in bad[0].message
    assert "table_schema" in bad[1].message
    assert "extra" in bad[2].message
    assert f"{path}:2:" in str(caught.value)


# --- the models agree with the official JSON schemas on mutated records --------------------

VALID_INPUT: dict[str, Any] = {
    "query_id": "q1",
    "benchmark": "LitTraceQA",
    "question": "Which?",
    "answer_types": ["multiple_choice", "table"],
    "multiple_choice_options": [{"label": "A", "text": "x"}, {"label": "B", "text": "y"}],
    "table_schema": [{"name": "paper", "type": "string", "is_row_key": True}],
}
VALID_SUBMISSION: dict[str, Any] = {
    "query_id": "q1",
    "gold_papers": [{"paper_id": "p1"}],
    "evidence": [
        {"paper_id": "p1", "source_type": "figure", "locator": {"page": 2, "figure_id": "Figure 1"}}
    ],
    "answer": {
        "freeform": {"text": "x"},
        "multiple_choice": {"gold": "B"},
        "table": {"rows": [{"paper": "p"}]},
    },
}
ODD_VALUES = [None, "", "A", "a", "x", 0, 1, 2.5, -1, True, [], {}, ["freeform"], [{}], {"k": 1}]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            paths += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            paths += _paths(child, (*prefix, index))
    return paths


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 2))):
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        parent: Any = record
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add_key"]))
        if action == "replace":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add_key" and isinstance(parent, dict):
            key = draw(st.sampled_from(["extra", "row", "page", "gold", "schema"]))
            parent[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
    return record


def _accepts(model: type[BaseModel], record: dict[str, Any]) -> bool:
    try:
        model.model_validate(record)
    except ValidationError:
        return False
    return True


@settings(max_examples=1500, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(VALID_INPUT))
def test_question_model_agrees_with_input_schema(record: dict[str, Any]) -> None:
    assert _accepts(Question, record) == (schema_errors(record, "input") == []), record


@settings(max_examples=1500, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(VALID_SUBMISSION))
def test_submission_model_agrees_with_submission_schema(record: dict[str, Any]) -> None:
    assert _accepts(Submission, record) == (schema_errors(record, "submission") == []), record
