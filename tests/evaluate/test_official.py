"""The official LitTraceQA metrics, rule by rule (``../shared/docs/LITTRACEQA.md``)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from littrace.evaluate.official import (
    METRIC_NAMES,
    EvaluationError,
    composite_score,
    evaluate_files,
    evaluate_records,
    evidence_key,
    object_id_norm,
    text_norm,
)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "littraceqa"


def gold(query_id: str = "q1", **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "query_id": query_id,
        "answer_types": [],
        "gold_papers": [{"paper_id": "p1"}],
        "evidence": [],
        "answer": {},
    }
    record.update(fields)
    return record


def score(golds: list[dict[str, Any]], preds: list[dict[str, Any]]) -> dict[str, Any]:
    return evaluate_records(list(enumerate(golds, 1)), list(enumerate(preds, 1)))


def metric(golds: list[dict[str, Any]], preds: list[dict[str, Any]], name: str) -> Any:
    return score(golds, preds)["metrics"][name]


# --- the official data ----------------------------------------------------------------------


def test_gold_scored_against_itself_is_perfect() -> None:
    path = DATA / "validation.jsonl"
    result = evaluate_files(path, path)
    assert list(result["metrics"]) == list(METRIC_NAMES)
    assert all(value == 1.0 for value in result["metrics"].values())
    assert result["composite_score"] == 1.0
    assert result["details"] == {
        "total": 55,
        "missing_prediction_count": 0,
        "extra_prediction_count": 0,
        "table_cell_correct": 27,
        "table_cell_total": 27,
        "missing_predictions": [],
        "extra_predictions": [],
    }


def test_official_sample_submission_scores() -> None:
    result = evaluate_files(DATA / "validation.jsonl", DATA / "sample_submission.jsonl")
    metrics = result["metrics"]
    # Placeholder answers: every MC answer is "A" (2 of 41 gold letters are A), no papers.
    assert metrics["paper_f1_macro"] == 0.0
    assert metrics["evidence_f1_macro"] == 0.0
    assert metrics["multiple_choice_accuracy"] == pytest.approx(2 / 41)
    assert metrics["freeform_exact_match"] == 0.0
    assert metrics["table_cell_accuracy_micro"] == 0.0
    assert result["details"]["table_cell_total"] == 27


# --- text helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, ""),
        (0, ""),
        (0.0, ""),
        (False, ""),
        ([], ""),
        (float("nan"), "nan"),
        (6.0, "6.0"),
        (True, "true"),
        ("  “Hello”  World\u00a0\u3000x\t\ny ", "hello” world x y"),
        ("'\" x \"'", " x "),
        ("a\u200bb", "a\u200bb"),
        ("`code`", "code"),
    ],
)
def test_text_norm(value: Any, expected: str) -> None:
    assert text_norm(value) == expected


@pytest.mark.parametrize(
    ("value", "word", "expected"),
    [
        ("Table 4", "table", "table 4"),
        ("table4", "table", "table 4"),
        ("TABLE  4", "table", "table 4"),
        ('"Table 4"', "table", "table 4"),
        ("4", "table", "table 4"),
        (24, "citation", "citation 24"),
        ("Citation 24", "citation", "citation 24"),
        ("12b", "figure", "figure 12b"),
        ("Tab. 4", "table", "tab. 4"),
        ("Fig. 3", "figure", "fig. 3"),
        ("(6)", "equation", "(6)"),
        ("Eq. (6)", "equation", "eq. (6)"),
        ("Algorithm 1", "equation", "algorithm 1"),
        ("[24]", "citation", "[24]"),
        ("", "table", ""),
        (0, "table", ""),
    ],
)
def test_object_id_norm(value: Any, word: str, expected: str) -> None:
    assert object_id_norm(value, word) == expected


# --- question alignment ---------------------------------------------------------------------


def test_missing_and_extra_predictions_are_sorted_and_missing_scores_empty() -> None:
    golds = [gold("q2"), gold("q1"), gold("q3")]
    preds = [{"query_id": "q1", "gold_papers": ["p1"]}, {"query_id": "zz"}, {"query_id": "aa"}]
    result = score(golds, preds)
    assert result["details"]["missing_predictions"] == ["q2", "q3"]
    assert result["details"]["extra_predictions"] == ["aa", "zz"]
    assert result["details"]["missing_prediction_count"] == 2
    assert result["details"]["extra_prediction_count"] == 2
    # The missing questions stay in the denominator with paper F1 0.
    assert result["metrics"]["paper_f1_macro"] == pytest.approx(1 / 3)


def test_repeated_ids_last_wins_and_total_counts_lines() -> None:
    golds = [gold("q1", gold_papers=[{"paper_id": "old"}]), gold(" q1 ")]
    preds = [{"query_id": "q1", "gold_papers": ["p1"]}, {"query_id": "q1", "gold_papers": []}]
    result = score(golds, preds)
    assert result["details"]["total"] == 2
    # Last gold (p1) and last prediction (empty) win: one question, F1 0.
    assert result["metrics"]["paper_f1_macro"] == 0.0


def test_blank_prediction_id_is_dropped_not_extra() -> None:
    result = score([gold()], [{"query_id": "  "}, {"gold_papers": ["p1"]}])
    assert result["details"]["extra_predictions"] == []
    assert result["details"]["missing_predictions"] == ["q1"]


def test_evaluation_targets_limit_what_is_scored() -> None:
    golds = [gold(evaluation_targets=["paper"], answer_types=["multiple_choice"])]
    metrics = score(golds, [{"query_id": "q1", "gold_papers": ["p1"]}])["metrics"]
    assert metrics["paper_f1_macro"] == 1.0
    assert metrics["evidence_f1_macro"] is None
    assert metrics["multiple_choice_accuracy"] is None
    assert metrics["table_row_f1_macro"] == 0.0
    assert metrics["table_cell_accuracy_micro"] is None


# --- papers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("predicted", "expected_f1"),
    [
        ({"gold_papers": ["p1"]}, 1.0),
        ({"gold_papers": [{"paper_id": " p1 "}]}, 1.0),
        ({"gold_papers": [], "papers": ["p1"]}, 1.0),
        ({"gold_papers": ["P1"]}, 0.0),
        ({"gold_papers": "p1"}, 0.0),
        ({"gold_papers": ["p1", "p2"]}, 2 * 0.5 * 1 / 1.5),
        ({"gold_papers": ["p1", 7, None, {"id": "p1"}, ""]}, 1.0),
    ],
)
def test_paper_sets(predicted: dict[str, Any], expected_f1: float) -> None:
    pred = {"query_id": "q1", **predicted}
    assert metric([gold()], [pred], "paper_f1_macro") == pytest.approx(expected_f1)


def test_empty_and_nonempty_set_rules() -> None:
    no_gold_papers = gold(gold_papers=[])
    both_empty = score([no_gold_papers], [{"query_id": "q1"}])["metrics"]
    assert (both_empty["paper_precision_macro"], both_empty["paper_recall_macro"]) == (1.0, 1.0)
    extra = score([no_gold_papers], [{"query_id": "q1", "gold_papers": ["p9"]}])["metrics"]
    assert (extra["paper_precision_macro"], extra["paper_recall_macro"]) == (0.0, 1.0)
    assert extra["paper_f1_macro"] == 0.0
    nothing = score([gold()], [{"query_id": "q1"}])["metrics"]
    assert (nothing["paper_precision_macro"], nothing["paper_recall_macro"]) == (0.0, 0.0)


# --- evidence -------------------------------------------------------------------------------

TABLE_GOLD = {
    "paper_id": "p1",
    "source_type": "table",
    "locator": {"page": 6, "table_id": "Table 4"},
}


def evidence_f1(gold_items: list[Any], predicted_items: Any) -> float:
    result = score([gold(evidence=gold_items)], [{"query_id": "q1", "evidence": predicted_items}])
    value: float = result["metrics"]["evidence_f1_macro"]
    return value


@pytest.mark.parametrize(
    ("locator", "matches"),
    [
        ({"page": 6, "table_id": "Table 4"}, True),
        ({"page": "6", "table_id": "table4"}, True),
        ({"page": " 6 ", "table_id": 4}, True),
        ({"page": 6, "table_id": "TABLE  4", "row": "x"}, True),
        ({"page": 6.0, "table_id": "Table 4"}, False),
        ({"page": 6, "table_id": "Tab. 4"}, False),
        ({"page": 7, "table_id": "Table 4"}, False),
        ({"page": 0, "section": "6", "table_id": "Table 4"}, True),
    ],
)
def test_table_evidence_keys(locator: dict[str, Any], matches: bool) -> None:
    predicted = [{"paper_id": "p1", "source_type": "table", "locator": locator}]
    assert evidence_f1([TABLE_GOLD], predicted) == (1.0 if matches else 0.0)


def test_section_only_evidence_is_case_sensitive() -> None:
    item = {"paper_id": "p1", "source_type": "text_span", "locator": {"section": "Method"}}
    lower = {**item, "locator": {"section": "method"}}
    assert evidence_f1([item], [item]) == 1.0
    assert evidence_f1([item], [lower]) == 0.0


def test_text_span_ignores_ids_and_fine_fields() -> None:
    gold_item = {
        "paper_id": "p1",
        "source_type": "text_span",
        "locator": {"page": 3, "paragraph_id": 2},
    }
    pred_item = {
        "paper_id": "p1",
        "source_type": "text_span",
        "locator": {"page": 3, "table_id": "9"},
    }
    assert evidence_f1([gold_item], [pred_item]) == 1.0


def test_equation_algorithm_uses_the_word_equation() -> None:
    gold_eq = {
        "paper_id": "p1",
        "source_type": "equation_algorithm",
        "locator": {"page": 2, "equation_id": "3"},
    }
    as_word = {**gold_eq, "locator": {"page": 2, "equation_id": "Equation 3"}}
    bracketed = {**gold_eq, "locator": {"page": 2, "equation_id": "(3)"}}
    assert evidence_f1([gold_eq], [as_word]) == 1.0
    assert evidence_f1([gold_eq], [bracketed]) == 0.0
    gold_alg = {**gold_eq, "locator": {"page": 2, "algorithm_id": "Algorithm 1"}}
    bare_alg = {**gold_eq, "locator": {"page": 2, "algorithm_id": "1"}}
    assert evidence_f1([gold_alg], [gold_alg]) == 1.0
    assert evidence_f1([gold_alg], [bare_alg]) == 0.0


def test_citation_ids() -> None:
    gold_cite = {
        "paper_id": "p1",
        "source_type": "citation_context",
        "locator": {"page": 5, "citation_id": 24},
    }
    for spelled, matches in (
        ("24", True),
        ("Citation 24", True),
        ("[24]", False),
        ("Reference 24", False),
    ):
        pred = {**gold_cite, "locator": {"page": 5, "citation_id": spelled}}
        assert evidence_f1([gold_cite], [pred]) == (1.0 if matches else 0.0), spelled


def test_unscoreable_items_are_dropped_not_wrong() -> None:
    junk = [
        "text",
        {"paper_id": "", "source_type": "table", "locator": {"page": 6}},
        {"paper_id": "p1", "source_type": " ", "locator": {"page": 6}},
        {"paper_id": "p1", "source_type": "text_span", "locator": {"page": 0}},
        {"paper_id": "p1", "source_type": "text_span", "locator": "page 6"},
    ]
    assert evidence_f1([TABLE_GOLD], [TABLE_GOLD, *junk]) == 1.0


def test_wrong_case_source_type_is_kept_and_wrong() -> None:
    capitalised = {**TABLE_GOLD, "source_type": "Table"}
    assert evidence_f1([TABLE_GOLD], [TABLE_GOLD, capitalised]) == pytest.approx(2 / 3)


def test_duplicate_evidence_collapses_and_non_list_is_empty() -> None:
    assert evidence_f1([TABLE_GOLD, TABLE_GOLD], [TABLE_GOLD]) == 1.0
    assert evidence_f1([TABLE_GOLD], {"0": TABLE_GOLD}) == 0.0


def test_evidence_key_shape() -> None:
    item = {
        "paper_id": " p1 ",
        "source_type": "figure",
        "locator": {"page": 2, "figure_id": "Figure2"},
    }
    assert evidence_key(item) == ("p1", "figure", "2", "figure 2")


# --- answers --------------------------------------------------------------------------------

MC_GOLD = gold(answer_types=["multiple_choice"], answer={"multiple_choice": {"gold": "C"}})


@pytest.mark.parametrize(
    ("prediction", "correct"),
    [
        ({"answer": {"multiple_choice": {"gold": " c "}}}, True),
        ({"answer": {"multiple_choice": {"gold": "(C)"}}}, False),
        ({"answer": {"multiple_choice": {"gold": "C."}}}, False),
        ({"answer": {"multiple_choice": {"answer": "C"}}}, True),
        ({"answer": {"multiple_choice": {"gold": "", "predicted_answer_id": "C"}}}, True),
        ({"answer": {"multiple_choice": "C"}}, False),
        ({"answer": {"multiple_choice": "B"}, "predicted_answer_id": "C"}, True),
        ({"answer": "C", "gold": "C"}, True),
        ({"gold_answer": "c"}, True),
        ({}, False),
    ],
)
def test_multiple_choice(prediction: dict[str, Any], correct: bool) -> None:
    pred = {"query_id": "q1", **prediction}
    assert metric([MC_GOLD], [pred], "multiple_choice_accuracy") == (1.0 if correct else 0.0)


FREEFORM_GOLD = gold(answer_types=["freeform"], answer={"freeform": {"text": "14.70"}})


@pytest.mark.parametrize(
    ("prediction", "correct"),
    [
        ({"answer": {"freeform": {"text": " 14.70 "}}}, True),
        ({"answer": {"freeform": {"text": "“14.70”"}}}, True),
        ({"answer": {"freeform": {"text": 14.7}}}, False),
        ({"answer": {"freeform": {}}, "answer_text": "14.70"}, False),
        ({"answer": {"freeform": "14.70"}, "answer_text": "14.70"}, True),
        ({"freeform": "14.70"}, True),
    ],
)
def test_freeform(prediction: dict[str, Any], correct: bool) -> None:
    pred = {"query_id": "q1", **prediction}
    assert metric([FREEFORM_GOLD], [pred], "freeform_exact_match") == (1.0 if correct else 0.0)


def test_freeform_zero_is_not_the_string_zero() -> None:
    zero_gold = gold(answer_types=["freeform"], answer={"freeform": {"text": "0"}})
    pred = {"query_id": "q1", "answer": {"freeform": {"text": 0}}}
    assert metric([zero_gold], [pred], "freeform_exact_match") == 0.0


def test_answer_types_decide_what_counts() -> None:
    golds = [MC_GOLD, gold("q2", answer_types=["freeform"], answer={"freeform": {"text": "x"}})]
    metrics = score(golds, [])["metrics"]
    assert metrics["multiple_choice_accuracy"] == 0.0
    assert metrics["freeform_exact_match"] == 0.0
    only_mc = score([MC_GOLD], [])["metrics"]
    assert only_mc["freeform_exact_match"] is None


# --- tables ---------------------------------------------------------------------------------

SCHEMA = [
    {"name": "model", "type": "string", "is_row_key": True},
    {"name": "score", "type": "number", "is_row_key": False},
    {"name": "open", "type": "boolean", "is_row_key": False},
]


def table_score(
    gold_rows: list[Any], pred_table: Any, schema: list[Any] | None = None
) -> dict[str, Any]:
    table_gold = gold(
        answer_types=["table"],
        answer={"table": {"schema": SCHEMA if schema is None else schema, "rows": gold_rows}},
    )
    result = score([table_gold], [{"query_id": "q1", "answer": {"table": pred_table}}])
    return {**result["metrics"], **result["details"]}


def one_cell(gold_value: Any, pred_value: Any, column_type: str) -> bool:
    schema = [
        {"name": "k", "type": "string", "is_row_key": True},
        {"name": "v", "type": column_type, "is_row_key": False},
    ]
    pred_row = {"k": "a"} if pred_value is _MISSING else {"k": "a", "v": pred_value}
    result = table_score([{"k": "a", "v": gold_value}], {"rows": [pred_row]}, schema)
    return bool(result["table_cell_correct"] == 1)


_MISSING = object()


@pytest.mark.parametrize(
    ("gold_value", "pred_value", "column_type", "correct"),
    [
        (96.2, "96.2%", "number", True),
        (96.2, 96.2000001, "number", True),
        (96.2, 96.21, "number", False),
        (0.0, 0.0000009, "number", True),
        (1e9, 1e9 + 900, "number", True),
        (1e9, 1e9 + 1100, "number", False),
        (2.05, "2,05", "number", False),
        (2.05, "2.05 FID", "number", False),
        (1000, "1_000", "number", True),
        (1000, "1e3", "number", True),
        (7, "７", "number", True),
        (1, True, "number", False),
        (float("nan"), float("nan"), "number", False),
        (float("inf"), "inf", "number", True),
        (float("inf"), "-inf", "number", False),
        (None, None, "number", True),
        (None, _MISSING, "string", True),
        (None, 0, "number", False),
        (3, None, "number", False),
        (True, "false", "boolean", True),
        (False, 0, "boolean", True),
        (True, "", "boolean", False),
        ("6", 6, "string", True),
        ("6", 6.0, "string", False),
        ("0", 0, "string", False),
        ("Open AI", " open  ai ", "string", True),
    ],
)
def test_cell_comparison(gold_value: Any, pred_value: Any, column_type: str, correct: bool) -> None:
    assert one_cell(gold_value, pred_value, column_type) is correct


def test_rows_keys_cells_and_micro_counts() -> None:
    gold_rows = [
        {"model": "A", "score": 1.0, "open": True},
        {"model": "B", "score": 2.0, "open": False},
    ]
    pred = {"rows": [{"model": " a ", "score": 1.0, "open": True}, {"model": "Z", "score": 2.0}]}
    result = table_score(gold_rows, pred)
    assert result["table_row_f1_macro"] == pytest.approx(0.5)
    # Row A: 2 right; row B has no prediction: both cells wrong; Z adds nothing.
    assert (result["table_cell_correct"], result["table_cell_total"]) == (2, 4)
    assert result["table_cell_accuracy_macro"] == pytest.approx(0.5)
    assert result["table_cell_accuracy_micro"] == pytest.approx(0.5)


def test_duplicate_keys_last_row_wins_in_gold_and_prediction() -> None:
    gold_rows = [
        {"model": "A", "score": 1.0, "open": True},
        {"model": "A", "score": 5.0, "open": True},
    ]
    pred_rows = [
        {"model": "A", "score": 5.0, "open": True},
        {"model": "A", "score": 1.0, "open": True},
    ]
    result = table_score(gold_rows, {"rows": pred_rows})
    assert (result["table_cell_correct"], result["table_cell_total"]) == (1, 2)
    flipped = table_score(gold_rows, {"rows": list(reversed(pred_rows))})
    assert flipped["table_cell_correct"] == 2


def test_without_key_columns_the_first_column_is_key_and_a_cell() -> None:
    schema = [
        {"name": "model", "type": "string", "is_row_key": False},
        {"name": "score", "type": "number", "is_row_key": False},
    ]
    result = table_score(
        [{"model": "A", "score": 1}], {"rows": [{"model": "A", "score": 1}]}, schema
    )
    assert (result["table_cell_correct"], result["table_cell_total"]) == (2, 2)
    assert result["table_row_f1_macro"] == 1.0


def test_key_only_schema_cell_accuracy_is_row_f1() -> None:
    schema = [{"name": "title", "type": "string", "is_row_key": True}]
    result = table_score([{"title": "X"}, {"title": "Y"}], {"rows": [{"title": "x"}]}, schema)
    assert result["table_cell_total"] == 0
    assert result["table_row_f1_macro"] == pytest.approx(2 / 3)
    assert result["table_cell_accuracy_macro"] == pytest.approx(2 / 3)
    assert result["table_cell_accuracy_micro"] is None


@pytest.mark.parametrize("bad_table", [None, [], "rows"])
def test_non_object_prediction_table_scores_zero_and_adds_no_cells(bad_table: Any) -> None:
    result = table_score([{"model": "A", "score": 1, "open": True}], bad_table)
    assert result["table_row_f1_macro"] == 0.0
    assert result["table_cell_accuracy_macro"] == 0.0
    assert result["table_cell_total"] == 0


def test_missing_prediction_table_counts_all_cells_wrong() -> None:
    table_gold = gold(
        answer_types=["table"], answer={"table": {"schema": SCHEMA, "rows": [{"model": "A"}]}}
    )
    result = score([table_gold], [{"query_id": "q1", "answer": {}}])
    assert result["details"]["table_cell_total"] == 2
    assert result["metrics"]["table_cell_accuracy_micro"] == 0.0


def test_non_object_rows_are_skipped_and_empty_schema_skips_all() -> None:
    result = table_score([{"model": "A", "score": 1, "open": True}, "junk"], {"rows": ["junk"]})
    assert result["table_row_f1_macro"] == 0.0
    assert result["table_cell_total"] == 2
    empty = table_score([{"model": "A"}], {"rows": [{"model": "A"}]}, schema=[])
    assert (empty["table_row_f1_macro"], empty["table_cell_total"]) == (1.0, 0)


def test_table_means_are_zero_without_table_questions() -> None:
    metrics = score([MC_GOLD], [])["metrics"]
    assert metrics["table_row_f1_macro"] == 0.0
    assert metrics["table_cell_accuracy_macro"] == 0.0
    assert metrics["table_cell_accuracy_micro"] is None


def test_huge_integer_cell_is_a_clear_error() -> None:
    schema = [
        {"name": "k", "type": "string", "is_row_key": True},
        {"name": "v", "type": "number", "is_row_key": False},
    ]
    with pytest.raises(EvaluationError, match="'q1'"):
        table_score([{"k": "a", "v": 1}], {"rows": [{"k": "a", "v": 10**400}]}, schema)


# --- composite ------------------------------------------------------------------------------


def test_composite_matches_the_documented_check() -> None:
    metrics = {
        "paper_f1_macro": 0.9728,
        "evidence_f1_macro": 0.6847,
        "multiple_choice_accuracy": 0.98,
        "freeform_exact_match": None,
        "table_row_f1_macro": 0.5423,
        "table_cell_accuracy_macro": 0.3508,
    }
    assert composite_score(metrics, has_table_questions=True) == pytest.approx(0.7606, abs=5e-5)


def test_composite_ignores_table_zeros_without_table_questions() -> None:
    metrics = {
        "paper_f1_macro": 0.5,
        "evidence_f1_macro": 0.5,
        "multiple_choice_accuracy": 1.0,
        "freeform_exact_match": 0.0,
        "table_row_f1_macro": 0.0,
        "table_cell_accuracy_macro": 0.0,
    }
    assert composite_score(metrics, has_table_questions=False) == pytest.approx(0.5)


# --- files ----------------------------------------------------------------------------------


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_files_with_blank_lines_and_nan(tmp_path: Path) -> None:
    record = {"query_id": "q1", "answer_types": [], "gold_papers": ["p1"]}
    gold_path = write_lines(tmp_path / "gold.jsonl", ["", json.dumps(record), "   "])
    pred_path = write_lines(
        tmp_path / "pred.jsonl", ['{"query_id": "q1", "x": NaN, "gold_papers": ["p1"]}']
    )
    assert evaluate_files(gold_path, pred_path)["metrics"]["paper_f1_macro"] == 1.0


def test_bad_lines_name_file_and_physical_line(tmp_path: Path) -> None:
    gold_path = write_lines(tmp_path / "gold.jsonl", ['{"query_id": "q1"}'])
    bad_json = write_lines(tmp_path / "pred.jsonl", ['{"query_id": "q1"}', "", "{oops"])
    with pytest.raises(EvaluationError, match=r"pred\.jsonl:3 is not valid JSON"):
        evaluate_files(gold_path, bad_json)
    not_object = write_lines(tmp_path / "list.jsonl", ["[1, 2]"])
    with pytest.raises(EvaluationError, match=r"list\.jsonl:1 must be a JSON object"):
        evaluate_files(gold_path, not_object)
    with pytest.raises(EvaluationError, match=r"missing\.jsonl"):
        evaluate_files(gold_path, tmp_path / "missing.jsonl")


def test_nan_metrics_never_appear_on_real_data() -> None:
    result = evaluate_files(DATA / "validation.jsonl", DATA / "sample_submission.jsonl")
    assert not any(isinstance(v, float) and math.isnan(v) for v in result["metrics"].values())


# --- malformed gold: the official script's set semantics and crashes -------------------------


def test_string_targets_and_types_are_sets_of_letters() -> None:
    as_string = score([gold(evaluation_targets="paper")], [])["metrics"]
    assert as_string["paper_f1_macro"] is None
    as_string_types = score([gold(answer_types="multiple_choice")], [])["metrics"]
    assert as_string_types["multiple_choice_accuracy"] is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"evaluation_targets": [["paper"]]}, "evaluation_targets"),
        ({"answer_types": 5, "evaluation_targets": ["paper"]}, "answer_types"),
        (
            {"answer_types": ["table"], "answer": {"table": {"schema": [{"is_row_key": True}]}}},
            "without a name",
        ),
        (
            {"answer_types": ["table"], "answer": {"table": {"schema": ["junk", {"name": "a"}]}}},
            "first column",
        ),
        (
            {
                "answer_types": ["table"],
                "answer": {
                    "table": {"schema": [{"name": ["a"], "is_row_key": True}], "rows": [{}]}
                },
            },
            "are not strings",
        ),
        ({"answer_types": ["multiple_choice"], "answer": None}, "answer must be an object"),
    ],
)
def test_gold_the_official_script_crashes_on_is_a_clear_error(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(EvaluationError, match=message):
        score([gold(**fields)], [])


def test_fallback_key_column_name_goes_through_str() -> None:
    schema = [{"name": None}]
    result = table_score([{"None": "x"}], {"rows": [{"None": "y"}]}, schema)
    assert result["table_row_f1_macro"] == 0.0
