"""The official LitTraceQA metrics, reproduced rule for rule.

Every rule here is one of ``../shared/docs/LITTRACEQA.md`` ("Official evaluator: exact
rules"), including the odd ones, because they decide scores: ``6.0`` is not page ``6``,
``"Tab. 4"`` is not ``"Table 4"``, the last duplicate row wins, and a missing prediction
counts as an empty one. Where the official script crashes on bad input, this module raises
:class:`EvaluationError` naming the file, line or query id instead.

Example:
    >>> from pathlib import Path
    >>> result = evaluate_files(Path("validation.jsonl"), Path("submission.jsonl"))  # doctest: +SKIP
    >>> result["metrics"]["paper_f1_macro"], result["composite_score"]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from littrace.evaluate.jsonl import JsonlLineError, read_official_jsonl

METRIC_NAMES = (
    "paper_precision_macro",
    "paper_recall_macro",
    "paper_f1_macro",
    "evidence_precision_macro",
    "evidence_recall_macro",
    "evidence_f1_macro",
    "multiple_choice_accuracy",
    "freeform_exact_match",
    "table_row_f1_macro",
    "table_cell_accuracy_macro",
    "table_cell_accuracy_micro",
)
ALL_TARGETS = ("paper", "evidence", "answer")
# The scorer's word for each source type's printed id; equation_algorithm uses "equation"
# for algorithms too, so "Algorithm 1" never normalises.
OBJECT_FIELDS: dict[str, tuple[tuple[str, ...], str]] = {
    "table": (("table_id",), "table"),
    "figure": (("figure_id",), "figure"),
    "equation_algorithm": (("equation_id", "algorithm_id"), "equation"),
    "citation_context": (("citation_id",), "citation"),
}
_QUOTE_CHARS = "\"'“”‘’`"
_WHITESPACE_RUN = re.compile(r"\s+")
_BARE_NUMBER_ID = re.compile(r"\d+[a-z]?")

EvidenceKey = tuple[str, str, str, str]
RowKey = tuple[str, ...]


class EvaluationError(ValueError):
    """Input the official evaluator would crash on, explained with its file, line or query id."""


def as_text(value: Any) -> str:
    """``str(value)`` for truthy values, ``""`` otherwise (so ``0``, ``None``, ``[]`` are ``""``)."""
    return str(value) if value else ""


def id_norm(value: Any) -> str:
    """Trim surrounding whitespace; case is kept."""
    return as_text(value).strip()


def text_norm(value: Any) -> str:
    """Trim, lowercase, strip quote characters from both ends, collapse whitespace runs.

    Whitespace is not trimmed again after the quotes go, exactly as the official script.
    """
    text = as_text(value).strip().lower().strip(_QUOTE_CHARS)
    return _WHITESPACE_RUN.sub(" ", text)


def object_id_norm(value: Any, word: str) -> str:
    """Normalise a printed object id the scorer's way: ``Table 4``, ``table4`` and ``4`` agree."""
    text = text_norm(value)
    if not text:
        return ""
    match = re.fullmatch(rf"{word}\s*(\d+[a-z]?)", text)
    if match:
        return f"{word} {match.group(1)}"
    if _BARE_NUMBER_ID.fullmatch(text):
        return f"{word} {text}"
    return text


@dataclass(frozen=True)
class PRF:
    """Precision, recall and F1 of one predicted set against one gold set."""

    precision: float
    recall: float
    f1: float


def set_prf(gold: set[Any], predicted: set[Any]) -> PRF:
    """The official set rule: both empty is perfect, empty prediction is zero, R=1 on empty gold."""
    if not gold and not predicted:
        return PRF(1.0, 1.0, 1.0)
    if not predicted:
        return PRF(0.0, 0.0, 0.0)
    correct = len(gold & predicted)
    precision = correct / len(predicted)
    recall = correct / len(gold) if gold else 1.0
    total = precision + recall
    return PRF(precision, recall, 2 * precision * recall / total if total else 0.0)


def paper_ids(record: Mapping[str, Any]) -> set[str]:
    """Paper ids of ``gold_papers`` (else ``papers``): strings or objects with ``paper_id``."""
    papers = record.get("gold_papers") or record.get("papers") or []
    ids: set[str] = set()
    if not isinstance(papers, list):
        return ids
    for item in papers:
        if isinstance(item, str):
            paper_id = id_norm(item)
        elif isinstance(item, dict):
            paper_id = id_norm(item.get("paper_id"))
        else:
            continue
        if paper_id:
            ids.add(paper_id)
    return ids


