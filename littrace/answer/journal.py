"""Answering a question file, resumably: the finished questions are journaled as they come
back, from this process, the Dask cluster's workers or the answer flow's tasks
(:func:`answer_journaled`, the one resume mechanism of the answer stage)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from littrace.answer.artifact import (
    RECORDS_FILE,
    answers_key,
    commit_answers,
    journal_folder,
    read_questions,
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

# What answers the pending questions, yielding each record as it finishes (in any order).
Answerer = Callable[[list[Question]], Iterable[AnswerRecord]]


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
    done = 0

    def advance(query_id: str, reused: bool) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(query_id, done, len(questions))

    with _answerer(corpus, indexes, settings) as answer:
        records = answer_journaled(journal_folder(root, key.hash), questions, answer, advance)
    return commit_answers(key, questions, records, settings)


def answer_journaled(
    folder: Path,
    questions: list[Question],
    answer: Answerer,
    on_done: Callable[[str, bool], None] | None = None,
) -> list[AnswerRecord]:
    """The records of ``questions`` in question order: those journaled under ``folder`` by
    an earlier, interrupted run, and the rest from ``answer`` (given the pending questions),
    each journaled as it arrives. ``on_done(query_id, reused)`` as in
    :meth:`~littrace.checkpoint.QuestionJournal.run_pending`.

    Example:
        >>> folder = journal_folder(root, key.hash)  # doctest: +SKIP
        >>> answer_journaled(folder, questions, lambda pending: map(one, pending))  # doctest: +SKIP
    """
    journal = QuestionJournal(folder / RECORDS_FILE)
    by_id = {question.query_id: question for question in questions}
    journaled = journal.run_pending(
        list(by_id),
        lambda pending: (record.dump() for record in answer([by_id[q] for q in pending])),
        on_done=on_done,
    )
    return [AnswerRecord.model_validate(record) for record in journaled]


def answer_on_worker(
    question: Question, corpus: Artifact, indexes: IndexArtifacts, settings: Settings
) -> AnswerRecord:
    """:func:`answer_question` with the resources of the process it runs in (a worker's)."""
    return answer_question(question, process_resources(settings, corpus, indexes), settings)


@contextmanager
def _answerer(corpus: Artifact, indexes: IndexArtifacts, settings: Settings) -> Iterator[Answerer]:
    """What answers the pending questions, yielding records as they finish: this process,
    one question at a time, or with ``runtime.task_runner: dask`` the Dask cluster's workers
    (:func:`littrace.cluster.dask_client`), each opening the resources once; the records come
    back here, where the journal is written."""
    if settings.runtime.task_runner != "dask":
        yield lambda pending: (
            answer_on_worker(question, corpus, indexes, settings) for question in pending
        )
        return
    from distributed import as_completed

    with dask_client(settings.runtime) as client:

        def on_cluster(pending: list[Question]) -> Iterator[AnswerRecord]:
            futures = [
                client.submit(answer_on_worker, question, corpus, indexes, settings, pure=False)
                for question in pending
            ]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                record: AnswerRecord = future.result()
                yield record

        yield on_cluster
