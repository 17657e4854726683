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
partial directory keyed like the artifact, so an interrupted run resumes where it stopped.
With ``runtime.task_runner: dask`` the questions are answered on a Dask cluster
(:mod:`littrace.cluster`: ``runtime.workers`` local worker processes, or the scheduler at
``runtime.dask_address``), each worker opening the indexes once; the records come back to this
process, which journals them as they finish, and the submission is the one a single process
writes.

Example:
    >>> artifact = answer_questions(Path("questions.jsonl"), settings)  # doctest: +SKIP
    >>> artifact.path / SUBMISSION_FILE  # doctest: +SKIP
    PosixPath('artifacts/answers/3f.../submission.jsonl')
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from littrace.artifacts import (
    SUBMISSION_FILE,
    TRACES_FILE,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
)
from littrace.checkpoint import QuestionJournal, Record
from littrace.cluster import dask_client
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.corpus.model import (
    Block,
    Chunk,
    Citation,
    PaperObject,
    Reference,
    record_from_row,
    table_to_records,
)
from littrace.deadline import Deadline
from littrace.digest import sha256_file
from littrace.index.stage import IndexArtifacts, build_indexes, latest_artifact
from littrace.progress import ProgressCallback
from littrace.read.backends import Localizer, evidence_localizer, paper_reader, synthesizer
from littrace.read.local import read_papers
from littrace.read.model import (
    EvidenceItem,
    PaperContext,
    PaperReader,
    PaperReading,
    Synthesis,
    SynthesisInput,
    Synthesizer,
)
from littrace.read.select import Selection, select_papers
from littrace.read.writer import checked_record, fallback_record, record_errors, write_submission
from littrace.retrieve.retriever import RetrievalResources, RetrievalResult, retrieve
from littrace.retrieve.run import CANDIDATES_SCHEMA, candidate_rows
from littrace.schema import Question, read_jsonl

STAGE = "answers"
PARTIAL_DIR = ".partial"
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


@dataclass
class AnswerResources:
    """Open retrieval resources plus every paper's chunks, objects, references and pages."""

    retrieval: RetrievalResources
    chunks: dict[str, tuple[Chunk, ...]]
    objects: dict[str, tuple[PaperObject, ...]]
    references: dict[str, tuple[Reference, ...]]
    citations: dict[str, tuple[Citation, ...]]
    pages: dict[str, dict[int, str]]
    blocks: dict[str, tuple[Block, ...]]
    reader: PaperReader
    synthesizer: Synthesizer
    localizer: Localizer

    @classmethod
    def open(cls, settings: Settings, corpus: Artifact, indexes: IndexArtifacts) -> AnswerResources:
        """Open the indexes of ``corpus`` and group its tables by paper."""
        retrieval = RetrievalResources.open(indexes, corpus, settings)
        chunks: dict[str, list[Chunk]] = {}
        for chunk in retrieval.chunks.values():
            chunks.setdefault(chunk.paper_id, []).append(chunk)
        pages: dict[str, dict[int, str]] = {}
        for row in corpus.table("pages", ["paper_id", "page", "text"]).to_pylist():
            pages.setdefault(row["paper_id"], {})[int(row["page"])] = row["text"]
        return cls(
            retrieval=retrieval,
            chunks={p: tuple(sorted(cs, key=lambda c: c.chunk_id)) for p, cs in chunks.items()},
            objects=_by_paper(table_to_records(corpus.table("objects"), PaperObject)),
            references=_by_paper(table_to_records(corpus.table("references"), Reference)),
            citations=_by_paper(table_to_records(corpus.table("citations"), Citation)),
            pages=pages,
            blocks=_body_blocks(corpus),
            reader=paper_reader(settings, retrieval.client),
            synthesizer=synthesizer(settings, retrieval.client),
            localizer=evidence_localizer(settings, retrieval.client),
        )

    def context(
        self, paper_id: str, pool_scores: dict[str, float], rank: int
    ) -> PaperContext | None:
        """What a reader may see of one candidate; None for a paper not in the corpus."""
        paper = self.retrieval.papers.get(paper_id)
        if paper is None:
            return None
        chunks = self.chunks.get(paper_id, ())
        return PaperContext(
            paper=paper,
            chunks=chunks,
            objects=self.objects.get(paper_id, ()),
            pool_scores={
                c.chunk_id: pool_scores[c.chunk_id] for c in chunks if c.chunk_id in pool_scores
            },
            rank=rank,
            references=self.references.get(paper_id, ()),
            citations=self.citations.get(paper_id, ()),
            pages=self.pages.get(paper_id, {}),
            blocks=self.blocks.get(paper_id, ()),
        )


