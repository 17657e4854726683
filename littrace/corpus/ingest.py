"""The ingest stage: pool + PDFs → corpus artifact (papers, pages, objects, references,
citations, chunks, failures).

Each PDF is converted in a worker process into a per-paper cache artifact keyed by the PDF's
SHA-256, its paper id and the conversion settings, so adding or changing one PDF reconverts
only that paper, and a killed run keeps every paper a worker finished. A broken PDF becomes a
cached failure record; a damaged one that still converts (MuPDF repaired it, or some pages
could not be read) keeps the pages that were read and adds non-fatal failure records; a
paper that exceeds ``corpus.paper_timeout_s`` becomes a failure that is retried on the next
run. The corpus artifact is then assembled from the cache and chunked; it is keyed by the
pool file, the per-paper artifacts, where each PDF is (the ``papers`` table records it, so
the report finds the PDFs) and the chunk settings.

Example:
    >>> result = ingest(Path("pool.jsonl"), Path("pdfs"), load_settings())  # doctest: +SKIP
    >>> result.summary()["chunks"]  # doctest: +SKIP
    1532
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
from pebble import ProcessPool

from littrace.artifacts import (
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
    Catalog,
    LineageRecord,
)
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.corpus.chunking import chunk_paper
from littrace.corpus.convert import (
    ConversionError,
    convert_pdf,
    document_from_dict,
    document_to_dict,
)
from littrace.corpus.document import (
    Block,
    Chunk,
    Citation,
    Document,
    Failure,
    PageInfo,
    PaperObject,
    PaperRecord,
    Reference,
    Section,
    records_to_table,
)
from littrace.corpus.pool import Pool, load_pool
from littrace.digest import sha256_file
from littrace.littraceqa import PoolPaper
from littrace.progress import ProgressCallback

CACHE_DIR = "cache"
DOCUMENT_FILE = "document.json"
FAILURE_FILE = "failure.json"


@dataclass
class IngestResult:
    """What one ingest run produced and how much of it was already cached."""

    artifact: Artifact
    papers: int
    with_pdf: int
    converted: int
    cached: int
    failures: list[Failure] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Counts for the CLI and the Prefect summary: papers, pages, objects by kind, failures
        (fatal and not), and the papers kept with a non-fatal failure (``papers_damaged``)."""
        objects = self.artifact.table("objects", columns=["kind"]).column("kind").to_pylist()
        return {
            "artifact": self.artifact.hash,
            "papers": self.papers,
            "papers_with_pdf": self.with_pdf,
            "converted_now": self.converted,
            "from_cache": self.cached,
            "pages": self.artifact.manifest.tables.get("pages", 0),
            "objects": dict(sorted(Counter(objects).items())),
            "references": self.artifact.manifest.tables.get("references", 0),
            "citations": self.artifact.manifest.tables.get("citations", 0),
            "chunks": self.artifact.manifest.tables.get("chunks", 0),
            "failures": dict(sorted(Counter(f.error_type for f in self.failures).items())),
            "papers_damaged": len({f.paper_id for f in self.failures if not f.fatal}),
        }


@dataclass(frozen=True)
class ConversionJob:
    """One PDF to convert into its per-paper cache artifact; ``pdf`` is absolute."""

    paper_id: str
    pdf: Path
    key: ArtifactKey

    @property
    def pdf_sha256(self) -> str:
        """The PDF's SHA-256, as the plan hashed it (the key's input)."""
        return self.key.inputs["pdf"]


@dataclass(frozen=True)
class IngestPlan:
    """The pool, every paper's cache key, and which papers still need converting."""

    pool_path: Path
    pool: Pool
    jobs: tuple[ConversionJob, ...]
    todo: tuple[ConversionJob, ...]
    cache_root: Path
    started: datetime


def plan_ingest(
    pool_path: Path, pdf_dir: Path | None, settings: Settings, manifest: Path | None = None
) -> IngestPlan:
    """Load the pool, hash every PDF and find the papers whose conversion is not cached."""
    started = datetime.now(UTC)
    cache = ArtifactStore(Path(settings.runtime.artifact_root) / CACHE_DIR, catalog=False)
    pool = load_pool(pool_path, pdf_dir, manifest)
    # Absolute, as the corpus records it: the report opens it from wherever it runs.
    jobs = tuple(
        ConversionJob(paper_id, pdf.resolve(), _convert_key(cache, paper_id, pdf, settings))
        for paper_id, pdf in pool.pdfs.items()
    )
    todo = tuple(job for job in jobs if cache.get(job.key) is None)
    return IngestPlan(pool_path, pool, jobs, todo, cache.root, started)


