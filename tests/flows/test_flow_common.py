"""Settings, run ids and task runners of a flow run."""

from __future__ import annotations

from pathlib import Path

import pytest
from prefect import flow
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner
from prefect_dask.task_runners import DaskTaskRunner

from flows.common import run_id_for, run_settings, task_runner


def test_the_artifact_root_is_made_absolute_for_workers_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = run_settings(None, "test", {"runtime.artifact_root": "artifacts"})
    assert settings.runtime.artifact_root == tmp_path / "artifacts"
    # Only the root changes: every other setting is the profile's.
    assert settings.runtime.workers == 1 and settings.index.hnsw.m == 8


@pytest.mark.parametrize(
    ("overrides", "runner", "workers"),
    [
        ({}, ThreadPoolTaskRunner, 1),
        ({"runtime.workers": 3}, ThreadPoolTaskRunner, 3),
        ({"runtime.task_runner": "process", "runtime.workers": 2}, ProcessPoolTaskRunner, 2),
    ],
)
def test_the_task_runner_comes_from_the_runtime_settings(
    overrides: dict[str, object], runner: type, workers: int
) -> None:
    chosen = task_runner(run_settings(None, "test", overrides))
    assert type(chosen) is runner
    assert chosen._max_workers == workers  # type: ignore[attr-defined]


def test_dask_joins_the_configured_scheduler_or_starts_local_worker_processes() -> None:
    remote = task_runner(
        run_settings(
            None,
            "test",
            {"runtime.task_runner": "dask", "runtime.dask_address": "tcp://10.0.0.5:8786"},
        )
    )
    assert isinstance(remote, DaskTaskRunner) and remote.address == "tcp://10.0.0.5:8786"
    local = task_runner(
        run_settings(None, "test", {"runtime.task_runner": "dask", "runtime.workers": 3})
    )
    assert isinstance(local, DaskTaskRunner) and local.address is None
    assert local.cluster_kwargs["n_workers"] == 3
    assert (local.cluster_kwargs["processes"], local.cluster_kwargs["threads_per_worker"]) == (
        True,
        1,
    )


def test_run_ids_prefer_the_parameter_then_the_config_then_the_flow_run(
    prefect_api: None,
) -> None:
    plain = run_settings(None, "test", None)
    named = run_settings(None, "test", {"runtime.run_id": "nightly"})

    @flow
    def ids() -> tuple[str, str, str, str]:
        from prefect.runtime import flow_run

        return (
            run_id_for("given", named),
            run_id_for(None, named),
            run_id_for(None, plain),
            str(flow_run.get_id()),
        )

    given, from_config, from_flow_run, flow_run_id = ids()
    assert (given, from_config, from_flow_run) == ("given", "nightly", flow_run_id)