def evidence_key(item: Mapping[str, Any]) -> EvidenceKey:
    """The coarse key (paper, source type, page or section, normalised object id)."""
    source_type = id_norm(item.get("source_type"))
    locator = item.get("locator")
    if not isinstance(locator, dict):
        locator = {}
    location = str(locator.get("page") or locator.get("section") or "").strip()
    object_id = ""
    if source_type in OBJECT_FIELDS:
        fields, word = OBJECT_FIELDS[source_type]
        raw = next((locator.get(name) for name in fields if locator.get(name)), None)
        object_id = object_id_norm(raw, word)
    return (id_norm(item.get("paper_id")), source_type, location, object_id)


def evidence_keys(record: Mapping[str, Any]) -> set[EvidenceKey]:
    """Keys of the scoreable evidence items; items without paper, type or place are dropped."""
    evidence = record.get("evidence") or []
    if not isinstance(evidence, list):
        return set()
    keys: set[EvidenceKey] = set()
    for item in evidence:
        if not isinstance(item, dict):
            continue
        key = evidence_key(item)
        paper_id, source_type, location, object_id = key
        if paper_id and source_type and (location or object_id):
            keys.add(key)
    return keys


def _answer(record: Mapping[str, Any]) -> dict[str, Any]:
    answer = record.get("answer")
    return answer if isinstance(answer, dict) else {}


def _gold_answer(gold: Mapping[str, Any], query_id: str) -> dict[str, Any]:
    answer = gold.get("answer", {})
    if not isinstance(answer, dict):
        # The official script calls .get() on it and crashes.
        raise EvaluationError(f"gold {query_id!r}: answer must be an object")
    return answer


def predicted_choice(record: Mapping[str, Any]) -> str:
    """The predicted option letter, with the official fallbacks to top-level fields."""
    choice = _answer(record).get("multiple_choice")
    if isinstance(choice, dict):
        raw = choice.get("gold") or choice.get("answer") or choice.get("predicted_answer_id")
    else:
        raw = record.get("predicted_answer_id") or record.get("gold") or record.get("gold_answer")
    return id_norm(raw).upper()


def gold_choice(answer: Mapping[str, Any]) -> str:
    choice = answer.get("multiple_choice", {})
    return id_norm(choice.get("gold")).upper() if isinstance(choice, dict) else ""


def predicted_freeform(record: Mapping[str, Any]) -> str:
    """The predicted free text, text-normed; a ``freeform`` object without ``text`` is ``""``."""
    freeform = _answer(record).get("freeform")
    if isinstance(freeform, dict):
        return text_norm(freeform.get("text"))
    return text_norm(record.get("answer_text") or record.get("freeform"))


def gold_freeform(answer: Mapping[str, Any]) -> str:
    freeform = answer.get("freeform", {})
    return text_norm(freeform.get("text")) if isinstance(freeform, dict) else ""


