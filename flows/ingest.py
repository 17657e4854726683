"""The ``ingest`` flow: pool + PDFs → corpus artifact (plan → per-paper conversions → assemble).

The plan hashes every PDF and lists the papers missing from the per-paper cache; only those
are converted, one mapped task run each, on the task runner ``runtime.task_runner`` names,
each under ``corpus.paper_timeout_s``. A paper that runs over its limit, or fails after its
retries, becomes a failure record (retried on the next run) and the flow goes on. The corpus
task is cached by the corpus artifact's hash, so an unchanged pool completes from cache.

Example:
    >>> from flows.ingest import ingest_flow
    >>> summary = ingest_flow(pool=Path("pool.jsonl"), pdfs=Path("pdfs"), profile="test")  # doctest: +SKIP
    >>> summary["artifact"], summary["converted_now"], summary["status"]  # doctest: +SKIP
    ('8849d881...', 6, 'built')

or, served (``littrace serve``): ``prefect deployment run 'ingest/default'``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from prefect import Task, flow, get_run_logger, unmapped

from flows.common import publish, run_id_for, run_settings, task_runner
from littrace.config import Settings
from littrace.corpus.document import Failure
from littrace.corpus.ingest import IngestPlan, corpus_artifact_key
from tasks.common import for_run, run_stage, was_cached
from tasks.corpus import (
    assemble_corpus_task,
    conversion_failure,
    convert_paper,
    plan_corpus,
)

__all__ = ["convert_todo", "ingest_corpus", "ingest_flow"]


def convert_todo(plan: IngestPlan, settings: Settings) -> list[Failure]:
    """Convert the plan's missing papers in parallel; returns those that did not finish."""
    if not plan.todo:
        return []
    # Typed loosely: the runners' signatures also admit async tasks.
    convert: Task[..., Any] = for_run(convert_paper, settings).with_options(
        timeout_seconds=settings.corpus.paper_timeout_s
    )
    with task_runner(settings) as runner:
        futures = runner.map(
            convert,
            {
                "job": list(plan.todo),
                "cache_root": unmapped(plan.cache_root),
                "citation_contexts": unmapped(settings.corpus.citation_contexts),
            },
        )
        failures = []
        for job, future in zip(plan.todo, futures, strict=True):
            future.wait()
            if not future.state.is_completed():
                failures.append(conversion_failure(job.paper_id, future.state, settings))
    return failures


def ingest_corpus(
    settings: Settings, pool: Path, pdfs: Path | None, manifest: Path | None, run_id: str
) -> dict[str, Any]:
    """Plan, convert and assemble; the corpus summary plus this run's counts and status."""
    clock = time.perf_counter()
    plan = plan_corpus(pool, pdfs, manifest, settings)
    failures = convert_todo(plan, settings)
    key = corpus_artifact_key(plan, failures, settings)
    state = run_stage(
        assemble_corpus_task, key, settings, run_id, plan, failures, settings, run_id, key
    )
    corpus: dict[str, Any] = state.result()
    return {
        **corpus,
        "converted_now": len(plan.todo) - len(failures),
        "from_cache": len(plan.jobs) - len(plan.todo),
        "failed_now": len(failures),
        "status": "cached" if was_cached(state) else "built",
        "seconds": round(time.perf_counter() - clock, 2),
    }


@flow(name="ingest", description="Pool + PDFs → corpus artifact (converted, chunked papers).")
def ingest_flow(
    pool: Path | None = None,
    pdfs: Path | None = None,
    manifest: Path | None = None,
    config: Path | None = None,
    profile: str | None = None,
    overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Ingest ``pool`` (default: ``runtime.pool``) with PDFs from ``pdfs`` (or ``runtime.pdfs``)
    or listed in ``manifest``; returns the corpus summary, its hash under ``artifact``."""
    settings = run_settings(config, profile, overrides)
    run = run_id_for(run_id, settings)
    pool = pool or settings.runtime.pool
    if pool is None:
        raise ValueError("no pool to ingest: pass pool=... or set runtime.pool")
    pdfs = pdfs or settings.runtime.pdfs
    pdf_dir = Path(pdfs) if pdfs else None
    summary = ingest_corpus(settings, Path(pool), pdf_dir, manifest, run)
    get_run_logger().info(
        "corpus %s: %d papers, %d converted now, %d from cache, %d failed now (%s)",
        summary["artifact"][:16],
        summary["papers"],
        summary["converted_now"],
        summary["from_cache"],
        summary["failed_now"],
        summary["status"],
    )
    failures = summary["failures"]
    publish(
        "ingest",
        "littrace ingest",
        [
            f"- run `{run}`, pool `{pool}`",
            f"- corpus artifact `{summary['artifact']}` ({summary['status']})",
            f"- {summary['papers']} papers, {summary['papers_with_pdf']} with a PDF: "
            f"{summary['converted_now']} converted now, {summary['from_cache']} from cache, "
            f"{summary['failed_now']} failed now",
            f"- failures by type: {failures or 'none'}; {summary['papers_damaged']} papers "
            "kept with a non-fatal failure (their readable pages)",
        ],
        [
            {"count": name, "value": summary[name]}
            for name in (
                "papers",
                "papers_with_pdf",
                "converted_now",
                "from_cache",
                "failed_now",
                "papers_damaged",
                "pages",
                "references",
                "citations",
                "chunks",
            )
        ]
        + [{"count": f"objects.{kind}", "value": n} for kind, n in summary["objects"].items()]
        + [{"count": f"failures.{kind}", "value": n} for kind, n in failures.items()],
    )
    return summary
