"""``littrace retrieve``: every question of a file through the retriever, into a
``candidates`` artifact.

The run opens the latest corpus artifact and the index artifacts built from it with the
current settings, retrieves each question (resumable: finished questions are journalled
under ``<root>/candidates/.partial/<key>/`` and skipped by a rerun), and commits an artifact
of stage ``candidates`` whose key covers the question file's content, the
``retrieve``/``relate``/``llm`` settings and the index artifacts. It holds:

* ``traces.jsonl``: one JSON object per question, ``{"query_id", "question", "retrieval"}``,
  ``retrieval`` being the retriever's trace (:func:`littrace.retrieve.retriever.retrieve`);
* the table ``candidates``: ``query_id, rank, paper_id, rank_a, rank_b, selected`` (ranks
  1-based; ``rank_a``/``rank_b`` the paper's rank in Ranking A/B, null when absent;
  ``selected`` is false here, the reader sets it).

The answer pipeline's ``answers`` artifact has the same ``traces.jsonl`` keys and the same
``candidates`` table, so :func:`find_trace` reads either.

Example:
    >>> run = retrieve_questions(Path("questions.jsonl"), load_settings())  # doctest: +SKIP
    >>> run.candidates()["q_001"][:3]  # doctest: +SKIP
    ['acl2025_00005', 'emnlp2024_00120', 'acl2025_00321']
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from littrace.artifacts import (
    TRACES_FILE,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    Catalog,
    LineageRecord,
    Manifest,
)
from littrace.checkpoint import QuestionJournal, Record
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.digest import sha256_file
from littrace.index.stage import (
    INDEXES,
    IndexArtifacts,
    MissingCorpusError,
    index_key,
    index_source,
    latest_artifact,
)
from littrace.littraceqa import Question, read_jsonl

if TYPE_CHECKING:
    from littrace.retrieve.retriever import RetrievalResources

__all__ = [
    "CANDIDATES_SCHEMA",
    "CANDIDATES_STAGE",
    "MissingArtifactError",
    "RetrieveRun",
    "apply_overrides",
    "artifact_at",
    "candidate_rows",
    "find_trace",
    "latest_candidates",
    "open_indexes",
    "open_resources",
    "read_candidates",
    "read_traces",
    "replay_relate",
    "retrieve_questions",
]

CANDIDATES_STAGE = "candidates"
PARTIAL_DIR = ".partial"  # a dot name: ArtifactStore.artifacts() skips it
CANDIDATES_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("rank", pa.int64()),
        ("paper_id", pa.string()),
        ("rank_a", pa.int64()),
        ("rank_b", pa.int64()),
        ("selected", pa.bool_()),
    ]
)
# Stages whose artifacts hold retrieval traces, the most complete first (littrace trace).
TRACE_STAGES = ("answers", CANDIDATES_STAGE)

Progress = Callable[[str, int, int], None]


class MissingArtifactError(LookupError):
    """An artifact the command needs is not there (with the command that makes it)."""


def apply_overrides(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """``settings`` with dotted keys replaced (``{"relate.enabled": False}``), validated again."""
    tree = settings.model_dump()
    for dotted, value in overrides.items():
        node = tree
        *parents, leaf = dotted.split(".")
        for part in parents:
            node = node[part]
        if leaf not in node:
            raise KeyError(f"unknown settings key {dotted!r}")
        node[leaf] = value
    return Settings.model_validate(tree)


def open_indexes(corpus: Artifact, settings: Settings) -> IndexArtifacts:
    """The index artifacts built from ``corpus`` with ``settings`` (none is built here)."""
    store = ArtifactStore(settings.runtime.artifact_root, catalog=False)
    found = IndexArtifacts({})
    for name in INDEXES:
        source = index_source(name)
        source_hash = corpus.hash if source == "corpus" else found.artifacts[source].hash
        artifact = store.get(index_key(name, source_hash, settings))
        if artifact is None:
            raise MissingArtifactError(
                f"no {name} index for corpus {corpus.hash[:16]} with these settings under "
                f"{store.root}: run `littrace index` first"
            )
        found.artifacts[name] = artifact
    return found


def latest(root: Path, stage: str, make: str) -> Artifact:
    """The latest artifact of ``stage`` under ``root``; ``make`` names the command that makes it."""
    try:
        return latest_artifact(root, stage)
    except MissingCorpusError as error:
        raise MissingArtifactError(
            f"no {stage} artifact under {root}: run `{make}` first"
        ) from error


def latest_candidates(root: Path) -> Artifact:
    """The newest artifact with a ``candidates`` table, ``answers`` or ``candidates``: the one
    most recently created or used by a run (the catalog's ``used``), else newest on disk."""
    store = ArtifactStore(root, catalog=False)
    on_disk = sorted(
        (artifact for stage in TRACE_STAGES for artifact in store.artifacts(stage)),
        key=lambda artifact: artifact.manifest.created,
        reverse=True,
    )
    if not on_disk:
        raise MissingArtifactError(
            f"no answers or candidates artifact under {root}: run `littrace answer` or "
            "`littrace retrieve` first"
        )
    used = Catalog(root).query(
        'SELECT hash FROM artifacts WHERE "table" = $1 AND list_contains($2, stage) '
        "ORDER BY used DESC, created DESC",
        ["candidates", list(TRACE_STAGES)],
    )
    by_hash = {artifact.hash: artifact for artifact in on_disk}
    listed = [by_hash[h] for h in used.column("hash").to_pylist() if h in by_hash]
    return (listed or on_disk)[0]


def artifact_at(path: Path) -> Artifact:
    """The committed artifact in folder ``path``."""
    manifest = Manifest.load(path)
    if manifest is None:
        raise MissingArtifactError(f"{path}: not an artifact folder (no valid _manifest.json)")
    return Artifact(path, manifest)


def candidates_key(questions: Path, settings: Settings, indexes: IndexArtifacts) -> ArtifactKey:
    """The ``candidates`` key: question file content + retrieve/relate/llm settings + indexes."""
    store = ArtifactStore(settings.runtime.artifact_root, catalog=False)
    return store.key(
        CANDIDATES_STAGE,
        code_version=code_version("candidates", settings.runtime.code_versions.candidates),
        inputs={
            "questions": sha256_file(questions),
            **{name: artifact.hash for name, artifact in indexes.artifacts.items()},
        },
        config=settings.digest("retrieve", "relate", "llm"),
    )


def candidate_rows(
    query_id: str, trace: Mapping[str, Any], selected: Collection[str] = ()
) -> list[dict[str, Any]]:
    """The ``candidates`` table rows of one question, from its retrieval trace; ``selected``
    are the papers the answer emitted (none for a retrieval-only run)."""
    ranks = {paper["paper_id"]: paper for paper in trace["fused"]}
    return [
        {
            "query_id": query_id,
            "rank": rank,
            "paper_id": paper_id,
            "rank_a": ranks.get(paper_id, {}).get("rank_a"),
            "rank_b": ranks.get(paper_id, {}).get("rank_b"),
            "selected": paper_id in selected,
        }
        for rank, paper_id in enumerate(trace["candidates"], start=1)
    ]


@dataclass
class RetrieveRun:
    """One ``littrace retrieve`` run: the artifact, its records, and how many were computed."""

    artifact: Artifact
    records: list[Record]
    retrieved: int

    def candidates(self) -> dict[str, list[str]]:
        """Per question, the candidate paper ids best first."""
        return {r["query_id"]: list(r["retrieval"]["candidates"]) for r in self.records}

    def summary(self) -> dict[str, Any]:
        seconds = [float(r["retrieval"]["seconds"]) for r in self.records]
        fallbacks = sum(len(r["retrieval"].get("fallbacks", [])) for r in self.records)
        return {
            "artifact": str(self.artifact.path),
            "questions": len(self.records),
            "retrieved_now": self.retrieved,
            "reused": len(self.records) - self.retrieved,
            "candidates": self.artifact.manifest.tables.get("candidates", 0),
            "mean_seconds": round(sum(seconds) / len(seconds), 3) if seconds else 0.0,
            "fallbacks": fallbacks,
        }


def read_questions(path: Path) -> list[Question]:
    """The questions of ``path``; a repeated ``query_id`` is an error naming it."""
    questions = read_jsonl(path, Question)
    seen: set[str] = set()
    for question in questions:
        if question.query_id in seen:
            raise ValueError(f"{path}: query_id {question.query_id!r} appears more than once")
        seen.add(question.query_id)
    return questions


def retrieve_questions(
    questions_path: Path, settings: Settings, *, progress: Progress | None = None
) -> RetrieveRun:
    """Retrieve every question of ``questions_path`` (resumably) into a candidates artifact.

    ``progress(query_id, done, total)`` is called after each question. An artifact of the
    same key is reused as it is.
    """
    from littrace.retrieve.retriever import RetrievalResources, retrieve

    root = Path(settings.runtime.artifact_root)
    questions = read_questions(questions_path)
    corpus = latest(root, "corpus", "littrace ingest")
    indexes = open_indexes(corpus, settings)
    key = candidates_key(questions_path, settings, indexes)
    store = ArtifactStore(root)
    existing = store.get(key)
    if existing is not None:
        records = read_traces(existing)
        if progress is not None:
            progress("cached", len(records), len(records))
        return RetrieveRun(existing, records, 0)

    started = datetime.now(UTC)
    partial = root / CANDIDATES_STAGE / PARTIAL_DIR / key.hash
    journal = QuestionJournal(partial / TRACES_FILE)
    by_id = {question.query_id: question for question in questions}
    opened: list[RetrievalResources] = []  # opened on the first question not yet journalled

    def work(query_id: str) -> Record:
        if not opened:
            opened.append(RetrievalResources.open(indexes, corpus, settings))
        question = by_id[query_id]
        result = retrieve(question, opened[0], settings)
        return {"query_id": query_id, "question": question.question, "retrieval": result.trace}

    done = 0

    def advance(query_id: str, reused: bool) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(query_id, done, len(questions))

    before = len(journal.done)
    records = journal.run(list(by_id), work, on_done=advance)
    retrieved = len(journal.done) - before
    with store.writer(key) as writer:
        with (writer.path / TRACES_FILE).open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        writer.write_table(
            "candidates",
            [row for r in records for row in candidate_rows(r["query_id"], r["retrieval"])],
            schema=CANDIDATES_SCHEMA,
        )
    artifact = writer.artifact
    Catalog(root).record_lineage(
        LineageRecord.for_artifact(
            f"retrieve-{uuid.uuid4().hex[:8]}", artifact, started, datetime.now(UTC)
        )
    )
    shutil.rmtree(partial, ignore_errors=True)
    return RetrieveRun(artifact, records, retrieved)


def open_resources(settings: Settings) -> RetrievalResources:
    """The retriever's resources over the latest corpus and its indexes (none built here)."""
    from littrace.retrieve.retriever import RetrievalResources

    corpus = latest(Path(settings.runtime.artifact_root), "corpus", "littrace ingest")
    return RetrievalResources.open(open_indexes(corpus, settings), corpus, settings)


def replay_relate(
    records: Sequence[Record], resources: RetrievalResources, settings: Settings
) -> dict[str, list[str]]:
    """Per question, the candidates ``settings``' Relate and selection make of a run's
    recorded Ranking A, verified papers and plan: the rounds are not run again, so a variant
    that changes only ``relate`` settings costs no retrieval."""
    from littrace.llm.replies import Plan
    from littrace.retrieve.retriever import relate_and_select

    replayed: dict[str, list[str]] = {}
    for record in records:
        trace = record["retrieval"]
        plan = Plan.model_validate(trace["plan"]["value"])
        related = relate_and_select(
            plan, list(trace["ranking_a"]), list(trace["verified"]), resources, settings
        )
        replayed[record["query_id"]] = related.candidates
    return replayed


def read_traces(artifact: Artifact) -> list[Record]:
    """Every record of an artifact's ``traces.jsonl``, in file order."""
    return list(_iter_traces(artifact.path / TRACES_FILE))


def _iter_traces(path: Path) -> Iterator[Record]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                yield json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not JSON ({error.msg})") from error


def read_candidates(artifact: Artifact) -> dict[str, list[str]]:
    """Per question, the candidate papers of an artifact's ``candidates`` table, by rank."""
    table = artifact.table("candidates", ["query_id", "rank", "paper_id"]).sort_by(
        [("query_id", "ascending"), ("rank", "ascending")]
    )
    ranked: dict[str, list[str]] = {}
    for query_id, paper_id in zip(
        table.column("query_id").to_pylist(), table.column("paper_id").to_pylist(), strict=True
    ):
        ranked.setdefault(query_id, []).append(paper_id)
    return ranked


def find_trace(root: Path, query_id: str, artifact_path: Path | None = None) -> Record:
    """The traces.jsonl record of ``query_id``: from ``artifact_path`` if given, else from the
    latest ``answers`` artifact that has it, else the latest ``candidates`` artifact."""
    if artifact_path is not None:
        places = [artifact_at(artifact_path).path / TRACES_FILE]
        if not places[0].is_file():
            raise MissingArtifactError(f"{artifact_path}: no {TRACES_FILE} in this artifact")
    else:
        places = []
        for stage in TRACE_STAGES:
            try:
                places.append(latest_artifact(root, stage).path / TRACES_FILE)
            except MissingCorpusError:
                continue
        if not places:
            raise MissingArtifactError(
                f"no answers or candidates artifact under {root}: run `littrace retrieve` first"
            )
    for path in places:
        for record in _iter_traces(path):
            if record.get("query_id") == query_id:
                return record
    shown = ", ".join(str(path.parent) for path in places)
    raise MissingArtifactError(f"query_id {query_id!r} is not in {shown}")