def parse_number(value: Any) -> float | None:
    """The official number parser: bools fail, ``%`` signs are dropped, then Python ``float``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(as_text(value).strip().replace("%", ""))
    except ValueError:
        return None


def cells_match(gold: Any, predicted: Any, column_type: str) -> bool:
    """One table cell: nulls only match nulls, numbers within 1e-6 (rel or abs), else by type."""
    if gold is None or predicted is None:
        return gold is None and predicted is None
    if column_type == "number":
        gold_number, predicted_number = parse_number(gold), parse_number(predicted)
        if gold_number is None or predicted_number is None:
            return False
        return math.isclose(gold_number, predicted_number, rel_tol=1e-6, abs_tol=1e-6)
    if column_type == "boolean":
        return bool(gold) == bool(predicted)
    return text_norm(gold) == text_norm(predicted)


@dataclass(frozen=True)
class TableScore:
    """Row P/R/F1 and cell counts of one table question."""

    rows: PRF
    cell_correct: int
    cell_total: int

    @property
    def cell_accuracy(self) -> float:
        """Correct over total cells, or the row F1 when there are no cells to compare."""
        return self.cell_correct / self.cell_total if self.cell_total else self.rows.f1


def _rows_by_key(rows: Any, key_columns: list[Any]) -> dict[RowKey, dict[str, Any]]:
    indexed: dict[RowKey, dict[str, Any]] = {}
    if not isinstance(rows, list) or not key_columns:
        return indexed
    for row in rows:
        if isinstance(row, dict):
            try:
                key = tuple(text_norm(row.get(column)) for column in key_columns)
            except TypeError as error:  # an unhashable column name from the gold schema
                raise TableSchemaError(
                    f"row-key column names {key_columns!r} are not strings"
                ) from error
            # The last row with a key wins, in gold as well as in predictions.
            indexed[key] = row
    return indexed


class TableSchemaError(ValueError):
    """A gold table schema the official script crashes on."""


def _key_columns(columns: list[Any]) -> list[Any]:
    """Row-key column names; without any, the first schema column (compared as a cell too)."""
    keys = [column for column in columns if isinstance(column, dict) and column.get("is_row_key")]
    if not keys and columns:
        first = columns[0]
        if not isinstance(first, dict):
            raise TableSchemaError("first column must be an object when no column is a row key")
        return [str(first.get("name", ""))]
    names = []
    for column in keys:
        if "name" not in column:
            raise TableSchemaError("row-key column without a name")
        names.append(column["name"])
    return names


def score_table(gold_table: Any, predicted_table: Any) -> TableScore:
    """Row-key F1 and cell accuracy of a predicted table against the gold table and its schema."""
    if not isinstance(gold_table, dict) or not isinstance(predicted_table, dict):
        return TableScore(PRF(0.0, 0.0, 0.0), 0, 0)
    schema = gold_table.get("schema")
    columns: list[Any] = schema if isinstance(schema, list) else []
    key_columns = _key_columns(columns)
    comparable = [
        (name, str(column.get("type", "string")))
        for column in columns
        if isinstance(column, dict)
        and (name := str(column.get("name", "")))
        and not column.get("is_row_key")
    ]
    gold_rows = _rows_by_key(gold_table.get("rows"), key_columns)
    predicted_rows = _rows_by_key(predicted_table.get("rows"), key_columns)
    correct = total = 0
    for key, gold_row in gold_rows.items():
        total += len(comparable)
        predicted_row = predicted_rows.get(key)
        if predicted_row is None:
            continue
        correct += sum(
            cells_match(gold_row.get(name), predicted_row.get(name), column_type)
            for name, column_type in comparable
        )
    return TableScore(set_prf(set(gold_rows), set(predicted_rows)), correct, total)


@dataclass
class _Tally:
    """Per-question scores collected while iterating over the gold questions."""

    paper: list[PRF] = field(default_factory=list)
    evidence: list[PRF] = field(default_factory=list)
    choice_correct: int = 0
    choice_total: int = 0
    freeform_correct: int = 0
    freeform_total: int = 0
    tables: list[TableScore] = field(default_factory=list)


def _mean_or_none(values: Iterable[float]) -> float | None:
    collected = list(values)
    return sum(collected) / len(collected) if collected else None


def _index_by_query(records: list[tuple[int, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    # A dict keeps the first position of a repeated id and the last record for it.
    return {id_norm(record.get("query_id")): record for _, record in records}


def evaluate_records(
    gold_records: list[tuple[int, dict[str, Any]]],
    predicted_records: list[tuple[int, dict[str, Any]]],
) -> dict[str, Any]:
    """Score ``(line, record)`` lists: the official ``{"metrics", "details"}`` plus the composite.

    Example:
        >>> gold = [(1, {"query_id": "q1", "answer_types": ["multiple_choice"],
        ...              "gold_papers": [{"paper_id": "p1"}],
        ...              "answer": {"multiple_choice": {"gold": "B"}}})]
        >>> pred = [(1, {"query_id": "q1", "gold_papers": [{"paper_id": "p1"}],
        ...              "answer": {"multiple_choice": {"gold": "b"}}})]
        >>> evaluate_records(gold, pred)["metrics"]["multiple_choice_accuracy"]
        1.0
    """
    gold_by_id = _index_by_query(gold_records)
    predicted_by_id = _index_by_query(predicted_records)
    predicted_by_id.pop("", None)
    tally = _Tally()
    for query_id, gold in gold_by_id.items():
        predicted = predicted_by_id.get(query_id, {})
        targets = _as_set(
            gold.get("evaluation_targets") or ALL_TARGETS, "evaluation_targets", query_id
        )
        answer_types = _as_set(gold.get("answer_types") or [], "answer_types", query_id)
        if "paper" in targets:
            tally.paper.append(set_prf(paper_ids(gold), paper_ids(predicted)))
        if "evidence" in targets:
            tally.evidence.append(set_prf(evidence_keys(gold), evidence_keys(predicted)))
        if "answer" in targets:
            _score_answer(query_id, gold, answer_types, predicted, tally)

    micro_total = sum(table.cell_total for table in tally.tables)
    micro_correct = sum(table.cell_correct for table in tally.tables)
    metrics: dict[str, float | None] = {
        "paper_precision_macro": _mean_or_none(s.precision for s in tally.paper),
        "paper_recall_macro": _mean_or_none(s.recall for s in tally.paper),
        "paper_f1_macro": _mean_or_none(s.f1 for s in tally.paper),
        "evidence_precision_macro": _mean_or_none(s.precision for s in tally.evidence),
        "evidence_recall_macro": _mean_or_none(s.recall for s in tally.evidence),
        "evidence_f1_macro": _mean_or_none(s.f1 for s in tally.evidence),
        "multiple_choice_accuracy": (
            tally.choice_correct / tally.choice_total if tally.choice_total else None
        ),
        "freeform_exact_match": (
            tally.freeform_correct / tally.freeform_total if tally.freeform_total else None
        ),
        # Unlike the others, the table means are 0.0 (not null) without table questions.
        "table_row_f1_macro": _mean_or_none(t.rows.f1 for t in tally.tables) or 0.0,
        "table_cell_accuracy_macro": _mean_or_none(t.cell_accuracy for t in tally.tables) or 0.0,
        "table_cell_accuracy_micro": micro_correct / micro_total if micro_total else None,
    }
    missing = sorted(set(gold_by_id) - set(predicted_by_id))
    extra = sorted(set(predicted_by_id) - set(gold_by_id))
    return {
        "metrics": metrics,
        "composite_score": composite_score(metrics, has_table_questions=bool(tally.tables)),
        "details": {
            "total": len(gold_records),
            "missing_prediction_count": len(missing),
            "extra_prediction_count": len(extra),
            "table_cell_correct": micro_correct,
            "table_cell_total": micro_total,
            "missing_predictions": missing,
            "extra_predictions": extra,
        },
    }


def _as_set(value: Any, name: str, query_id: str) -> set[Any]:
    """``set(value)`` as the official script takes it: a string becomes its letters."""
    try:
        return set(value)
    except TypeError as error:
        raise EvaluationError(f"gold {query_id!r}: {name} must be a list of strings") from error


def _score_answer(
    query_id: str,
    gold: Mapping[str, Any],
    answer_types: set[Any],
    predicted: Mapping[str, Any],
    tally: _Tally,
) -> None:
    wanted = [kind for kind in ("multiple_choice", "freeform", "table") if kind in answer_types]
    if not wanted:
        return
    gold_answer = _gold_answer(gold, query_id)
    if "multiple_choice" in wanted:
        tally.choice_total += 1
        tally.choice_correct += predicted_choice(predicted) == gold_choice(gold_answer)
    if "freeform" in wanted:
        tally.freeform_total += 1
        tally.freeform_correct += predicted_freeform(predicted) == gold_freeform(gold_answer)
    if "table" in wanted:
        try:
            table = score_table(gold_answer.get("table", {}), _answer(predicted).get("table", {}))
        except OverflowError as error:
            raise EvaluationError(f"{query_id!r}: table number too large to compare") from error
        except TableSchemaError as error:
            raise EvaluationError(f"gold {query_id!r}: table schema {error}") from error
        tally.tables.append(table)


def composite_score(metrics: Mapping[str, float | None], has_table_questions: bool) -> float | None:
    """Leaderboard score: mean of paper F1, evidence F1 and the mean of the present answer metrics.

    MC and freeform are present when not null; the two table means only when the gold has
    table questions, since their value without any is 0.0 rather than null.

    Example:
        >>> composite_score({"paper_f1_macro": 0.9728, "evidence_f1_macro": 0.6847,
        ...     "multiple_choice_accuracy": 0.98, "freeform_exact_match": None,
        ...     "table_row_f1_macro": 0.5423, "table_cell_accuracy_macro": 0.3508}, True)
        0.7606...
    """
    names = ["multiple_choice_accuracy", "freeform_exact_match"]
    if has_table_questions:
        names += ["table_row_f1_macro", "table_cell_accuracy_macro"]
    answers = [value for name in names if (value := metrics.get(name)) is not None]
    parts = [metrics.get("paper_f1_macro"), metrics.get("evidence_f1_macro")]
    parts.append(sum(answers) / len(answers) if answers else None)
    present = [value for value in parts if value is not None]
    return sum(present) / len(present) if present else None


def read_records(path: Path, role: str) -> list[tuple[int, dict[str, Any]]]:
    """Read a gold or prediction file with the official JSONL rules; errors name file and line."""
    try:
        return list(read_official_jsonl(path))
    except JsonlLineError as error:
        raise EvaluationError(str(error)) from error
    except OSError as error:
        raise EvaluationError(f"cannot read {role} file {path}: {error.strerror}") from error


def evaluate_files(gold_path: Path, predicted_path: Path) -> dict[str, Any]:
    """``littrace evaluate``: the official output, plus ``composite_score`` at the top level."""
    return evaluate_records(
        read_records(gold_path, "gold"), read_records(predicted_path, "prediction")
    )
