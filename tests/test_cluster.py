"""The local Dask cluster: ``runtime.workers`` worker processes of one thread each, torch
included, so two workers on two cores do not fight over them."""

from __future__ import annotations

import os

import torch

from littrace.cluster import dask_client
from littrace.config import load_settings


def test_a_local_cluster_runs_single_threaded_worker_processes() -> None:
    settings = load_settings("test", overrides={"runtime.workers": 2}, environ={})
    with dask_client(settings.runtime) as client:
        assert sorted(client.nthreads().values()) == [1, 1]
        pids = set(client.run(os.getpid).values())
        torch_threads = set(client.run(torch.get_num_threads).values())
    assert len(pids) == 2 and os.getpid() not in pids
    assert torch_threads == {1}