_opened: dict[tuple[str, ...], AnswerResources] = {}
_opened_lock = threading.Lock()


def process_resources(
    settings: Settings, corpus: Artifact, indexes: IndexArtifacts
) -> AnswerResources:
    """This process's open resources for ``corpus`` and its ``indexes`` under ``settings``
    (opened on first use, then reused by every question the process answers).

    Opening starts the JVM, loads the encoder and reads the corpus tables: seconds that
    would otherwise be paid per question. Only the latest set is kept, so a long-lived worker
    that moves on to a new corpus frees the old one.
    """
    identity = (
        str(corpus.path),
        *sorted(str(artifact.path) for artifact in indexes.artifacts.values()),
        settings.digest(),
    )
    with _opened_lock:
        if identity not in _opened:
            _opened.clear()
            _opened[identity] = AnswerResources.open(settings, corpus, indexes)
        return _opened[identity]


def _body_blocks(corpus: Artifact) -> dict[str, tuple[Block, ...]]:
    """Body text blocks by paper (the table's paper_id column is not a Block field)."""
    grouped: dict[str, list[Block]] = {}
    for row in corpus.table("blocks").to_pylist():
        if row["role"] == "body":
            grouped.setdefault(row["paper_id"], []).append(record_from_row(Block, row))
    return {paper: tuple(blocks) for paper, blocks in grouped.items()}


def _by_paper(records: list[Any]) -> dict[str, tuple[Any, ...]]:
    grouped: dict[str, list[Any]] = {}
    for record in records:
        grouped.setdefault(record.paper_id, []).append(record)
    return {paper: tuple(items) for paper, items in grouped.items()}


