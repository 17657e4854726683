"""Prefect tasks of the ingest stage: plan, convert one paper, assemble the corpus.

Thin wrappers over :mod:`littrace.corpus.ingest`. Only the papers the plan finds missing
from the per-paper cache are converted (mapped, one task run per paper), so a rerun of a
large pool creates no task run per unchanged paper. A conversion's cache key is its job's
``key.hash``; the corpus task's key is the corpus artifact's hash (:func:`littrace.corpus.ingest.corpus_artifact_key`).

Example:
    >>> plan = plan_corpus(Path("pool.jsonl"), Path("pdfs"), None, settings)  # doctest: +SKIP
    >>> futures = runner.map(convert_paper, {"job": list(plan.todo), ...})  # doctest: +SKIP
    >>> key = corpus_artifact_key(plan, failures, settings)  # doctest: +SKIP
    >>> assemble_corpus_task(plan, failures, settings, run_id, key)["chunks"]  # doctest: +SKIP
    236
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.objects import State
from prefect.context import TaskRunContext

from littrace.artifacts import ArtifactKey
from littrace.config import Settings
from littrace.corpus.document import Failure
from littrace.corpus.ingest import (
    ConversionJob,
    IngestPlan,
    assemble_corpus,
    convert_job,
    plan_ingest,
    timeout_failure,
)
from tasks.common import RETRY_OPTIONS, artifact_cache_key, ensure_produced

__all__ = [
    "RUN_COUNTS",
    "assemble_corpus_task",
    "conversion_cache_key",
    "conversion_failure",
    "convert_paper",
    "plan_corpus",
]

# Summary counts that describe one run rather than the corpus; a cached summary omits them.
RUN_COUNTS = ("converted_now", "from_cache")


@task(name="plan-ingest", cache_policy=NO_CACHE, persist_result=False)
def plan_corpus(
    pool: Path, pdfs: Path | None, manifest: Path | None, settings: Settings
) -> IngestPlan:
    """Load the pool and hash every PDF; never cached, since finding changed PDFs is its job."""
    return plan_ingest(pool, pdfs, settings, manifest)


def conversion_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    job: ConversionJob = parameters["job"]
    return f"{job.key.stage}-{job.key.hash}"


@task(
    name="convert-paper",
    task_run_name="convert-{job.paper_id}",
    cache_key_fn=conversion_cache_key,
    # Only papers the plan found missing from the artifact cache are submitted, so a Prefect
    # record for one is stale (its artifact was removed): always recompute, then record.
    refresh_cache=True,
    **RETRY_OPTIONS,
)
def convert_paper(job: ConversionJob, cache_root: Path, citation_contexts: bool) -> str:
    """Convert one PDF into its per-paper cache artifact; returns the artifact hash.

    A PDF that cannot be converted is cached as a failure record by the library, so this
    fails only on a time-out or an unexpected error (which the ingest flow records).
    """
    return convert_job(job, cache_root, citation_contexts)


class _ThreadTimeoutNotice(logging.Filter):
    """Drops Prefect's notice, logged for every conversion in a worker thread, that a thread
    cannot interrupt native calls: docs/cluster.md explains that limit once."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        notice = message.startswith("Timeout of") and "worker thread" in message
        return not (notice and getattr(record, "task_name", None) == convert_paper.name)


logging.getLogger("prefect.task_runs").addFilter(_ThreadTimeoutNotice())


def conversion_failure(paper_id: str, state: State[Any], settings: Settings) -> Failure:
    """The failure record of a conversion task run that did not complete."""
    if state.name == "TimedOut":
        return timeout_failure(paper_id, settings)
    error = state.result(raise_on_failure=False)
    kind = type(error).__name__ if isinstance(error, BaseException) else state.name
    # The library's name for a conversion that died outside the converter.
    return Failure(paper_id, "convert", f"WorkerCrash:{kind}", state.message or str(error))


@task(name="assemble-corpus", cache_key_fn=artifact_cache_key, **RETRY_OPTIONS)
def assemble_corpus_task(
    plan: IngestPlan,
    failures: list[Failure],
    settings: Settings,
    run_id: str,
    key: ArtifactKey,
) -> dict[str, Any]:
    """Assemble (or find) the corpus artifact ``key``; returns its counts (hash included)."""
    result = assemble_corpus(plan, settings, failures, run_id=run_id)
    ensure_produced(result.artifact, key)
    return {name: value for name, value in result.summary().items() if name not in RUN_COUNTS}
