"""The fail-closed submission writer (TRACE §3.4).

Every record is checked against the official validator's per-record rules
(:mod:`littrace.evaluate.validate`, the same code ``littrace validate`` runs) and the official
JSON schema before anything is written. An invalid record is repaired (duplicate papers and
malformed evidence dropped, missing answer parts filled, cells re-typed, an unknown option
replaced) or, when it has no answer object or is still invalid, replaced by a conservative
fallback; the reason is returned so
the trace keeps it. A record is never dropped: the file has exactly one line per question, in
input order, and is written atomically.

Example:
    >>> from littrace.littraceqa import Question
    >>> q = Question(query_id="q1", benchmark="LitTraceQA", question="Which?",
    ...              answer_types=["multiple_choice"],
    ...              multiple_choice_options=[{"label": "A", "text": "x"},
    ...                                       {"label": "B", "text": "y"}])
    >>> record, reason = checked_record({"query_id": "q1", "gold_papers": [], "evidence": [],
    ...     "answer": {"multiple_choice": {"gold": "Z"}}}, q)
    >>> record["answer"], reason.split(":")[0]
    ({'multiple_choice': {'gold': 'A'}}, 'repaired')
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from littrace.evaluate.validate import check_record
from littrace.files import atomic_write
from littrace.littraceqa import PredictedEvidence, Question, schema_errors
from littrace.read.tables import typed_value

FALLBACK_TEXT = "unknown"


def record_errors(record: dict[str, Any], question: Question) -> list[str]:
    """Official validator errors (evidence required) plus JSON-schema errors of one record."""
    row = question.model_dump(mode="json", exclude_none=True)
    errors = check_record(question.query_id, row, record, True, None)
    if record.get("query_id") != question.query_id:
        errors.append(f"query_id {record.get('query_id')!r} is not {question.query_id!r}")
    return errors + schema_errors(record, "submission")


def fallback_record(question: Question) -> dict[str, Any]:
    """The conservative record: no papers, no evidence, the most neutral valid answer."""
    answer: dict[str, Any] = {}
    if "freeform" in question.answer_types:
        answer["freeform"] = {"text": FALLBACK_TEXT}
    if "multiple_choice" in question.answer_types and question.multiple_choice_options:
        answer["multiple_choice"] = {"gold": question.multiple_choice_options[0].label}
    if "table" in question.answer_types and question.table_schema:
        answer["table"] = {"rows": [dict.fromkeys(c.name for c in question.table_schema)]}
    return {"query_id": question.query_id, "gold_papers": [], "evidence": [], "answer": answer}


def _repaired(record: dict[str, Any], question: Question) -> dict[str, Any] | None:
    """The record with its surface problems fixed; None when it has no answer object."""
    raw_answer = record.get("answer")
    if not isinstance(raw_answer, dict):
        return None
    answer: dict[str, Any] = raw_answer
    fallback = fallback_record(question)
    papers: list[dict[str, str]] = []
    for paper in record.get("gold_papers") or []:
        paper_id = str(paper.get("paper_id", "")).strip() if isinstance(paper, dict) else ""
        if paper_id and {"paper_id": paper_id} not in papers:
            papers.append({"paper_id": paper_id})
    known = {paper["paper_id"] for paper in papers}
    evidence = [
        item
        for item in record.get("evidence") or []
        if isinstance(item, dict) and item.get("paper_id") in known and _valid_evidence(item)
    ]
    fixed: dict[str, Any] = {}
    if "freeform" in question.answer_types:
        text = (answer.get("freeform") or {}).get("text")
        good = isinstance(text, str) and text.strip()
        fixed["freeform"] = {"text": text} if good else fallback["answer"]["freeform"]
    if "multiple_choice" in question.answer_types:
        labels = [option.label for option in question.multiple_choice_options or []]
        gold = str((answer.get("multiple_choice") or {}).get("gold", "")).strip().upper()
        fixed["multiple_choice"] = {"gold": gold if gold in labels else labels[0]}
    if "table" in question.answer_types and question.table_schema:
        rows = (answer.get("table") or {}).get("rows")
        typed = [
            {c.name: typed_value(row.get(c.name), c.type) for c in question.table_schema}
            for row in rows or []
            if isinstance(row, dict)
        ]
        fixed["table"] = {"rows": typed or fallback["answer"]["table"]["rows"]}
    return {
        "query_id": question.query_id,
        "gold_papers": papers,
        "evidence": evidence,
        "answer": fixed,
    }


def _valid_evidence(item: dict[str, Any]) -> bool:
    try:
        PredictedEvidence.model_validate(item)
    except ValidationError:
        return False
    return bool(item.get("locator"))


def checked_record(record: dict[str, Any], question: Question) -> tuple[dict[str, Any], str | None]:
    """A record that passes :func:`record_errors`, and why it differs from ``record`` (if so)."""
    errors = record_errors(record, question)
    if not errors:
        return record, None
    repaired = _repaired(record, question)
    if repaired is not None and not record_errors(repaired, question):
        return repaired, f"repaired: {'; '.join(errors)}"
    return fallback_record(question), f"fallback: {'; '.join(errors)}"


def write_submission(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` as compact JSONL atomically (:func:`littrace.files.atomic_write`);
    returns the count."""
    count = 0
    with atomic_write(path) as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    return count
