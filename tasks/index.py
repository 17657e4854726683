"""Prefect task of the index stage: one task run per index, keyed by the index's hash.

Every index key follows from the corpus hash and the settings alone (:func:`index_keys`),
so the index flow knows all six keys, and which are already built, before it starts; HNSW
is keyed by the vectors' hash and runs after them.

Example:
    >>> keys = index_keys(corpus_hash, settings)  # doctest: +SKIP
    >>> build_index_task("hnsw", keys["hnsw"], settings, run_id)["artifact"]  # doctest: +SKIP
    'ad684e6329c2d5a2...'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import get_run_logger, task

from littrace.artifacts import ArtifactKey, load_artifact
from littrace.config import Settings
from littrace.index.stage import INDEXES, build_index, index_key, index_source
from tasks.common import RETRY_OPTIONS, artifact_cache_key, ensure_produced

__all__ = ["build_index_task", "index_keys"]


def index_keys(corpus_hash: str, settings: Settings) -> dict[str, ArtifactKey]:
    """The key of every index of the corpus ``corpus_hash``, in build order."""
    keys: dict[str, ArtifactKey] = {}
    for name in INDEXES:
        source = index_source(name)
        keys[name] = index_key(
            name, corpus_hash if source == "corpus" else keys[source].hash, settings
        )
    return keys


@task(
    name="build-index",
    task_run_name="index-{name}",
    cache_key_fn=artifact_cache_key,
    **RETRY_OPTIONS,
)
def build_index_task(
    name: str, key: ArtifactKey, settings: Settings, run_id: str
) -> dict[str, Any]:
    """Build (or find) index ``name`` as artifact ``key``: its hash, build seconds (None if it
    was there already) and table row counts."""
    logger = get_run_logger()
    ((source_stage, source_hash),) = key.inputs.items()
    source = load_artifact(Path(settings.runtime.artifact_root), (source_stage, source_hash))
    if source is None:
        raise LookupError(f"index {name}: no {source_stage} artifact {source_hash[:16]}")
    reported: set[int] = set()

    def progress(step: str, done: int, total: int) -> None:
        # Encoding a large pool takes hours on a CPU: log each tenth, not each batch.
        tenth = done * 10 // max(total, 1)
        if tenth not in reported:
            reported.add(tenth)
            logger.info("%s: %d/%d", step, done, total)

    built = build_index(name, source, settings, run_id=run_id, progress=progress)
    artifact = ensure_produced(built.artifact, key)
    return {
        "artifact": artifact.hash,
        "built_s": built.built_seconds,
        "tables": dict(artifact.manifest.tables),
    }
