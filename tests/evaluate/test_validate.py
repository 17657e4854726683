"""`littrace validate` must accept and reject exactly what the official validator does.

Expected messages are written out literally from docs/LITTRACEQA.md ("Official validator:
exact rules") so that a changed message template fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from littrace.evaluate.validate import ValidationResult, validate_submission

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "littraceqa"

PAPER = "acl2025_00005"
OTHER_PAPER = "acl2025_02422"
OPTIONS = [{"label": label, "text": f"option {label}"} for label in "ABCD"]
INPUTS: list[dict[str, Any]] = [
    {"query_id": "q_ff", "question": "Which hardware?", "answer_types": ["freeform"]},
    {
        "query_id": "q_mc",
        "question": "Which value?",
        "answer_types": ["multiple_choice"],
        "multiple_choice_options": OPTIONS,
    },
    {
        "query_id": "q_tab",
        "question": "Which scores?",
        "answer_types": ["table"],
        "table_schema": [
            {"name": "method", "type": "string", "is_row_key": True},
            {"name": "score", "type": "number", "is_row_key": False},
            {"name": "open", "type": "boolean", "is_row_key": False},
        ],
    },
    {
        "query_id": "q_mix",
        "question": "How much better?",
        "answer_types": ["multiple_choice", "freeform"],
        "multiple_choice_options": OPTIONS,
    },
]
ANSWERS: dict[str, dict[str, Any]] = {
    "q_ff": {"freeform": {"text": "8 A100 GPUs"}},
    "q_mc": {"multiple_choice": {"gold": "C"}},
    "q_tab": {"table": {"rows": [{"method": "ICAE", "score": 14.7, "open": True}]}},
    "q_mix": {"freeform": {"text": "14.70"}, "multiple_choice": {"gold": "C"}},
}
# The pool's raw ids are id-normed, so " acl2025_02422 " is known as "acl2025_02422".
POOL = [{"paper_id": PAPER, "title": "500x Compressor"}, {"paper_id": f" {OTHER_PAPER} "}]


def pred(qid: str, *, drop: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """A valid prediction for ``qid`` with ``fields`` replaced and ``drop`` removed."""
    record: dict[str, Any] = {
        "query_id": qid,
        "gold_papers": [{"paper_id": PAPER}],
        "evidence": [
            {
                "paper_id": PAPER,
                "source_type": "table",
                "locator": {"page": 6, "table_id": "Table 4"},
            }
        ],
        "answer": ANSWERS[qid],
    }
    record.update(fields)
    for key in drop:
        del record[key]
    return record


def preds(**changed: dict[str, Any]) -> list[dict[str, Any]]:
    """Valid predictions for all inputs, with some replaced (keyed by query id)."""
    return [changed.get(row["query_id"], pred(row["query_id"])) for row in INPUTS]


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def run(
    tmp_path: Path,
    predictions: list[dict[str, Any]],
    *,
    inputs: list[dict[str, Any]] = INPUTS,
    input_name: str = "test.jsonl",
    pool: list[dict[str, Any]] | None = POOL,
    require_evidence: bool | None = None,
) -> ValidationResult:
    return validate_submission(
        write_jsonl(tmp_path / input_name, inputs),
        write_jsonl(tmp_path / "pred.jsonl", predictions),
        None if pool is None else write_jsonl(tmp_path / "pool.jsonl", pool),
        require_evidence,
    )


def errors_of(tmp_path: Path, predictions: list[dict[str, Any]], **options: Any) -> list[str]:
    result = run(tmp_path, predictions, **options)
    assert result.fatal is None
    return result.errors


# --- Official sample submissions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("input_name", "sample_name", "count"),
    [
        ("validation_inputs.jsonl", "sample_submission.jsonl", 55),
        ("test.jsonl", "test_sample_submission.jsonl", 71),
    ],
)
def test_official_sample_submissions_are_valid(
    input_name: str, sample_name: str, count: int
) -> None:
    if not (DATA / sample_name).exists():
        pytest.skip(f"LitTraceQA data not found at {DATA}")
    # They carry empty gold_papers and evidence, placeholders, and 0 in number columns.
    result = validate_submission(DATA / input_name, DATA / sample_name)
    assert result.errors == []
    assert result.ok
    assert result.render() == f"Submission is valid: {count} predictions"


def test_sample_submission_does_not_fit_the_other_split() -> None:
    if not (DATA / "sample_submission.jsonl").exists():
        pytest.skip(f"LitTraceQA data not found at {DATA}")
    result = validate_submission(DATA / "test.jsonl", DATA / "sample_submission.jsonl")
    assert result.errors[:2] == [
        "missing predictions: 71 (first: ltqa_033b9d024c4f0dee, ltqa_03af2c583a696a04, "
        "ltqa_090478d0ddf8d27f, ltqa_0a98ae6877634bf1, ltqa_0ebcb34dc966f506)",
        "unknown query_id values: 55 (first: q_001, q_002, q_003, q_004, q_005)",
    ]
    assert len(result.errors) == 2


# --- Whole-file checks and output -----------------------------------------------------------


def test_valid_submission(tmp_path: Path) -> None:
    result = run(tmp_path, preds())
    assert result == ValidationResult(errors=[], prediction_count=4, fatal=None)
    assert result.render() == "Submission is valid: 4 predictions"


def test_missing_and_unknown_query_ids_list_first_five_sorted(tmp_path: Path) -> None:
    inputs = [{"query_id": f"q_{i:02d}", "answer_types": ["freeform"]} for i in range(7, 0, -1)]
    answer = {"freeform": {"text": "x"}}
    predictions = [
        {"query_id": " q_07 ", "gold_papers": [], "evidence": [], "answer": answer},
        {"query_id": "z_1", "gold_papers": [], "evidence": [], "answer": answer},
        {"query_id": "a_1", "gold_papers": [], "evidence": [], "answer": answer},
    ]
    result = run(tmp_path, predictions, inputs=inputs)
    assert result.errors == [
        "missing predictions: 6 (first: q_01, q_02, q_03, q_04, q_05)",
        "unknown query_id values: 2 (first: a_1, z_1)",
    ]
    assert result.prediction_count == 3


def test_row_errors_follow_input_order_not_prediction_order(tmp_path: Path) -> None:
    bad = {qid: pred(qid, answer=[]) for qid in ("q_ff", "q_mix")}
    predictions = [bad["q_mix"], pred("q_tab"), bad["q_ff"]]
    assert errors_of(tmp_path, predictions) == [
        "missing predictions: 1 (first: q_mc)",
        "q_ff: answer must be an object",
        "q_mix: answer must be an object",
    ]


def test_render_lists_at_most_100_errors(tmp_path: Path) -> None:
    evidence = ["not an object"] * 103
    result = run(tmp_path, preds(q_ff=pred("q_ff", evidence=evidence)))
    lines = result.render().splitlines()
    assert not result.ok
    assert lines[0] == "Submission is invalid: 103 error(s)"
    assert lines[1] == "- q_ff: evidence[0] must be an object"
    assert lines[100] == "- q_ff: evidence[99] must be an object"
    assert lines[101:] == ["- ... 3 more error(s)"]


def test_render_with_exactly_100_errors_has_no_more_line(tmp_path: Path) -> None:
    result = run(tmp_path, preds(q_ff=pred("q_ff", evidence=[1] * 100)))
    lines = result.render().splitlines()
    assert len(lines) == 101
    assert lines[-1] == "- q_ff: evidence[99] must be an object"


# --- Top-level fields and gold_papers -------------------------------------------------------


def test_unexpected_fields_are_sorted(tmp_path: Path) -> None:
    predictions = preds(q_mc=pred("q_mc", zeta=1, papers=[], answer_text="C"))
    assert errors_of(tmp_path, predictions) == [
        "q_mc: unexpected fields: answer_text, papers, zeta"
    ]


@pytest.mark.parametrize("papers", [None, {"paper_id": PAPER}, PAPER])
def test_gold_papers_must_be_a_list(tmp_path: Path, papers: Any) -> None:
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", gold_papers=papers))) == [
        "q_ff: gold_papers must be a list"
    ]


def test_missing_gold_papers_is_not_a_list(tmp_path: Path) -> None:
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", drop=("gold_papers",)))) == [
        "q_ff: gold_papers must be a list"
    ]


def test_gold_paper_items(tmp_path: Path) -> None:
    papers = [
        PAPER,  # a bare string is not {"paper_id": ...}
        {"paper_id": PAPER, "title": "500x Compressor"},
        {},
        {"paper_id": "   "},
        {"paper_id": 0},
        {"paper_id": None},
        {"paper_id": f" {PAPER} "},
        {"paper_id": PAPER},
        {"paper_id": OTHER_PAPER},
        {"paper_id": "iclr2025_99999"},
        {"paper_id": "iclr2025_99999"},
        {"paper_id": "ACL2025_00005"},  # ids are case-sensitive
    ]
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", gold_papers=papers))) == [
        "q_ff: gold_papers[0] must contain only paper_id",
        "q_ff: gold_papers[1] must contain only paper_id",
        "q_ff: gold_papers[2] must contain only paper_id",
        "q_ff: gold_papers[3].paper_id is empty",
        "q_ff: gold_papers[4].paper_id is empty",
        "q_ff: gold_papers[5].paper_id is empty",
        "q_ff: duplicate paper_id 'acl2025_00005'",
        # An unknown id that repeats is reported as unknown twice, never as a duplicate.
        "q_ff: unknown paper_id 'iclr2025_99999'",
        "q_ff: unknown paper_id 'iclr2025_99999'",
        "q_ff: unknown paper_id 'ACL2025_00005'",
    ]


def test_empty_gold_papers_and_evidence_lists_are_fine(tmp_path: Path) -> None:
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", gold_papers=[], evidence=[]))) == []


def test_without_pool_unknown_ids_are_not_checked_but_duplicates_are(tmp_path: Path) -> None:
    papers = [{"paper_id": "nowhere_1"}, {"paper_id": "nowhere_1"}, {"paper_id": ""}]
    evidence = [{"paper_id": "", "source_type": "figure", "locator": {"page": 1}}]
    predictions = preds(q_ff=pred("q_ff", gold_papers=papers, evidence=evidence))
    assert errors_of(tmp_path, predictions, pool=None) == [
        "q_ff: duplicate paper_id 'nowhere_1'",
        "q_ff: gold_papers[2].paper_id is empty",
    ]


# --- Evidence -------------------------------------------------------------------------------


@pytest.mark.parametrize("evidence", [None, {"paper_id": PAPER}, "page 6"])
def test_required_evidence_must_be_a_list(tmp_path: Path, evidence: Any) -> None:
    assert errors_of(tmp_path, preds(q_mc=pred("q_mc", evidence=evidence))) == [
        "q_mc: evidence must be a list for this split"
    ]


def test_missing_evidence_is_required_by_default(tmp_path: Path) -> None:
    for name in ("test.jsonl", "validation_inputs.jsonl", "Test_Extra.jsonl"):
        assert errors_of(
            tmp_path, preds(q_mc=pred("q_mc", drop=("evidence",))), input_name=name
        ) == ["q_mc: evidence must be a list for this split"], name


@pytest.mark.parametrize("evidence", [None, {"paper_id": PAPER}, "page 6", 0])
def test_test_extra_accepts_non_list_evidence_silently(tmp_path: Path, evidence: Any) -> None:
    predictions = preds(q_mc=pred("q_mc", evidence=evidence), q_ff=pred("q_ff", drop=("evidence",)))
    assert errors_of(tmp_path, predictions, input_name="test_extra.jsonl") == []


def test_require_evidence_flag_overrides_the_file_name(tmp_path: Path) -> None:
    predictions = preds(q_mc=pred("q_mc", drop=("evidence",)))
    assert errors_of(tmp_path, predictions, require_evidence=False) == []
    assert errors_of(
        tmp_path, predictions, input_name="test_extra.jsonl", require_evidence=True
    ) == ["q_mc: evidence must be a list for this split"]


def test_evidence_items_are_checked_even_when_evidence_is_optional(tmp_path: Path) -> None:
    predictions = preds(q_mc=pred("q_mc", evidence=[[PAPER, "table", {"page": 6}]]))
    assert errors_of(tmp_path, predictions, input_name="test_extra.jsonl") == [
        "q_mc: evidence[0] must be an object"
    ]


def test_evidence_items(tmp_path: Path) -> None:
    locator = {"page": 6, "table_id": "Table 4"}
    evidence = [
        "Table 4",
        {"paper_id": PAPER, "source_type": "table"},
        {"paper_id": PAPER, "source_type": "table", "locator": locator, "evidence_id": "ev_001"},
        # Each failing check of one item is reported, in this order.
        {"paper_id": "iclr2025_99999", "source_type": " Table ", "locator": {}},
        {"paper_id": f" {OTHER_PAPER} ", "source_type": " figure ", "locator": "page 3"},
        {"paper_id": None, "source_type": None, "locator": None},
        {"paper_id": PAPER, "source_type": "text", "locator": []},
    ]
    assert errors_of(tmp_path, preds(q_tab=pred("q_tab", evidence=evidence))) == [
        "q_tab: evidence[0] must be an object",
        "q_tab: evidence[1] must contain paper_id, source_type, and locator",
        "q_tab: evidence[2] must contain paper_id, source_type, and locator",
        "q_tab: evidence[3] has unknown paper_id 'iclr2025_99999'",
        "q_tab: evidence[3] has invalid source_type 'Table'",
        "q_tab: evidence[3].locator must be a non-empty object",
        "q_tab: evidence[4].locator must be a non-empty object",
        "q_tab: evidence[5] has unknown paper_id ''",
        "q_tab: evidence[5] has invalid source_type ''",
        "q_tab: evidence[5].locator must be a non-empty object",
        "q_tab: evidence[6] has invalid source_type 'text'",
        "q_tab: evidence[6].locator must be a non-empty object",
    ]


@pytest.mark.parametrize(
    "locator",
    [
        {"page": 0},
        {"page": "6"},
        {"page": 6.5},
        {"page": None},
        {"row": "Absolute ∆", "column": "NaturalQ"},
        {"unheard_of": [1, 2]},
    ],
)
def test_locator_contents_are_never_checked(tmp_path: Path, locator: dict[str, Any]) -> None:
    evidence = [{"paper_id": PAPER, "source_type": "citation_context", "locator": locator}]
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", evidence=evidence))) == []


def test_all_source_types_are_accepted(tmp_path: Path) -> None:
    types = ["table", "figure", "text_span", "equation_algorithm", " citation_context "]
    evidence = [{"paper_id": PAPER, "source_type": t, "locator": {"page": 1}} for t in types]
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", evidence=evidence))) == []


# --- Answer object --------------------------------------------------------------------------


@pytest.mark.parametrize("answer", [None, [], "C", [{"freeform": {"text": "x"}}]])
def test_answer_must_be_an_object(tmp_path: Path, answer: Any) -> None:
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", answer=answer))) == [
        "q_ff: answer must be an object"
    ]


def test_missing_answer_and_rest_of_row_is_skipped(tmp_path: Path) -> None:
    predictions = preds(q_ff=pred("q_ff", drop=("answer",), gold_papers=None))
    assert errors_of(tmp_path, predictions) == [
        "q_ff: gold_papers must be a list",
        "q_ff: answer must be an object",
    ]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (
            {"freeform": {"text": "14.70"}},
            "q_mix: answer keys ['freeform'] do not match requested types "
            "['freeform', 'multiple_choice']",
        ),
        (
            {"multiple_choice": {"gold": "C"}, "freeform": {"text": "x"}, "table": {}},
            "q_mix: answer keys ['freeform', 'multiple_choice', 'table'] do not match "
            "requested types ['freeform', 'multiple_choice']",
        ),
        ({}, "q_mix: answer keys [] do not match requested types ['freeform', 'multiple_choice']"),
    ],
)
def test_answer_keys_must_match_requested_types(
    tmp_path: Path, answer: dict[str, Any], message: str
) -> None:
    assert errors_of(tmp_path, preds(q_mix=pred("q_mix", answer=answer))) == [message]


def test_key_mismatch_skips_component_checks(tmp_path: Path) -> None:
    answer = {"freeform": {"text": ""}, "table": {"rows": []}}
    assert errors_of(tmp_path, preds(q_ff=pred("q_ff", answer=answer))) == [
        "q_ff: answer keys ['freeform', 'table'] do not match requested types ['freeform']"
    ]


# --- Freeform -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("freeform", "message"),
    [
        ("8 A100 GPUs", "q_ff: answer.freeform must contain only text"),
        ({"text": "x", "confidence": 1}, "q_ff: answer.freeform must contain only text"),
        ({}, "q_ff: answer.freeform must contain only text"),
        (None, "q_ff: answer.freeform must contain only text"),
        ({"text": ""}, "q_ff: answer.freeform.text must be non-empty"),
        ({"text": " \t\n"}, "q_ff: answer.freeform.text must be non-empty"),
        ({"text": 14.7}, "q_ff: answer.freeform.text must be non-empty"),
        ({"text": None}, "q_ff: answer.freeform.text must be non-empty"),
        ({"text": ["x"]}, "q_ff: answer.freeform.text must be non-empty"),
    ],
)
def test_freeform(tmp_path: Path, freeform: Any, message: str) -> None:
    predictions = preds(q_ff=pred("q_ff", answer={"freeform": freeform}))
    assert errors_of(tmp_path, predictions) == [message]


# --- Multiple choice ------------------------------------------------------------------------


@pytest.mark.parametrize("gold", ["C", "c", " b ", "D\n"])
def test_multiple_choice_accepts_labels_in_any_case(tmp_path: Path, gold: str) -> None:
    predictions = preds(q_mc=pred("q_mc", answer={"multiple_choice": {"gold": gold}}))
    assert errors_of(tmp_path, predictions) == []


@pytest.mark.parametrize("gold", ["", 1, 0, None, "(C)", "C.", "E", "option C"])
def test_multiple_choice_rejects_other_values(tmp_path: Path, gold: Any) -> None:
    predictions = preds(q_mc=pred("q_mc", answer={"multiple_choice": {"gold": gold}}))
    assert errors_of(tmp_path, predictions) == [
        "q_mc: answer.multiple_choice.gold must be one of ['A', 'B', 'C', 'D']"
    ]


@pytest.mark.parametrize("choice", ["C", {"gold": "C", "options": {}}, {"answer": "C"}, None])
def test_multiple_choice_must_contain_only_gold(tmp_path: Path, choice: Any) -> None:
    predictions = preds(q_mc=pred("q_mc", answer={"multiple_choice": choice}))
    assert errors_of(tmp_path, predictions) == [
        "q_mc: answer.multiple_choice must contain only gold"
    ]


def test_multiple_choice_labels_come_from_the_input_options(tmp_path: Path) -> None:
    inputs = [
        {
            "query_id": "q_mc",
            "answer_types": ["multiple_choice"],
            "multiple_choice_options": [{"label": "b", "text": "x"}, {"label": "Z", "text": "y"}],
        }
    ]
    answer = {"multiple_choice": {"gold": "A"}}
    assert errors_of(tmp_path, [pred("q_mc", answer=answer)], inputs=inputs) == [
        "q_mc: answer.multiple_choice.gold must be one of ['B', 'Z']"
    ]


def test_freeform_and_multiple_choice_errors_both_reported(tmp_path: Path) -> None:
    answer = {"freeform": {"text": ""}, "multiple_choice": {"gold": ""}}
    assert errors_of(tmp_path, preds(q_mix=pred("q_mix", answer=answer))) == [
        "q_mix: answer.freeform.text must be non-empty",
        "q_mix: answer.multiple_choice.gold must be one of ['A', 'B', 'C', 'D']",
    ]


# --- Table ----------------------------------------------------------------------------------


def table_errors(tmp_path: Path, table: Any) -> list[str]:
    return errors_of(tmp_path, preds(q_tab=pred("q_tab", answer={"table": table})))


@pytest.mark.parametrize(
    "table",
    [
        {
            "rows": [{"method": "ICAE", "score": 1, "open": False}],
            "schema": INPUTS[2]["table_schema"],
        },
        {},
        [{"method": "ICAE", "score": 1, "open": False}],
        None,
    ],
)
def test_table_must_contain_only_rows(tmp_path: Path, table: Any) -> None:
    assert table_errors(tmp_path, table) == ["q_tab: answer.table must contain only rows"]


@pytest.mark.parametrize("rows", [[], None, {"method": "ICAE"}])
def test_table_rows_must_be_a_non_empty_list(tmp_path: Path, rows: Any) -> None:
    assert table_errors(tmp_path, {"rows": rows}) == [
        "q_tab: answer.table.rows must be a non-empty list"
    ]


def test_table_rows_must_use_exactly_the_schema_columns(tmp_path: Path) -> None:
    rows = [
        {"method": "ICAE", "score": 1},
        {"method": "ICAE", "score": 1, "open": True, "notes": "x"},
        ["ICAE", 1, True],
        {"method": "ICAE", "score": "bad", "open": True},
    ]
    assert table_errors(tmp_path, {"rows": rows}) == [
        "q_tab: table row 0 must use exactly these columns: ['method', 'open', 'score']",
        "q_tab: table row 1 must use exactly these columns: ['method', 'open', 'score']",
        "q_tab: table row 2 must use exactly these columns: ['method', 'open', 'score']",
        "q_tab: table row 3 column 'score' must be number or null",
    ]


def test_table_cells_of_the_right_type_or_null_pass(tmp_path: Path) -> None:
    # Raw JSON so that NaN and Infinity reach the validator as Python's json parses them.
    rows = (
        '[{"method": "a", "score": NaN, "open": false},'
        ' {"method": "b", "score": Infinity, "open": null},'
        ' {"method": null, "score": -Infinity, "open": true},'
        ' {"method": "", "score": 100000000000000000000000000000, "open": true},'
        ' {"method": "e", "score": -0.5, "open": true}]'
    )
    line = '{"query_id": "q_tab", "gold_papers": [], "evidence": [], "answer": {"table": {"rows": %s}}}'
    pred_path = tmp_path / "pred.jsonl"
    pred_path.write_text(line % rows + "\n", encoding="utf-8")
    inputs = write_jsonl(tmp_path / "test.jsonl", [INPUTS[2]])
    assert validate_submission(inputs, pred_path).errors == []


def test_table_cells_of_the_wrong_type(tmp_path: Path) -> None:
    rows = [
        {"method": "a", "score": "96.2%", "open": "true"},
        {"method": 7, "score": True, "open": 1},
        {"method": ["a"], "score": "14.7", "open": 0},
        {"method": {"name": "a"}, "score": [1], "open": "false"},
    ]
    assert table_errors(tmp_path, {"rows": rows}) == [
        "q_tab: table row 0 column 'score' must be number or null",
        "q_tab: table row 0 column 'open' must be boolean or null",
        "q_tab: table row 1 column 'method' must be string or null",
        "q_tab: table row 1 column 'score' must be number or null",
        "q_tab: table row 1 column 'open' must be boolean or null",
        "q_tab: table row 2 column 'method' must be string or null",
        "q_tab: table row 2 column 'score' must be number or null",
        "q_tab: table row 2 column 'open' must be boolean or null",
        "q_tab: table row 3 column 'method' must be string or null",
        "q_tab: table row 3 column 'score' must be number or null",
        "q_tab: table row 3 column 'open' must be boolean or null",
    ]


def test_table_column_with_unknown_type_accepts_only_null(tmp_path: Path) -> None:
    schema = [{"name": "when", "type": "date", "is_row_key": True}]
    inputs = [{"query_id": "q_tab", "answer_types": ["table"], "table_schema": schema}]
    answer = {"table": {"rows": [{"when": None}, {"when": "2025-01-01"}]}}
    assert errors_of(tmp_path, [pred("q_tab", answer=answer)], inputs=inputs) == [
        "q_tab: table row 1 column 'when' must be date or null"
    ]


def test_all_component_errors_of_a_row_in_order(tmp_path: Path) -> None:
    inputs = [
        {
            "query_id": "q_all",
            "answer_types": ["table", "multiple_choice", "freeform"],
            "multiple_choice_options": OPTIONS,
            "table_schema": [{"name": "x", "type": "number", "is_row_key": True}],
        }
    ]
    record = {
        "query_id": "q_all",
        "extra": 1,
        "gold_papers": [{"paper_id": "nope"}],
        "evidence": {},
        "answer": {
            "table": {"rows": [{"x": "1"}]},
            "multiple_choice": {"gold": "1"},
            "freeform": {},
        },
    }
    assert errors_of(tmp_path, [record], inputs=inputs) == [
        "q_all: unexpected fields: extra",
        "q_all: unknown paper_id 'nope'",
        "q_all: evidence must be a list for this split",
        "q_all: answer.freeform must contain only text",
        "q_all: answer.multiple_choice.gold must be one of ['A', 'B', 'C', 'D']",
        "q_all: table row 0 column 'x' must be number or null",
    ]


# --- Where the official script crashes ------------------------------------------------------


def test_malformed_json_line_is_fatal_naming_file_and_physical_line(tmp_path: Path) -> None:
    pred_path = tmp_path / "pred.jsonl"
    good = json.dumps(pred("q_ff"))
    pred_path.write_text(f"{good}\n\n{{'query_id': 'q_mc'}}\n", encoding="utf-8")
    inputs = write_jsonl(tmp_path / "test.jsonl", INPUTS)
    result = validate_submission(inputs, pred_path)
    assert result.fatal is not None
    assert result.fatal.startswith(f"{pred_path}:3: invalid JSON (")
    assert result.errors == []
    assert not result.ok
    assert result.render() == f"error: {result.fatal}"


def test_non_object_line_is_fatal(tmp_path: Path) -> None:
    pred_path = tmp_path / "pred.jsonl"
    pred_path.write_text(json.dumps(pred("q_ff")) + "\n[1, 2]\n", encoding="utf-8")
    result = validate_submission(write_jsonl(tmp_path / "test.jsonl", INPUTS), pred_path)
    assert result.fatal == f"{pred_path}:2: expected a JSON object (got list)"


def test_duplicate_query_id_is_fatal_counting_non_blank_records(tmp_path: Path) -> None:
    pred_path = tmp_path / "pred.jsonl"
    lines = [
        "",
        json.dumps(pred("q_ff")),
        "   ",
        json.dumps(pred("q_mc")),
        json.dumps(pred("q_ff")),
    ]
    pred_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = validate_submission(write_jsonl(tmp_path / "test.jsonl", INPUTS), pred_path)
    assert result.fatal == f"prediction:3: duplicate query_id 'q_ff' ({pred_path}, line 5)"
    assert (
        result.render() == f"error: prediction:3: duplicate query_id 'q_ff' ({pred_path}, line 5)"
    )


def test_duplicate_after_id_norm_is_fatal(tmp_path: Path) -> None:
    inputs = [*INPUTS, {"query_id": " q_ff", "answer_types": ["freeform"]}]
    result = run(tmp_path, preds(), inputs=inputs)
    assert result.fatal == f"input:5: duplicate query_id 'q_ff' ({tmp_path / 'test.jsonl'}, line 5)"


@pytest.mark.parametrize("query_id", [None, "", "   ", 0])
def test_missing_query_id_is_fatal(tmp_path: Path, query_id: Any) -> None:
    predictions = [*preds(), pred("q_ff", query_id=query_id)]
    result = run(tmp_path, predictions)
    assert result.fatal == f"prediction:5: missing query_id ({tmp_path / 'pred.jsonl'}, line 5)"


def test_missing_file_is_fatal(tmp_path: Path) -> None:
    inputs = write_jsonl(tmp_path / "test.jsonl", INPUTS)
    result = validate_submission(inputs, tmp_path / "absent.jsonl")
    assert (
        result.fatal == f"{tmp_path / 'absent.jsonl'}: cannot read file (No such file or directory)"
    )
    assert result.prediction_count == 0


def test_files_are_read_before_ids_are_indexed(tmp_path: Path) -> None:
    # Like the official script: input, predictions and pool are all read before any query_id
    # check, so a broken pool wins over a duplicate input id.
    inputs = write_jsonl(tmp_path / "test.jsonl", [*INPUTS, INPUTS[0]])
    pred_path = write_jsonl(tmp_path / "pred.jsonl", preds())
    pool_path = tmp_path / "pool.jsonl"
    pool_path.write_text("not json\n", encoding="utf-8")
    result = validate_submission(inputs, pred_path, pool_path)
    assert result.fatal is not None
    assert result.fatal.startswith(f"{pool_path}:1: invalid JSON (")
    assert result.prediction_count == 4


def test_input_errors_come_before_prediction_errors(tmp_path: Path) -> None:
    input_path = tmp_path / "test.jsonl"
    input_path.write_text("{}\n42\n", encoding="utf-8")
    result = validate_submission(input_path, tmp_path / "absent.jsonl")
    assert result.fatal == f"{input_path}:2: expected a JSON object (got int)"


def test_unreadable_table_schema_is_fatal(tmp_path: Path) -> None:
    inputs = [
        {"query_id": "q_tab", "answer_types": ["table"], "table_schema": [{"name": "method"}]}
    ]
    result = run(tmp_path, [pred("q_tab")], inputs=inputs)
    assert result.fatal == (
        "input q_tab: table_schema must be a list of objects with name and type (KeyError('type'))"
    )
