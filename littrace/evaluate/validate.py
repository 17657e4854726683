"""The engine of ``littrace validate``: the official LitTraceQA submission validator, reproduced.

The official ``scripts/validate_submission.py`` decides whether a submission is accepted, so
every rule, message and its order is copied from it (see ``docs/LITTRACEQA.md``, "Official
validator: exact rules"), odd parts included: an unknown paper id that repeats is reported as
unknown twice, locator contents are never checked, and a non-list ``evidence`` passes silently
when evidence is not required.

Two deliberate differences:

* Where the official script crashes with a traceback (a file that is missing, not UTF-8, has a
  line that is not JSON or not an object; a missing or repeated ``query_id``; an input row too
  malformed to read), :func:`validate_submission` returns a result whose ``fatal`` names the
  file and line or query id instead.
* The paper pool is optional. The official script always reads ``--paper-metadata`` (default
  ``data/paper_metadata.jsonl``) and crashes when it is absent, which it is in the public
  release. With ``pool_path=None`` the two "unknown paper_id" checks (``gold_papers`` and
  ``evidence``) are skipped and every other check runs exactly as with a pool.

Example:
    >>> from pathlib import Path
    >>> result = validate_submission(  # doctest: +SKIP
    ...     Path("data/littraceqa/test.jsonl"), Path("runs/test_submission.jsonl")
    ... )
    >>> print(result.render())  # doctest: +SKIP
    Submission is valid: 71 predictions
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from littrace.evaluate.jsonl import JsonlLineError, read_official_jsonl

ALLOWED_TOP_FIELDS = frozenset({"query_id", "gold_papers", "answer", "evidence"})
EVIDENCE_FIELDS = frozenset({"paper_id", "source_type", "locator"})
SOURCE_TYPES = frozenset({"table", "figure", "text_span", "equation_algorithm", "citation_context"})
# Evidence is optional only for this split, recognised (like the official script) by base name.
EVIDENCE_OPTIONAL_INPUT_NAME = "test_extra.jsonl"
MAX_LISTED_ERRORS = 100
MAX_LISTED_IDS = 5

# Official error messages, formatted with str.format. `{x!r}` and list values print exactly as
# the official f-strings do (Python repr), e.g. "['freeform', 'multiple_choice']".
MSG_MISSING_PREDICTIONS = "missing predictions: {count} (first: {ids})"
MSG_UNKNOWN_QUERY_IDS = "unknown query_id values: {count} (first: {ids})"
MSG_UNEXPECTED_FIELDS = "{qid}: unexpected fields: {fields}"
MSG_PAPERS_NOT_LIST = "{qid}: gold_papers must be a list"
MSG_PAPER_SHAPE = "{qid}: gold_papers[{i}] must contain only paper_id"
MSG_PAPER_EMPTY = "{qid}: gold_papers[{i}].paper_id is empty"
MSG_PAPER_UNKNOWN = "{qid}: unknown paper_id {paper_id!r}"
MSG_PAPER_DUPLICATE = "{qid}: duplicate paper_id {paper_id!r}"
MSG_EVIDENCE_NOT_LIST = "{qid}: evidence must be a list for this split"
MSG_EVIDENCE_NOT_OBJECT = "{qid}: evidence[{i}] must be an object"
MSG_EVIDENCE_SHAPE = "{qid}: evidence[{i}] must contain paper_id, source_type, and locator"
MSG_EVIDENCE_UNKNOWN_PAPER = "{qid}: evidence[{i}] has unknown paper_id {paper_id!r}"
MSG_EVIDENCE_SOURCE_TYPE = "{qid}: evidence[{i}] has invalid source_type {source_type!r}"
MSG_EVIDENCE_LOCATOR = "{qid}: evidence[{i}].locator must be a non-empty object"
MSG_ANSWER_NOT_OBJECT = "{qid}: answer must be an object"
MSG_ANSWER_KEYS = "{qid}: answer keys {keys} do not match requested types {types}"
MSG_FREEFORM_SHAPE = "{qid}: answer.freeform must contain only text"
MSG_FREEFORM_EMPTY = "{qid}: answer.freeform.text must be non-empty"
MSG_MC_SHAPE = "{qid}: answer.multiple_choice must contain only gold"
MSG_MC_LABEL = "{qid}: answer.multiple_choice.gold must be one of {labels}"
MSG_TABLE_SHAPE = "{qid}: answer.table must contain only rows"
MSG_TABLE_ROWS = "{qid}: answer.table.rows must be a non-empty list"
MSG_TABLE_ROW_COLUMNS = "{qid}: table row {i} must use exactly these columns: {columns}"
MSG_TABLE_CELL_TYPE = "{qid}: table row {i} column {column!r} must be {type} or null"

# Summary lines printed by the official script, and ours for a crash.
MSG_VALID = "Submission is valid: {count} predictions"
MSG_INVALID = "Submission is invalid: {count} error(s)"
MSG_LISTED_ERROR = "- {error}"
MSG_MORE_ERRORS = "- ... {count} more error(s)"
MSG_FATAL = "error: {fatal}"

# Crash replacements. The first three keep the official "<path>:<line>: ..." wording.
FATAL_LINE = {
    "invalid_json": "{path}:{line}: invalid JSON ({detail})",
    "not_object": "{path}:{line}: expected a JSON object (got {detail})",
    "not_utf8": "{path}:{line}: not valid UTF-8 ({detail})",
}
FATAL_FILE = "{path}: cannot read file ({reason})"
# `label:n` is the official prefix (n counts non-blank records); the rest points at the line.
FATAL_MISSING_QID = "{label}:{n}: missing query_id ({path}, line {line})"
FATAL_DUPLICATE_QID = "{label}:{n}: duplicate query_id {qid!r} ({path}, line {line})"
FATAL_INPUT_ROW = "input {qid}: {problem} ({error})"


@dataclass
class ValidationResult:
    """What the official validator would report for one submission.

    ``errors`` are the official error strings in the official order. ``prediction_count`` is
    the number of prediction records read (0 if the prediction file could not be read).
    ``fatal`` is set where the official script would crash instead of reporting; ``errors`` is
    then empty.
    """

    errors: list[str]
    prediction_count: int
    fatal: str | None = None

    @property
    def ok(self) -> bool:
        return self.fatal is None and not self.errors

    def render(self) -> str:
        """The official stdout, without the final newline (``print`` adds it)."""
        if self.fatal is not None:
            return MSG_FATAL.format(fatal=self.fatal)
        if not self.errors:
            return MSG_VALID.format(count=self.prediction_count)
        lines = [MSG_INVALID.format(count=len(self.errors))]
        lines += [MSG_LISTED_ERROR.format(error=e) for e in self.errors[:MAX_LISTED_ERRORS]]
        if len(self.errors) > MAX_LISTED_ERRORS:
            lines.append(MSG_MORE_ERRORS.format(count=len(self.errors) - MAX_LISTED_ERRORS))
        return "\n".join(lines)


class _Fatal(Exception):
    """A condition on which the official script crashes; the message is ours."""


def validate_submission(
    input_path: Path,
    pred_path: Path,
    pool_path: Path | None = None,
    require_evidence: bool | None = None,
) -> ValidationResult:
    """Validate ``pred_path`` against the released inputs ``input_path``.

    ``pool_path`` is the paper metadata JSONL whose ``paper_id`` values are the known papers;
    ``None`` skips the unknown-paper checks (see the module docstring). ``require_evidence``
    ``None`` means evidence is required unless the input file is named ``test_extra.jsonl``.
    """
    if require_evidence is None:
        require_evidence = input_path.name != EVIDENCE_OPTIONAL_INPUT_NAME
    predictions: list[tuple[int, dict[str, Any]]] = []
    try:
        # Same order as the official script: read all three files, then index by query_id.
        inputs = _read(input_path)
        predictions = _read(pred_path)
        pool = None if pool_path is None else _read_pool(pool_path)
        input_by_id = _index_by_query_id(inputs, "input", input_path)
        pred_by_id = _index_by_query_id(predictions, "prediction", pred_path)
        errors = _check(input_by_id, pred_by_id, require_evidence, pool)
    except _Fatal as fatal:
        return ValidationResult(errors=[], prediction_count=len(predictions), fatal=str(fatal))
    return ValidationResult(errors=errors, prediction_count=len(predictions))


def _read(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        return list(read_official_jsonl(path))
    except JsonlLineError as error:
        template = FATAL_LINE[error.problem]
        raise _Fatal(template.format(path=path, line=error.line, detail=error.detail)) from error
    except OSError as error:
        raise _Fatal(FATAL_FILE.format(path=path, reason=error.strerror or error)) from error


def _read_pool(path: Path) -> set[str]:
    # A record without paper_id adds "" to the pool, exactly as in the official script.
    return {_id_norm(record.get("paper_id")) for _, record in _read(path)}


def _id_norm(value: Any) -> str:
    """The official ``str(v or "").strip()``: falsy values (0, False, null, []) become ""."""
    return str(value or "").strip()


def _index_by_query_id(
    records: list[tuple[int, dict[str, Any]]], label: str, path: Path
) -> dict[str, dict[str, Any]]:
    indexed: dict[str, dict[str, Any]] = {}
    for n, (line, record) in enumerate(records, start=1):
        qid = _id_norm(record.get("query_id"))
        if not qid:
            raise _Fatal(FATAL_MISSING_QID.format(label=label, n=n, path=path, line=line))
        if qid in indexed:
            raise _Fatal(
                FATAL_DUPLICATE_QID.format(label=label, n=n, qid=qid, path=path, line=line)
            )
        indexed[qid] = record
    return indexed


def _check(
    input_by_id: dict[str, dict[str, Any]],
    pred_by_id: dict[str, dict[str, Any]],
    require_evidence: bool,
    pool: set[str] | None,
) -> list[str]:
    errors: list[str] = []
    missing = sorted(input_by_id.keys() - pred_by_id.keys())
    unknown = sorted(pred_by_id.keys() - input_by_id.keys())
    if missing:
        errors.append(MSG_MISSING_PREDICTIONS.format(count=len(missing), ids=_first_ids(missing)))
    if unknown:
        errors.append(MSG_UNKNOWN_QUERY_IDS.format(count=len(unknown), ids=_first_ids(unknown)))
    for qid, input_row in input_by_id.items():
        pred = pred_by_id.get(qid)
        if pred is not None:
            errors += check_record(qid, input_row, pred, require_evidence, pool)
    return errors


def _first_ids(ids: list[str]) -> str:
    return ", ".join(ids[:MAX_LISTED_IDS])


def check_record(
    qid: str,
    input_row: dict[str, Any],
    pred: dict[str, Any],
    require_evidence: bool,
    pool: set[str] | None,
) -> list[str]:
    """The official rules one submission record breaks against its question (``input_row``):
    unexpected fields, gold papers, evidence (required or not; ids in ``pool`` when given),
    and the answer's shape for the question's answer types; empty when it keeps them all."""
    unexpected = sorted(pred.keys() - ALLOWED_TOP_FIELDS)
    errors = (
        [MSG_UNEXPECTED_FIELDS.format(qid=qid, fields=", ".join(unexpected))] if unexpected else []
    )
    errors += _check_papers(qid, pred.get("gold_papers"), pool)
    errors += _check_evidence(qid, pred.get("evidence"), require_evidence, pool)
    errors += _check_answer(qid, input_row, pred.get("answer"))
    return errors


def _check_papers(qid: str, papers: Any, pool: set[str] | None) -> list[str]:
    if not isinstance(papers, list):
        return [MSG_PAPERS_NOT_LIST.format(qid=qid)]
    errors: list[str] = []
    seen: set[str] = set()
    for i, paper in enumerate(papers):
        if not isinstance(paper, dict) or set(paper) != {"paper_id"}:
            errors.append(MSG_PAPER_SHAPE.format(qid=qid, i=i))
            continue
        paper_id = _id_norm(paper["paper_id"])
        # One message per item, first match wins: an unknown id is never reported as a
        # duplicate, so an unknown id given twice is reported as unknown twice.
        if not paper_id:
            errors.append(MSG_PAPER_EMPTY.format(qid=qid, i=i))
        elif pool is not None and paper_id not in pool:
            errors.append(MSG_PAPER_UNKNOWN.format(qid=qid, paper_id=paper_id))
        elif paper_id in seen:
            errors.append(MSG_PAPER_DUPLICATE.format(qid=qid, paper_id=paper_id))
        seen.add(paper_id)
    return errors


def _check_evidence(
    qid: str, evidence: Any, require_evidence: bool, pool: set[str] | None
) -> list[str]:
    if not isinstance(evidence, list):
        return [MSG_EVIDENCE_NOT_LIST.format(qid=qid)] if require_evidence else []
    errors: list[str] = []
    for i, item in enumerate(evidence):
        if not isinstance(item, dict):
            errors.append(MSG_EVIDENCE_NOT_OBJECT.format(qid=qid, i=i))
            continue
        if set(item) != EVIDENCE_FIELDS:
            errors.append(MSG_EVIDENCE_SHAPE.format(qid=qid, i=i))
            continue
        # Every failing check is reported; the locator's contents are never looked at.
        paper_id = _id_norm(item["paper_id"])
        source_type = _id_norm(item["source_type"])
        locator = item["locator"]
        if pool is not None and paper_id not in pool:
            errors.append(MSG_EVIDENCE_UNKNOWN_PAPER.format(qid=qid, i=i, paper_id=paper_id))
        if source_type not in SOURCE_TYPES:
            errors.append(MSG_EVIDENCE_SOURCE_TYPE.format(qid=qid, i=i, source_type=source_type))
        if not isinstance(locator, dict) or not locator:
            errors.append(MSG_EVIDENCE_LOCATOR.format(qid=qid, i=i))
    return errors


def _check_answer(qid: str, input_row: dict[str, Any], answer: Any) -> list[str]:
    # Read before the answer is looked at, as the official script does: a bad `answer_types`
    # crashes it whatever the answer is.
    requested = _requested_types(qid, input_row)
    if not isinstance(answer, dict):
        return [MSG_ANSWER_NOT_OBJECT.format(qid=qid)]
    if set(answer) != requested:
        keys = sorted(answer)
        types = _sorted_or_fatal(qid, requested, "answer_types")
        return [MSG_ANSWER_KEYS.format(qid=qid, keys=keys, types=types)]
    errors: list[str] = []
    if "freeform" in requested:
        errors += _check_freeform(qid, answer["freeform"])
    if "multiple_choice" in requested:
        errors += _check_multiple_choice(qid, input_row, answer["multiple_choice"])
    if "table" in requested:
        errors += _check_table(qid, input_row, answer["table"])
    return errors


def _requested_types(qid: str, input_row: dict[str, Any]) -> set[Any]:
    try:
        return set(input_row.get("answer_types") or [])
    except TypeError as error:
        raise _Fatal(
            FATAL_INPUT_ROW.format(qid=qid, problem="answer_types is not a list", error=error)
        ) from error


def _sorted_or_fatal(qid: str, values: Iterable[Any], field: str) -> list[Any]:
    """``sorted`` as the official messages use it; mixed types there crash the official script."""
    try:
        return sorted(values)
    except TypeError as error:
        raise _Fatal(
            FATAL_INPUT_ROW.format(qid=qid, problem=f"{field} mixes value types", error=error)
        ) from error


def _check_freeform(qid: str, freeform: Any) -> list[str]:
    if not isinstance(freeform, dict) or set(freeform) != {"text"}:
        return [MSG_FREEFORM_SHAPE.format(qid=qid)]
    text = freeform["text"]
    if not isinstance(text, str) or not text.strip():
        return [MSG_FREEFORM_EMPTY.format(qid=qid)]
    return []


def _check_multiple_choice(qid: str, input_row: dict[str, Any], choice: Any) -> list[str]:
    if not isinstance(choice, dict) or set(choice) != {"gold"}:
        return [MSG_MC_SHAPE.format(qid=qid)]
    labels = _option_labels(input_row)
    # Normalised like ids then upper-cased: "c" passes, "" and 1 fail.
    if _id_norm(choice["gold"]).upper() not in labels:
        return [MSG_MC_LABEL.format(qid=qid, labels=sorted(labels))]
    return []


def _option_labels(input_row: dict[str, Any]) -> set[str]:
    # The official script also accepts options given as a {label: text} object.
    options = input_row.get("multiple_choice_options") or {}
    if isinstance(options, dict):
        return {str(label).strip().upper() for label in options}
    if isinstance(options, list):
        return {
            _id_norm(option.get("label")).upper() for option in options if isinstance(option, dict)
        }
    return set()


def _check_table(qid: str, input_row: dict[str, Any], table: Any) -> list[str]:
    if not isinstance(table, dict) or set(table) != {"rows"}:
        return [MSG_TABLE_SHAPE.format(qid=qid)]
    columns = _schema_columns(qid, input_row)
    rows = table["rows"]
    if not isinstance(rows, list) or not rows:
        return [MSG_TABLE_ROWS.format(qid=qid)]
    errors: list[str] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != set(columns):
            names = _sorted_or_fatal(qid, columns, "table_schema names")
            errors.append(MSG_TABLE_ROW_COLUMNS.format(qid=qid, i=i, columns=names))
            continue
        for name, column_type in columns.items():
            value = row[name]
            if value is not None and not _has_type(value, column_type):
                errors.append(
                    MSG_TABLE_CELL_TYPE.format(qid=qid, i=i, column=name, type=column_type)
                )
    return errors


def _schema_columns(qid: str, input_row: dict[str, Any]) -> dict[Any, Any]:
    """Column name -> declared type, from the input row; a later repeat of a name wins."""
    try:
        return {column["name"]: column["type"] for column in input_row.get("table_schema") or []}
    except (KeyError, TypeError) as error:
        raise _Fatal(
            FATAL_INPUT_ROW.format(
                qid=qid,
                problem="table_schema must be a list of objects with name and type",
                error=repr(error),
            )
        ) from error


def _has_type(value: Any, column_type: Any) -> bool:
    # bool is a subclass of int, so it must be excluded from numbers; NaN and ±inf are floats
    # and pass. An unknown declared type accepts nothing but null.
    if column_type == "string":
        return isinstance(value, str)
    if column_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if column_type == "boolean":
        return isinstance(value, bool)
    return False
