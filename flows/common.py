"""What every littrace flow shares: settings and run id from flow parameters, the task runner
from ``runtime.task_runner``, and the Prefect artifacts each run publishes.

Every flow takes ``config`` (an extra YAML file), ``profile`` and ``overrides`` (dotted keys,
e.g. ``{"runtime.artifact_root": "/shared/artifacts"}``), loaded by
:func:`littrace.config.load_settings` at run time, so a deployment picks up edited conf files
on its next run without restarting ``littrace serve``.

Example:
    >>> settings = run_settings(None, "test", {"runtime.workers": 2})
    >>> settings.runtime.artifact_root.is_absolute()
    True
    >>> type(task_runner(settings)).__name__
    'ThreadPoolTaskRunner'
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.runtime import flow_run
from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner

from littrace.cluster import local_cluster_options
from littrace.config import Settings, load_settings

__all__ = ["publish", "run_id_for", "run_settings", "task_runner"]


def run_settings(
    config: Path | None, profile: str | None, overrides: Mapping[str, Any] | None
) -> Settings:
    """The settings of one flow run, with the artifact root made absolute."""
    settings = load_settings(profile, config, overrides)
    # Task runners on other machines, and the processes a deployment runs flows in, may have
    # another working directory: a relative root would point somewhere else there.
    root = Path(settings.runtime.artifact_root).absolute()
    runtime = settings.runtime.model_copy(update={"artifact_root": root})
    return settings.model_copy(update={"runtime": runtime})


def run_id_for(explicit: str | None, settings: Settings) -> str:
    """The run id recorded in lineage: the parameter, ``runtime.run_id``, or the flow run id."""
    return explicit or settings.runtime.run_id or flow_run.get_id() or f"run-{uuid.uuid4().hex}"


def task_runner(settings: Settings) -> TaskRunner[Any]:
    """A fresh task runner as ``runtime.task_runner`` says; enter it to start it."""
    runtime = settings.runtime
    if runtime.task_runner == "process":
        return ProcessPoolTaskRunner(max_workers=runtime.workers)
    if runtime.task_runner == "dask":
        # Imported here: only Dask runs pay for importing dask.distributed.
        from prefect_dask.task_runners import DaskTaskRunner

        if runtime.dask_address:
            return DaskTaskRunner(address=runtime.dask_address)
        return DaskTaskRunner(cluster_kwargs=local_cluster_options(runtime.workers))
    return ThreadPoolTaskRunner(max_workers=runtime.workers)


def publish(
    stage: str, title: str, lines: Sequence[str], rows: Sequence[Mapping[str, Any]]
) -> None:
    """Publish a run's markdown summary (``<stage>-summary``) and a table (``<stage>-counts``)."""
    create_markdown_artifact(
        markdown="\n".join([f"# {title}", "", *lines, ""]),
        key=f"{stage}-summary",
        description=f"littrace {stage} run summary",
    )
    create_table_artifact(
        table=[dict(row) for row in rows],
        key=f"{stage}-counts",
        description=f"littrace {stage} counts",
    )
