"""Prefect tasks of the answer stage: one task run per question, then the answers artifact.

Thin wrappers over :mod:`littrace.answer`. The answers artifact's key follows from the
question file, the settings and the index hashes alone (:func:`answer_keys`), so the flow
knows it, and whether it is built already, before any question is answered:

* :func:`answer_question_task` answers one question (mapped, so a Dask cluster spreads the
  questions over its workers). Each process opens the indexes, encoder and corpus tables once
  (:func:`open_resources`) and reuses them for every question it gets. It keeps no Prefect
  cache: the flow journals each record as it comes back, and an interrupted run resumes
  from that journal (:func:`littrace.answer.answer_journaled`).
* :func:`commit_answers_task` writes the answers artifact from the records; its cache key is
  the artifact's hash, so a rerun with nothing changed completes from cache without mapping a
  single question.

Tasks that call an LLM carry the tag ``llm`` (:func:`answer_task_for`), whose concurrency
limit (``littrace serve`` sets it to ``llm.concurrency``) holds across all workers.

Example:
    >>> keys = answer_keys(Path("questions.jsonl"), corpus_hash, indexes, settings)  # doctest: +SKIP
    >>> answer = for_run(answer_task_for(settings), settings)  # doctest: +SKIP
    >>> runner.map(answer, {"question": questions, "keys": unmapped(keys), ...})  # doctest: +SKIP
    >>> commit_answers_task(questions, records, keys, settings, run_id)["artifact"]  # doctest: +SKIP
    '5be1f0...'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import Task, task
from prefect.cache_policies import NO_CACHE

from littrace.answer import (
    AnswerRecord,
    AnswerResources,
    answer_question,
    answers_key,
    commit_answers,
    process_resources,
)
from littrace.artifacts import (
    Artifact,
    ArtifactKey,
    ArtifactStore,
    Catalog,
    LineageRecord,
    load_artifact,
)
from littrace.config import Settings
from littrace.index.stage import IndexArtifacts
from littrace.littraceqa import Question
from tasks.common import LLM_TAG, RETRY_OPTIONS, artifact_cache_key, ensure_produced

__all__ = [
    "AnswerKeys",
    "answer_keys",
    "answer_question_task",
    "answer_task_for",
    "commit_answers_task",
    "open_resources",
]


@dataclass(frozen=True)
class AnswerKeys:
    """What one answer run reads (the corpus and index hashes) and the answers artifact key."""

    corpus: str
    indexes: dict[str, str]
    answers: ArtifactKey


def answer_keys(
    questions: Path, corpus: str, indexes: IndexArtifacts, settings: Settings
) -> AnswerKeys:
    """The keys of an answer run over ``questions`` with the corpus ``corpus`` (a hash) and
    its built ``indexes``."""
    store = ArtifactStore(settings.runtime.artifact_root, catalog=False)
    return AnswerKeys(
        corpus,
        {name: artifact.hash for name, artifact in indexes.artifacts.items()},
        answers_key(store, questions, settings, indexes),
    )


def _load(root: Path, stage: str, digest: str) -> Artifact:
    artifact = load_artifact(root, (stage, digest))
    if artifact is None:
        raise LookupError(f"answer: no {stage} artifact {digest[:16]} under {root}")
    return artifact


def open_resources(keys: AnswerKeys, settings: Settings) -> AnswerResources:
    """This process's open resources for ``keys`` (:func:`littrace.answer.process_resources`:
    opened on first use, then reused)."""
    root = Path(settings.runtime.artifact_root)
    indexes = {name: _load(root, name, digest) for name, digest in keys.indexes.items()}
    return process_resources(settings, _load(root, "corpus", keys.corpus), IndexArtifacts(indexes))


@task(
    name="answer-question",
    task_run_name="answer-{question.query_id}",
    # The flow journals each record as it comes back (littrace.answer.answer_journaled):
    # that journal, not a Prefect cache, is what an interrupted run resumes from.
    cache_policy=NO_CACHE,
    persist_result=False,
    **RETRY_OPTIONS,
)
def answer_question_task(question: Question, keys: AnswerKeys, settings: Settings) -> AnswerRecord:
    """Answer one question: its submission line and trace."""
    return answer_question(question, open_resources(keys, settings), settings)


def answer_task_for(settings: Settings) -> Task[..., AnswerRecord]:
    """:func:`answer_question_task` as ``settings`` run it: tagged ``llm`` when an LLM backend
    is configured, so the tag's concurrency limit bounds the questions calling it at once."""
    tags = {LLM_TAG} if settings.llm.backend != "none" else set()
    return answer_question_task.with_options(tags=tags)


@task(name="commit-answers", cache_key_fn=artifact_cache_key, **RETRY_OPTIONS)
def commit_answers_task(
    questions: list[Question],
    records: list[AnswerRecord],
    settings: Settings,
    run_id: str,
    key: ArtifactKey,
) -> dict[str, Any]:
    """Write (or find) the answers artifact ``key`` from per-question ``records`` and record
    it in the run's lineage; returns its hash and table sizes."""
    started = datetime.now(UTC)
    artifact = ensure_produced(commit_answers(key, questions, records, settings), key)
    root = Path(settings.runtime.artifact_root)
    record = LineageRecord.for_artifact(run_id, artifact, started, datetime.now(UTC))
    Catalog(root).record_lineage(record)
    return {"artifact": artifact.hash, "tables": dict(artifact.manifest.tables)}
