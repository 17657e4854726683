"""The ``index`` flow: corpus → BM25 (chunks, papers), vectors + HNSW, paper vectors, citation
graph, one cached task per index on the configured task runner.

Which corpus: the ``corpus`` hash if given (the pipeline passes the one it just ingested);
else, with a pool (``pool`` or ``runtime.pool``), it first re-ingests that pool as a subflow
(this is ``index/rebuild``: unchanged PDFs come from cache, so only what changed is rebuilt);
else the corpus of the latest ingest run, like ``littrace index``.

Example:
    >>> from flows.index import index_flow
    >>> summary = index_flow(profile="test")  # doctest: +SKIP
    >>> summary["indexes"]["hnsw"]["status"]  # doctest: +SKIP
    'cached'

or, served: ``prefect deployment run 'index/rebuild'``.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger
from prefect.futures import PrefectFuture

from flows.common import publish, run_id_for, run_settings, task_runner
from flows.ingest import ingest_flow
from littrace.config import Settings
from littrace.index.stage import INDEXES, index_source, latest_artifact
from tasks.common import note_reuse, stage_task, was_cached
from tasks.index import build_index_task, index_keys

__all__ = ["build_all_indexes", "index_flow"]


def build_all_indexes(settings: Settings, corpus: str, run_id: str) -> dict[str, dict[str, Any]]:
    """Build (or find) every index of ``corpus``: per index its hash, status and table sizes.

    Indexes run in parallel on the task runner, each after the index it is built from.
    """
    started = datetime.now(UTC)
    keys = index_keys(corpus, settings)
    with task_runner(settings) as runner:
        futures: dict[str, PrefectFuture[dict[str, Any]]] = {}
        for name in INDEXES:
            source = futures.get(index_source(name))
            futures[name] = runner.submit(
                stage_task(build_index_task, keys[name], settings),
                {"name": name, "key": keys[name], "settings": settings, "run_id": run_id},
                wait_for=[source] if source else None,
            )
        indexes = {}
        for name, future in futures.items():
            future.wait()
            note_reuse(future.state, keys[name], settings, run_id, started)
            result: dict[str, Any] = future.result()  # raises if the index failed
            ran = "built" if result.pop("built_s") is not None else "found"
            indexes[name] = {**result, "status": "cached" if was_cached(future.state) else ran}
    return indexes


@flow(name="index", description="Corpus → BM25, dense, paper-vector and citation indexes.")
def index_flow(
    corpus: str | None = None,
    pool: Path | None = None,
    pdfs: Path | None = None,
    config: Path | None = None,
    profile: str | None = None,
    overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Index ``corpus`` (a corpus artifact hash), else re-ingest ``pool`` first, else index
    the latest corpus; returns the corpus hash and per index its hash and status."""
    clock = time.perf_counter()
    settings = run_settings(config, profile, overrides)
    run = run_id_for(run_id, settings)
    pool = pool or settings.runtime.pool
    if corpus is None and pool is not None:
        ingested = ingest_flow(
            pool=pool,
            pdfs=pdfs,
            config=config,
            profile=profile,
            overrides=overrides,
            run_id=run,
        )
        corpus = str(ingested["artifact"])
    elif corpus is None:
        corpus = latest_artifact(settings.runtime.artifact_root, "corpus").hash
    indexes = build_all_indexes(settings, corpus, run)
    seconds = round(time.perf_counter() - clock, 2)
    statuses = {name: index["status"] for name, index in indexes.items()}
    get_run_logger().info("indexes of corpus %s: %s", corpus[:16], statuses)
    publish(
        "index",
        "littrace index",
        [
            f"- run `{run}`, corpus `{corpus}`",
            *(
                f"- {name}: `{index['artifact'][:16]}` {index['status']}"
                for name, index in indexes.items()
            ),
            f"- {seconds} s",
        ],
        [
            {
                "index": name,
                "artifact": index["artifact"][:16],
                "status": index["status"],
                "rows": sum(index["tables"].values()),
            }
            for name, index in indexes.items()
        ],
    )
    return {"corpus": corpus, "indexes": indexes, "seconds": seconds}