def convert_job(job: ConversionJob, cache_root: Path, citation_contexts: bool) -> str:
    """Convert one PDF and commit its cache artifact (a document, or a failure record).

    Runs in whatever process it is called from: an ingest worker, or a Prefect task.
    """

    def build(writer: ArtifactWriter) -> None:
        try:
            document = convert_pdf(
                job.pdf,
                job.paper_id,
                citation_contexts=citation_contexts,
                pdf_sha256=job.pdf_sha256,
            )
        except ConversionError as error:
            payload = {"error_type": error.error_type, "message": str(error)}
            (writer.path / FAILURE_FILE).write_text(json.dumps(payload), encoding="utf-8")
            return
        text = json.dumps(document_to_dict(document), ensure_ascii=False)
        (writer.path / DOCUMENT_FILE).write_text(text, encoding="utf-8")

    return ArtifactStore(cache_root, catalog=False).get_or_build(job.key, build).hash


def timeout_failure(paper_id: str, settings: Settings) -> Failure:
    limit = settings.corpus.paper_timeout_s
    message = f"conversion took longer than {limit:g} s (retried next run)"
    return Failure(paper_id, "convert", "Timeout", message)


def _convert_key(cache: ArtifactStore, paper_id: str, pdf: Path, settings: Settings) -> ArtifactKey:
    return cache.key(
        "convert",
        code_version=code_version("convert", settings.runtime.code_versions.convert),
        inputs={"pdf": sha256_file(pdf)},
        config={"paper_id": paper_id, "citation_contexts": settings.corpus.citation_contexts},
    )


Converter = Callable[[ConversionJob, Path, bool], str]


def run_conversions(
    plan: IngestPlan,
    settings: Settings,
    progress: ProgressCallback | None = None,
    convert: Converter = convert_job,
) -> list[Failure]:
    """Run ``convert`` on ``plan.todo`` in worker processes, each under the per-paper time
    limit; returns the time-outs and worker crashes (a converter records the PDFs it cannot
    convert in the cache itself)."""
    failures: list[Failure] = []
    if not plan.todo:
        return failures
    # spawn, not fork: the parent may already hold JVM, torch or DuckDB threads.
    context = multiprocessing.get_context("spawn")
    workers = min(settings.corpus.workers, len(plan.todo))
    with ProcessPool(max_workers=workers, context=context) as pool:
        futures = [
            (
                job.paper_id,
                pool.schedule(
                    convert,
                    args=(job, plan.cache_root, settings.corpus.citation_contexts),
                    timeout=settings.corpus.paper_timeout_s,
                ),
            )
            for job in plan.todo
        ]
        for done, (paper_id, future) in enumerate(futures, start=1):
            try:
                future.result()
            except FutureTimeout:
                failures.append(timeout_failure(paper_id, settings))
            except Exception as error:  # a worker killed by a crash in native code
                kind = f"WorkerCrash:{type(error).__name__}"
                failures.append(Failure(paper_id, "convert", kind, str(error)))
            if progress is not None:
                progress(paper_id, done, len(plan.todo))
    return failures


def _load_cached(artifact: Artifact, paper_id: str) -> Document | Failure:
    failure_file = artifact.path / FAILURE_FILE
    if failure_file.is_file():
        payload = json.loads(failure_file.read_text(encoding="utf-8"))
        return Failure(paper_id, "convert", payload["error_type"], payload["message"])
    return document_from_dict(
        json.loads((artifact.path / DOCUMENT_FILE).read_text(encoding="utf-8"))
    )


def paper_record(
    paper: PoolPaper, document: Document | None, pdf: Path | None = None
) -> PaperRecord:
    """Pool metadata, with the PDF's title, authors and abstract filling empty fields, and
    ``pdf``, the file ``document`` was converted from (no path without a document)."""
    authors = paper.authors if isinstance(paper.authors, list) else [paper.authors]
    layout = document.layout if document else None
    return PaperRecord(
        paper_id=paper.paper_id,
        title=paper.title.strip() or (layout.title if layout else ""),
        authors=tuple(a for a in authors if a) or (layout.authors if layout else ()),
        abstract=paper.abstract.strip() or (layout.abstract if layout else ""),
        venue=paper.venue,
        year=paper.year,
        has_pdf=document is not None,
        pdf_sha256=document.pdf_sha256 if document else "",
        pages=len(layout.pages) if layout else 0,
        pdf_path=str(pdf) if document is not None and pdf is not None else None,
    )


def _pool_failures(pool: Pool) -> list[Failure]:
    return [Failure("", "pool", "PoolProblem", problem) for problem in pool.problems]


