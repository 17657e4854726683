"""Answer LitTraceQA questions end to end: retrieve, read, select, localize, synthesize, write.

Per question (:func:`answer_question`): the Lit3R retriever gives 50 candidates; each is read
on its own (Lit3R §2.2.1, in parallel); selection decides which and how many papers the answer
rests on (TRACE §3.1); the localizer points at typed evidence in them (TRACE §3.2); synthesis
answers across them (Lit3R §2.2.2); and the record is checked against the official rules
before it is kept (TRACE §3.4). The result is one JSON record with the submission line and the
full trace. Each question has ``runtime.record_timeout_s`` (:mod:`littrace.deadline`): past it,
no LLM call starts, unread papers are skipped, and the trace says in which stage it passed.

A question file (:func:`answer_questions`) becomes an ``answers`` artifact: ``submission.jsonl``
(one line per input question, in input order), ``traces.jsonl`` and the ``candidates``,
``evidence`` and ``predictions`` tables for the catalog. Finished questions are journaled in a
partial directory keyed like the artifact (:func:`answer_journaled`, which the answer flow
uses too), so an interrupted run resumes where it stopped.
With ``runtime.task_runner: dask`` the questions are answered on a Dask cluster
(:mod:`littrace.cluster`: ``runtime.workers`` local worker processes, or the scheduler at
``runtime.dask_address``), each worker opening the indexes once; the records come back to this
process, which journals them as they finish, and the submission is the one a single process
writes.

The package: :mod:`~littrace.answer.resources` (what a question is answered with),
:mod:`~littrace.answer.pipeline` (one question), :mod:`~littrace.answer.trace` (the trace's
LLM usage and fallbacks), :mod:`~littrace.answer.artifact` (the artifact's key, tables and
writing) and :mod:`~littrace.answer.journal` (a question file, resumably).

Example:
    >>> artifact = answer_questions(Path("questions.jsonl"), settings)  # doctest: +SKIP
    >>> artifact.path / SUBMISSION_FILE  # doctest: +SKIP
    PosixPath('artifacts/answers/3f.../submission.jsonl')
"""

from __future__ import annotations

from littrace.answer.artifact import (
    EVIDENCE_SCHEMA,
    PREDICTIONS_SCHEMA,
    RECORDS_FILE,
    answers_key,
    commit_answers,
    fallback_counts,
    journal_folder,
    read_questions,
)
from littrace.answer.journal import answer_journaled, answer_questions
from littrace.answer.pipeline import answer_question, answer_retrieved
from littrace.answer.records import AnswerRecord, Trace
from littrace.answer.resources import AnswerResources, process_resources
from littrace.artifacts import SUBMISSION_FILE, TRACES_FILE

__all__ = [
    "EVIDENCE_SCHEMA",
    "PREDICTIONS_SCHEMA",
    "RECORDS_FILE",
    "SUBMISSION_FILE",
    "TRACES_FILE",
    "AnswerRecord",
    "AnswerResources",
    "Trace",
    "answer_journaled",
    "answer_question",
    "answer_questions",
    "answer_retrieved",
    "answers_key",
    "commit_answers",
    "fallback_counts",
    "journal_folder",
    "process_resources",
    "read_questions",
]
