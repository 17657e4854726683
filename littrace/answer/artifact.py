"""The ``answers`` artifact: its key, the schemas of its tables, and writing it from the
questions' records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa

from littrace.answer.records import AnswerRecord
from littrace.artifacts import (
    SUBMISSION_FILE,
    TRACES_FILE,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
)
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.digest import sha256_file
from littrace.index.stage import IndexArtifacts
from littrace.littraceqa import Question, read_jsonl
from littrace.read.writer import checked_record, record_errors, write_submission
from littrace.retrieve.run import CANDIDATES_SCHEMA, PARTIAL_DIR, candidate_rows

STAGE = "answers"
# The resume journal of an answers artifact not committed yet (see journal_folder).
RECORDS_FILE = "records.jsonl"
# The settings an answer depends on. The deadline is among them: a raised one must answer
# again the questions the old one cut.
KEY_SETTINGS = ("retrieve", "relate", "read", "llm", "runtime.record_timeout_s")


EVIDENCE_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("paper_id", pa.string()),
        ("source_type", pa.string()),
        ("page", pa.int64()),
        ("object_id", pa.string()),
        ("section", pa.string()),
        ("chunk_id", pa.string()),
        ("bbox", pa.list_(pa.float64())),
        ("score", pa.float64()),
    ]
)
PREDICTIONS_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("answer_types", pa.list_(pa.string())),
        ("answer_json", pa.string()),
        ("papers", pa.list_(pa.string())),
        ("fallback", pa.string()),
        ("latency_s", pa.float64()),
        ("llm_calls", pa.int64()),
        ("llm_cost", pa.float64()),
        ("llm_fallbacks", pa.int64()),
    ]
)


def read_questions(path: Path) -> list[Question]:
    """The questions of ``path``; a bad or repeated line raises an error naming its line."""
    questions = read_jsonl(path, Question)
    seen: dict[str, int] = {}
    for position, question in enumerate(questions, start=1):
        if question.query_id in seen:
            raise ValueError(
                f"{path}: question {position} repeats query_id {question.query_id!r} "
                f"(first at question {seen[question.query_id]})"
            )
        seen[question.query_id] = position
    return questions


def answers_key(
    store: ArtifactStore, questions_path: Path, settings: Settings, indexes: IndexArtifacts
) -> ArtifactKey:
    """The artifact key: the question file's bytes, :data:`KEY_SETTINGS` and the indexes."""
    return store.key(
        STAGE,
        code_version=code_version("answers", settings.runtime.code_versions.answers),
        inputs={
            "questions": sha256_file(questions_path),
            **{f"index:{name}": artifact.hash for name, artifact in indexes.artifacts.items()},
        },
        config={path: settings.digest(path) for path in KEY_SETTINGS},
    )


def write_answers(directory: Path, records: list[AnswerRecord], questions: list[Question]) -> None:
    submissions = []
    for record, question in zip(records, questions, strict=True):
        submission, fallback = checked_record(record.submission, question)
        if fallback:
            record.trace.fallbacks.append(fallback)
        assert not record_errors(submission, question)
        submissions.append(submission)
    write_submission(directory / SUBMISSION_FILE, submissions)
    write_submission(
        directory / TRACES_FILE, (record.trace.model_dump(mode="json") for record in records)
    )


def write_tables(writer: ArtifactWriter, records: list[AnswerRecord]) -> None:
    candidates: list[dict[str, Any]] = []
    evidence: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for record in records:
        trace, submission = record.trace, record.submission
        emitted = {paper["paper_id"] for paper in submission["gold_papers"]}
        candidates.extend(candidate_rows(record.query_id, trace.retrieval, emitted))
        evidence.extend(
            {name: row[name] for name in EVIDENCE_SCHEMA.names}
            for row in trace.evidence
            if row["paper_id"] in emitted
        )
        predictions.append(
            {
                "query_id": record.query_id,
                "answer_types": trace.question["answer_types"],
                "answer_json": json.dumps(submission["answer"], ensure_ascii=False, sort_keys=True),
                "papers": [paper["paper_id"] for paper in submission["gold_papers"]],
                "fallback": "; ".join(trace.fallbacks) or None,
                "latency_s": trace.timings.total_s,
                "llm_calls": trace.llm.calls,
                "llm_cost": trace.llm.cost,
                "llm_fallbacks": trace.llm.fallbacks,
            }
        )
    writer.write_table("candidates", candidates, CANDIDATES_SCHEMA)
    writer.write_table("evidence", evidence, EVIDENCE_SCHEMA)
    writer.write_table("predictions", predictions, PREDICTIONS_SCHEMA)


def fallback_counts(answers: Artifact) -> dict[str, int]:
    """How an answers artifact degraded: ``questions_with_fallback`` (any entry in the trace's
    ``fallbacks``) and ``llm_fallbacks`` (steps that fell back, over all questions)."""
    rows = answers.table("predictions", ["fallback", "llm_fallbacks"]).to_pylist()
    return {
        "questions_with_fallback": sum(1 for row in rows if row["fallback"]),
        "llm_fallbacks": sum(int(row["llm_fallbacks"] or 0) for row in rows),
    }


def journal_folder(root: Path, answers: str) -> Path:
    """Where the finished questions of the answers artifact ``answers`` (its hash) are
    journaled until it is committed: one resume journal for ``littrace answer`` and the
    answer flow alike.

    Example:
        >>> journal_folder(Path("artifacts"), "3f2a").as_posix()
        'artifacts/answers/.partial/3f2a'
    """
    return Path(root) / STAGE / PARTIAL_DIR / answers


def commit_answers(
    key: ArtifactKey, questions: list[Question], records: list[AnswerRecord], settings: Settings
) -> Artifact:
    """The answers artifact ``key`` (see :func:`answers_key`), written from ``records`` (one
    :func:`answer_question` record per question, in question order) unless it exists already;
    its resume journal (:func:`journal_folder`) goes once the artifact is written.

    Example:
        >>> commit_answers(key, questions, records, settings).tables  # doctest: +SKIP
        ('candidates', 'evidence', 'predictions')
    """
    store = ArtifactStore(settings.runtime.artifact_root)
    existing = store.get(key)
    if existing is None:
        with store.writer(key) as writer:
            write_answers(writer.path, records, questions)
            write_tables(writer, records)
        existing = writer.artifact
    shutil.rmtree(journal_folder(store.root, key.hash), ignore_errors=True)
    return existing