def _write_corpus(
    writer: ArtifactWriter,
    plan: IngestPlan,
    documents: dict[str, Document],
    failures: list[Failure],
    settings: Settings,
) -> None:
    pdfs = {job.paper_id: job.pdf for job in plan.jobs}
    records = [
        paper_record(paper, documents.get(paper.paper_id), pdfs.get(paper.paper_id))
        for paper in plan.pool.papers
    ]
    chunks: list[Chunk] = []
    for record in records:
        chunks.extend(chunk_paper(record, documents.get(record.paper_id), settings.corpus.chunk))
    docs = list(documents.values())
    writer.write_table("papers", records_to_table(records, PaperRecord))
    writer.write_table("pages", _per_paper(docs, lambda d: d.layout.pages, PageInfo))
    writer.write_table("sections", _per_paper(docs, lambda d: d.layout.sections, Section))
    writer.write_table("blocks", _per_paper(docs, lambda d: d.layout.blocks, Block))
    writer.write_table(
        "objects", records_to_table((o for d in docs for o in d.objects), PaperObject)
    )
    writer.write_table(
        "references", records_to_table((r for d in docs for r in d.references), Reference)
    )
    writer.write_table(
        "citations", records_to_table((c for d in docs for c in d.citations), Citation)
    )
    writer.write_table("chunks", records_to_table(chunks, Chunk))
    writer.write_table("failures", records_to_table(failures, Failure))


def _per_paper(
    documents: list[Document], items: Callable[[Document], Iterable[Any]], record_type: type[Any]
) -> pa.Table:
    tables = [records_to_table(items(doc), record_type, paper_id=doc.paper_id) for doc in documents]
    if not tables:
        return records_to_table([], record_type, paper_id="")
    return pa.concat_tables(tables)


def corpus_artifact_key(
    plan: IngestPlan, failures: Sequence[Failure], settings: Settings
) -> ArtifactKey:
    """The key of the corpus artifact :func:`assemble_corpus` builds: the pool file, every
    paper's cache key, PDF path and whether it failed in this run, and the chunk settings.

    The path is in the key because the ``papers`` table records it: the same PDFs in another
    folder make another corpus (from the same per-paper cache)."""
    failed_now = {failure.paper_id for failure in failures}
    papers_digest = hashlib.sha256(
        json.dumps(
            sorted(
                (j.paper_id, j.key.hash, str(j.pdf), j.paper_id in failed_now) for j in plan.jobs
            )
        ).encode()
    ).hexdigest()
    return ArtifactStore(settings.runtime.artifact_root, catalog=False).key(
        "corpus",
        code_version=code_version("corpus", settings.runtime.code_versions.corpus),
        inputs={"pool": sha256_file(plan.pool_path), "papers": papers_digest},
        config=settings.digest("corpus.chunk"),
    )


def assemble_corpus(
    plan: IngestPlan,
    settings: Settings,
    failures: list[Failure],
    *,
    run_id: str | None = None,
) -> IngestResult:
    """Assemble (or find) the corpus artifact from the cache; ``failures`` are this run's
    time-outs and crashes, whose papers are metadata-only until a later run converts them."""
    root = Path(settings.runtime.artifact_root)
    cache = ArtifactStore(plan.cache_root, catalog=False)
    corpus_key = corpus_artifact_key(plan, failures, settings)
    failures = _pool_failures(plan.pool) + failures
    documents: dict[str, Document] = {}
    for job in plan.jobs:
        artifact = cache.get(job.key)
        if artifact is None:
            continue  # timed out or crashed: already a failure
        loaded = _load_cached(artifact, job.paper_id)
        if isinstance(loaded, Failure):
            failures.append(loaded)
        else:
            documents[job.paper_id] = loaded
            failures.extend(loaded.damage)

    store = ArtifactStore(root)
    artifact = store.get_or_build(
        corpus_key, lambda writer: _write_corpus(writer, plan, documents, failures, settings)
    )
    Catalog(root).record_lineage(
        LineageRecord.for_artifact(
            run_id or f"ingest-{uuid.uuid4().hex[:8]}",
            artifact,
            plan.started,
            datetime.now(UTC),
            failures=len(failures),
        )
    )
    return IngestResult(
        artifact=artifact,
        papers=len(plan.pool.papers),
        with_pdf=len(plan.pool.pdfs),
        converted=len(plan.todo),
        cached=len(plan.jobs) - len(plan.todo),
        failures=failures,
    )


def ingest(
    pool_path: Path,
    pdf_dir: Path | None,
    settings: Settings,
    *,
    manifest: Path | None = None,
    run_id: str | None = None,
    progress: ProgressCallback | None = None,
) -> IngestResult:
    """Convert what is missing from the cache in worker processes, then assemble the corpus."""
    plan = plan_ingest(pool_path, pdf_dir, settings, manifest)
    failures = run_conversions(plan, settings, progress)
    return assemble_corpus(plan, settings, failures, run_id=run_id)
