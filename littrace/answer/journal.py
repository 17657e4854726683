"""Answering a question file, resumably: the finished questions are journaled as they come
back, from this process or from the Dask cluster's workers."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from littrace.answer.artifact import (
    PARTIAL_DIR,
    STAGE,
    answers_key,
    read_questions,
    write_answers,
    write_tables,
)
from littrace.answer.pipeline import answer_question
from littrace.answer.records import AnswerRecord
from littrace.answer.resources import process_resources
from littrace.artifacts import Artifact, ArtifactStore
from littrace.checkpoint import QuestionJournal
from littrace.cluster import dask_client
from littrace.config import Settings
from littrace.index.stage import IndexArtifacts, build_indexes, latest_artifact
from littrace.littraceqa import Question
from littrace.progress import ProgressCallback


def answer_questions(
    questions_path: Path,
    settings: Settings,
    *,
    corpus: Artifact | None = None,
    indexes: IndexArtifacts | None = None,
    progress: ProgressCallback | None = None,
) -> Artifact:
    """Answer every question of ``questions_path`` into an ``answers`` artifact (resumable)."""
    questions = read_questions(questions_path)
    root = Path(settings.runtime.artifact_root)
    corpus = corpus or latest_artifact(root, "corpus")
    indexes = indexes or build_indexes(corpus, settings)
    store = ArtifactStore(root)
    key = answers_key(store, questions_path, settings, indexes)
    existing = store.get(key)
    if existing is not None:
        return existing
    partial = store.root / STAGE / PARTIAL_DIR / key.hash
    journal = QuestionJournal(partial / "records.jsonl")
    done = 0

    def advance(query_id: str, reused: bool) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(query_id, done, len(questions))

    with _answerer(questions, corpus, indexes, settings) as answer:
        journaled = journal.run_pending(
            [q.query_id for q in questions],
            lambda pending: (record.dump() for record in answer(pending)),
            on_done=advance,
        )
    records = [AnswerRecord.model_validate(record) for record in journaled]
    with store.writer(key) as writer:
        write_answers(writer.path, records, questions)
        write_tables(writer, records)
    shutil.rmtree(partial, ignore_errors=True)
    return writer.artifact


def answer_on_worker(
    question: Question, corpus: Artifact, indexes: IndexArtifacts, settings: Settings
) -> AnswerRecord:
    """:func:`answer_question` with the resources of the process it runs in (a worker's)."""
    return answer_question(question, process_resources(settings, corpus, indexes), settings)


@contextmanager
def _answerer(
    questions: list[Question], corpus: Artifact, indexes: IndexArtifacts, settings: Settings
) -> Iterator[Callable[[list[str]], Iterable[AnswerRecord]]]:
    """What answers the pending questions (by query id), yielding records as they finish:
    this process, one question at a time, or with ``runtime.task_runner: dask`` the Dask
    cluster's workers (:func:`littrace.cluster.dask_client`), each opening the resources once;
    the records come back here, where the journal is written."""
    by_id = {question.query_id: question for question in questions}
    if settings.runtime.task_runner != "dask":
        yield lambda pending: (
            answer_on_worker(by_id[query_id], corpus, indexes, settings) for query_id in pending
        )
        return
    from distributed import as_completed

    with dask_client(settings.runtime) as client:

        def on_cluster(pending: list[str]) -> Iterator[AnswerRecord]:
            futures = [
                client.submit(
                    answer_on_worker, by_id[query_id], corpus, indexes, settings, pure=False
                )
                for query_id in pending
            ]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                record: AnswerRecord = future.result()
                yield record

        yield on_cluster
