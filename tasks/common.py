"""What every littrace Prefect task shares: result storage, retries, and artifact-hash caching.

A stage task's Prefect cache key is the hash of the artifact it produces (``<stage>-<hash>``),
so Prefect's cache and the artifact store name the same thing. The key is computed before
the task runs (an :class:`~littrace.artifacts.ArtifactKey` depends only on input hashes,
settings and code version) and passed in as the task's ``key`` parameter; the task checks
that the library produced exactly that artifact.

Two rules keep the two caches agreeing:

* :func:`for_run` stores task results under ``<artifact_root>/prefect-results``, beside the
  artifacts, so every worker sharing the artifact root shares the cache too;
* :func:`fresh` makes a task ignore its Prefect record when the artifact it names is gone
  (deleted, or a different artifact root), so Prefect never answers from a stale record.

When Prefect answers from its cache the library code does not run, so :func:`note_reuse`
records the reused artifact in this run's lineage, as the library would have.

:func:`run_stage` is that sequence, the one way a flow runs a stage task (the index flow,
which submits its six builds in parallel, uses :func:`stage_task` and :func:`note_reuse`).

Example:
    >>> settings = load_settings("test")  # doctest: +SKIP
    >>> args = (plan, failures, settings, run_id, key)  # doctest: +SKIP
    >>> state = run_stage(assemble_corpus_task, key, settings, run_id, *args)  # doctest: +SKIP
    >>> corpus = state.result()  # doctest: +SKIP
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from prefect import Task
from prefect.client.schemas.objects import State, TaskRun
from prefect.context import TaskRunContext
from prefect.task_engine import TaskRunTimeoutError
from prefect.tasks import exponential_backoff

from littrace.artifacts import (
    Artifact,
    ArtifactKey,
    Catalog,
    LineageRecord,
    load_artifact,
)
from littrace.config import Settings

__all__ = [
    "LLM_TAG",
    "RESULTS_DIR",
    "RETRY_OPTIONS",
    "ArtifactMismatchError",
    "artifact_cache_key",
    "ensure_produced",
    "for_run",
    "fresh",
    "note_reuse",
    "retry_transient",
    "run_stage",
    "stage_task",
    "was_cached",
]

P = ParamSpec("P")
R = TypeVar("R")

RESULTS_DIR = "prefect-results"
# Tag (and so the tag concurrency limit) that every task calling an LLM carries: the answer
# stage's question tasks declare it when an LLM backend is on, and `littrace serve` sets it to
# llm.concurrency, so parallel questions never exceed the provider's rate limits.
LLM_TAG = "llm"


def retry_transient(task: Task[..., Any], task_run: TaskRun, state: State[Any]) -> bool:
    """Retry I/O hiccups (a shared artifact root over NFS, a dropped connection); a task over
    its time limit or a bug in the code fails at once, since a retry would fail the same way."""
    error = state.data
    return isinstance(error, OSError | TimeoutError) and not isinstance(error, TaskRunTimeoutError)


# Options of every artifact-producing task: 2 retries after 2 s and 4 s (± 50 % jitter, so
# workers that failed together do not retry together).
RETRY_OPTIONS: dict[str, Any] = {
    "retries": 2,
    "retry_delay_seconds": exponential_backoff(backoff_factor=2),
    "retry_jitter_factor": 0.5,
    "retry_condition_fn": retry_transient,
}


def artifact_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """Prefect cache key of a stage task: the artifact named by its ``key`` parameter."""
    key: ArtifactKey = parameters["key"]
    return f"{key.stage}-{key.hash}"


def for_run(task: Task[P, R], settings: Settings) -> Task[P, R]:
    """``task`` with its results persisted under this run's artifact root."""
    # A path, which Prefect reads as local file storage: a block would need saving server-side.
    storage = Path(settings.runtime.artifact_root) / RESULTS_DIR
    return task.with_options(result_storage=storage, persist_result=True)


def fresh(task: Task[P, R], key: ArtifactKey, root: Path) -> Task[P, R]:
    """``task``, made to recompute if the artifact store under ``root`` lacks ``key``."""
    if load_artifact(root, key) is not None:
        return task
    return task.with_options(refresh_cache=True)


def stage_task(task: Task[P, R], key: ArtifactKey, settings: Settings) -> Task[P, R]:
    """``task`` as a flow runs it: results under the artifact root, recomputed if the store
    lacks ``key`` (:func:`for_run`, :func:`fresh`)."""
    return fresh(for_run(task, settings), key, Path(settings.runtime.artifact_root))


def run_stage(
    task: Task[P, R],
    key: ArtifactKey,
    settings: Settings,
    run_id: str,
    *args: P.args,
    **kwargs: P.kwargs,
) -> State[R]:
    """Run ``task`` (whose cache key is artifact ``key``) on ``args`` and record its artifact
    in ``run_id``'s lineage even when Prefect served it from the cache; returns the final
    state (its ``result()`` raises if the task failed)."""
    started = datetime.now(UTC)
    state = stage_task(task, key, settings)(*args, return_state=True, **kwargs)
    note_reuse(state, key, settings, run_id, started)
    return state


class ArtifactMismatchError(RuntimeError):
    """A task produced another artifact than its cache key names: the key code is out of date."""


def ensure_produced(artifact: Artifact, key: ArtifactKey) -> Artifact:
    """``artifact``, after checking it is the one ``key`` names (else Prefect's cache lies)."""
    if artifact.hash != key.hash:
        raise ArtifactMismatchError(
            f"expected {key.stage} artifact {key.hash[:16]}, the library built "
            f"{artifact.stage} {artifact.hash[:16]}; the task's key computation is out of date"
        )
    return artifact


def was_cached(state: State[Any]) -> bool:
    """Whether Prefect answered a task run from its cache instead of running it."""
    return state.is_completed() and state.name == "Cached"


def note_reuse(
    state: State[Any], key: ArtifactKey, settings: Settings, run_id: str, started: datetime
) -> None:
    """Record ``key``'s artifact in this run's lineage if Prefect served it from the cache.

    The library records lineage when it runs; a cached task skips it, and the catalog's views
    follow the latest lineage, so without this a rerun would leave them on another artifact.
    """
    if not was_cached(state):
        return
    root = Path(settings.runtime.artifact_root)
    artifact = load_artifact(root, key)
    if artifact is None:  # removed since the cache lookup; the next run rebuilds it
        return
    record = LineageRecord.for_artifact(run_id, artifact, started, datetime.now(UTC))
    Catalog(root).record_lineage(record)