def _llm_records(value: Any) -> Iterator[dict[str, Any]]:
    """Every CallRecord dump (a dict under an ``llm`` key) anywhere in a trace."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "llm" and isinstance(item, dict) and "prompt_tokens" in item:
                yield item
            else:
                yield from _llm_records(item)
    elif isinstance(value, list):
        for item in value:
            yield from _llm_records(item)


def step_fallbacks(trace: dict[str, Any]) -> list[str]:
    """One entry per step of ``trace`` that fell back to its model-free value (an unusable
    LLM reply, a call the deadline cut, no client...): ``"<step>: <reason> (<where>)"``.

    Steps are the trace's entries with a ``fallback_reason`` (the retriever's and the
    readers' steps); ``<where>`` names the retrieval round and the paper they belong to.

    Example:
        >>> step_fallbacks({"readings": [{"paper_id": "p1", "steps": [
        ...     {"step": "read_paper", "fallback_reason": "invalid output after repair"}]}]})
        ['read_paper: invalid output after repair (paper p1)']
    """
    found: list[str] = []

    def walk(value: Any, key: str, where: tuple[str, ...]) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, key, where)
            return
        if not isinstance(value, dict):
            return
        where += tuple(
            f"{label} {value[name]}"
            for name, label in (("round", "round"), ("paper_id", "paper"), ("paper", "paper"))
            if isinstance(value.get(name), str | int)
        )
        reason = value.get("fallback_reason")
        if reason:
            place = f" ({', '.join(dict.fromkeys(where))})" if where else ""
            found.append(f"{value.get('step') or key}: {reason}{place}")
        for name, item in value.items():
            walk(item, name, where)

    walk(trace, "", ())
    return found


def llm_usage(trace: dict[str, Any]) -> dict[str, Any]:
    """Calls (provider requests), tokens and cost of every LLM step recorded in ``trace``,
    and how many steps fell back (:func:`step_fallbacks`)."""
    records = list(_llm_records(trace))
    return {
        "calls": sum(int(r.get("attempts") or 0) for r in records),
        "tokens": sum(
            int(r.get("prompt_tokens") or 0) + int(r.get("completion_tokens") or 0) for r in records
        ),
        "cost": round(sum(float(r.get("cost_usd") or 0.0) for r in records), 6),
        "fallbacks": len(step_fallbacks(trace)),
    }


def answer_question(
    question: Question, resources: AnswerResources, settings: Settings
) -> dict[str, Any]:
    """Answer one question: ``{"query_id", "submission", "trace"}`` (plain JSON), within
    ``runtime.record_timeout_s`` from the start of retrieval (see :func:`answer_retrieved`)."""
    started = time.perf_counter()
    deadline = Deadline(settings.runtime.record_timeout_s)
    with deadline.active():
        result = retrieve(question, resources.retrieval, settings)
    retrieve_s = time.perf_counter() - started
    return answer_retrieved(question, result, resources, settings, retrieve_s, deadline)


def answer_retrieved(
    question: Question,
    result: RetrievalResult,
    resources: AnswerResources,
    settings: Settings,
    retrieve_s: float = 0.0,
    deadline: Deadline | None = None,
) -> dict[str, Any]:
    """The reading half of :func:`answer_question`, on a finished retrieval (``retrieve_s``
    seconds long): read, select, localize, synthesize, check.

    ``deadline`` is the question's (a fresh ``runtime.record_timeout_s`` one when None). It
    bounds every LLM call (:mod:`littrace.deadline`) and is checked after each stage: passed
    before reading, the record is the writer's conservative fallback; passed while reading,
    the papers not yet read are skipped and the question goes on with the readings it has.
    ``trace["deadline"]`` says whether it passed and in which stage; ``trace["fallbacks"]``
    names it when it changed the answer, then the writer's repair of the record if any, then
    every step that fell back (:func:`step_fallbacks`).
    """
    deadline = deadline or Deadline(settings.runtime.record_timeout_s)
    retrieved = time.perf_counter()
    pool_scores = {chunk.chunk_id: chunk.score for chunk in result.pool.ranked_chunks()}
    contexts = [
        context
        for rank, paper_id in enumerate(result.candidates[: settings.read.local.max_candidates], 1)
        if (context := resources.context(paper_id, pool_scores, rank)) is not None
    ]
    with deadline.active():
        if deadline.reached("retrieve"):
            stages = _unanswered(question)
        else:
            stages = _answer_stages(question, result, contexts, resources, settings, deadline)
    synthesis = stages.synthesis
    record = {
        "query_id": question.query_id,
        "gold_papers": [{"paper_id": paper} for paper in stages.papers],
        "evidence": [item.submission() for item in stages.evidence],
        "answer": synthesis.answer,
    }
    submission, fallback = checked_record(record, question)
    finished = time.perf_counter()
    skipped = len(contexts) - len(stages.readings)
    trace: dict[str, Any] = {
        "query_id": question.query_id,
        "question": question.model_dump(mode="json", exclude_none=True),
        "retrieval": result.trace,
        "readings": [asdict(reading) for reading in stages.readings],
        "selection": {
            "papers": stages.selection.papers,
            "reasons": stages.selection.reasons,
            "emitted": stages.papers,
        },
        "evidence": [
            item.row(question.query_id) | {"reasons": item.reasons} for item in stages.evidence
        ],
        "localizer": stages.localizer_steps,
        "synthesis": {
            "answer": synthesis.answer,
            "papers": synthesis.papers,
            "chunk_ids": synthesis.chunk_ids,
            "facts": [asdict(fact) for fact in synthesis.facts],
            "backend": synthesis.backend,
            "steps": synthesis.steps,
        },
        "timings": {
            "retrieve_s": round(retrieve_s, 4),
            "read_s": round(finished - retrieved, 4),
            "total_s": round(retrieve_s + finished - retrieved, 4),
        },
        "deadline": {
            "seconds": deadline.seconds,
            "expired": deadline.stage is not None,
            "stage": deadline.stage,
            "skipped_papers": skipped,
            "llm_calls_cut": deadline.llm_calls_cut,
        },
        "fallbacks": [
            reason
            for reason in (_deadline_fallback(deadline, skipped, len(contexts)), fallback)
            if reason
        ],
    }
    trace["fallbacks"] += step_fallbacks(trace)
    trace["llm"] = llm_usage(trace)
    return {"query_id": question.query_id, "submission": submission, "trace": trace}


@dataclass
class _Stages:
    """What the stages after retrieval made of one question."""

    readings: list[PaperReading]
    selection: Selection
    evidence: list[EvidenceItem]
    localizer_steps: list[dict[str, Any]]
    papers: list[str]  # the papers the record emits
    synthesis: Synthesis


def _answer_stages(
    question: Question,
    result: RetrievalResult,
    contexts: list[PaperContext],
    resources: AnswerResources,
    settings: Settings,
    deadline: Deadline,
) -> _Stages:
    """Read, select, localize and synthesize, noting the stage in which ``deadline`` passes."""
    readings = read_papers(
        resources.reader,
        question,
        result.plan,
        contexts,
        settings.read.local.concurrency,
        deadline,
    )
    deadline.reached("read")
    by_id = {context.paper_id: context for context in contexts}
    selection = select_papers(result.plan, readings, settings.read.select, question, by_id)
    deadline.reached("select")
    evidence, localizer_steps = resources.localizer(question, result.plan, selection.papers, by_id)
    deadline.reached("localize")
    with_evidence = {item.paper_id for item in evidence}
    papers = [p for p in selection.papers if p in with_evidence] or selection.papers
    reading_of = {reading.paper_id: reading for reading in readings}
    synthesis = resources.synthesizer(
        SynthesisInput(
            question,
            result.plan,
            papers,
            by_id,
            reading_of,
            evidence,
            resources.retrieval.hybrid.encoder,
        )
    )
    deadline.reached("synthesize")
    return _Stages(readings, selection, evidence, localizer_steps, papers, synthesis)


def _unanswered(question: Question) -> _Stages:
    """No stage run (the deadline passed before reading): the writer's conservative record."""
    answer = fallback_record(question)["answer"]
    return _Stages([], Selection([]), [], [], [], Synthesis(answer, [], backend="deadline"))


