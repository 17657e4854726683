"""The Dask cluster littrace runs per-paper and per-question work on (``runtime.task_runner:
dask``): the scheduler at ``runtime.dask_address``, else a local cluster of
``runtime.workers`` single-threaded worker processes.

One thread per process: conversion, retrieval and reading are CPU-bound Python, so a second
thread in a worker would only contend for the GIL, and a process of its own keeps one
crashing PDF from taking others down. Dask's nanny starts each local worker with
``OMP_NUM_THREADS=1`` (``distributed.nanny.pre-spawn-environ``), so torch too runs one
thread per worker, and two workers on two cores do not fight over them.

Example:
    >>> local_cluster_options(2)["processes"]
    True
    >>> with dask_client(settings.runtime) as client:  # doctest: +SKIP
    ...     client.submit(len, "abc").result()
    3
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from littrace.config import RuntimeSettings

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["dask_client", "local_cluster_options"]


def local_cluster_options(workers: int) -> dict[str, Any]:
    """``LocalCluster`` keyword arguments: ``workers`` single-threaded worker processes and no
    dashboard (nothing reads it, and its port could be taken)."""
    return {
        "n_workers": workers,
        "threads_per_worker": 1,
        "processes": True,
        "dashboard_address": None,
    }


@contextmanager
def dask_client(runtime: RuntimeSettings) -> Iterator[Client]:
    """A client of the scheduler at ``runtime.dask_address``, else of a local cluster started
    here (:func:`local_cluster_options`) and shut down on exit."""
    # Imported here: only Dask runs pay for importing dask.distributed.
    from distributed import Client, LocalCluster

    if runtime.dask_address:
        with Client(runtime.dask_address) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    with (
        LocalCluster(**local_cluster_options(runtime.workers)) as cluster,  # type: ignore[no-untyped-call]
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        yield client