def _deadline_fallback(deadline: Deadline, skipped: int, candidates: int) -> str | None:
    """The trace's fallback entry for the deadline, when passing it changed the answer."""
    if deadline.stage is None:
        return None
    if deadline.stage == "retrieve":
        changes = ["conservative record"]
    else:
        changes = [f"{skipped} of {candidates} papers not read"] if skipped else []
        if deadline.llm_calls_cut:
            changes.append(f"{deadline.llm_calls_cut} LLM calls cut")
    if not changes:
        return None
    return f"deadline: {deadline.seconds:g} s passed in {deadline.stage}: {', '.join(changes)}"


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
        records = journal.run_pending([q.query_id for q in questions], answer, on_done=advance)
    with store.writer(key) as writer:
        _write_answers(writer.path, records, questions)
        _write_tables(writer, records)
    shutil.rmtree(partial, ignore_errors=True)
    return writer.artifact


def answer_on_worker(
    question: Question, corpus: Artifact, indexes: IndexArtifacts, settings: Settings
) -> Record:
    """:func:`answer_question` with the resources of the process it runs in (a worker's)."""
    return answer_question(question, process_resources(settings, corpus, indexes), settings)


@contextmanager
def _answerer(
    questions: list[Question], corpus: Artifact, indexes: IndexArtifacts, settings: Settings
) -> Iterator[Callable[[list[str]], Iterable[Record]]]:
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

        def on_cluster(pending: list[str]) -> Iterator[Record]:
            futures = [
                client.submit(
                    answer_on_worker, by_id[query_id], corpus, indexes, settings, pure=False
                )
                for query_id in pending
            ]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                record: Record = future.result()
                yield record

        yield on_cluster


def _write_answers(
    directory: Path, records: list[dict[str, Any]], questions: list[Question]
) -> None:
    submissions = []
    for record, question in zip(records, questions, strict=True):
        submission, fallback = checked_record(record["submission"], question)
        if fallback:
            record["trace"]["fallbacks"].append(fallback)
        assert not record_errors(submission, question)
        submissions.append(submission)
    write_submission(directory / SUBMISSION_FILE, submissions)
    write_submission(directory / TRACES_FILE, (record["trace"] for record in records))


def _write_tables(writer: ArtifactWriter, records: list[dict[str, Any]]) -> None:
    candidates: list[dict[str, Any]] = []
    evidence: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for record in records:
        trace, submission = record["trace"], record["submission"]
        query_id = record["query_id"]
        emitted = {paper["paper_id"] for paper in submission["gold_papers"]}
        candidates.extend(candidate_rows(query_id, trace["retrieval"], emitted))
        evidence.extend(
            {name: row[name] for name in EVIDENCE_SCHEMA.names}
            for row in trace["evidence"]
            if row["paper_id"] in emitted
        )
        predictions.append(
            {
                "query_id": query_id,
                "answer_types": trace["question"]["answer_types"],
                "answer_json": json.dumps(submission["answer"], ensure_ascii=False, sort_keys=True),
                "papers": [paper["paper_id"] for paper in submission["gold_papers"]],
                "fallback": "; ".join(trace["fallbacks"]) or None,
                "latency_s": trace["timings"]["total_s"],
                "llm_calls": trace["llm"]["calls"],
                "llm_cost": trace["llm"]["cost"],
                "llm_fallbacks": trace["llm"]["fallbacks"],
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


def commit_answers(
    key: ArtifactKey, questions: list[Question], records: list[dict[str, Any]], settings: Settings
) -> Artifact:
    """The answers artifact ``key`` (see :func:`answers_key`), written from ``records`` (one
    :func:`answer_question` record per question, in question order) unless it exists already.

    For orchestrators that answer questions elsewhere, e.g. one Prefect task per question.

    Example:
        >>> commit_answers(key, questions, records, settings).tables  # doctest: +SKIP
        ('candidates', 'evidence', 'predictions')
    """
    store = ArtifactStore(settings.runtime.artifact_root)
    existing = store.get(key)
    if existing is not None:
        return existing
    with store.writer(key) as writer:
        _write_answers(writer.path, records, questions)
        _write_tables(writer, records)
    return writer.artifact
